//===- exchange.cpp - AllToAll, Move and AllReduceFlat ---------------------===//
//
// The cost planner's steps (cost_planner.h), emitted for rank R:
//   AllToAll  S(a) -> S(b) along one mesh dim of n ranks: R cuts its piece
//             along b into the n destination pieces, sends each other
//             member its block (send_v2 on ring [R, g_j]; sends never
//             block, so all go first), receives each member's block of its
//             own b piece (recv_v2 on [g_i, R]) and concatenates them along
//             a in mesh order with its own. Blocks move at their exact
//             sizes, so an uneven dim moves no padding; an empty block is
//             neither sent nor received (allToAllPairs).
//   Move      another mesh: R sends every piece it is the sender of
//             (move.h), then gathers its destination box from the pieces
//             it holds (sliced) and receives, concatenated axis by axis.
//   AllReduceFlat  one all_reduce over the sub-mesh of several mesh dims
//             (its sorted ranks).
// The pieces in between exist on R alone: they are typed on the one-rank
// mesh [R], replicated, so their local shape is their shape and
// partition-rank keeps them on R. The step's result has the step's
// destination type.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "core/context.h"
#include "core/mesh_math.h"
#include "core/operation.h"
#include "passes/lowering/emitter.h"
#include "passes/lowering/move.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

const TensorDistAttr* own(Emitter& e, size_t n) { return e.ownAttr(n); }

std::vector<int64_t> shapeOf(const Box& box) {
  std::vector<int64_t> s;
  for (const ShardPiece& p : box) s.push_back(p.size());
  return s;
}

/// The part `want` (global coordinates) of x, which holds `held`: x itself
/// when it is all of it, else a slice typed on [R].
Value* cut(Emitter& e, Value* x, const Box& held, const Box& want) {
  std::vector<int64_t> axes, starts, ends;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] != held[i]) {
      axes.push_back(int64_t(i));
      starts.push_back(want[i].begin - held[i].begin);
      ends.push_back(want[i].end - held[i].begin);
    }
  if (axes.empty()) return x;
  const TensorDistAttr* attr = own(e, want.size());
  Value* s = e.fullIntArray(starts, attr->mesh());
  Value* t = e.fullIntArray(ends, attr->mesh());
  const Attribute* operands[] = {distAttrOf(x->type()), e.helperAttr(attr->mesh()), e.helperAttr(attr->mesh())};
  const Attribute* results[] = {attr};
  AttrListBuilder a = e.attrs(e.opDist(attr->mesh(), operands, results, e.chunk()), 1);
  std::vector<int64_t> flags(axes.size(), 1);
  a.setInt64Array("axes", axes).setInt64Array("decrease_axis", std::span<const int64_t>());
  a.setInt64Array("infer_flags", flags);
  Value* in[] = {x, s, t};
  std::vector<int64_t> shape = shapeOf(want);
  const Type* types[] = {e.distType(shape, attr)};
  return e.create("pd_op.slice", in, types, a)->result(0);
}

/// `parts` concatenated along `axis`, typed `dims` / `attr` (one part: itself,
/// retyped by share_data_ when it must carry `attr`).
Value* joined(Emitter& e, std::span<Value* const> parts, int64_t axis, std::span<const int64_t> dims,
              const TensorDistAttr* attr) {
  if (parts.size() == 1) {
    if (distAttrOf(parts[0]->type()) == attr &&
        Emitter::dimsOf(parts[0]) == std::vector<int64_t>(dims.begin(), dims.end()))
      return parts[0];
    const Attribute* operands[] = {distAttrOf(parts[0]->type())};
    const Attribute* results[] = {attr};
    AttrListBuilder a = e.attrs(e.opDist(own(e, dims.size())->mesh(), operands, results, e.chunk()), 1);
    Value* in[] = {parts[0]};
    const Type* t[] = {e.distType(dims, attr)};
    return e.create("pd_op.share_data_", in, t, a)->result(0);
  }
  std::vector<const Attribute*> each;
  for (Value* p : parts) each.push_back(distAttrOf(p->type()));
  const ProcessMesh* mesh = own(e, dims.size())->mesh();
  const Attribute* operands[] = {e.ctx().arrayAttr(each), e.helperAttr(mesh)};
  const Attribute* results[] = {attr};
  return e.concatList(parts, axis, dims, attr, e.opDist(mesh, operands, results, e.chunk()));
}

struct Cell {
  Box box;
  Value* value;
};

/// The cells (a grid covering `box`) joined axis by axis from `axis` on:
/// the cells of one begin on `axis` are joined along the later axes first,
/// then those rows along `axis`.
Value* assemble(Emitter& e, std::vector<Cell> cells, size_t axis, const Box& box, std::span<const int64_t> dims,
                const TensorDistAttr* attr) {
  if (axis == box.size() || cells.size() == 1) return joined(e, std::vector<Value*>{cells[0].value}, 0, dims, attr);
  std::stable_sort(cells.begin(), cells.end(),
                   [&](const Cell& x, const Cell& y) { return x.box[axis].begin < y.box[axis].begin; });
  if (cells.front().box[axis].begin == cells.back().box[axis].begin)
    return assemble(e, cells, axis + 1, box, dims, attr);
  std::vector<Value*> rows;
  for (size_t i = 0; i < cells.size();) {
    size_t j = i;
    while (j < cells.size() && cells[j].box[axis].begin == cells[i].box[axis].begin) ++j;
    std::vector<Cell> row(cells.begin() + std::ptrdiff_t(i), cells.begin() + std::ptrdiff_t(j));
    Box rowBox = box;
    rowBox[axis] = row[0].box[axis];
    rows.push_back(assemble(e, row, axis + 1, rowBox, shapeOf(rowBox), own(e, box.size())));
    i = j;
  }
  return joined(e, rows, int64_t(axis), dims, attr);
}

/// Zeros of this rank's (empty) local shape, typed `dims` / `to`.
Value* emptyPiece(Emitter& e, std::span<const int64_t> dims, const TensorDistAttr* to) {
  std::vector<int64_t> local = e.localDims(dims, to);
  const Attribute* results[] = {to};
  return e.fill(local, dims, to, e.opDist(own(e, dims.size())->mesh(), {}, results, e.chunk()), 0.0f);
}

}  // namespace

Value* Emitter::allReduceFlat(const Step& step, Value* cur) {
  const ProcessMesh& mesh = *step.from->mesh();
  std::vector<int64_t> ranks = flatSubMeshRanks(mesh, step.meshDims, rank());
  std::sort(ranks.begin(), ranks.end());
  if (ranks.size() < 2) return share(cur, step.to);
  int64_t shape[] = {int64_t(ranks.size())};
  const ProcessMesh* flat = ctx().processMesh(shape, ranks);
  size_t r = dimsOf(cur).size();
  const Attribute* operands[] = {oneDim(flat, r, -1, true, step.reduce)};
  const Attribute* results[] = {oneDim(flat, r, -1, false)};
  AttrListBuilder a = attrs(opDist(flat, operands, results, chunk()), 1);
  a.setInt32("reduce_type", static_cast<int32_t>(step.reduce));
  a.setInt32("ring_id", static_cast<int32_t>(ring(ranks).ringId));
  Value* in[] = {cur};
  const Type* t[] = {distType(dimsOf(cur), step.to)};
  return create("pd_op.all_reduce", in, t, a)->result(0);
}

Value* Emitter::allToAll(const Step& step, Value* cur) {
  const ProcessMesh& mesh = *step.from->mesh();
  if (!meshIndexOf(mesh, rank())) return fake(cur, step.to);
  std::vector<int64_t> dims = dimsOf(cur);
  size_t meshDim = mesh.ndim() <= 1 ? 0 : size_t(step.meshDim);
  std::vector<int64_t> g = subMeshRanks(mesh, meshDim, rank());
  int64_t n = int64_t(g.size());
  if (n < 2) return share(cur, step.to);
  int64_t me = std::find(g.begin(), g.end(), rank()) - g.begin();
  std::optional<Box> held = pieceBox(dims, *step.from, rank());
  auto blockBox = [&](int64_t i, int64_t j) {  // member i's block for member j, in global coordinates
    Box b = *held;
    b[size_t(step.axis)] = shardPiece(dims[size_t(step.axis)], n, i);
    b[size_t(step.toAxis)] = shardPiece(dims[size_t(step.toAxis)], n, j);
    return b;
  };
  auto nonEmpty = [](const Box& b) { return boxElements(b) > 0; };
  for (int64_t j = 0; j < n; ++j) {
    if (j == me || !nonEmpty(blockBox(me, j))) continue;
    int64_t pair[] = {rank(), g[size_t(j)]};
    Value* block = cut(*this, cur, *held, blockBox(me, j));
    sendTo(block, own(*this, dims.size()), ring(pair), g[size_t(j)]);
  }
  std::vector<Value*> parts;
  for (int64_t i = 0; i < n; ++i) {
    Box b = blockBox(i, me);
    if (!nonEmpty(b)) continue;
    if (i == me) {
      parts.push_back(cut(*this, cur, *held, b));
      continue;
    }
    int64_t pair[] = {g[size_t(i)], rank()};
    parts.push_back(recvFrom(shapeOf(b), own(*this, dims.size()), ring(pair), g[size_t(i)]));
  }
  if (parts.empty()) return emptyPiece(*this, dims, step.to);
  return joined(*this, parts, step.axis, dims, step.to);
}

Value* Emitter::move(const Step& step, Value* cur) {
  std::vector<int64_t> dims = dimsOf(cur);
  std::vector<Transfer> moves = moveTransfers(*step.from, *step.to, dims);
  std::optional<Box> held = pieceBox(dims, *step.from, rank());
  for (const Transfer& t : moves) {
    if (t.from != rank() || t.to == rank()) continue;
    int64_t pair[] = {t.from, t.to};
    sendTo(cut(*this, cur, *held, t.box), own(*this, dims.size()), ring(pair), t.to);
  }
  std::optional<Box> want = pieceBox(dims, *step.to, rank());
  if (!want) return fake(cur, step.to);
  std::vector<Cell> cells;
  for (const Transfer& t : moves) {
    if (t.to != rank()) continue;
    if (t.from == rank()) {
      cells.push_back({t.box, cut(*this, cur, *held, t.box)});
      continue;
    }
    int64_t pair[] = {t.from, t.to};
    cells.push_back({t.box, recvFrom(shapeOf(t.box), own(*this, dims.size()), ring(pair), t.from)});
  }
  if (cells.empty()) return emptyPiece(*this, dims, step.to);
  return assemble(*this, cells, 0, *want, dims, step.to);
}

}  // namespace pir::passes::lowering
