//===- mesh_math.h - ranks, sub-meshes and shard pieces ----------*- C++ -*-===//
//
// The arithmetic of a process mesh and of a tensor laid out on it, as the
// reshard lowering and the runner need it: where a rank sits in a mesh, the
// 1-D sub-mesh through it along one mesh dim (Paddle's
// `get_1D_sub_process_mesh`), which piece of a tensor dim each rank holds,
// the local shape a rank holds, and the per-mesh-dim placements of a
// TensorDistAttr.
//
// A mesh lays its process ids out row-major over its shape: ids[i] sits at
// the coordinate whose row-major index is i. Functions here are total: a
// malformed mesh (shape product != number of ids, a dim < 1; the verifier
// rejects those) or a rank outside the mesh gives the "nothing" answer each
// function documents, never undefined behaviour.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/dist_attr.h"

namespace pir::core {

class Context;

/// Where `rank` sits in `mesh`'s process ids (its first occurrence), or
/// nullopt when it is not there or the mesh is malformed.
std::optional<size_t> meshIndexOf(const ProcessMesh& mesh, int64_t rank);

/// The coordinate of `rank` in `mesh`, one entry per mesh dim, row-major over
/// the shape by the rank's position in the process ids: in [[2,3],[6,7]]
/// rank 6 is at {1, 0}. nullopt when the rank is not in the mesh (or the
/// mesh is malformed); a 0-d mesh gives its one rank the empty coordinate.
std::optional<std::vector<int64_t>> meshCoordinate(const ProcessMesh& mesh, int64_t rank);

/// The ranks of the 1-D sub-mesh through `rank` along mesh dim `meshDim`,
/// as Paddle's `get_1D_sub_process_mesh` computes them: the ranks whose
/// coordinate differs from `rank`'s only on `meshDim`, in order of that
/// coordinate. In [[0,1,2],[3,4,5]], along dim 0 rank 4 gives [1,4], along
/// dim 1 it gives [3,4,5]. A rank not in the mesh goes through the mesh's
/// first process id, as Paddle does (its pipeline-parallel fallback). Empty
/// when `meshDim` is out of range or the mesh is malformed or empty.
std::vector<int64_t> subMeshRanks(const ProcessMesh& mesh, size_t meshDim, int64_t rank);

/// The ranks of the sub-mesh through `rank` over several mesh dims at once
/// (`meshDims`, one bit per mesh dim): those whose coordinate differs from
/// `rank`'s only on those dims, in the mesh's (row-major) order. A rank not
/// in the mesh goes through the first process id, as subMeshRanks(). Empty
/// when a bit is out of range or the mesh is malformed or empty.
std::vector<int64_t> flatSubMeshRanks(const ProcessMesh& mesh, uint32_t meshDims, int64_t rank);

/// subMeshRanks() as an interned 1-D mesh of that many ranks, named after
/// `meshDim` when `mesh` has dim names (Paddle keeps `dim_names[meshDim]`),
/// unnamed otherwise. Null when subMeshRanks() is empty.
const ProcessMesh* subMesh1D(Context& ctx, const ProcessMesh& mesh, size_t meshDim, int64_t rank);

/// The half-open range `[begin, end)` of a tensor dim one rank holds.
struct ShardPiece {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
  bool operator==(const ShardPiece&) const = default;
};

/// The piece the rank at index `index` (0 <= index < parts) holds of a dim
/// of size `dimSize` split in `parts`: `[min(index*c, D), min((index+1)*c, D))`
/// with `c = ceil(D / parts)`, so 5 on 4 gives sizes 2,2,1,0 and 9 on 2 gives
/// 5,4 (Paddle's R->S slice bounds). A dynamic dim (D < 0) has no known
/// piece: {-1, -1}. `parts` < 1 is taken as 1; an index outside [0, parts)
/// gets the empty piece {D, D}.
ShardPiece shardPiece(int64_t dimSize, int64_t parts, int64_t index);

/// The pieces of all `parts` ranks, in order (shardPiece() of each index).
std::vector<ShardPiece> shardPieces(int64_t dimSize, int64_t parts);

/// The shape `rank` holds of a tensor of `globalShape` distributed by
/// `dist`: a tensor dim mapped to mesh dim m is the size of the rank's piece
/// along m (shardPiece(D, mesh.shape[m], coordinate[m])); replicated and
/// partial dims keep D; a dynamic -1 stays -1. This is the true piece size,
/// not Paddle's type-level `InferLocalDDim`, which says ceil(D / n) on every
/// rank (see uniformLocalShape()). nullopt when the rank is not in the mesh
/// (it holds nothing of the tensor), the mesh is malformed, or dims_mapping
/// does not fit (a length other than the shape's, a mesh dim out of range).
std::optional<std::vector<int64_t>> localShape(std::span<const int64_t> globalShape, const TensorDistAttr& dist,
                                               int64_t rank);

/// The box `rank` holds of a tensor of `globalShape` laid out by `dist`: for
/// each tensor dim its piece (shardPiece along its mesh dim, the whole dim
/// when unmapped; partial dims hold the whole dim too). nullopt as for
/// localShape(), and for a dynamic dim.
std::optional<std::vector<ShardPiece>> pieceBox(std::span<const int64_t> globalShape, const TensorDistAttr& dist,
                                                int64_t rank);

/// Paddle's type-level local shape (`InferLocalDDim` from dims_mapping, what
/// `dist_to_dense` writes as the dense type): ceil(D / mesh.shape[m]) for
/// each mapped dim, the same on every rank. A dynamic -1 stays -1 (Paddle's
/// integer division would turn it into 0). nullopt when dims_mapping does not
/// fit, as in localShape().
std::optional<std::vector<int64_t>> uniformLocalShape(std::span<const int64_t> globalShape, const TensorDistAttr& dist);

/// What `dist` does on each mesh dim, one Placement per mesh dim (Paddle's
/// placements view, derived from dims_mapping and partial): Shard with `dim`
/// the tensor axis mapped to it, Partial with its reduce type, or Replicate.
/// Shards always have splitFactor 1; the attr's own printed placements (and
/// their co-shard split factors) are not consulted. Input the verifier
/// rejects gets a defined answer: a mesh dim that is both sharded and
/// partial reads Partial (the pending reduction is what a reshard must not
/// lose); a mesh dim mapped from two tensor axes reads Shard of the last one;
/// out-of-range mesh dims are ignored.
std::vector<Placement> meshDimStatuses(const TensorDistAttr& dist);

/// What a rank holds of a replicated value made partial with `reduce`
/// (R->P): the value itself on the keeper (the first rank along the partial
/// mesh dims), elsewhere the reduction's identity for SUM (0) and PROD (1),
/// and the value for the idempotent reductions (MAX, MIN, AVG, ANY, ALL), so
/// that reducing every rank's share gives the value back. The one rule the
/// lowering's R->P and the runner's slicing of a partial input follow.
struct PartialShare {
  bool keepsValue = true;
  double fill = 0;  // when !keepsValue: every element
};
PartialShare partialShare(ReduceType reduce, bool keeper);

}  // namespace pir::core
