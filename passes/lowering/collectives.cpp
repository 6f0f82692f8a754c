//===- collectives.cpp - PToR, PToS and SToR ------------------------------===//
//
// Paddle's p_to_r_reshard_func.py (all_reduce), p_to_s_reshard_func.py
// ((transpose) reduce_scatter (transpose), with the zero pad and split of an
// uneven dim) and s_to_r_reshard_func.py (all_gather, split_with_num and
// concat for a non-zero axis, pad / split of an uneven dim, share_data_ on a
// one-rank mesh). Where Paddle's uneven arithmetic is wrong (P->S cutting
// the pad from the global size; S->R with more than two ranks padding only
// the last) each rank pads and cuts its own real piece instead.
//
//===----------------------------------------------------------------------===//
#include <numeric>

#include "core/context.h"
#include "core/mesh_math.h"
#include "core/operation.h"
#include "passes/lowering/emitter.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

bool oneDimMesh(const Step& step) { return step.from->mesh()->ndim() <= 1; }

/// `attr` with dims_mapping entries 0 and `axis` swapped (transpose's frame).
const TensorDistAttr* swapped(Context& ctx, const TensorDistAttr* attr, int64_t axis) {
  std::vector<int64_t> map(attr->dimsMapping().begin(), attr->dimsMapping().end());
  std::swap(map[0], map[axis]);
  return ctx.tensorDistAttr(attr->mesh(), map, attr->partial());
}

std::vector<int64_t> swappedDims(std::vector<int64_t> dims, int64_t axis) {
  std::swap(dims[0], dims[axis]);
  return dims;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

Value* Emitter::pToR(const Step& step, Value* cur) {
  const ProcessMesh* mesh = stepMesh(step);
  size_t r = dimsOf(cur).size();
  const TensorDistAttr* in1 = oneDimMesh(step) ? step.from : oneDim(mesh, r, -1, true, step.reduce);
  const TensorDistAttr* out1 = oneDimMesh(step) ? step.to : oneDim(mesh, r, -1, false);
  const Attribute* operands[] = {in1};
  const Attribute* results[] = {out1};
  AttrListBuilder a = attrs(opDist(mesh, operands, results, chunk()), 1);
  a.setInt32("reduce_type", static_cast<int32_t>(step.reduce));
  a.setInt32("ring_id", static_cast<int32_t>(sortedRing(mesh).ringId));
  Value* in[] = {cur};
  const Type* t[] = {distType(dimsOf(cur), step.to)};
  return create("pd_op.all_reduce", in, t, a)->result(0);
}

/// transpose(x, perm) with `perm` swapping 0 and `axis`, typed `dims`/`attr`.
static Value* transposeOf(Emitter& e, Value* x, int64_t axis, std::span<const int64_t> dims,
                          const TensorDistAttr* attr) {
  std::vector<int32_t> perm(dims.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[0], perm[axis]);
  const Attribute* operands[] = {distAttrOf(x->type())};
  const Attribute* results[] = {attr};
  AttrListBuilder a = e.attrs(e.opDist(attr->mesh(), operands, results, e.chunk()), 1);
  a.setInt32Array("perm", perm);
  Value* in[] = {x};
  const Type* t[] = {e.distType(dims, attr)};
  return e.create("pd_op.transpose", in, t, a)->result(0);
}

Value* Emitter::pToS(const Step& step, Value* cur) {
  const ProcessMesh* mesh = stepMesh(step);
  std::vector<int64_t> dims = dimsOf(cur);
  size_t r = dims.size();
  int64_t ax = step.axis;
  const TensorDistAttr* in1 = oneDimMesh(step) ? step.from : oneDim(mesh, r, -1, true, step.reduce);
  // Paddle works in the frame where the cut axis is dim 0.
  const TensorDistAttr* out1 = oneDim(mesh, r, 0, false);
  Value* x = cur;
  std::vector<int64_t> fd = dims;
  const TensorDistAttr* toT = step.to;
  if (ax != 0) {
    fd = swappedDims(dims, ax);
    x = transposeOf(*this, cur, ax, fd, swapped(ctx(), step.from, ax));
    toT = swapped(ctx(), step.to, ax);
  } else if (oneDimMesh(step)) {
    out1 = step.to;
  }
  int64_t n = static_cast<int64_t>(mesh->processIds().size());
  Value* out;
  if (fd[0] < 0 || fd[0] % n == 0) {
    const Attribute* operands[] = {in1};
    const Attribute* results[] = {out1};
    AttrListBuilder a = attrs(opDist(mesh, operands, results, chunk()), 1);
    a.setString("execution_stream", "DefaultStream");
    a.setInt32("nranks", static_cast<int32_t>(n));
    a.setInt32("ring_id", static_cast<int32_t>(meshRing(mesh).ringId));
    Value* in[] = {x};
    const Type* t[] = {distType(fd, toT)};
    out = create("pd_op.reduce_scatter", in, t, a)->result(0);
  } else {
    out = pToSPadded(step, x, in1, out1, mesh, fd, toT);
  }
  if (ax != 0) out = transposeOf(*this, out, ax, dims, step.to);
  return out;
}

/// Uneven P->S in the frame where the cut is dim 0: every rank pads dim 0
/// with zeros to ceil * n rows, reduce_scatters, and a rank whose real piece
/// is short cuts its own pad (Paddle cuts [global - pad, pad] on the last
/// rank only, W4).
Value* Emitter::pToSPadded(const Step&, Value* x, const TensorDistAttr* in1, const TensorDistAttr* out1,
                           const ProcessMesh* mesh, std::span<const int64_t> fd, const TensorDistAttr* toT) {
  int64_t n = static_cast<int64_t>(mesh->processIds().size());
  int64_t c = ceilDiv(fd[0], n), pad = c * n - fd[0];
  const TensorDistAttr* xAttr = distAttrOf(x->type());
  std::vector<int64_t> padLocal = localDims(fd, xAttr);
  padLocal[0] = pad;
  const Attribute* padResults[] = {in1};
  Value* zeros = fill(padLocal, padLocal, in1, opDist(mesh, {}, padResults, chunk()), 0.0f);
  // Paddle marks this axis operand partial; its value is replicated.
  const Attribute* axisAttr = helperAttr(mesh);
  const Attribute* pair[] = {in1, in1};
  const Attribute* catOperands[] = {ctx().arrayAttr(pair), axisAttr};
  const Attribute* catResults[] = {in1};
  std::vector<int64_t> padded(fd.begin(), fd.end());
  padded[0] = c * n;
  Value* parts[] = {x, zeros};
  Value* cat = concatList(parts, 0, padded, xAttr, opDist(mesh, catOperands, catResults, chunk()));

  std::optional<size_t> idx = meshIndexOf(*mesh, rank());
  int64_t mine = idx ? shardPiece(fd[0], n, static_cast<int64_t>(*idx)).size() : c;
  bool cut = mine < c;
  const Attribute* operands[] = {in1};
  const Attribute* results[] = {out1};
  AttrListBuilder a = attrs(opDist(mesh, operands, results, chunk()), 1);
  a.setString("execution_stream", "DefaultStream");
  a.setInt32("nranks", static_cast<int32_t>(n));
  a.setInt32("ring_id", static_cast<int32_t>(meshRing(mesh).ringId));
  Value* in[] = {cat};
  const Type* t[] = {distType(cut ? std::span<const int64_t>(padded) : fd, toT)};
  Value* rs = create("pd_op.reduce_scatter", in, t, a)->result(0);
  if (!cut) return rs;

  int64_t sections[] = {mine, c - mine};
  Value* sec = fullIntArray(sections, mesh);
  Value* ax = fullAxis(0, mesh);
  std::vector<int64_t> restDims(fd.begin(), fd.end());
  restDims[0] = c - mine;
  std::vector<int64_t> noMap(fd.size(), -1);
  const TensorDistAttr* restAttr = ctx().tensorDistAttr(toT->mesh(), noMap);
  // The cut-off rows: the reduce_scatter's real piece (padded) with c - mine rows.
  std::vector<int64_t> restReal = localDims(padded, toT);
  restReal[0] = c - mine;
  const Type* pieces[] = {distType(fd, toT), localType(restDims, restAttr, restReal)};
  const Attribute* splitOperands[] = {out1, helperAttr(mesh), helperAttr(mesh)};
  const Attribute* both[] = {out1, out1};
  const Attribute* splitResults[] = {ctx().arrayAttr(both)};
  AttrListBuilder sa = attrs(opDist(mesh, splitOperands, splitResults, chunk()), 1);
  Value* sin[] = {rs, sec, ax};
  const Type* st[] = {ctx().vectorType(pieces)};
  Value* vec = create("pd_op.split", sin, st, sa)->result(0);
  return unpack(vec, mesh)[0];
}

Value* Emitter::sToR(const Step& step, Value* cur) {
  const ProcessMesh* mesh = stepMesh(step);
  std::vector<int64_t> dims = dimsOf(cur);
  size_t r = dims.size();
  int64_t axis = step.axis;
  const TensorDistAttr* in1 = oneDimMesh(step) ? step.from : oneDim(mesh, r, axis, false);
  const TensorDistAttr* out1 = oneDimMesh(step) ? step.to : oneDim(mesh, r, -1, false);
  int64_t n = static_cast<int64_t>(mesh->processIds().size());
  if (n == 1) {
    Value* v = share(cur, step.to);
    return v;
  }
  int64_t d = dims[axis];
  int64_t c = d < 0 ? -1 : ceilDiv(d, n);
  // Each piece shorter than ceil (Paddle: only the last, and only for two
  // ranks right): its size, or -1 for a full one.
  std::vector<int64_t> shortSizes(static_cast<size_t>(n), -1);
  if (d >= 0)
    for (int64_t i = 0; i < n; ++i)
      if (int64_t s = shardPiece(d, n, i).size(); s < c) shortSizes[static_cast<size_t>(i)] = s;
  Value* x = cur;
  std::optional<size_t> idx = meshIndexOf(*mesh, rank());
  if (idx && shortSizes[*idx] >= 0) {
    // Pad this rank's piece to ceil rows with zeros on the split axis.
    std::vector<int64_t> padLocal = localDims(dims, step.from);
    padLocal[axis] = c - shortSizes[*idx];
    const Attribute* padResults[] = {out1};
    Value* zeros = fill(padLocal, padLocal, out1, opDist(out1->mesh(), {}, padResults, chunk()), 0.0f);
    const Attribute* pair[] = {in1, out1};
    const Attribute* catOperands[] = {ctx().arrayAttr(pair), helperAttr(mesh)};
    const Attribute* catResults[] = {in1};
    std::vector<int64_t> padded = dims;
    padded[axis] = c * n;
    Value* parts[] = {cur, zeros};
    x = concatList(parts, axis, padded, step.from, opDist(mesh, catOperands, catResults, chunk()));
  }
  return sToRGather(step, x, in1, out1, mesh, shortSizes);
}

/// all_gather, then, for a non-zero axis or uneven pieces, split_with_num
/// along dim 0 and concat along the axis (cutting each short piece's pad).
Value* Emitter::sToRGather(const Step& step, Value* x, const TensorDistAttr* in1, const TensorDistAttr* out1,
                           const ProcessMesh* mesh, std::span<const int64_t> shortSizes) {
  std::vector<int64_t> dims = dimsOf(x);
  int64_t axis = step.axis;
  int64_t n = static_cast<int64_t>(mesh->processIds().size());
  std::vector<int64_t> ag = dims;
  if (ag[axis] >= 0) ag[axis] = ceilDiv(ag[axis], n);
  if (ag[0] >= 0) ag[0] *= n;
  const Attribute* operands[] = {in1};
  const Attribute* results[] = {out1};
  AttrListBuilder a = attrs(opDist(mesh, operands, results, chunk()), 1);
  a.setInt32("nranks", static_cast<int32_t>(n));
  a.setInt32("ring_id", static_cast<int32_t>(meshRing(mesh).ringId));
  Value* in[] = {x};
  // What each member gathers: its (padded) piece, n of them along dim 0.
  std::vector<int64_t> realX = localDims(dims, distAttrOf(x->type()));
  std::vector<int64_t> realAll = realX;
  if (!realAll.empty()) realAll[0] *= n;
  const Type* t[] = {localType(ag, step.to, realAll)};
  Value* gathered = create("pd_op.all_gather", in, t, a)->result(0);
  bool uneven = std::any_of(shortSizes.begin(), shortSizes.end(), [](int64_t s) { return s >= 0; });
  if (axis == 0 && !uneven) return gathered;

  const ProcessMesh* vmesh = step.to->mesh();
  std::vector<int64_t> piece = ag;
  if (piece[0] >= 0) piece[0] /= n;
  Value* ax0 = fullAxis(0, vmesh);
  std::vector<const Type*> pieceTypes(static_cast<size_t>(n), localType(piece, step.to, realX));
  std::vector<const Attribute*> pieceAttrs(static_cast<size_t>(n), step.to);
  const Attribute* swnOperands[] = {step.to, helperAttr(vmesh)};
  const Attribute* swnResults[] = {ctx().arrayAttr(pieceAttrs)};
  AttrListBuilder sa = attrs(opDist(vmesh, swnOperands, swnResults, chunk()), 1);
  sa.setInt32("num", static_cast<int32_t>(n));
  Value* sin[] = {gathered, ax0};
  const Type* st[] = {ctx().vectorType(pieceTypes)};
  Value* vec = create("pd_op.split_with_num", sin, st, sa)->result(0);
  const Attribute* catOperands[] = {ctx().arrayAttr(pieceAttrs), helperAttr(vmesh)};
  const Attribute* catResults[] = {step.to};
  const OpDistAttr* catDist = opDist(vmesh, catOperands, catResults, chunk());
  // The tensor's real global dims (x may be this rank's padded concat): the
  // pieces' sizes summed.
  std::vector<int64_t> outDims = dims;
  if (uneven) {
    outDims[axis] = 0;
    for (int64_t s : shortSizes) outDims[axis] += s >= 0 ? s : piece[axis];
  }
  if (!uneven) return concat(vec, axis, outDims, step.to, catDist);

  std::vector<Value*> parts = unpack(vec, vmesh);
  for (size_t i = 0; i < parts.size(); ++i) {
    int64_t s = shortSizes[i];
    if (s < 0) continue;
    int64_t c = piece[axis];
    int64_t sections[] = {s, c - s};
    Value* sec = fullIntArray(sections, vmesh);
    Value* ax = fullAxis(axis, vmesh);
    std::vector<int64_t> keep = piece, rest = piece;
    keep[axis] = s;
    rest[axis] = c - s;
    std::vector<int64_t> realKeep = realX, realRest = realX;
    realKeep[axis] = s;
    realRest[axis] = c - s;
    const Type* halves[] = {localType(keep, step.to, realKeep), localType(rest, step.to, realRest)};
    const Attribute* both[] = {step.to, step.to};
    const Attribute* spOperands[] = {step.to, helperAttr(vmesh), helperAttr(vmesh)};
    const Attribute* spResults[] = {ctx().arrayAttr(both)};
    AttrListBuilder pa = attrs(opDist(vmesh, spOperands, spResults, chunk()), 1);
    Value* pin[] = {parts[i], sec, ax};
    const Type* pt[] = {ctx().vectorType(halves)};
    Value* halvesVec = create("pd_op.split", pin, pt, pa)->result(0);
    parts[i] = unpack(halvesVec, vmesh)[0];
  }
  return concatList(parts, axis, outDims, step.to, catDist);
}

}  // namespace pir::passes::lowering
