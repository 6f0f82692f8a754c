//===- plan.h - how a reshard decomposes, the same on every rank -*- C++ -*-===//
//
// The rank-independent half of lowering one `dist_op.reshard`: which of
// Paddle's reshard functions handles it (`choose_reshard_func`, the first
// suitable in reshard_func_register.py's order), and the 1-D steps it
// decomposes into (decompose_reshard_pass's SameStatus split of a cross-mesh
// reshard, NdMesh's shards / partials / R->P / slices order). Each step
// names the rings it talks on, so the ring plan (ring_plan.h) and the
// per-rank emission (lower_reshard.cpp) walk one decomposition.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/context.h"
#include "core/dist_attr.h"
#include "core/status.h"
#include "core/types.h"

namespace pir::passes::lowering {

/// What one step runs: a 1-D reshard function of Paddle's, along one mesh
/// dim, or a point-to-point copy between two meshes of the same shape.
enum class StepKind : uint8_t {
  PToR,         // all_reduce
  PToS,         // (transpose) reduce_scatter (transpose), SUM only
  SToR,         // all_gather (split_with_num, concat)
  RToS,         // slice
  RToP,         // assign on the mesh's first rank, zeros elsewhere
  SToS,         // (reshape, transpose, reshape) all_to_all (reshape, transpose, reshape)
  SameStatus,   // send_v2 / recv_v2 between zipped ranks of two meshes
  Broadcast,    // general path: each rank of the destination lacking the value receives it
  GlobalToSub,  // replicated value onto a sub-mesh: retyped or share_data_
  SubToGlobal,  // replicated value from a sub-mesh: share_data_ / zeros, then pd_op.broadcast
  // The cost planner's own steps (lower-reshard{planner=cost}, cost_planner.h):
  AllToAll,       // S(axis) -> S(toAxis) along meshDim: each rank's blocks to the others (send_v2 / recv_v2)
  AllReduceFlat,  // P(reduce) -> R on every mesh dim of meshDims at once: one all_reduce over the flattened sub-mesh
  Move,           // another mesh: each destination rank's box from a source rank holding it (move.h)
};

/// One step: the value goes from `from` to `to` (both whole-mesh attrs;
/// for SameStatus and Broadcast on different meshes). For collective and
/// slicing steps `meshDim` is the mesh dim the 1-D function runs along and
/// `axis` the tensor axis it cuts or gathers (-1: none).
struct Step {
  StepKind kind;
  const core::TensorDistAttr* from;
  const core::TensorDistAttr* to;
  int64_t meshDim = 0;
  int64_t axis = -1;
  core::ReduceType reduce = core::ReduceType::Sum;
  int64_t toAxis = -1;
  uint32_t meshDims = 0;  // AllReduceFlat: the mesh dims, one bit each
};

/// Who plans: Paddle's registry order (the default, what the goldens pin),
/// or the search for the fewest bytes (cost_planner.h).
enum class Planner : uint8_t { Paddle, Cost };

/// The planners by the name that lower-reshard's and split-ranks' `planner`
/// options and ranks.yaml give them.
inline const std::vector<std::pair<std::string_view, Planner>> kPlannerNames = {{"paddle", Planner::Paddle},
                                                                                {"cost", Planner::Cost}};
std::string_view plannerName(Planner planner);

struct CostModel;

/// What planReshard needs beyond the two attrs: the planner, and for the
/// cost planner the element size and the alpha-beta model (null: defaults).
struct PlanRequest {
  Planner planner = Planner::Paddle;
  uint64_t elementBytes = 4;
  const CostModel* model = nullptr;
};

/// `base` with the element size of a value of type `valueType` (a dense or
/// dist tensor type; 4 when it has no known dtype).
PlanRequest requestFor(PlanRequest base, const core::Type* valueType);

/// The function Paddle's registry picks, or the path taken where it has
/// none: the names `--pass-statistics` counts under. The cost planner's
/// plans are "cost", or "cost fallback: F" when it found none and took
/// Paddle's F.
struct ReshardPlan {
  std::string function;     // "PToR", "SameStatus+SToR", "NdMesh", "general", "cost", ...
  std::vector<Step> steps;  // empty: the two attrs lay the tensor out alike
};

/// Plans the reshard of a tensor of global `dims` from `src` to `dst`
/// (Paddle's planner: dims decide only whether SToS's even split applies).
core::Result<ReshardPlan> planReshard(core::Context& ctx, const core::TensorDistAttr* src,
                                      const core::TensorDistAttr* dst, std::span<const int64_t> dims = {},
                                      const PlanRequest& request = {});

/// planReshard's answers by their arguments, for a pass that plans every
/// reshard of one Context's program: a program repeats a few (src, dst,
/// dims) triples many times, and the cost planner's search is dear (about
/// half a millisecond). Attrs are interned, so their pointers name them; the
/// memo must not outlive the Context. Not thread-safe: one a pass run. A
/// lookup hashes its arguments and copies nothing (every reshard asks: 48k
/// times a rank of the 100k-op benchmark program).
class PlanMemo {
 public:
  const core::Result<ReshardPlan>& plan(core::Context& ctx, const core::TensorDistAttr* src,
                                        const core::TensorDistAttr* dst, std::span<const int64_t> dims,
                                        const PlanRequest& request);
  /// plan() for a reshard from a value of dist type `in` to one of dist type
  /// `out`: their attrs, `in`'s dims and requestFor(`base`, `in`). Types are
  /// interned and fix those arguments, so the answer is also kept in a slot
  /// by the two types' addresses and `base`: hashing the arguments was 285
  /// instructions a reshard, and every reshard of a rank asks.
  const core::Result<ReshardPlan>& planFor(core::Context& ctx, const core::Type* in, const core::Type* out,
                                           const PlanRequest& base);

 private:
  struct ByTypes {
    const core::Type* in = nullptr;
    const core::Type* out = nullptr;
    PlanRequest base;
    const core::Result<ReshardPlan>* plan = nullptr;
  };
  static constexpr unsigned kByTypesBits = 8;
  ByTypes byTypes_[size_t{1} << kByTypesBits];  // a slot overwritten on a clash costs plan()'s lookup again

  struct Entry {
    const core::TensorDistAttr* src;
    const core::TensorDistAttr* dst;
    std::vector<int64_t> dims;
    PlanRequest request;
    core::Result<ReshardPlan> plan;
  };
  // The arguments' hash -> the entries made for it. Nodes stay where they
  // are when the table grows: callers hold references to the answers.
  std::unordered_multimap<uint64_t, Entry> byHash_;
};

/// Paddle's plan alone (planReshard with Planner::Paddle).
core::Result<ReshardPlan> planPaddle(core::Context& ctx, const core::TensorDistAttr* src,
                                     const core::TensorDistAttr* dst, std::span<const int64_t> dims);

/// A step's name in explanations: "PToR", "AllToAll", ...
std::string_view stepName(StepKind kind);

/// The ranks of every ring `step` talks on, over all ranks, in the one
/// canonical order: collectives along mesh dim m visit the 1-D sub-meshes
/// along m in the order their first rank appears in the mesh's process ids,
/// each as its sorted ranks; SameStatus visits the zipped pairs (s, d) with
/// s != d in order, each as [s, d] then [d, s] (Paddle creates both); the
/// general path's copy visits each receiving destination rank d, in the
/// destination's order, as [s, d]; SubToGlobal the destination's sorted
/// ranks. The cost planner's steps: AllReduceFlat the flattened sub-meshes
/// (sorted) by where their first rank appears; AllToAll, per sub-mesh
/// along its mesh dim, [g_i, g_j] for every ordered pair of members with a
/// non-empty block (i, then j, in mesh order), and Move [s, d] for each of
/// its transfers (move.h) between two ranks: both need the tensor's global
/// `dims`. A step that needs no ring visits none.
void forEachRing(const Step& step, const std::function<void(std::span<const int64_t>)>& visit,
                 std::span<const int64_t> dims = {});

/// The sender the general path's copy takes for the destination rank at
/// position `index` of the ranks that lack the value: the source mesh's
/// process ids, round robin.
int64_t broadcastSender(const core::ProcessMesh& src, size_t index);

/// The destination ranks the general path's copy sends to: those of `dst`
/// not in `src`, in `dst`'s order.
std::vector<int64_t> broadcastReceivers(const core::ProcessMesh& src, const core::ProcessMesh& dst);

}  // namespace pir::passes::lowering
