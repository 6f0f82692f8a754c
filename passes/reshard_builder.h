//===- reshard_builder.h - creating dist_op.reshard ops ---------*- C++ -*-===//
#pragma once

#include <utility>

#include "core/attr_list_builder.h"
#include "core/builder.h"
#include "core/program.h"

namespace pir::passes {

/// The mesh of a reshard from `src` to `dst` (Paddle's ReshardOp::Build):
/// the shared mesh, or a 1-D mesh of the sorted union of both meshes' ids.
const core::ProcessMesh* reshardMesh(core::Context& ctx, const core::ProcessMesh* src, const core::ProcessMesh* dst);

/// `value`'s type with its dist attr replaced by `attr` (same dims, dtype).
const core::Type* withDistAttr(core::Context& ctx, const core::Type* type, const core::TensorDistAttr* attr);

/// Creates ops the way a pass in `program` should: in its era's spelling,
/// carrying a reference op's role and chunk id.
class DistOpFactory {
 public:
  explicit DistOpFactory(core::Program& program);

  /// Inserts `dist_op.reshard(input) -> dst` at `builder`'s insertion point.
  /// `like` is the op whose op_role and chunk id it carries (may be null).
  core::Operation* reshard(core::Builder& builder, core::Value* input, const core::TensorDistAttr* dst,
                           const core::Operation* like);

  /// An empty attribute list in the program's spelling.
  core::AttrListBuilder attrs() const { return core::AttrListBuilder(speller_); }
  const core::AttrSpeller& speller() const { return speller_; }
  /// Sets what an op made on behalf of `like` carries besides its
  /// op_dist_attr: `op_role` (as Int32) and a separate `chunk_id` if `like`
  /// has them (nothing when `like` is null).
  void setRoleAndChunk(core::AttrListBuilder& attrs, const core::Operation* like);
  /// What setRoleAndChunk reads from `like`: its op_role and chunk_id
  /// attributes as they are (null where absent), for memos of made ops.
  std::pair<const core::Attribute*, const core::Attribute*> roleAndChunkOf(const core::Operation& like) const {
    return {like.attr(opRoleKey_.str()), like.attr(chunkIdKey_.str())};
  }
  /// An op_dist_attr in the program's style, with `like`'s chunk id.
  const core::OpDistAttr* opDistAttr(const core::ProcessMesh* mesh, std::span<const core::Attribute* const> operands,
                                     std::span<const core::Attribute* const> results, const core::Operation* like);
  /// `op_dist_attr`, interned once: a pass may make half a million ops with it.
  core::AttrKey opDistAttrKey() const { return opDistAttrKey_; }

 private:
  core::Program& program_;
  core::Context& ctx_;
  core::AttrSpeller speller_;
  core::AttrKey opDistAttrKey_, opRoleKey_, chunkIdKey_;
  // op_role attributes as read, and as this program spells them: a pass
  // making an op per value meets the same few roles again and again.
  std::vector<std::pair<const core::Attribute*, const core::Attribute*>> roles_;
};

}  // namespace pir::passes
