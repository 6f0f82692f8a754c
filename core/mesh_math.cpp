//===- mesh_math.cpp - ranks, sub-meshes and shard pieces ------------------===//
#include "core/mesh_math.h"

#include <algorithm>

#include "core/context.h"

namespace pir::core {

namespace {

/// Whether the shape holds exactly the mesh's ids, each dim at least 1.
bool wellFormed(const ProcessMesh& mesh) {
  size_t n = 1;
  size_t ids = mesh.processIds().size();
  for (int64_t d : mesh.shape()) {
    if (d < 1 || static_cast<uint64_t>(d) > ids) return false;
    n *= static_cast<size_t>(d);
    if (n > ids) return false;
  }
  return n == ids;
}

/// Row-major stride of mesh dim `m`: the product of the dims after it.
size_t strideOf(std::span<const int64_t> shape, size_t m) {
  size_t s = 1;
  for (size_t i = m + 1; i < shape.size(); ++i) s *= static_cast<size_t>(shape[i]);
  return s;
}

/// Whether dims_mapping fits a tensor of `rank` dims on `mesh`.
bool mappingFits(const TensorDistAttr& dist, size_t rank) {
  auto dims = dist.dimsMapping();
  if (dims.size() != rank) return false;
  int64_t ndim = static_cast<int64_t>(dist.mesh()->ndim());
  return std::all_of(dims.begin(), dims.end(), [&](int64_t m) { return m == -1 || (m >= 0 && m < ndim); });
}

}  // namespace

std::optional<size_t> meshIndexOf(const ProcessMesh& mesh, int64_t rank) {
  if (!wellFormed(mesh)) return std::nullopt;
  auto ids = mesh.processIds();
  auto it = std::find(ids.begin(), ids.end(), rank);
  if (it == ids.end()) return std::nullopt;
  return static_cast<size_t>(it - ids.begin());
}

std::optional<std::vector<int64_t>> meshCoordinate(const ProcessMesh& mesh, int64_t rank) {
  std::optional<size_t> index = meshIndexOf(mesh, rank);
  if (!index) return std::nullopt;
  auto shape = mesh.shape();
  std::vector<int64_t> coord(shape.size());
  size_t rest = *index;
  for (size_t i = shape.size(); i-- > 0;) {
    coord[i] = static_cast<int64_t>(rest % static_cast<size_t>(shape[i]));
    rest /= static_cast<size_t>(shape[i]);
  }
  return coord;
}

std::vector<int64_t> subMeshRanks(const ProcessMesh& mesh, size_t meshDim, int64_t rank) {
  if (meshDim >= mesh.ndim() || mesh.processIds().empty()) return {};
  std::optional<size_t> index = meshIndexOf(mesh, rank);
  if (!index) index = meshIndexOf(mesh, mesh.processIds()[0]);  // Paddle's fallback for non-members
  if (!index) return {};                                        // malformed
  auto shape = mesh.shape();
  auto ids = mesh.processIds();
  size_t stride = strideOf(shape, meshDim);
  size_t n = static_cast<size_t>(shape[meshDim]);
  // Step back to coordinate 0 on meshDim, then walk along it.
  size_t base = *index - (*index / stride % n) * stride;
  std::vector<int64_t> out(n);
  for (size_t k = 0; k < n; ++k) out[k] = ids[base + k * stride];
  return out;
}

std::vector<int64_t> flatSubMeshRanks(const ProcessMesh& mesh, uint32_t meshDims, int64_t rank) {
  if (mesh.processIds().empty() || (mesh.ndim() < 32 && (meshDims >> mesh.ndim()) != 0)) return {};
  std::optional<std::vector<int64_t>> at = meshCoordinate(mesh, rank);
  if (!at) at = meshCoordinate(mesh, mesh.processIds()[0]);
  if (!at) return {};
  std::vector<int64_t> out;
  auto ids = mesh.processIds();
  for (size_t i = 0; i < ids.size(); ++i) {
    std::optional<std::vector<int64_t>> c = meshCoordinate(mesh, ids[i]);
    bool same = c.has_value();
    for (size_t m = 0; same && m < c->size(); ++m)
      if (!(meshDims >> m & 1u) && (*c)[m] != (*at)[m]) same = false;
    if (same) out.push_back(ids[i]);
  }
  return out;
}

const ProcessMesh* subMesh1D(Context& ctx, const ProcessMesh& mesh, size_t meshDim, int64_t rank) {
  std::vector<int64_t> ranks = subMeshRanks(mesh, meshDim, rank);
  if (ranks.empty()) return nullptr;
  int64_t shape[] = {static_cast<int64_t>(ranks.size())};
  auto names = mesh.dimNames();
  std::span<const std::string_view> name = meshDim < names.size() ? names.subspan(meshDim, 1) : names.first(0);
  return ctx.processMesh(shape, ranks, name);
}

ShardPiece shardPiece(int64_t dimSize, int64_t parts, int64_t index) {
  if (dimSize < 0) return {-1, -1};
  if (parts < 1) parts = 1;
  if (index < 0 || index >= parts) return {dimSize, dimSize};
  int64_t c = dimSize / parts + (dimSize % parts != 0);
  // index * c may pass int64 for a dim near its limit: past dimSize either way.
  int64_t begin, end;
  if (__builtin_mul_overflow(index, c, &begin)) begin = dimSize;
  if (__builtin_mul_overflow(index + 1, c, &end)) end = dimSize;
  return {std::min(begin, dimSize), std::min(end, dimSize)};
}

std::vector<ShardPiece> shardPieces(int64_t dimSize, int64_t parts) {
  std::vector<ShardPiece> out;
  for (int64_t i = 0; i < std::max<int64_t>(parts, 1); ++i) out.push_back(shardPiece(dimSize, parts, i));
  return out;
}

std::optional<std::vector<int64_t>> localShape(std::span<const int64_t> globalShape, const TensorDistAttr& dist,
                                               int64_t rank) {
  if (!mappingFits(dist, globalShape.size())) return std::nullopt;
  std::optional<std::vector<int64_t>> coord = meshCoordinate(*dist.mesh(), rank);
  if (!coord) return std::nullopt;
  auto meshShape = dist.mesh()->shape();
  auto dims = dist.dimsMapping();
  std::vector<int64_t> out(globalShape.begin(), globalShape.end());
  for (size_t i = 0; i < out.size(); ++i)
    if (dims[i] >= 0 && out[i] >= 0) out[i] = shardPiece(out[i], meshShape[dims[i]], (*coord)[dims[i]]).size();
  return out;
}

std::optional<std::vector<ShardPiece>> pieceBox(std::span<const int64_t> globalShape, const TensorDistAttr& dist,
                                                int64_t rank) {
  if (!mappingFits(dist, globalShape.size())) return std::nullopt;
  std::optional<std::vector<int64_t>> coord = meshCoordinate(*dist.mesh(), rank);
  if (!coord) return std::nullopt;
  auto meshShape = dist.mesh()->shape();
  auto dims = dist.dimsMapping();
  std::vector<ShardPiece> out;
  for (size_t i = 0; i < globalShape.size(); ++i) {
    if (globalShape[i] < 0) return std::nullopt;
    out.push_back(dims[i] >= 0 ? shardPiece(globalShape[i], meshShape[dims[i]], (*coord)[dims[i]])
                               : ShardPiece{0, globalShape[i]});
  }
  return out;
}

std::optional<std::vector<int64_t>> uniformLocalShape(std::span<const int64_t> globalShape,
                                                      const TensorDistAttr& dist) {
  if (!mappingFits(dist, globalShape.size())) return std::nullopt;
  auto meshShape = dist.mesh()->shape();
  auto dims = dist.dimsMapping();
  std::vector<int64_t> out(globalShape.begin(), globalShape.end());
  for (size_t i = 0; i < out.size(); ++i) {
    if (dims[i] < 0 || out[i] < 0) continue;
    int64_t n = std::max<int64_t>(meshShape[dims[i]], 1);
    out[i] = out[i] / n + (out[i] % n != 0);
  }
  return out;
}

std::vector<Placement> meshDimStatuses(const TensorDistAttr& dist) {
  int64_t ndim = static_cast<int64_t>(dist.mesh()->ndim());
  std::vector<Placement> out(static_cast<size_t>(ndim));
  auto dims = dist.dimsMapping();
  for (size_t axis = 0; axis < dims.size(); ++axis)
    if (dims[axis] >= 0 && dims[axis] < ndim)
      out[dims[axis]] = Placement{Placement::Kind::Shard, ReduceType::Sum, static_cast<int64_t>(axis), 1};
  for (const PartialEntry& p : dist.partial())
    if (p.meshDim >= 0 && p.meshDim < ndim) out[p.meshDim] = Placement{Placement::Kind::Partial, p.reduce, 0, 1};
  return out;
}

PartialShare partialShare(ReduceType reduce, bool keeper) {
  if (keeper) return {};
  switch (reduce) {
    case ReduceType::Sum:
      return {false, 0.0};
    case ReduceType::Product:
      return {false, 1.0};
    default:
      return {};
  }
}

}  // namespace pir::core
