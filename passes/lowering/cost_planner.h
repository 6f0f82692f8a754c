//===- cost_planner.h - the reshard plan that moves the fewest bytes -*- C++ -*-===//
//
// `lower-reshard{planner=cost}`: a search over the states of the tensor on
// its meshes for the plan whose busiest rank sends plus receives the fewest
// bytes (cost_model.h's byte model: what the runtime will count), ties
// broken by the alpha-beta time, then by fewer steps.
//
// A state is a placement per mesh dim, R, P(type) or S(axis) (a tensor axis
// on at most one mesh dim: the dims_mapping model; co-shard is out, see
// docs/passes.md), on the source or the destination mesh. Its edges:
//   - along one mesh dim: S(a)->R all_gather, S(a)->S(b) all-to-all,
//     P(t)->R all_reduce, P(SUM)->S(b) reduce_scatter, R->S(b) slice and
//     R->P(t) (local; only to the destination's type on that dim);
//   - over several mesh dims at once, P(t) on each -> R: one all_reduce over
//     the flattened sub-mesh;
//   - from the source mesh to the destination: SameStatus (the same
//     placements, rank i to rank i, partial kept) when the meshes have one
//     shape, and Move (move.h) from any state without partial to any such
//     state of the destination, each piece from the replica holding it that
//     sent the least so far.
// The search is best-first on (max over ranks of summed bytes, time,
// steps), which only grow along a path, so the first plan reaching the
// destination is the cheapest; a path whose every rank's bytes and time are
// no better than another's at the same state is dropped. Paddle's own plan
// is costed too and kept when the search finds nothing cheaper.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <span>

#include "core/context.h"
#include "core/status.h"
#include "passes/lowering/cost_model.h"
#include "passes/lowering/plan.h"

namespace pir::passes::lowering {

/// The cheapest plan of the reshard of a tensor of global `dims` (elements
/// of `elementBytes`) from `src` to `dst`, function "cost". An error when
/// the search cannot run (a dynamic dim, a mesh dim both sharded and
/// partial, partials of different types, a search past its bound): the
/// caller falls back to Paddle's plan.
core::Result<ReshardPlan> planByCost(core::Context& ctx, const core::TensorDistAttr* src,
                                     const core::TensorDistAttr* dst, std::span<const int64_t> dims,
                                     uint64_t elementBytes, const CostModel& model);

}  // namespace pir::passes::lowering
