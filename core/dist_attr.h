//===- dist_attr.h - distributed attributes ---------------------*- C++ -*-===//
//
// ProcessMesh, placements, TensorDistAttr and OperationDistAttr, uniqued by
// the Context. Equality follows Paddle's interned attributes: meshes compare
// shape, process ids in order and dim names; tensor dist attrs compare mesh,
// dims_mapping, partial dims with their reduce types (as a set), and
// placements (absent placements differ from present ones, as in Paddle's
// attribute storage). Use `sameDistAttr`, never text, to compare.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include "core/attributes.h"

namespace pir::core {

class ProcessMesh : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::ProcessMesh;
  ProcessMesh(uint64_t h, std::span<const int64_t> shape, std::span<const int64_t> ids,
              std::span<const std::string_view> dimNames)
      : Attribute(kKind, h), shape_(shape), ids_(ids), dimNames_(dimNames) {}
  std::span<const int64_t> shape() const { return shape_; }
  std::span<const int64_t> processIds() const { return ids_; }
  /// Empty unless the text spelled them.
  std::span<const std::string_view> dimNames() const { return dimNames_; }
  size_t ndim() const { return shape_.size(); }

 private:
  std::span<const int64_t> shape_;
  std::span<const int64_t> ids_;
  std::span<const std::string_view> dimNames_;
};

struct Placement {
  enum class Kind : uint8_t { Shard, Replicate, Partial };
  Kind kind = Kind::Replicate;
  ReduceType reduce = ReduceType::Sum;  // Partial only
  int64_t dim = 0;                      // Shard only
  int64_t splitFactor = 1;              // Shard only
  bool operator==(const Placement&) const = default;
};

class PlacementsAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Placements;
  PlacementsAttr(uint64_t h, std::span<const Placement> p) : Attribute(kKind, h), placements_(p) {}
  std::span<const Placement> placements() const { return placements_; }

 private:
  std::span<const Placement> placements_;
};

struct PartialEntry {
  int64_t meshDim;
  ReduceType reduce;
  bool operator==(const PartialEntry&) const = default;
};

class TensorDistAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::TensorDist;
  TensorDistAttr(uint64_t h, const ProcessMesh* mesh, std::span<const int64_t> dimsMapping,
                 std::span<const PartialEntry> partial, const PlacementsAttr* placements)
      : Attribute(kKind, h), mesh_(mesh), dims_(dimsMapping), partial_(partial), placements_(placements) {}

  const ProcessMesh* mesh() const { return mesh_; }
  std::span<const int64_t> dimsMapping() const { return dims_; }
  /// Partial mesh dims in the order read (Paddle prints hash-map order).
  std::span<const PartialEntry> partial() const { return partial_; }
  const PlacementsAttr* placements() const { return placements_; }

  /// The representative of all attrs equal to this one (partial sorted by
  /// mesh dim). Two attrs are equal iff their canonical pointers are equal.
  const TensorDistAttr* canonical() const {
    const TensorDistAttr* c = canonical_.load(std::memory_order_acquire);
    return c ? c : this;
  }

  bool isShard() const;
  bool isPartial() const { return !partial_.empty(); }
  bool isReplicated() const { return !isPartial() && !isShard(); }

 private:
  friend class Context;
  const ProcessMesh* mesh_;
  std::span<const int64_t> dims_;
  std::span<const PartialEntry> partial_;
  const PlacementsAttr* placements_;
  // Set once, by the Context, to the same interned attr whichever thread
  // sets it (--threads: readers compare types while others intern).
  mutable std::atomic<const TensorDistAttr*> canonical_{nullptr};
};

inline bool sameDistAttr(const TensorDistAttr* a, const TensorDistAttr* b) {
  if (a == b) return true;
  if (!a || !b) return false;
  return a->canonical() == b->canonical();
}

/// `op_dist_attr`: the op's mesh, one entry per operand and per result (a
/// TensorDistAttr, an ArrayAttr of them for tensor lists, or a NullAttr), and
/// the chunk id (-1 when unset; `hasChunkId` says whether it was printed).
class OpDistAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::OpDist;
  OpDistAttr(uint64_t h, const ProcessMesh* mesh, std::span<const Attribute* const> operands,
             std::span<const Attribute* const> results, int64_t chunkId, bool hasChunkId)
      : Attribute(kKind, h),
        mesh_(mesh),
        operands_(operands),
        results_(results),
        chunkId_(chunkId),
        hasChunkId_(hasChunkId) {}
  const ProcessMesh* mesh() const { return mesh_; }
  std::span<const Attribute* const> operands() const { return operands_; }
  std::span<const Attribute* const> results() const { return results_; }
  int64_t chunkId() const { return chunkId_; }
  bool hasChunkId() const { return hasChunkId_; }

  /// The operand's TensorDistAttr, or null when absent, null or a list.
  const TensorDistAttr* operandDist(size_t i) const;
  const TensorDistAttr* resultDist(size_t i) const;

 private:
  const ProcessMesh* mesh_;
  std::span<const Attribute* const> operands_;
  std::span<const Attribute* const> results_;
  int64_t chunkId_;
  bool hasChunkId_;
};

/// A mesh Paddle's ProcessMesh refuses: a dimension of size 0 or below, a
/// negative process id, or one that appears twice. `index` is the element
/// of `shape` (`inShape`) or of the process ids at fault.
struct MeshFault {
  bool inShape;
  size_t index;
  std::string message;
};
std::optional<MeshFault> meshFault(std::span<const int64_t> shape, std::span<const int64_t> ids);

/// Placements that contradict the rest of a tensor dist attr on a mesh of
/// `meshRank` dims: a count other than the rank, a mesh dim that dims_mapping
/// shards but whose placement is not that Shard, a partial mesh dim whose
/// placement is not its Partial, a Partial on a mesh dim that is not partial,
/// a Shard of a tensor dim that dims_mapping does not shard. What dims_mapping
/// cannot express stays legal: a split_factor, and co-sharding (Shard(dim=d)
/// on more mesh dims than the one dims_mapping names for d). `index` is the
/// placement at fault, or kWholeList for the count. Nothing is said when
/// dims_mapping or partial are themselves broken (the verifier reports those).
struct PlacementFault {
  static constexpr size_t kWholeList = static_cast<size_t>(-1);
  size_t index;
  std::string message;
};
std::optional<PlacementFault> placementsFault(size_t meshRank, std::span<const int64_t> dimsMapping,
                                              std::span<const PartialEntry> partial,
                                              std::span<const Placement> placements);

}  // namespace pir::core
