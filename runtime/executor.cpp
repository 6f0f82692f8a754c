//===- executor.cpp - one dense program compiled to a flat plan -----------===//
#include "runtime/executor.h"

#include <chrono>
#include <exception>

#include "core/attr_access.h"
#include "runtime/comm/communicator.h"

namespace pir::runtime {

using core::Operation;
using core::Result;
using core::Status;
using core::Value;

namespace {

enum class StepKind : uint8_t { Kernel, Feed, Fetch };

struct Step {
  KernelFn fn = nullptr;
  const Operation* op = nullptr;
  StepKind kind = StepKind::Kernel;
  uint32_t operandBegin = 0, numOperands = 0;  // into Plan::operandSlots
  uint32_t resultBegin = 0, numResults = 0;    // slot indices
  uint32_t inplaceBegin = 0, numInplace = 0;   // into Plan::inplace
  uint32_t dropBegin = 0, numDrop = 0;         // into Plan::drops: null-typed results, then freed slots
  uint32_t numNullResults = 0;                 // the first numNullResults drops
  uint32_t name = 0;                           // feed or fetch: into Plan::names
};

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::optional<std::string> stringAttr(const Operation& op, std::string_view key) {
  auto* a = op.attrOf<core::StringAttr>(key);
  if (!a) return std::nullopt;
  return a->value();
}

}  // namespace

/// No slot: an absent optional operand (`<<NULL VALUE>>`).
constexpr uint32_t kNoSlot = UINT32_MAX;

struct Executor::Plan {
  std::vector<Step> steps;
  std::vector<uint32_t> operandSlots;  // per operand of every step, or kNoSlot
  uint32_t numSlots = 0;
  std::vector<core::InplacePair> inplace;
  std::vector<uint32_t> drops;
  std::vector<std::string> names;
  std::vector<std::vector<int64_t>> feedShapes;  // by feed step's name index
  std::vector<DataType> feedTypes;
};

struct Executor::State {
  std::vector<RuntimeValue> slots;
  std::vector<const RuntimeValue*> operands;  // beside Plan::operandSlots: into slots, or null

  explicit State(const Plan& plan) : slots(plan.numSlots) {
    operands.reserve(plan.operandSlots.size());
    for (uint32_t slot : plan.operandSlots) operands.push_back(slot == kNoSlot ? nullptr : &slots[slot]);
  }
};

Executor::Executor() = default;
Executor::~Executor() = default;
size_t Executor::numSteps() const { return plan_->steps.size(); }
const Operation& Executor::stepOp(uint32_t step) const { return *plan_->steps[step].op; }

namespace {

/// Builds a Plan; one per compile().
class PlanBuilder {
 public:
  PlanBuilder(Executor::Plan& plan, std::vector<ProgramInput>& inputs, std::vector<std::string>& outputs,
              const KernelRegistry& registry)
      : plan_(plan), inputs_(inputs), outputs_(outputs), registry_(registry) {}

  Status build(const core::Block& body) {
    for (core::BlockArgument* kw : body.kwargs()) {
      if (Status s = checkType(kw->type(), nullptr); !s) return s;
      uint32_t slot = newSlots(1);
      slotOf_[kw] = slot;
      auto shape = core::tensorShape(kw->type());
      addFeed(nullptr, slot, std::string(kw->name()), ProgramInput::Kind::Kwarg, shape ? shape->dtype : DataType::F32,
              shape ? std::vector<int64_t>(shape->dims.begin(), shape->dims.end()) : std::vector<int64_t>{},
              core::isPersistable(*kw));
    }
    if (!body.arguments().empty()) return Status::error("the executor runs blocks without positional arguments");
    if (Status s = checkKernels(body); !s) return s;
    for (const Operation& op : body)
      if (Status s = addOp(op); !s) return s;
    return finishFrees();
  }

 private:
  Status located(const Operation& op, std::string msg) {
    return Status::error(std::string(op.name()) + ": " + msg, op.location());
  }

  /// Every op without a kernel at once (the first, the others as its
  /// notes), not only the first: a run stops before it computes anything.
  Status checkKernels(const core::Block& body) {
    constexpr size_t kMaxListed = 20;
    std::vector<Status> missing;
    size_t more = 0;
    for (const Operation& op : body) {
      const core::OpInfo* info = core::lookupOp(op);
      const core::ScopeAccess scope = info ? info->scope : core::ScopeAccess::None;
      if (op.numRegions() != 0 || scope == core::ScopeAccess::ReadsData || scope == core::ScopeAccess::ReadsParameter ||
          scope == core::ScopeAccess::WritesOutput || scope == core::ScopeAccess::WritesParameter ||
          registry_.find(info))
        continue;
      if (missing.size() < kMaxListed)
        missing.push_back(located(op, "no kernel for this op"));
      else
        ++more;
    }
    if (missing.empty()) return Status::ok();
    if (more) missing.push_back(Status::error("and " + std::to_string(more) + " more ops without a kernel"));
    Status first = missing.front();
    missing.erase(missing.begin());
    return first.withNotes(std::move(missing));
  }

  Status checkType(const core::Type* t, const Operation* op) {
    if (!t || t->isa<core::NullType>()) return Status::ok();
    if (auto* v = t->dynCast<core::VectorType>()) {
      for (const core::Type* e : v->elements())
        if (Status s = checkType(e, op); !s) return s;
      return Status::ok();
    }
    auto shape = core::tensorShape(t);
    std::string where = op ? std::string(op->name()) + ": " : std::string();
    if (t->isa<core::DistTensorType>())
      return Status::error(where + "a dist tensor type: the executor runs dense programs (split-ranks first)",
                           op ? op->location() : -1);
    if (!shape) return Status::error(where + "a value of a type the runner cannot hold", op ? op->location() : -1);
    if (!isRunnable(shape->dtype))
      return Status::error(where + "dtype " + std::string(core::dataTypeName(shape->dtype)) +
                               " is not one the runner computes with (f32, f64, i32, i64, bool, bf16)",
                           op ? op->location() : -1);
    return Status::ok();
  }

  uint32_t newSlots(uint32_t n) {
    uint32_t base = plan_.numSlots;
    plan_.numSlots += n;
    lastUse_.resize(base + n, 0);
    return base;
  }

  void addFeed(const Operation* op, uint32_t slot, std::string name, ProgramInput::Kind kind, DataType dtype,
               std::vector<int64_t> shape, bool persistable) {
    Step s;
    s.op = op;
    s.kind = StepKind::Feed;
    s.resultBegin = slot;
    s.numResults = 1;
    s.name = uint32_t(plan_.names.size());
    plan_.names.push_back(name);
    plan_.feedShapes.push_back(shape);
    plan_.feedTypes.push_back(dtype);
    lastUse_[slot] = uint32_t(plan_.steps.size());
    plan_.steps.push_back(s);
    inputs_.push_back({kind, std::move(name), op, dtype, std::move(shape), persistable});
  }

  Status addOp(const Operation& op) {
    if (op.numRegions() != 0) return located(op, "ops with regions are not run (yet)");
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (Status s = checkType(op.result(i)->type(), &op); !s) return s;
    uint32_t stepIndex = uint32_t(plan_.steps.size());
    const core::OpInfo* info = core::lookupOp(op);
    const core::ScopeAccess scope = info ? info->scope : core::ScopeAccess::None;
    if (scope == core::ScopeAccess::ReadsData || scope == core::ScopeAccess::ReadsParameter) {
      if (op.numResults() != 1) return located(op, "expects one result");
      bool data = scope == core::ScopeAccess::ReadsData;
      auto feedName = stringAttr(op, info->scopeKey);
      if (!feedName) return located(op, "no '" + std::string(info->scopeKey) + "' attribute");
      auto shape = core::tensorShape(op.result(0)->type());
      uint32_t slot = newSlots(1);
      slotOf_[op.result(0)] = slot;
      addFeed(&op, slot, std::string(*feedName), data ? ProgramInput::Kind::Data : ProgramInput::Kind::Parameter,
              shape->dtype, std::vector<int64_t>(shape->dims.begin(), shape->dims.end()),
              data && core::isPersistable(op));
      return Status::ok();
    }
    Step s;
    s.op = &op;
    if (scope == core::ScopeAccess::WritesOutput || scope == core::ScopeAccess::WritesParameter) {
      bool out = scope == core::ScopeAccess::WritesOutput;
      auto fetchName = stringAttr(op, info->scopeKey);
      if (!fetchName || op.numOperands() != 1) return located(op, "expects one operand and a name");
      s.kind = StepKind::Fetch;
      s.name = uint32_t(plan_.names.size());
      plan_.names.emplace_back(*fetchName);
      plan_.feedShapes.emplace_back();
      plan_.feedTypes.push_back(DataType::Undefined);
      if (out) outputs_.emplace_back(*fetchName);
    } else {
      s.fn = registry_.find(info);
      if (!s.fn) return located(op, "no kernel for this op");
    }
    s.operandBegin = uint32_t(plan_.operandSlots.size());
    s.numOperands = op.numOperands();
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      const Value* v = op.operandValue(i);
      if (!v) {
        plan_.operandSlots.push_back(kNoSlot);
        continue;
      }
      auto it = slotOf_.find(v);
      if (it == slotOf_.end()) return located(op, "operand " + std::to_string(i) + " is defined nowhere it can be run");
      plan_.operandSlots.push_back(it->second);
      lastUse_[it->second] = stepIndex;
    }
    s.resultBegin = newSlots(op.numResults());
    s.numResults = op.numResults();
    s.dropBegin = uint32_t(plan_.drops.size());
    for (uint32_t i = 0; i < op.numResults(); ++i) {
      slotOf_[op.result(i)] = s.resultBegin + i;
      lastUse_[s.resultBegin + i] = stepIndex;
      const core::Type* t = op.result(i)->type();
      if (!t || t->isa<core::NullType>()) plan_.drops.push_back(s.resultBegin + i);
    }
    s.numNullResults = uint32_t(plan_.drops.size()) - s.dropBegin;
    s.inplaceBegin = uint32_t(plan_.inplace.size());
    if (info)
      for (const core::InplacePair& p : info->inplacePairs(op.numOperands()))
        if (p.operand < op.numOperands() && p.result < op.numResults() && op.operandValue(p.operand))
          plan_.inplace.push_back(p);
    s.numInplace = uint32_t(plan_.inplace.size()) - s.inplaceBegin;
    plan_.steps.push_back(s);
    return Status::ok();
  }

  /// Every slot is freed after its last use.
  Status finishFrees() {
    std::vector<std::vector<uint32_t>> freedAt(plan_.steps.size());
    for (uint32_t slot = 0; slot < lastUse_.size(); ++slot) freedAt[lastUse_[slot]].push_back(slot);
    std::vector<uint32_t> drops;
    for (uint32_t i = 0; i < plan_.steps.size(); ++i) {
      Step& s = plan_.steps[i];
      uint32_t nullBegin = s.dropBegin, nulls = s.numNullResults;
      s.dropBegin = uint32_t(drops.size());
      drops.insert(drops.end(), plan_.drops.begin() + nullBegin, plan_.drops.begin() + nullBegin + nulls);
      drops.insert(drops.end(), freedAt[i].begin(), freedAt[i].end());
      s.numDrop = uint32_t(drops.size()) - s.dropBegin;
    }
    plan_.drops = std::move(drops);
    return Status::ok();
  }

  Executor::Plan& plan_;
  std::vector<ProgramInput>& inputs_;
  std::vector<std::string>& outputs_;
  const KernelRegistry& registry_;
  std::unordered_map<const Value*, uint32_t> slotOf_;
  std::vector<uint32_t> lastUse_;
};

}  // namespace

Result<std::unique_ptr<Executor>> Executor::compile(const core::Program& program, const KernelRegistry& registry) {
  std::unique_ptr<Executor> ex(new Executor());
  auto plan = std::make_shared<Plan>();
  PlanBuilder b(*plan, ex->inputs_, ex->outputs_, registry);
  if (Status s = b.build(program.body()); !s) return s;
  ex->state_ = std::make_unique<State>(*plan);
  ex->plan_ = std::move(plan);
  return ex;
}

Status Executor::run(const TensorMap& feeds, TensorMap& fetches, Communicator* comm, RunStats* stats) {
  const Plan& p = *plan_;
  std::vector<RuntimeValue>& slots = state_->slots;
  const std::vector<const RuntimeValue*>& operands = state_->operands;
  TraceSink* trace = stats ? stats->trace : nullptr;
  if (comm) comm->setTraceSink(trace);
  double kernelNs = 0;
  Status failure;
  uint32_t i = 0;
  for (; i < p.steps.size(); ++i) {
    const Step& s = p.steps[i];
    if (comm && comm->stopping()) {
      failure = stoppedStatus();
      break;
    }
    if (s.kind == StepKind::Feed) {
      const std::string& name = p.names[s.name];
      auto it = feeds.find(name);
      std::string where = s.op ? std::string(s.op->name()) + ": " : "kwarg ";
      int64_t loc = s.op ? s.op->location() : -1;
      if (it == feeds.end()) {
        failure = Status::error(where + "no tensor fed for '" + name + "'", loc);
        break;
      }
      const Tensor& t = it->second;
      if (t.dtype() != p.feedTypes[s.name] || !shapeMatches(p.feedShapes[s.name], t.shape())) {
        failure = Status::error(where + "'" + name + "' is " + typeText(p.feedTypes[s.name], p.feedShapes[s.name]) +
                                    ", the fed tensor " + t.typeText(),
                                loc);
        break;
      }
      slots[s.resultBegin].tensor = t;
    } else if (s.kind == StepKind::Fetch) {
      fetches[p.names[s.name]] = operands[s.operandBegin]->tensor;
    } else {
      RuntimeValue* results = slots.data() + s.resultBegin;
      for (uint32_t k = 0; k < s.numInplace; ++k) {
        const core::InplacePair& ip = p.inplace[s.inplaceBegin + k];
        results[ip.result].tensor = operands[s.operandBegin + ip.operand]->tensor;
      }
      KernelContext ctx{*s.op, std::span<const RuntimeValue* const>(operands.data() + s.operandBegin, s.numOperands),
                        std::span<RuntimeValue>(results, s.numResults), comm};
      int64_t start = nowNs();
      Status st;
      try {
        st = s.fn(ctx);
      } catch (const std::exception& e) {
        st = Status::error(std::string("the kernel threw: ") + e.what());
      }
      int64_t dur = nowNs() - start;
      kernelNs += double(dur);
      if (trace) trace->op(i, start, dur);
      if (!st) {
        failure = st.isCancelled()
                      ? st
                      : Status::failure(st.kind(), std::string(s.op->name()) + ": " + st.message(), s.op->location())
                            .withNotes(st.notes());
        break;
      }
    }
    for (uint32_t k = 0; k < s.numDrop; ++k) slots[p.drops[s.dropBegin + k]] = RuntimeValue{};
  }
  if (comm) comm->setTraceSink(nullptr);
  if (!failure.isOk())
    for (auto& slot : slots) slot = RuntimeValue{};  // a failed run leaves nothing behind
  if (stats) stats->kernelSeconds += kernelNs * 1e-9;
  return failure;
}

}  // namespace pir::runtime
