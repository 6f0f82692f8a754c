//===- cost_model.h - what a reshard step moves and how long it takes -*- C++ -*-===//
//
// The byte model of every reshard step (plan.h), per rank: exactly the
// payload bytes the emitted ops make the communicators move (what
// summary.yaml's bytes_sent / bytes_received count, runtime/comm/): the
// all_gather of a padded uneven piece moves the padding, an all_reduce is
// chunked by elements as the backends chunk it, a send moves the piece it
// sends. The cost planner minimizes the largest per-rank sent + received of
// a plan; the alpha-beta time below only breaks ties.
//
// Time, in microseconds, of one step: base + alpha * hops + bytes / beta,
// with the alpha (per hop) and beta (GB/s) of the mesh dim it runs along
// (flattened: the slowest of its dims; between meshes: the cross-mesh
// link), hops n-1 for a gather, scatter, all-to-all or broadcast over n
// ranks and 2(n-1) for an all_reduce, the most messages one rank sends for
// a move, and bytes the most one rank sends or receives. Local steps
// (slices, R->P) take no time. The defaults are DTensor's
// (_collective_utils.py): 6.6 us base, 0.6 us per hop at 87.7 GB/s within
// a host; across meshes the inter-host figures, 2.7 us at 0.22 of that.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "passes/lowering/plan.h"

namespace pir::passes::lowering {

struct LinkCost {
  double alphaUs = 0.6;    // per hop
  double betaGBps = 87.7;  // bandwidth
};

struct CostModel {
  double baseUs = 6.6;
  std::vector<LinkCost> meshDims;  // per mesh dim; a dim past the list takes `other`
  LinkCost other{};
  LinkCost crossMesh{2.7, 87.7 * 0.22};
  LinkCost link(size_t meshDim) const { return meshDim < meshDims.size() ? meshDims[meshDim] : other; }
};

/// Reads a cost model YAML file: `base_us`, `mesh_dims` (a list of
/// {alpha_us, beta_gbps}), `other` and `cross_mesh` (each {alpha_us,
/// beta_gbps}); what is not given keeps its default.
core::Result<CostModel> loadCostModel(const std::string& path);
core::Result<CostModel> parseCostModel(const std::string& text);

/// The request of a pass's `planner` and `cost-model` options: the model
/// read from `path` (none: the defaults) is kept in `keep`, which must
/// outlive the request.
core::Result<PlanRequest> planRequestOf(Planner planner, const std::string& path, std::shared_ptr<CostModel>& keep);

/// What one rank moves.
struct RankBytes {
  uint64_t sent = 0;
  uint64_t received = 0;
  uint64_t total() const { return sent + received; }
  bool operator==(const RankBytes&) const = default;
};
using BytesByRank = std::map<int64_t, RankBytes>;

/// What one step costs: each rank's bytes and the step's time.
struct StepCost {
  BytesByRank bytes;
  double micros = 0;
};

/// The cost of `step` on a tensor of global `dims` with elements of
/// `elementBytes`. An error for a dynamic dim or a layout that does not
/// fit the dims.
core::Result<StepCost> stepCost(const Step& step, std::span<const int64_t> dims, uint64_t elementBytes,
                                const CostModel& model);

/// A plan's cost: each rank's bytes over all steps, the largest total, the
/// summed time.
struct PlanCost {
  BytesByRank bytes;
  uint64_t maxBytes = 0;  // max over ranks of sent + received
  double micros = 0;
};
core::Result<PlanCost> planCost(std::span<const Step> steps, std::span<const int64_t> dims, uint64_t elementBytes,
                                const CostModel& model);

}  // namespace pir::passes::lowering
