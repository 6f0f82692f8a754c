//===- ring_plan.cpp - every ring a program's lowering needs --------------===//
#include "passes/ring_plan.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>

#include "core/attr_access.h"
#include "core/hash.h"
#include "core/operation.h"
#include "core/types.h"
#include "passes/lowering/plan.h"

namespace pir::passes {

using namespace pir::core;

int64_t maxRingId(const Program& program) {
  int64_t best = -1;
  walk(program.body(), [&](const Operation& op) {
    if (std::optional<int64_t> id = getInt64(op.attr("ring_id"))) best = std::max(best, *id);
  });
  return best;
}

Result<ProcessGroupTable> planRings(const Program& program, const lowering::PlanRequest& request) {
  // The first new id is base + 2: above every id the input holds.
  ProcessGroupTable table(std::max(ProcessGroupTable::kPaddleBaseRingId, maxRingId(program) - 1));
  Status status = Status::ok();
  lowering::PlanMemo memo;
  // Reshards repeat a few (source type, result type) pairs, and a pair's
  // rings are all made at its first reshard: the rest change nothing.
  struct PairHash {
    size_t operator()(const std::pair<const Type*, const Type*>& p) const {
      return hashMix(reinterpret_cast<uintptr_t>(p.first), reinterpret_cast<uintptr_t>(p.second));
    }
  };
  std::unordered_set<std::pair<const Type*, const Type*>, PairHash> planned;
  walk(program.body(), [&](const Operation& op) {
    if (!status.isOk() || op.name() != "dist_op.reshard" || op.numOperands() != 1 || op.numResults() != 1) return;
    const Value* in = op.operandValue(0);
    if (!in || !planned.insert({in->type(), op.result(0)->type()}).second) return;
    const TensorDistAttr* src = distAttrOf(in->type());
    const TensorDistAttr* dst = distAttrOf(op.result(0)->type());
    if (!src || !dst) return;  // lower-reshard reports these where it meets them
    auto dims = tensorShape(in->type())->dims;
    const Result<lowering::ReshardPlan>& plan =
        memo.planFor(program.context(), in->type(), op.result(0)->type(), request);
    if (!plan) {
      status = plan.status();
      return;
    }
    for (const lowering::Step& step : plan->steps)
      lowering::forEachRing(
          step, [&](std::span<const int64_t> ranks) { table.getOrCreate(ranks); }, dims);
  });
  if (!status.isOk()) return status;
  return table;
}

}  // namespace pir::passes
