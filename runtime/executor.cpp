//===- executor.cpp - compile a program, run its plan ---------------------===//
#include "runtime/executor.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "core/attr_access.h"
#include "runtime/comm/communicator.h"
#include "runtime/executor_plan.h"
#include "runtime/finite.h"

namespace pir::runtime {

using core::Operation;
using core::Result;
using core::Status;
using core::Value;

namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline bool matches(const Declared& d, const Tensor& t) {
  return t.defined() && t.dtype() == d.dtype && shapeMatches(d.dims, t.shape());
}

std::string madeText(const Tensor& t) { return t.defined() ? t.typeText() : std::string("no tensor"); }

/// The first element of `v` that is NaN or infinite, as text naming the
/// tensor ("tensor<4xf32> holds nan at flat index 1"), or nothing.
std::optional<std::string> nonFiniteIn(const RuntimeValue& v) {
  if (!v.isList) {
    if (auto nf = firstNonFinite(v.tensor)) return v.tensor.typeText() + " holds " + nonFiniteText(*nf);
    return std::nullopt;
  }
  for (size_t e = 0; e < v.elements.size(); ++e)
    if (auto nf = firstNonFinite(v.elements[e]))
      return "element " + std::to_string(e) + " " + v.elements[e].typeText() + " holds " + nonFiniteText(*nf);
  return std::nullopt;
}

}  // namespace

namespace {

/// The error at kernel step `s`'s op for a result (`what`) that is not what
/// the op declares.
Status notDeclared(const Step& s, const std::string& what, const std::string& declared, const std::string& made) {
  const char* maker = s.kind == StepKind::Kernel ? ", the kernel made " : ", its region's cf.yield gave ";
  return Status::error(std::string(s.op->name()) + ": " + what + " is declared " + declared + maker + made,
                       s.op->location());
}

/// Whether every result of kernel step `s` is what its op declares: a few
/// compares per result, for every op of every run (checkDeclared says which
/// is not).
bool resultsAsDeclared(const Executor::Plan& p, const Step& s, const RuntimeValue* results) {
  for (uint32_t k = 0; k < s.numResults; ++k) {
    const Declared& d = p.declared[s.resultBegin + k];
    const RuntimeValue& v = results[k];
    if (d.kind == Declared::Kind::Tensor) {
      if (v.isList || !matches(d, v.tensor)) return false;
    } else if (d.kind == Declared::Kind::List) {
      if (!v.isList || v.elements.size() != d.numElems) return false;
      for (uint32_t e = 0; e < d.numElems; ++e) {
        const Declared& de = p.elements[d.elemBegin + e];
        if (de.kind == Declared::Kind::Tensor && !matches(de, v.elements[e])) return false;
      }
    }
  }
  return true;
}

/// The error at the op for the first result of kernel step `s` that is not
/// what the op declares.
Status checkDeclared(const Executor::Plan& p, const Step& s, const RuntimeValue* results) {
  for (uint32_t k = 0; k < s.numResults; ++k) {
    const Declared& d = p.declared[s.resultBegin + k];
    const RuntimeValue& v = results[k];
    if (d.kind == Declared::Kind::Tensor && (v.isList || !matches(d, v.tensor)))
      return notDeclared(s, "result " + std::to_string(k), typeText(d.dtype, d.dims),
                         v.isList ? "a vec" : madeText(v.tensor));
    if (d.kind != Declared::Kind::List) continue;
    if (!v.isList || v.elements.size() != d.numElems)
      return notDeclared(s, "result " + std::to_string(k), "a vec of " + std::to_string(d.numElems),
                         v.isList ? "a vec of " + std::to_string(v.elements.size()) : madeText(v.tensor));
    for (uint32_t e = 0; e < d.numElems; ++e) {
      const Declared& de = p.elements[d.elemBegin + e];
      if (de.kind == Declared::Kind::Tensor && !matches(de, v.elements[e]))
        return notDeclared(s, "result " + std::to_string(k) + " element " + std::to_string(e),
                           typeText(de.dtype, de.dims), madeText(v.elements[e]));
    }
  }
  // Called only when resultsAsDeclared found one: the two disagree.
  return Status::internal(std::string(s.op->name()) + ": a result is not as declared, but none is found",
                          s.op->location());
}

/// With --check-finite: an error at the op for the first result of kernel
/// step `s` holding NaN or an infinity. Its operands were checked before
/// (as feeds or results), so they are finite.
Status checkFiniteResults(const Executor::Plan& p, const Step& s, const RuntimeValue* results) {
  for (uint32_t k = 0; k < s.numResults; ++k) {
    if (p.declared[s.resultBegin + k].kind == Declared::Kind::Null) continue;
    if (auto bad = nonFiniteIn(results[k]))
      return Status::error(std::string(s.op->name()) + ": result " + std::to_string(k) + " " + *bad +
                               ", made from finite operands (--check-finite)",
                           s.op->location());
  }
  return Status::ok();
}

/// The value of a condition: a 0-D or one-element bool tensor.
core::Result<bool> conditionOf(const Operation& op, const Tensor& t) {
  if (!t.defined() || t.dtype() != DataType::Bool || t.numel() != 1)
    return Status::error(
        std::string(op.name()) + ": the condition is " + madeText(t) + ", not a 0-D or one-element bool tensor",
        op.location());
  return t.data<bool>()[0];
}

}  // namespace

struct Executor::State {
  std::vector<RuntimeValue> slots;
  std::vector<const RuntimeValue*> operands;  // beside Plan::operandSlots: into slots, or null

  explicit State(const Plan& plan) : slots(plan.numSlots) {
    operands.reserve(plan.operandSlots.size());
    for (uint32_t slot : plan.operandSlots) operands.push_back(slot == kNoSlot ? nullptr : &slots[slot]);
  }
};

namespace {

/// Whether `feeds` hold a tensor of a fused update's parameter or learning
/// rate under another of the plan's feed names too (or two such under one
/// tensor): the early update would show there, or the GEMM would read what
/// it writes.
bool fusedFeedsShared(const Executor::Plan& p, const TensorMap& feeds) {
  std::vector<const void*> ids;
  for (const std::string& name : p.fusedFeeds)
    if (auto it = feeds.find(name); it != feeds.end() && it->second.defined()) ids.push_back(it->second.storageId());
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) return true;
  size_t holders = 0;
  for (const std::string& name : p.feedNames)
    if (auto it = feeds.find(name);
        it != feeds.end() && std::binary_search(ids.begin(), ids.end(), it->second.storageId()))
      ++holders;
  return holders > ids.size();
}

}  // namespace

Executor::Executor() = default;
Executor::~Executor() = default;
size_t Executor::numSteps() const { return plan_->steps.size(); }
size_t Executor::numFusedUpdates() const { return plan_->fusedUpdates; }
size_t Executor::numFusedLossOps() const { return plan_->fusedLossOps; }
const Operation& Executor::stepOp(uint32_t step) const { return *plan_->steps[step].op; }

Result<std::unique_ptr<Executor>> Executor::compile(const core::Program& program, const KernelRegistry& registry,
                                                    const CompileOptions& options) {
  std::unique_ptr<Executor> ex(new Executor());
  auto plan = std::make_shared<Plan>();
  if (Status s = buildPlan(program.body(), *plan, ex->inputs_, ex->outputs_, registry, options); !s) return s;
  if (plan->fusedUpdates) {
    auto unfused = std::make_shared<Plan>();
    std::vector<ProgramInput> inputs;
    std::vector<std::string> outputs;
    CompileOptions withoutUpdates = options;  // the loss fusion stays: it moves no read past a write
    withoutUpdates.fuseUpdates = false;
    if (Status s = buildPlan(program.body(), *unfused, inputs, outputs, registry, withoutUpdates); !s) return s;
    ex->unfusedState_ = std::make_unique<State>(*unfused);
    ex->unfused_ = std::move(unfused);
  }
  ex->state_ = std::make_unique<State>(*plan);
  ex->plan_ = std::move(plan);
  return ex;
}

namespace {

/// One run of a plan: the steps of a range, region ops running theirs.
class Interpreter {
 public:
  using Plan = Executor::Plan;

  Interpreter(const Plan& p, Executor::State& state, const TensorMap& feeds, TensorMap& fetches, Communicator* comm,
              RunStats* stats)
      : p_(p),
        slots_(state.slots),
        operands_(state.operands),
        feeds_(feeds),
        fetches_(fetches),
        comm_(comm),
        stats_(stats),
        trace_(stats ? stats->trace : nullptr) {}

  /// Runs steps [begin, end); `top`: they are the top block's.
  Status steps(uint32_t begin, uint32_t end, bool top = false) {
    for (uint32_t i = begin; i < end;) {
      const Step& s = p_.steps[i];
      if (comm_ && comm_->stopping()) return stoppedStatus();
      Status st;
      switch (s.kind) {
        case StepKind::Feed:
          st = feed(s);
          break;
        case StepKind::Fetch:
          fetches_[p_.names[s.name]] = operands_[s.operandBegin]->tensor;
          break;
        case StepKind::Kernel:
          st = kernel(i, s);
          break;
        case StepKind::Yield:
          yield(s);
          break;
        case StepKind::If:
        case StepKind::While:
        case StepKind::Inline:
          st = regions(s);
          break;
      }
      if (!st) return st;
      if (top && stats_ && stats_->madeValues) keepMade(s);
      for (uint32_t k = 0; k < s.numDrop; ++k) slots_[p_.drops[s.dropBegin + k]] = RuntimeValue{};
      i = s.next;
    }
    return Status::ok();
  }

  double kernelNs = 0;

 private:
  Status feed(const Step& s) {
    const std::string& name = p_.names[s.name];
    auto it = feeds_.find(name);
    std::string where = s.op ? std::string(s.op->name()) + ": " : "kwarg ";
    int64_t loc = s.op ? s.op->location() : -1;
    if (it == feeds_.end()) return Status::error(where + "no tensor fed for '" + name + "'", loc);
    const Tensor& t = it->second;
    if (t.dtype() != p_.feedTypes[s.name] || !shapeMatches(p_.feedShapes[s.name], t.shape()))
      return Status::error(where + "'" + name + "' is " + typeText(p_.feedTypes[s.name], p_.feedShapes[s.name]) +
                               ", the fed tensor " + t.typeText(),
                           loc);
    if (stats_ && stats_->checkFinite)
      if (auto bad = nonFiniteIn(RuntimeValue{t, {}, false}))
        return Status::error(where + "'" + name + "' " + *bad + " (--check-finite)", loc);
    slots_[s.resultBegin].tensor = t;
    return Status::ok();
  }

  Status kernel(uint32_t i, const Step& s) {
    RuntimeValue* results = slots_.data() + s.resultBegin;
    for (uint32_t k = 0; k < s.numInplace; ++k) {
      const core::InplacePair& ip = p_.inplace[s.inplaceBegin + k];
      results[ip.result].tensor = operands_[s.operandBegin + ip.operand]->tensor;
    }
    KernelContext ctx{*s.op, std::span<const RuntimeValue* const>(operands_.data() + s.operandBegin, s.numOperands),
                      std::span<RuntimeValue>(results, s.numResults), comm_, s.dying};
    int64_t start = nowNs();
    Status st;
    try {
      st = s.fn(ctx);
    } catch (const std::exception& e) {
      st = Status::error(std::string("the kernel threw: ") + e.what());
    }
    int64_t dur = nowNs() - start;
    kernelNs += double(dur);
    if (trace_) trace_->op(i, start, dur);
    if (!st)
      return st.isCancelled()
                 ? st
                 : Status::failure(st.kind(), std::string(s.op->name()) + ": " + st.message(), s.op->location())
                       .withNotes(st.notes());
    if (!resultsAsDeclared(p_, s, results)) return checkDeclared(p_, s, results);
    if (stats_ && stats_->checkFinite) return checkFiniteResults(p_, s, results);
    return Status::ok();
  }

  /// A copy of each tensor step `s` made, with its value, in
  /// RunStats::madeValues (a later in-place op leaves the copy as it was).
  void keepMade(const Step& s) {
    if (!s.op || s.kind == StepKind::Fetch || s.kind == StepKind::Yield) return;
    const Operation& made = s.made ? *s.made : *s.op;
    for (uint32_t k = 0; k < s.numResults && k < made.numResults(); ++k) {
      const RuntimeValue& v = slots_[s.resultBegin + k];
      if (!v.isList && v.tensor.defined()) stats_->madeValues->emplace_back(made.result(k), v.tensor.clone());
    }
  }

  /// `v` with storage of its own: a carried value that shares its buffer
  /// with another (an outer value an if yielded, a reshape's view, the same
  /// value carried twice) is copied, so that an in-place op of the next
  /// iteration writes only it.
  static RuntimeValue ownedCopy(const RuntimeValue& v) {
    auto own = [](const Tensor& t) { return !t.defined() || t.ownsStorageAlone() ? t : t.clone(); };
    RuntimeValue out{own(v.tensor), {}, v.isList};
    for (const Tensor& e : v.elements) out.elements.push_back(own(e));
    return out;
  }

  /// A cf.yield: its operands into its targets, all read before any is
  /// written (a while's cf.yield may swap its carried values).
  void yield(const Step& s) {
    yielded_.clear();
    for (uint32_t k = 0; k < s.numOperands; ++k) {
      const RuntimeValue& v = *operands_[s.operandBegin + k];
      yielded_.push_back(p_.yieldCarries[s.targetBegin + k] ? ownedCopy(v) : v);
    }
    for (uint32_t k = 0; k < s.numOperands; ++k) slots_[p_.yieldTargets[s.targetBegin + k]] = std::move(yielded_[k]);
  }

  Status regions(const Step& s) {
    const RuntimeValue* const* ops = operands_.data() + s.operandBegin;
    RuntimeValue* results = slots_.data() + s.resultBegin;
    if (s.kind == StepKind::Inline) {
      const RegionPlan& r = p_.regions[s.region];
      if (Status st = steps(r.stepBegin, r.stepEnd); !st) return st;
    } else if (s.kind == StepKind::If) {
      auto cond = conditionOf(*s.op, ops[0]->tensor);
      if (!cond) return cond.status();
      const RegionPlan& r = p_.regions[s.region + (*cond ? 0 : 1)];
      if (Status st = steps(r.stepBegin, r.stepEnd); !st) return st;
    } else if (Status st = loop(s, ops, results); !st) {
      return st;
    }
    if (!resultsAsDeclared(p_, s, results)) return checkDeclared(p_, s, results);
    return Status::ok();
  }

  /// pd_op.while: the inputs (copies: the body may write its arguments in
  /// place) are the first arguments; each cf.yield gives the next condition
  /// and arguments; the last arguments are the results.
  Status loop(const Step& s, const RuntimeValue* const* ops, RuntimeValue* results) {
    const RegionPlan& r = p_.regions[s.region];
    auto cond = conditionOf(*s.op, ops[0]->tensor);
    if (!cond) return cond.status();
    for (uint32_t k = 0; k < r.numArgs; ++k) {
      const RuntimeValue& in = *ops[1 + k];  // lives on outside: always copied
      RuntimeValue own{in.tensor.defined() ? in.tensor.clone() : Tensor(), {}, in.isList};
      for (const Tensor& e : in.elements) own.elements.push_back(e.clone());
      slots_[p_.argSlots[r.argBegin + k]] = std::move(own);
    }
    uint64_t iterations = 0;
    for (bool go = *cond; go;) {
      if (stats_ && stats_->maxLoopIterations && ++iterations > stats_->maxLoopIterations)
        return Status::error(std::string(s.op->name()) + ": more than " + std::to_string(stats_->maxLoopIterations) +
                                 " iterations (the run's limit)",
                             s.op->location());
      if (Status st = steps(r.stepBegin, r.stepEnd); !st) return st;
      auto next = conditionOf(*s.op, slots_[r.condSlot].tensor);
      if (!next) return next.status();
      go = *next;
    }
    for (uint32_t k = 0; k < r.numArgs; ++k) results[k] = std::move(slots_[p_.argSlots[r.argBegin + k]]);
    slots_[r.condSlot] = RuntimeValue{};
    return Status::ok();
  }

  const Plan& p_;
  std::vector<RuntimeValue>& slots_;
  const std::vector<const RuntimeValue*>& operands_;
  const TensorMap& feeds_;
  TensorMap& fetches_;
  Communicator* comm_;
  RunStats* stats_;
  TraceSink* trace_;
  std::vector<RuntimeValue> yielded_;
};

}  // namespace

Status Executor::run(const TensorMap& feeds, TensorMap& fetches, Communicator* comm, RunStats* stats) {
  TraceSink* trace = stats ? stats->trace : nullptr;
  if (comm) comm->setTraceSink(trace);
  const bool shared = unfused_ && fusedFeedsShared(*plan_, feeds);
  const Plan& plan = shared ? *unfused_ : *plan_;
  State& state = shared ? *unfusedState_ : *state_;
  Interpreter interp(plan, state, feeds, fetches, comm, stats);
  Status failure;
  try {  // a copy the interpreter makes (a while's carried values) may not fit
    failure = interp.steps(0, uint32_t(plan.steps.size()), true);
  } catch (const std::exception& e) {
    failure = Status::error(std::string("the run threw: ") + e.what());
  }
  if (comm) comm->setTraceSink(nullptr);
  if (!failure.isOk())
    for (auto& slot : state.slots) slot = RuntimeValue{};  // a failed run leaves nothing behind
  if (stats) stats->kernelSeconds += interp.kernelNs * 1e-9;
  return failure;
}

}  // namespace pir::runtime
