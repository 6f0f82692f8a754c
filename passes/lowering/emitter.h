//===- emitter.h - the ops one rank runs for one reshard ---------*- C++ -*-===//
//
// The rank-dependent half of lowering a `dist_op.reshard`: each Step of its
// plan (plan.h) becomes the ops Paddle's 1-D reshard function builds on rank
// R, inserted before the reshard. The functions live one family per file:
//   collectives.cpp  PToR (all_reduce), PToS (reduce_scatter), SToR
//                    (all_gather) and their pad / split / concat sequences;
//   slicing.cpp      RToS (slice), RToP (assign / zeros);
//   all_to_all.cpp   SToS (reshape / transpose around all_to_all);
//   p2p.cpp          SameStatus (send_v2 / recv_v2), the general path's
//                    copy to the ranks of another mesh, GlobalToSubMesh and
//                    SubToGlobalMesh (broadcast);
//   exchange.cpp     the cost planner's AllToAll and Move (send_v2 /
//                    recv_v2 of exact blocks, slices, concat) and
//                    AllReduceFlat (one all_reduce over several mesh dims).
// Values keep dist types with global shapes, as Paddle's lowering leaves
// them; numbers that only a rank knows (pad sizes, slice bounds, recv
// shapes, zeros) are that rank's real local ones.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/builder.h"
#include "core/process_group.h"
#include "core/program.h"
#include "passes/lowering/constant_memo.h"
#include "passes/lowering/plan.h"
#include "passes/reshard_builder.h"

namespace pir::passes::lowering {

class Emitter {
 public:
  /// Emits before `reshard` for global rank `rank`, on the rings of `rings`
  /// (planRings of the program: every ring a step asks for is there);
  /// `constants` is the program's run's memo of helper constants.
  Emitter(core::Program& program, DistOpFactory& factory, const core::ProcessGroupTable& rings, ConstantMemo& constants,
          int64_t rank, core::Operation& reshard);

  /// The value `cur` becomes after `step`, built on rank R.
  core::Value* emit(const Step& step, core::Value* cur);

 private:
  // The families (one file each).
  core::Value* pToR(const Step& step, core::Value* cur);
  core::Value* pToS(const Step& step, core::Value* cur);
  core::Value* pToSPadded(const Step& step, core::Value* x, const core::TensorDistAttr* in1,
                          const core::TensorDistAttr* out1, const core::ProcessMesh* mesh,
                          std::span<const int64_t> dstDims, const core::TensorDistAttr* dstAttr);
  core::Value* sToR(const Step& step, core::Value* cur);
  core::Value* sToRGather(const Step& step, core::Value* x, const core::TensorDistAttr* in1,
                          const core::TensorDistAttr* out1, const core::ProcessMesh* mesh,
                          std::span<const int64_t> shortSizes);
  core::Value* rToS(const Step& step, core::Value* cur);
  core::Value* rToP(const Step& step, core::Value* cur);
  core::Value* sToS(const Step& step, core::Value* cur);
  core::Value* sameStatus(const Step& step, core::Value* cur);
  core::Value* broadcast(const Step& step, core::Value* cur);
  core::Value* globalToSub(const Step& step, core::Value* cur);
  core::Value* subToGlobal(const Step& step, core::Value* cur);
  core::Value* allReduceFlat(const Step& step, core::Value* cur);
  core::Value* allToAll(const Step& step, core::Value* cur);
  core::Value* move(const Step& step, core::Value* cur);

 public:
  // Building blocks the families share (emitter.cpp).
  core::Context& ctx() { return ctx_; }
  /// The 1-D mesh a step runs on for this rank: the mesh itself when 1-D,
  /// else the 1-D sub-mesh through the rank along step.meshDim (through the
  /// mesh's first rank for a non-member, as Paddle).
  const core::ProcessMesh* stepMesh(const Step& step);
  /// A 1-D attr on `mesh` for a tensor of `rank` dims: `axis` (or none, -1)
  /// mapped to mesh dim 0, partial on 0 with `reduce` when `partial`.
  const core::TensorDistAttr* oneDim(const core::ProcessMesh* mesh, size_t rank, int64_t axis, bool partial,
                                     core::ReduceType reduce = core::ReduceType::Sum);
  const core::ProcessGroup& ring(std::span<const int64_t> ranks);
  /// The collective ring over `mesh`'s ranks, sorted.
  const core::ProcessGroup& sortedRing(const core::ProcessMesh* mesh);
  /// The ring of a collective over a 1-D `mesh`, in the mesh's order: a
  /// gather, a scatter or an all_to_all places pieces by position in the
  /// ring, and piece i belongs to the mesh's i-th rank. On an ascending mesh
  /// (every mesh Paddle's tests use) this is the sorted ring Paddle makes;
  /// on `[1,0]` Paddle's sorted ring swaps the pieces.
  const core::ProcessGroup& meshRing(const core::ProcessMesh* mesh);

  const core::Type* distType(std::span<const int64_t> dims, const core::TensorDistAttr* attr,
                             core::DataType dtype = core::DataType::Undefined);
  const core::OpDistAttr* opDist(const core::ProcessMesh* mesh, std::span<const core::Attribute* const> operands,
                                 std::span<const core::Attribute* const> results, int64_t chunk);
  /// An attribute list with the reshard's op_role, `op_dist_attr` and
  /// `stop_gradient` for `numResults` results (sg_, or true for constants).
  core::AttrListBuilder attrs(const core::OpDistAttr* od, uint32_t numResults, bool constant = false);
  core::Operation* create(std::string_view name, std::span<core::Value* const> operands,
                          std::span<const core::Type* const> results, const core::AttrListBuilder& attrs);

  /// `pd_op.full` of one int32 holding `axis` (a mutable axis operand).
  core::Value* fullAxis(int64_t axis, const core::ProcessMesh* mesh);
  /// `pd_op.full_int_array` holding `values` (int64).
  core::Value* fullIntArray(std::span<const int64_t> values, const core::ProcessMesh* mesh);
  /// `pd_op.full` of `value` with shape `localDims`, typed `typeDims`/`attr`.
  core::Value* fill(std::span<const int64_t> localDims, std::span<const int64_t> typeDims,
                    const core::TensorDistAttr* attr, const core::OpDistAttr* od, float value);
  /// builtin.combine of `values` (their types' dist attrs as operands).
  core::Value* combine(std::span<core::Value* const> values, const core::ProcessMesh* mesh);
  /// builtin.split of a vec value.
  std::vector<core::Value*> unpack(core::Value* vec, const core::ProcessMesh* mesh);
  /// `pd_op.concat(vec, full(axis))`, typed `dims`/`attr` (the axis made
  /// on `od`'s mesh right before the concat).
  core::Value* concat(core::Value* vec, int64_t axis, std::span<const int64_t> dims, const core::TensorDistAttr* attr,
                      const core::OpDistAttr* od);
  /// `concat` of a list: full(axis), builtin.combine, concat, Paddle's order
  /// for `_C_ops.concat([a, b], axis)`.
  core::Value* concatList(std::span<core::Value* const> parts, int64_t axis, std::span<const int64_t> dims,
                          const core::TensorDistAttr* attr, const core::OpDistAttr* od);
  /// The attr of an int32/int64 helper tensor (`full` axis, `full_int_array`)
  /// on `mesh`: [-1].
  const core::TensorDistAttr* helperAttr(const core::ProcessMesh* mesh) { return oneDim(mesh, 1, -1, false); }
  /// `rank`'s real local dims of `dims` laid out by `attr` (the ceil sizes
  /// for a rank outside the mesh).
  std::vector<int64_t> localDims(std::span<const int64_t> dims, const core::TensorDistAttr* attr);
  int64_t rank() const { return rank_; }
  int64_t chunk() const { return chunk_; }
  int64_t recvChunk() const { return recvChunk_; }
  /// The source value's stop_gradient, or null.
  const core::Attribute* stopGradient() const { return sg_; }
  /// `pd_op.send_v2` of x to global rank `dst` on ring `g` (op on `from`'s mesh).
  void sendTo(core::Value* x, const core::TensorDistAttr* from, const core::ProcessGroup& g, int64_t dst);
  /// `pd_op.recv_v2` from global rank `src` on ring `g`: a value of global
  /// `dims` laid out by `to`, whose local shape this rank's is.
  core::Value* recvFrom(std::span<const int64_t> dims, const core::TensorDistAttr* to, const core::ProcessGroup& g,
                        int64_t src);
  /// The type of a value of global `dims` laid out by `attr`, when that
  /// spelling gives this rank the local shape `real` it holds (what Paddle
  /// prints); else `real` itself on the one-rank mesh [rank] (an uneven dim
  /// gathered or cut beside another sharded dim, which no global spelling
  /// describes on every rank).
  const core::Type* localType(std::span<const int64_t> dims, const core::TensorDistAttr* attr,
                              std::span<const int64_t> real);
  /// A replicated attr on the one-rank mesh [rank] for a tensor of `n` dims.
  const core::TensorDistAttr* ownAttr(size_t n);
  /// A fake `dist_op.reshard` to `to` (a rank with no part in the step;
  /// partition-rank erases it).
  core::Value* fake(core::Value* cur, const core::TensorDistAttr* to);
  /// `pd_op.share_data_`: the value, retyped to `to` (no data moves), on
  /// `mesh` (default: `to`'s).
  core::Value* share(core::Value* cur, const core::TensorDistAttr* to, const core::ProcessMesh* mesh = nullptr);

  static std::vector<int64_t> dimsOf(const core::Value* v);
  static core::DataType dtypeOf(const core::Value* v);

 private:
  /// The helper constant `key` describes (this reshard's role and chunks
  /// are filled in here), as the memo has it or as `build` makes it, which
  /// the memo then keeps.
  template <class Build>
  core::Value* constant(ConstantMemo::Key key, Build&& build);

  core::Program& program_;
  core::Context& ctx_;
  DistOpFactory& factory_;
  const core::ProcessGroupTable& rings_;
  ConstantMemo& constants_;
  int64_t rank_;
  core::Operation& reshard_;
  core::Builder builder_;
  int64_t chunk_ = -1;                   // the source value's producer's chunk id
  int64_t recvChunk_ = -1;               // the chunk of the reshard result's users
  const core::Attribute* sg_ = nullptr;  // the source value's stop_gradient, or null
};

}  // namespace pir::passes::lowering
