//===- loss_fusion.cpp - which loss chains the plan may fuse ---------------===//
#include "runtime/loss_fusion.h"

#include <vector>

#include "core/attr_access.h"
#include "core/op_table.h"
#include "core/types.h"
#include "runtime/fusion_rules.h"

namespace pir::runtime {

using core::Operation;
using core::Value;

namespace {

using Positions = std::unordered_map<const Operation*, size_t>;

/// Whether running `op` may write a tensor another value holds: an
/// in-place pair, a region (whose ops are not looked at), or a matmul_grad
/// (its GEMM may update a parameter in place: update_fusion.h). Ops the
/// executor cannot run fail its compile anyway.
bool mayWrite(const Operation& op) {
  if (op.numRegions() != 0 || runsAs(&op, "pd_op.matmul_grad")) return true;
  for (uint32_t i = 0; i < op.numOperands(); ++i)
    if (op.operandValue(i) && writesInPlace(op, i)) return true;
  return false;
}

/// Whether no op strictly between top-level positions `from` and `to` may
/// write a tensor: a value read at either end then holds the same data.
bool nothingWritesBetween(const std::vector<const Operation*>& ops, size_t from, size_t to) {
  for (size_t i = from + 1; i < to; ++i)
    if (mayWrite(*ops[i])) return false;
  return true;
}

/// The float dtypes square and square_grad compute.
bool squaresFloats(const Value* v) {
  auto s = v ? core::tensorShape(v->type()) : std::nullopt;
  return s && (s->dtype == core::DataType::F32 || s->dtype == core::DataType::F64 || s->dtype == core::DataType::BF16);
}

/// The pd_op.square of the top level that makes `v`, with one operand of
/// v's own type (so the two have one shape at run time too), or null.
const Operation* squareMaking(const Value* v, const Positions& at) {
  const Operation* q = v ? v->definingOp() : nullptr;
  if (!runsAs(q, "pd_op.square") || !at.count(q) || q->numOperands() != 1 || q->numResults() != 1) return nullptr;
  const Value* x = q->operandValue(0);
  if (!x || x->type() != v->type() || !squaresFloats(x)) return nullptr;
  return q;
}

/// The square_grad a reduction grad `g` may make, or null:
///   - g (sum_grad or mean_grad) reduces the result of a pd_op.square of x,
///     and its one result, of x's type, is read only by a square_grad of
///     the top level as its out_grad;
///   - g's out_grad has x's dtype (another is the program's error, which
///     the op-by-op kernels name);
///   - that square_grad's x is the square's, and its result x's type;
///   - nothing between g and the square_grad may write x (the fused step
///     reads it at g).
const Operation* fusableSquareGrad(const Operation& g, const Positions& at, const std::vector<const Operation*>& ops) {
  if (g.numOperands() < 2 || g.numResults() != 1 || !g.operandValue(1)) return nullptr;
  const Operation* q = squareMaking(g.operandValue(0), at);
  const Value* r = g.result(0);
  if (!q || !r->hasOneUse() || r->type() != q->result(0)->type()) return nullptr;
  auto outGrad = core::tensorShape(g.operandValue(1)->type());
  if (!outGrad || outGrad->dtype != core::tensorShape(r->type())->dtype) return nullptr;
  const Operation* sg = r->firstUse()->owner();
  if (!runsAs(sg, "pd_op.square_grad") || r->firstUse()->index() != 1 || !at.count(sg) || sg->numOperands() != 2 ||
      sg->numResults() != 1)
    return nullptr;
  if (sg->operandValue(0) != q->operandValue(0) || sg->result(0)->type() != r->type()) return nullptr;
  return nothingWritesBetween(ops, at.at(&g), at.at(sg)) ? sg : nullptr;
}

bool isReductionGrad(const Operation* op) { return runsAs(op, "pd_op.sum_grad") || runsAs(op, "pd_op.mean_grad"); }

/// The square a reduction `red` (sum or mean) may sum the squares of, or
/// null: its x is a square's result, read by nothing but `red` and
/// reduction grads (which read it for its shape: they are given the
/// square's input instead); a sum's dtype, if given, is x's (summing the
/// squares cast would not be casting the squares); nothing between the
/// square and `red` may write the square's input.
const Operation* fusableSquare(const Operation& red, const Positions& at, const std::vector<const Operation*>& ops) {
  if (red.numOperands() < 1 || red.numResults() != 1) return nullptr;
  const Value* s = red.operandValue(0);
  const Operation* q = squareMaking(s, at);
  if (!q) return nullptr;
  if (auto dtype = core::getDataType(red, "dtype"); dtype && *dtype != core::DataType::Undefined)
    if (*dtype != core::tensorShape(s->type())->dtype) return nullptr;
  for (const core::OpOperand* u = s->firstUse(); u; u = u->nextUse())
    if (u->index() != 0 || (u->owner() != &red && !isReductionGrad(u->owner()))) return nullptr;
  return nothingWritesBetween(ops, at.at(q), at.at(&red)) ? q : nullptr;
}

}  // namespace

LossFusions findLossFusions(const core::Block& body) {
  LossFusions fused;
  Positions at;
  std::vector<const Operation*> ops, reductions, grads;
  for (const Operation& op : body) {
    at.emplace(&op, ops.size());
    ops.push_back(&op);
    if (runsAs(&op, "pd_op.sum") || runsAs(&op, "pd_op.mean")) reductions.push_back(&op);
    if (isReductionGrad(&op)) grads.push_back(&op);
  }
  for (const Operation* g : grads)
    if (const Operation* sg = fusableSquareGrad(*g, at, ops)) {
      fused.squareGradMade.emplace(g, sg);
      fused.readsSquareInput.emplace(g, sg->operandValue(0));
      fused.unrun.insert(sg);
    }
  for (const Operation* red : reductions) {
    const Operation* q = fusableSquare(*red, at, ops);
    if (!q) continue;
    fused.sumsSquares.insert(red);
    fused.unrun.insert(q);
    for (const core::OpOperand* u = q->result(0)->firstUse(); u; u = u->nextUse())
      fused.readsSquareInput.emplace(u->owner(), q->operandValue(0));
  }
  return fused;
}

}  // namespace pir::runtime
