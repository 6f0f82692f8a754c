//===- dist_attr.cpp - what Paddle refuses in meshes and placements -------===//
#include "core/dist_attr.h"

#include <algorithm>
#include <vector>

namespace pir::core {

namespace {

std::string meshDimText(size_t i) { return "mesh dim " + std::to_string(i); }

/// How a placement is written, for messages.
std::string placementText(const Placement& p) {
  switch (p.kind) {
    case Placement::Kind::Shard:
      return "Shard(dim=" + std::to_string(p.dim) + ")";
    case Placement::Kind::Partial:
      return "Partial(reduce_type=" + std::string(reduceTypeName(p.reduce)) + ")";
    case Placement::Kind::Replicate:
      break;
  }
  return "Replicate()";
}

/// Whether dims_mapping and partial are sound on a mesh of `rank` dims (each
/// mesh dim sharded or partial at most once, never both), as the verifier
/// requires; only then do placements have one meaning to be checked against.
bool soundMapping(size_t rank, std::span<const int64_t> dims, std::span<const PartialEntry> partial) {
  uint64_t small = 0;  // meshes of up to 64 dims (all real ones) need no allocation
  std::vector<bool> large(rank > 64 ? rank : 0);
  auto take = [&](int64_t m) {
    if (m < 0 || static_cast<size_t>(m) >= rank) return false;
    size_t i = static_cast<size_t>(m);
    bool seen = rank > 64 ? large[i] : (small >> i & 1) != 0;
    if (seen) return false;
    if (rank > 64)
      large[i] = true;
    else
      small |= uint64_t{1} << i;
    return true;
  };
  for (int64_t d : dims)
    if (d != -1 && !take(d)) return false;
  for (const PartialEntry& p : partial)
    if (!take(p.meshDim)) return false;
  return true;
}

}  // namespace

std::optional<MeshFault> meshFault(std::span<const int64_t> shape, std::span<const int64_t> ids) {
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] <= 0)
      return MeshFault{true, i,
                       "mesh dimension " + std::to_string(i) + " has size " + std::to_string(shape[i]) +
                           "; a mesh dimension holds at least one process"};
  bool increasing = true;  // the common case, 0,1,2,...: no copy needed to see that ids are unique
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0) return MeshFault{false, i, "process id " + std::to_string(ids[i]) + " is negative"};
    if (i > 0 && ids[i] <= ids[i - 1]) increasing = false;
  }
  if (increasing) return std::nullopt;
  std::vector<std::pair<int64_t, size_t>> sorted;
  sorted.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) sorted.emplace_back(ids[i], i);
  std::sort(sorted.begin(), sorted.end());
  // Of all repeats, the one reported is the earliest second occurrence.
  size_t at = ids.size();
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first == sorted[i - 1].first) at = std::min(at, sorted[i].second);
  if (at == ids.size()) return std::nullopt;
  return MeshFault{false, at,
                   "process id " + std::to_string(ids[at]) + " appears twice in the mesh; its ids must be unique"};
}

std::optional<PlacementFault> placementsFault(size_t meshRank, std::span<const int64_t> dimsMapping,
                                              std::span<const PartialEntry> partial,
                                              std::span<const Placement> placements) {
  if (placements.size() != meshRank)
    return PlacementFault{PlacementFault::kWholeList, std::to_string(placements.size()) + " placement" +
                                                          (placements.size() == 1 ? "" : "s") + " for a mesh of rank " +
                                                          std::to_string(meshRank) + "; there is one per mesh dim"};
  if (!soundMapping(meshRank, dimsMapping, partial)) return std::nullopt;
  for (size_t i = 0; i < meshRank; ++i) {
    const Placement& p = placements[i];
    auto fault = [&](std::string why) { return PlacementFault{i, placementText(p) + " on " + meshDimText(i) + why}; };
    auto sharded = std::find(dimsMapping.begin(), dimsMapping.end(), static_cast<int64_t>(i));
    auto part = std::find_if(partial.begin(), partial.end(),
                             [&](const PartialEntry& e) { return e.meshDim == static_cast<int64_t>(i); });
    if (sharded != dimsMapping.end()) {
      int64_t d = sharded - dimsMapping.begin();
      if (p.kind != Placement::Kind::Shard || p.dim != d)
        return fault(", but dims_mapping shards tensor dim " + std::to_string(d) +
                     " on it (Shard(dim=" + std::to_string(d) + ") expected)");
    } else if (part != partial.end()) {
      if (p.kind != Placement::Kind::Partial || p.reduce != part->reduce)
        return fault(", but the mesh dim is partial(" + std::to_string(i) + "," +
                     std::string(reduceTypeName(part->reduce)) + ")");
    } else if (p.kind == Placement::Kind::Partial) {
      return fault(", which is not partial");
    } else if (p.kind == Placement::Kind::Shard) {
      // Co-sharding: tensor dim d is split over this mesh dim and the one
      // dims_mapping names for it.
      if (p.dim < 0 || static_cast<size_t>(p.dim) >= dimsMapping.size())
        return fault(", but the tensor has " + std::to_string(dimsMapping.size()) + " dim(s)");
      if (dimsMapping[static_cast<size_t>(p.dim)] == -1)
        return fault(", but dims_mapping does not shard tensor dim " + std::to_string(p.dim));
    }
  }
  return std::nullopt;
}

}  // namespace pir::core
