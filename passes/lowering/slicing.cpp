//===- slicing.cpp - RToS and RToP ----------------------------------------===//
//
// Paddle's r_to_s_reshard_func.py (`paddle.slice`: two full_int_array and a
// slice; a fake reshard on a rank outside the mesh) and
// r_to_p_reshard_func.py (assign on one rank, zeros on the others). Slice
// bounds are the rank's real piece (a start past the dim is clamped to it,
// W7); R->P keeps the value on the first rank of the (sub-)mesh, not on
// global rank 0 (W2), and its zeros have the rank's local shape, not the
// global one (W3). PROD keeps ones elsewhere; MAX, MIN and AVG assign on
// every rank.
//
//===----------------------------------------------------------------------===//
#include "core/context.h"
#include "core/mesh_math.h"
#include "core/operation.h"
#include "passes/lowering/emitter.h"

namespace pir::passes::lowering {

using namespace pir::core;

Value* Emitter::rToS(const Step& step, Value* cur) {
  const ProcessMesh* mesh = stepMesh(step);
  std::optional<size_t> idx = meshIndexOf(*mesh, rank());
  if (!idx) return fake(cur, step.to);
  std::vector<int64_t> dims = dimsOf(cur);
  bool oneD = step.from->mesh()->ndim() <= 1;
  const TensorDistAttr* in1 = oneD ? step.from : oneDim(mesh, dims.size(), -1, false);
  const TensorDistAttr* out1 = oneD ? step.to : oneDim(mesh, dims.size(), step.axis, false);
  ShardPiece piece =
      shardPiece(dims[step.axis], static_cast<int64_t>(mesh->processIds().size()), static_cast<int64_t>(*idx));
  const ProcessMesh* vmesh = step.from->mesh();
  int64_t start[] = {piece.begin}, end[] = {piece.end};
  Value* s = fullIntArray(start, vmesh);
  Value* e = fullIntArray(end, vmesh);
  const Attribute* operands[] = {in1};
  const Attribute* results[] = {out1};
  AttrListBuilder a = attrs(opDist(mesh, operands, results, chunk()), 1);
  int64_t axes[] = {step.axis}, flags[] = {1};
  a.setInt64Array("axes", axes).setInt64Array("decrease_axis", std::span<const int64_t>());
  a.setInt64Array("infer_flags", flags);
  Value* in[] = {cur, s, e};
  const Type* t[] = {distType(dims, step.to)};
  return create("pd_op.slice", in, t, a)->result(0);
}

Value* Emitter::rToP(const Step& step, Value* cur) {
  const ProcessMesh* mesh = stepMesh(step);
  std::vector<int64_t> dims = dimsOf(cur);
  bool oneD = step.from->mesh()->ndim() <= 1;
  const TensorDistAttr* in1 = oneD ? step.from : oneDim(mesh, dims.size(), -1, false);
  const TensorDistAttr* out1 = oneD ? step.to : oneDim(mesh, dims.size(), -1, true, step.reduce);
  PartialShare share = partialShare(step.reduce, mesh->processIds().empty() || mesh->processIds()[0] == rank());
  const Attribute* results[] = {out1};
  if (!share.keepsValue) {
    // Paddle's op_dist_attr here lists an operand the full does not have.
    return fill(localDims(dims, step.from), dims, step.to, opDist(mesh, {}, results, chunk()), float(share.fill));
  }
  const Attribute* operands[] = {in1};
  AttrListBuilder a = attrs(opDist(mesh, operands, results, chunk()), 1);
  Value* in[] = {cur};
  const Type* t[] = {distType(dims, step.to)};
  return create("pd_op.assign", in, t, a)->result(0);
}

}  // namespace pir::passes::lowering
