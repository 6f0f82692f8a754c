//===- lower_reshard.cpp - the ops a rank runs for each reshard -----------===//
//
// `lower-reshard{rank=R}` (Paddle's reshard pass, pir_pass.py, after
// decompose_reshard_pass): every `dist_op.reshard` is replaced by the ops
// rank R runs for it. The plan (lowering/plan.h) picks Paddle's function in
// registry order, or the general path where Paddle has none; the emitter
// (lowering/emitter.h) builds each step's ops for R. Ring ids come from
// planRings over the whole program, so every rank's lowering agrees on them.
// Ops for other ranks' sub-meshes and fake reshards stay, as in Paddle, for
// partition-rank to remove. The reshards are found by a walk, or taken
// from the KnownReshards result its maker gave for the program (split-ranks:
// passes/known_reshards.h); how many reshards it left is told to the next
// pass (ReshardsLeft). Given split-ranks' planned rings, a ring they lack is
// an internal error: every rank's rings must be the ring table it hands on.
//
//===----------------------------------------------------------------------===//
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/operation.h"
#include "core/prefetch.h"
#include "core/verifier.h"
#include "passes/known_reshards.h"
#include "passes/lowering/cost_model.h"
#include "passes/lowering/emission_memo.h"
#include "passes/lowering/emitter.h"
#include "passes/pass_registry.h"
#include "passes/rank_option.h"
#include "passes/reshard_builder.h"
#include "passes/ring_plan.h"

namespace pir::passes {

namespace {

using namespace pir::core;

class LowerReshardPass : public ProgramPass {
 public:
  std::string_view name() const override { return "lower-reshard"; }
  std::string_view description() const override {
    return "replace every dist_op.reshard by the ops rank R runs for it (Paddle's reshard functions, in "
           "registry order; a general path where Paddle has none)";
  }

  core::Status runOnProgram(NamedProgram& named, DiagnosticEngine& diag) override {
    int64_t rank = rank_ >= 0 ? static_cast<int64_t>(rank_) : named.rank;
    if (rank < 0) return Status::error("lower-reshard needs a rank: lower-reshard{rank=R}");
    Program& program = *named.program;
    // split-ranks plans the rings once for every rank's copy (a result).
    Result<lowering::PlanRequest> request = planRequest();
    if (!request) {
      diag.error(-1, request.status().message());
      return Status::error("lower-reshard could not read its options");
    }
    request_ = *request;
    const ProcessGroupTable* planned = result<ProcessGroupTable>();
    Result<ProcessGroupTable> rings = planned ? Result<ProcessGroupTable>(*planned) : planRings(program, request_);
    if (!rings) {
      diag.error(-1, rings.status().message());
      return Status::error("lower-reshard could not plan the rings");
    }
    std::vector<Operation*> reshards;
    if (const KnownReshards* known = result<KnownReshards>(); known && known->program == &program) {
      reshards = known->ops;
      if (!reshards.empty())
        stats_.add("reshards listed by the program's maker", static_cast<int64_t>(reshards.size()));
    } else {
      walk(program.body(), [&](Operation& op) {
        if (isReshard(op)) reshards.push_back(&op);
      });
    }
    DistOpFactory factory(program);
    bool failed = false;
    lowering::PlanMemo memo;           // this program's plans: it repeats a few reshards (no longer than its Context)
    lowering::ConstantMemo constants;  // and its helper constants, likewise
    lowering::EmissionMemo emissions;  // and the ops its reshards became, likewise
    lowered_.clear();
    left_ = 0;
    for (size_t i = 0; i < reshards.size(); ++i) {
      fetchAhead(reshards, i);
      failed = !lowerOne(program, factory, *rings, memo, constants, emissions, rank, *reshards[i], diag) || failed;
    }
    for (const auto& [function, count] : lowered_) stats_.add("reshards lowered: " + std::string(function), count);
    if (failed) return Status::error("lower-reshard could not complete");
    if (planned && rings->size() != planned->size()) {  // ranks' files would name a ring ranks.yaml lacks
      std::string ranks;
      for (int64_t r : rings->groups()[planned->size()].ranks) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
      return Status::internal("lower-reshard{rank=" + std::to_string(rank) + "} needed a ring of ranks [" + ranks +
                              "], which the rings planned over the distributed program lack");
    }
    publishForNextPass(ReshardsLeft{&program, left_});
    return Status::ok();
  }

 private:
  bool lowerOne(Program& program, DistOpFactory& factory, const ProcessGroupTable& rings, lowering::PlanMemo& memo,
                lowering::ConstantMemo& constants, lowering::EmissionMemo& emissions, int64_t rank, Operation& op,
                DiagnosticEngine& diag) {
    Value* in = op.numOperands() == 1 && op.numResults() == 1 ? op.operandValue(0) : nullptr;
    const TensorDistAttr* src = in ? distAttrOf(in->type()) : nullptr;
    const TensorDistAttr* dst = in ? distAttrOf(op.result(0)->type()) : nullptr;
    if (!src || !dst) {
      diag.error(reportLocation(&op), "dist_op.reshard needs one operand and one result, both of dist types");
      return false;
    }
    const Result<lowering::ReshardPlan>& plan =
        memo.planFor(program.context(), in->type(), op.result(0)->type(), request_);
    if (!plan) {
      diag.error(reportLocation(&op), "cannot lower dist_op.reshard: " + plan.status().message());
      return false;
    }
    lowering::Emitter emitter(program, factory, rings, constants, rank, op);
    lowering::EmissionMemo::Key key{&*plan,          in->type(),          op.result(0)->type(),  op.attributes().data(),
                                    emitter.chunk(), emitter.recvChunk(), emitter.stopGradient()};
    bool recordable = lowering::EmissionMemo::recordable(*plan);
    Operation* before = op.prevOp();
    Value* v = recordable ? emissions.replay(key, program.context(), op) : nullptr;
    if (!v) {
      v = in;
      for (const lowering::Step& step : plan->steps) v = emitter.emit(step, v);
      if (recordable) emissions.record(key, before, op, v);
    }
    // Both make their ops just before `op`: a fake reshard among them stays.
    for (Operation* made = before ? before->nextOp() : op.parentBlock()->front(); made != &op; made = made->nextOp())
      left_ += isReshard(*made);
    op.result(0)->replaceAllUsesWith(v);
    op.erase();
    countLowered(plan->function);
    return true;
  }

  /// Starts loading, a few reshards ahead of reshards[i], what lowering
  /// each reads first: the op, its operand, the operand's defining op and
  /// the result's first user. Copied long before (split-ranks' copy of 1M
  /// ops), they are out of cache, and the Emitter's constructor waited on
  /// them. In three steps, each reading only what the one before fetched.
  static void fetchAhead(const std::vector<Operation*>& reshards, size_t i) {
    constexpr size_t kOp = 12, kValues = 6, kNeighbours = 3;
    if (i + kOp < reshards.size()) prefetchOp(reshards[i + kOp]);
    if (i + kValues < reshards.size()) {
      const Operation& op = *reshards[i + kValues];
      if (op.numOperands() > 0 && op.operandValue(0)) prefetch(op.operandValue(0));
      if (op.numResults() > 0 && op.result(0)->firstUse()) prefetch(op.result(0)->firstUse());
    }
    if (i + kNeighbours < reshards.size()) {
      const Operation& op = *reshards[i + kNeighbours];
      if (op.numOperands() > 0 && op.operandValue(0) && op.operandValue(0)->definingOp())
        prefetchOp(op.operandValue(0)->definingOp());
      if (op.numResults() > 0 && op.result(0)->firstUse()) prefetchOp(op.result(0)->firstUse()->owner());
    }
  }

  /// One more reshard lowered by `function` (a memo's plan's, which
  /// outlives the count): counted here, added to the statistics once per
  /// function after the walk, in the order first met, as adding each would.
  void countLowered(std::string_view function) {
    for (auto& [f, count] : lowered_)
      if (f == function) {
        ++count;
        return;
      }
    lowered_.emplace_back(function, 1);
  }

  /// The planner and its cost model, from the options.
  Result<lowering::PlanRequest> planRequest() { return lowering::planRequestOf(planner_, costModel_.value(), model_); }

  Option<int> rank_{this, "rank", "the global rank to lower for (-1: the program's own rank)", -1, -1, kMaxRank};
  EnumOption<lowering::Planner> planner_{
      this, "planner", "planner (paddle: Paddle's functions in registry order; cost: the fewest bytes)",
      lowering::Planner::Paddle, lowering::kPlannerNames};
  Option<std::string> costModel_{this, "cost-model", "the cost planner's alpha-beta model (YAML); defaults if empty",
                                 ""};
  lowering::PlanRequest request_;
  std::shared_ptr<lowering::CostModel> model_;
  std::vector<std::pair<std::string_view, int64_t>> lowered_;  // reshards lowered by each plan function
  size_t left_ = 0;                                            // fake reshards made, which stay
};

}  // namespace

void registerLowerReshardPass() { registerPass<LowerReshardPass>(); }

}  // namespace pir::passes
