//===- executor_plan.cpp - a program's top block compiled to steps ---------===//
#include "runtime/executor_plan.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/attr_access.h"
#include "runtime/kernels/matmul.h"
#include "runtime/kernels/reduce.h"
#include "runtime/loss_fusion.h"
#include "runtime/update_fusion.h"

namespace pir::runtime {

using core::Operation;
using core::Status;
using core::Value;

namespace {

std::optional<std::string> stringAttr(const Operation& op, std::string_view key) {
  auto* a = op.attrOf<core::StringAttr>(key);
  if (!a) return std::nullopt;
  return a->value();
}

/// An sgd_ whose update its matmul_grad made (matmulGradUpdate): its result
/// is preset to the parameter, already updated.
Status updatedByMatmulGrad(KernelContext&) { return Status::ok(); }

/// What `t` declares; a vec's element types go to `elements` (null: nested,
/// not checked).
Declared declare(const core::Type* t, std::vector<Declared>* elements) {
  Declared d;
  if (!t || t->isa<core::NullType>()) return d;
  if (auto* v = t->dynCast<core::VectorType>()) {
    d.kind = Declared::Kind::Any;
    if (!elements) return d;
    std::vector<Declared> es;
    for (const core::Type* e : v->elements()) es.push_back(declare(e, nullptr));
    d.kind = Declared::Kind::List;
    d.elemBegin = uint32_t(elements->size());
    d.numElems = uint32_t(es.size());
    elements->insert(elements->end(), es.begin(), es.end());
    return d;
  }
  auto shape = core::tensorShape(t);
  if (!shape) return d;  // checkType refused it at compile
  d.kind = Declared::Kind::Tensor;
  d.dtype = shape->dtype;
  d.dims = shape->dims;
  return d;
}

/// Builds a Plan; one per compile(). A region's steps follow its op's step;
/// a value read inside a region it was not defined in lives until the op
/// whose region that is (at the value's depth) has finished.
class PlanBuilder {
 public:
  PlanBuilder(Executor::Plan& plan, std::vector<ProgramInput>& inputs, std::vector<std::string>& outputs,
              const KernelRegistry& registry)
      : plan_(plan), inputs_(inputs), outputs_(outputs), registry_(registry) {}

  Status build(const core::Block& body, const CompileOptions& options) {
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
    if (options.fuseUpdates) fusedUpdates_ = findUpdateFusions(body);
    if (options.fuseLoss) lossFusions_ = findLossFusions(body);
    plan_.fusedLossOps = uint32_t(lossFusions_.unrun.size());
    std::set<std::string> fusedFeeds;
    for (const auto& [mg, f] : fusedUpdates_) {
      updatedEarly_.emplace(f.sgd, mg);
      for (const std::string* name : {&f.paramFeed, &f.lrFeed})
        if (!name->empty()) fusedFeeds.insert(*name);
    }
    plan_.fusedUpdates = uint32_t(fusedUpdates_.size());
    plan_.fusedFeeds.assign(fusedFeeds.begin(), fusedFeeds.end());
    for (const Operation& op : body)
      if (Status s = addOp(op); !s) return s;
    if (plan_.fusedUpdates) {
      std::set<std::string> fed;
      for (const Step& s : plan_.steps)
        if (s.kind == StepKind::Feed) fed.insert(plan_.names[s.name]);
      plan_.feedNames.assign(fed.begin(), fed.end());
    }
    return finishFrees();
  }

 private:
  Status located(const Operation& op, std::string msg) {
    return Status::error(std::string(op.name()) + ": " + msg, op.location());
  }

  /// Every op the runner cannot run at once (the first, the others as its
  /// notes), in regions too, not only the first: a run stops before it
  /// computes anything.
  Status checkKernels(const core::Block& body) {
    constexpr size_t kMaxListed = 20;
    std::vector<Status> missing;
    size_t more = 0;
    core::walk(body, [&](const Operation& op) {
      const core::OpInfo* info = core::lookupRunOp(op);
      std::string why;
      if (info && !info->refusal.empty())
        why = std::string(info->refusal);
      else if (op.numRegions() != 0 && (!info || info->regionRun == core::RegionRun::None))
        why = "an op with regions the runner does not know how to run";
      else if (!runsWithoutKernel(op, info) && !registry_.find(info))
        why = "no kernel for this op";
      if (why.empty()) return;
      if (missing.size() < kMaxListed)
        missing.push_back(located(op, why));
      else
        ++more;
    });
    if (missing.empty()) return Status::ok();
    if (more) missing.push_back(Status::error("and " + std::to_string(more) + " more ops the runner cannot run"));
    Status first = missing.front();
    missing.erase(missing.begin());
    return first.withNotes(std::move(missing));
  }

  /// Ops the executor runs itself: scope reads and writes, region ops and
  /// their cf.yield.
  static bool runsWithoutKernel(const Operation& op, const core::OpInfo* info) {
    if (!info) return false;
    return info->scope != core::ScopeAccess::None || info->regionRun != core::RegionRun::None ||
           (op.name() == "cf.yield" && op.parentBlock() && op.parentBlock()->parentOp());
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
                               " is not one the runner computes with (f32, f64, i32, i64, bool, bf16, u8)",
                           op ? op->location() : -1);
    return Status::ok();
  }

  uint32_t depth() const { return uint32_t(enclosing_.size()); }

  uint32_t newSlots(uint32_t n) {
    uint32_t base = plan_.numSlots;
    plan_.numSlots += n;
    lastUse_.resize(base + n, 0);
    depthOf_.resize(base + n, depth());
    pinned_.resize(base + n, false);
    plan_.declared.resize(base + n);
    return base;
  }

  /// `slot` is read by step `step`: it lives until that step, or until the
  /// region op enclosing `step` at the slot's own depth has finished.
  void use(uint32_t slot, uint32_t step) {
    uint32_t at = depthOf_[slot] < depth() ? enclosing_[depthOf_[slot]] : step;
    lastUse_[slot] = std::max(lastUse_[slot], at);
  }

  void addFeed(const Operation* op, uint32_t slot, std::string name, ProgramInput::Kind kind, DataType dtype,
               std::vector<int64_t> shape, bool persistable) {
    Step s;
    s.op = op;
    s.kind = StepKind::Feed;
    s.resultBegin = slot;
    s.numResults = 1;
    s.name = uint32_t(plan_.names.size());
    s.next = uint32_t(plan_.steps.size()) + 1;
    plan_.names.push_back(name);
    plan_.feedShapes.push_back(shape);
    plan_.feedTypes.push_back(dtype);
    lastUse_[slot] = uint32_t(plan_.steps.size());
    plan_.steps.push_back(s);
    inputs_.push_back({kind, std::move(name), op, dtype, std::move(shape), persistable});
  }

  /// The operand slots of step `s` (at `stepIndex`), from `op`'s operands;
  /// operand 0 reads `firstInstead` when given (a fused loss step's).
  Status addOperands(const Operation& op, Step& s, uint32_t stepIndex, const Value* firstInstead = nullptr) {
    s.operandBegin = uint32_t(plan_.operandSlots.size());
    s.numOperands = op.numOperands();
    for (uint32_t i = 0; i < op.numOperands(); ++i) {
      const Value* v = i == 0 && firstInstead ? firstInstead : op.operandValue(i);
      if (!v) {
        plan_.operandSlots.push_back(kNoSlot);
        continue;
      }
      auto it = slotOf_.find(v);
      if (it == slotOf_.end()) return located(op, "operand " + std::to_string(i) + " is defined nowhere it can be run");
      plan_.operandSlots.push_back(it->second);
      use(it->second, stepIndex);
    }
    return Status::ok();
  }

  /// Result slots of step `s` (at `stepIndex`), with their declared types;
  /// `visible`: operands may name them from now (a region op's only after
  /// its regions); result `unmade`, if any, is dropped as a null one.
  void addResults(const Operation& op, Step& s, uint32_t stepIndex, bool visible = true, uint32_t unmade = UINT32_MAX) {
    s.resultBegin = newSlots(op.numResults());
    s.numResults = op.numResults();
    s.dropBegin = uint32_t(plan_.drops.size());
    for (uint32_t i = 0; i < op.numResults(); ++i) {
      if (visible) slotOf_[op.result(i)] = s.resultBegin + i;
      lastUse_[s.resultBegin + i] = stepIndex;
      const core::Type* t = op.result(i)->type();
      if (i == unmade || !t || t->isa<core::NullType>()) plan_.drops.push_back(s.resultBegin + i);
      if (i != unmade) plan_.declared[s.resultBegin + i] = declare(t, &plan_.elements);
    }
    s.numNullResults = uint32_t(plan_.drops.size()) - s.dropBegin;
  }

  Status addOp(const Operation& op) {
    // A fused loss's square or square_grad: the reduction (grad) makes
    // what is read of it.
    if (lossFusions_.unrun.count(&op)) return Status::ok();
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (Status s = checkType(op.result(i)->type(), &op); !s) return s;
    uint32_t stepIndex = uint32_t(plan_.steps.size());
    const core::OpInfo* info = core::lookupRunOp(op);
    if (info && info->regionRun != core::RegionRun::None) return addRegionOp(op, *info);
    const core::ScopeAccess scope = info ? info->scope : core::ScopeAccess::None;
    if (scope == core::ScopeAccess::ReadsData || scope == core::ScopeAccess::ReadsParameter) {
      if (op.numResults() != 1) return located(op, "expects one result");
      bool data = scope == core::ScopeAccess::ReadsData;
      auto feedName = stringAttr(op, info->scopeKey);
      if (!feedName) return located(op, "no '" + std::string(info->scopeKey) + "' attribute");
      auto shape = core::tensorShape(op.result(0)->type());
      if (!shape) return located(op, "its result is no tensor");
      uint32_t slot = newSlots(1);
      slotOf_[op.result(0)] = slot;
      addFeed(&op, slot, std::string(*feedName), data ? ProgramInput::Kind::Data : ProgramInput::Kind::Parameter,
              shape->dtype, std::vector<int64_t>(shape->dims.begin(), shape->dims.end()),
              data && core::isPersistable(op));
      return Status::ok();
    }
    Step s;
    s.op = &op;
    s.next = stepIndex + 1;
    if (scope == core::ScopeAccess::WritesOutput || scope == core::ScopeAccess::WritesParameter) {
      bool out = scope == core::ScopeAccess::WritesOutput;
      auto fetchName = stringAttr(op, info->scopeKey);
      if (!fetchName || op.numOperands() != 1 || !op.operandValue(0))
        return located(op, "expects one operand and a name");
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
    const Operation* made = &op;  // whose results the step makes
    const Value* firstInstead = nullptr;
    if (auto it = lossFusions_.readsSquareInput.find(&op); it != lossFusions_.readsSquareInput.end())
      firstInstead = it->second;
    if (lossFusions_.sumsSquares.count(&op)) {
      s.fn = info->name == "pd_op.mean" ? kernels::meanOfSquares : kernels::sumOfSquares;
    } else if (auto it = lossFusions_.squareGradMade.find(&op); it != lossFusions_.squareGradMade.end()) {
      s.fn = info->name == "pd_op.mean_grad" ? kernels::meanGradSquareGrad : kernels::sumGradSquareGrad;
      made = it->second;
    }
    if (Status st = addOperands(op, s, stepIndex, firstInstead); !st) return st;
    uint32_t unmade = UINT32_MAX;
    if (auto it = fusedUpdates_.find(&op); it != fusedUpdates_.end()) {
      // matmul_grad updates sgd_'s parameter: y_grad is not made, the
      // learning rate is a fourth operand.
      s.fn = matmulGradUpdate;
      unmade = 1;
      auto lr = slotOf_.find(it->second.sgd->operandValue(1));
      if (lr == slotOf_.end()) return Status::internal("an sgd_'s learning rate is made after its matmul_grad");
      plan_.operandSlots.push_back(lr->second);
      use(lr->second, stepIndex);
      ++s.numOperands;
    } else if (updatedEarly_.count(&op)) {
      s.fn = updatedByMatmulGrad;
    }
    addResults(*made, s, stepIndex, true, unmade);
    s.made = made;
    s.inplaceBegin = uint32_t(plan_.inplace.size());
    if (info)
      for (const core::InplacePair& p : info->inplacePairs(op.numOperands()))
        if (p.operand < op.numOperands() && p.result < op.numResults() && op.operandValue(p.operand))
          plan_.inplace.push_back(p);
    s.numInplace = uint32_t(plan_.inplace.size()) - s.inplaceBegin;
    plan_.steps.push_back(s);
    return Status::ok();
  }

  /// pd_op.if, pd_op.while, cinn_op.group/fusion: the op's step, then each
  /// region's steps, each ending in its cf.yield's step.
  Status addRegionOp(const Operation& op, const core::OpInfo& info) {
    const core::RegionRun run = info.regionRun;
    uint32_t want = run == core::RegionRun::IfElse ? 2 : 1;
    if (op.numRegions() != want || (run == core::RegionRun::Inline && op.numOperands() != 0))
      return located(op, "expects " + std::to_string(want) + (want == 1 ? " region" : " regions") +
                             (run == core::RegionRun::Inline ? " and no operand" : ""));
    if (run == core::RegionRun::While && op.numOperands() != op.numResults() + 1)
      return located(op, "expects a condition and one input per result, has " + std::to_string(op.numOperands()) +
                             " operands for " + std::to_string(op.numResults()) + " results");
    if (run == core::RegionRun::IfElse && op.numOperands() != 1) return located(op, "expects one condition operand");
    uint32_t stepIndex = uint32_t(plan_.steps.size());
    Step s;
    s.op = &op;
    s.kind = run == core::RegionRun::IfElse  ? StepKind::If
             : run == core::RegionRun::While ? StepKind::While
                                             : StepKind::Inline;
    if (Status st = addOperands(op, s, stepIndex); !st) return st;
    for (uint32_t i = 0; i < s.numOperands; ++i)
      if (plan_.operandSlots[s.operandBegin + i] == kNoSlot)
        return located(op, (i == 0 && run != core::RegionRun::Inline ? std::string("its condition")
                                                                     : "input " + std::to_string(i - 1)) +
                               " is <<NULL VALUE>>");
    addResults(op, s, stepIndex, false);
    s.region = uint32_t(plan_.regions.size());
    plan_.regions.resize(plan_.regions.size() + want);
    plan_.steps.push_back(s);
    enclosing_.push_back(stepIndex);
    for (uint32_t r = 0; r < want; ++r)
      if (Status st = addRegion(op, r, plan_.steps[stepIndex].region + r); !st) return st;
    enclosing_.pop_back();
    plan_.steps[stepIndex].next = uint32_t(plan_.steps.size());
    for (uint32_t i = 0; i < op.numResults(); ++i) slotOf_[op.result(i)] = plan_.steps[stepIndex].resultBegin + i;
    return Status::ok();
  }

  /// Region `r` of `op` as Plan::regions[at].
  Status addRegion(const Operation& op, uint32_t r, uint32_t at) {
    const core::Region& region = op.region(r);
    if (region.blocks().size() > 1) return located(op, "a region of more than one block");
    const core::Block* block = region.front();
    const bool loop = plan_.steps[enclosing_.back()].kind == StepKind::While;
    std::vector<uint32_t> targets;  // what the cf.yield writes: the results, or the next condition and arguments
    RegionPlan rp;
    if (loop) {
      size_t numArgs = block ? block->arguments().size() : 0;
      if (numArgs != op.numResults())
        return located(op, "its body takes " + std::to_string(numArgs) + " block arguments for " +
                               std::to_string(op.numResults()) + " carried values");
      rp.condSlot = newSlots(1);
      pinned_[rp.condSlot] = true;
      targets.push_back(rp.condSlot);
      rp.argBegin = uint32_t(plan_.argSlots.size());
      rp.numArgs = uint32_t(numArgs);
      for (core::BlockArgument* a : block ? block->arguments() : std::span<core::BlockArgument* const>()) {
        if (Status st = checkType(a->type(), &op); !st) return st;
        uint32_t slot = newSlots(1);
        pinned_[slot] = true;  // written by the cf.yield of the iteration before: never freed inside
        slotOf_[a] = slot;
        plan_.argSlots.push_back(slot);
        targets.push_back(slot);
      }
    } else {
      if (block && !block->arguments().empty()) return located(op, "a region with block arguments");
      const Step& owner = plan_.steps[enclosing_.back()];
      for (uint32_t k = 0; k < owner.numResults; ++k) targets.push_back(owner.resultBegin + k);
    }
    rp.stepBegin = uint32_t(plan_.steps.size());
    bool yielded = false;
    if (block)
      for (const Operation& inner : *block) {
        if (inner.name() == "cf.yield" && &inner == block->back()) {
          if (Status st = addYield(inner, targets, loop); !st) return st;
          yielded = true;
        } else if (inner.name() == "cf.yield") {
          return located(inner, "a cf.yield before the end of its region");
        } else if (Status st = addOp(inner); !st) {
          return st;
        }
      }
    if (!yielded && !targets.empty())
      return located(op,
                     "a region that ends without the cf.yield of its " + std::to_string(targets.size()) + " values");
    rp.stepEnd = uint32_t(plan_.steps.size());
    plan_.regions[at] = rp;
    // The region's values are not the outside's to read (nested regions
    // forgot theirs already).
    if (block) {
      for (core::BlockArgument* a : block->arguments()) slotOf_.erase(a);
      for (const Operation& inner : *block)
        for (uint32_t i = 0; i < inner.numResults(); ++i) slotOf_.erase(inner.result(i));
    }
    return Status::ok();
  }

  Status addYield(const Operation& yield, const std::vector<uint32_t>& targets, bool loop) {
    if (yield.numOperands() != targets.size())
      return located(yield, "yields " + std::to_string(yield.numOperands()) + " values, " +
                                std::string(yield.parentBlock()->parentOp()->name()) + " takes " +
                                std::to_string(targets.size()));
    uint32_t stepIndex = uint32_t(plan_.steps.size());
    Step s;
    s.op = &yield;
    s.kind = StepKind::Yield;
    s.next = stepIndex + 1;
    if (Status st = addOperands(yield, s, stepIndex); !st) return st;
    s.targetBegin = uint32_t(plan_.yieldTargets.size());
    for (uint32_t k = 0; k < targets.size(); ++k) {
      uint32_t from = plan_.operandSlots[s.operandBegin + k];
      if (from == kNoSlot) return located(yield, "yields no value as operand " + std::to_string(k));
      plan_.yieldTargets.push_back(targets[k]);
      plan_.yieldCarries.push_back(loop);
    }
    s.dropBegin = uint32_t(plan_.drops.size());
    plan_.steps.push_back(s);
    return Status::ok();
  }

  /// Every slot is freed after its last use (a while body's carried slots
  /// by their loop, when it ends).
  Status finishFrees() {
    std::vector<std::vector<uint32_t>> freedAt(plan_.steps.size());
    for (uint32_t slot = 0; slot < lastUse_.size(); ++slot)
      if (!pinned_[slot]) freedAt[lastUse_[slot]].push_back(slot);
    std::vector<uint32_t> drops;
    for (uint32_t i = 0; i < plan_.steps.size(); ++i) {
      Step& s = plan_.steps[i];
      for (uint32_t k = 0; s.kind == StepKind::Kernel && k < s.numOperands && k < 64; ++k) {
        uint32_t slot = plan_.operandSlots[s.operandBegin + k];
        if (slot != kNoSlot && !pinned_[slot] && lastUse_[slot] == i) s.dying |= uint64_t{1} << k;
      }
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
  std::vector<uint32_t> depthOf_;    // by slot: how many region ops enclose its definition
  std::vector<bool> pinned_;         // by slot: a while's carried value or condition
  std::vector<uint32_t> enclosing_;  // the steps of the region ops around the op being added, outermost first
  std::unordered_map<const Operation*, FusedUpdate> fusedUpdates_;       // by matmul_grad: the sgd_ it makes
  std::unordered_map<const Operation*, const Operation*> updatedEarly_;  // sgd_ -> its matmul_grad
  LossFusions lossFusions_;
};

}  // namespace

Status buildPlan(const core::Block& body, Executor::Plan& plan, std::vector<ProgramInput>& inputs,
                 std::vector<std::string>& outputs, const KernelRegistry& registry, const CompileOptions& options) {
  return PlanBuilder(plan, inputs, outputs, registry).build(body, options);
}

}  // namespace pir::runtime
