//===- update_fusion.cpp - which sgd_ its matmul_grad may make -------------===//
#include "runtime/update_fusion.h"

#include <string>

#include "core/attr_access.h"
#include "core/op_table.h"
#include "core/types.h"
#include "runtime/fusion_rules.h"

namespace pir::runtime {

using core::Operation;
using core::Value;

namespace {

using Positions = std::unordered_map<const Operation*, size_t>;

/// Where `op` (or the top-level op whose regions hold it) stands in the
/// block; SIZE_MAX when it is not in it.
size_t positionOf(const Operation* op, const Positions& at) {
  for (; op; op = op->parentOp())
    if (auto it = at.find(op); it != at.end()) return it->second;
  return SIZE_MAX;
}

/// Whether `v` exists before top-level position `pos`: a block's argument,
/// or made by an op before it.
bool definedBefore(const Value* v, size_t pos, const Positions& at) {
  if (!v) return false;
  if (!v->definingOp()) return true;
  return positionOf(v->definingOp(), at) < pos;
}

/// A dense f32 or f64 matrix type.
std::optional<core::TensorShape> floatMatrix(const core::Type* t) {
  auto s = core::tensorShape(t);
  if (!s || s->dims.size() != 2 || (s->dtype != core::DataType::F32 && s->dtype != core::DataType::F64))
    return std::nullopt;
  return s;
}

/// The name a value is fed by: a kwarg's keyword, or the name a
/// builtin.parameter or pd_op.data reads (one namespace: the executor takes
/// all three from one map); empty for any other value.
std::string feedName(const Value* v) {
  if (v->kind() == core::ValueKind::Kwarg) return std::string(static_cast<const core::BlockArgument*>(v)->name());
  const Operation* def = v->definingOp();
  const core::OpInfo* info = def ? core::lookupRunOp(*def) : nullptr;
  if (!info || (info->scope != core::ScopeAccess::ReadsData && info->scope != core::ScopeAccess::ReadsParameter))
    return {};
  auto* a = def->attrOf<core::StringAttr>(info->scopeKey);
  return a ? a->value() : std::string();
}

using FeedReaders = std::unordered_map<std::string, int>;

/// Whether `v` is fed by a name no other value of the block is fed by: no
/// other value shares its tensor.
bool fedAlone(const Value* v, const FeedReaders& readers) {
  std::string name = feedName(v);
  auto it = name.empty() ? readers.end() : readers.find(name);
  return it != readers.end() && it->second == 1;
}

/// Whether nothing can write the learning rate's storage: it is fed alone or
/// a fresh pd_op.full, and every op that reads it reads it as its
/// `learning_rate` operand without writing it in place (the optimizers), so
/// no view, alias or in-place write of it exists.
bool learningRateStays(const Value* lr, const FeedReaders& readers) {
  if (!fedAlone(lr, readers) && !runsAs(lr->definingOp(), "pd_op.full")) return false;
  for (const core::OpOperand* u = lr->firstUse(); u; u = u->nextUse()) {
    const Operation& user = *u->owner();
    const core::OpInfo* info = core::lookupRunOp(user);
    if (!info || info->operandIndex("learning_rate", user.numOperands()) != int(u->index()) ||
        writesInPlace(user, u->index()))
      return false;
  }
  return true;
}

/// The matmul_grad whose GEMM may update sgd_'s parameter, or null. Every
/// condition keeps the early update unseen and the kernel's case simple:
///   - sgd_ is plain: no master parameter (its result unused), and its
///     gradient is result 1 (y_grad) of a matmul_grad of this block, read
///     by nothing else;
///   - that matmul_grad's y is the parameter, and neither x nor out_grad is
///     (the GEMM would write what it reads); param and gradient are f32 or
///     f64 matrices of one shape; x is a matrix, or a batch folded into
///     rows (not transposed), so dy is one GEMM with nothing summed after;
///   - the learning rate exists before the matmul_grad and nothing can
///     write it (learningRateStays): the update reads it there, sgd_ later;
///   - every other reader of the parameter is a matmul or matmul_grad
///     before the matmul_grad (they make new tensors, never views of it),
///     or any op after the sgd_ (it sees the update either way);
///   - the parameter is fed alone (a second value fed the same tensor, a
///     kwarg included, would show the update early or feed the GEMM its own
///     output).
const Operation* fusableMatmulGrad(const Operation& sgd, const Positions& at, const FeedReaders& readers) {
  if (sgd.numOperands() < 3 || (sgd.numOperands() > 3 && sgd.operandValue(3))) return nullptr;
  if (sgd.numResults() > 1 && !sgd.result(1)->useEmpty()) return nullptr;
  const Value* param = sgd.operandValue(0);
  const Value* lr = sgd.operandValue(1);
  const Value* grad = sgd.operandValue(2);
  if (!param || !lr || !grad || !grad->hasOneUse() || lr == param) return nullptr;
  const Operation* mg = grad->definingOp();
  if (!runsAs(mg, "pd_op.matmul_grad") || grad->index() != 1 || mg->numOperands() != 3) return nullptr;
  if (mg->operandValue(1) != param || mg->parentBlock() != sgd.parentBlock()) return nullptr;
  auto p = floatMatrix(param->type()), g = floatMatrix(grad->type());
  if (!p || !g || p->dtype != g->dtype || !std::equal(p->dims.begin(), p->dims.end(), g->dims.begin(), g->dims.end()))
    return nullptr;
  const Value* x = mg->operandValue(0);
  auto xs = x ? core::tensorShape(x->type()) : std::nullopt;
  if (!xs || xs->dtype != p->dtype || xs->dims.size() < 2) return nullptr;
  if (xs->dims.size() > 2 && core::getBool(*mg, "transpose_x").value_or(false)) return nullptr;
  const size_t mgAt = positionOf(mg, at), sgdAt = positionOf(&sgd, at);
  if (mgAt >= sgdAt || !definedBefore(lr, mgAt, at) || !learningRateStays(lr, readers)) return nullptr;
  if (!fedAlone(param, readers)) return nullptr;
  for (const core::OpOperand* u = param->firstUse(); u; u = u->nextUse()) {
    const Operation* user = u->owner();
    if (user == mg || user == &sgd) {
      if (u->index() != (user == mg ? 1u : 0u)) return nullptr;  // x, out_grad, or sgd_'s other operands
      continue;
    }
    const size_t pos = positionOf(user, at);
    bool before = pos < mgAt && (runsAs(user, "pd_op.matmul") || runsAs(user, "pd_op.matmul_grad"));
    if (!before && !(pos > sgdAt && pos != SIZE_MAX)) return nullptr;
  }
  return mg;
}

}  // namespace

std::unordered_map<const Operation*, FusedUpdate> findUpdateFusions(const core::Block& body) {
  std::unordered_map<const Operation*, FusedUpdate> fused;
  Positions at;
  FeedReaders feedReaders;
  std::vector<const Operation*> sgds;
  size_t i = 0;
  for (const Operation& op : body) {
    at.emplace(&op, i++);
    if (runsAs(&op, "pd_op.sgd_")) sgds.push_back(&op);
  }
  if (sgds.empty()) return fused;
  for (const core::BlockArgument* kw : body.kwargs()) ++feedReaders[std::string(kw->name())];
  core::walk(body, [&](const Operation& op) {
    if (op.numResults() == 1)
      if (std::string name = feedName(op.result(0)); !name.empty()) ++feedReaders[name];
  });
  for (const Operation* sgd : sgds)
    if (const Operation* mg = fusableMatmulGrad(*sgd, at, feedReaders))
      fused.emplace(mg, FusedUpdate{sgd, feedName(sgd->operandValue(0)), feedName(sgd->operandValue(1))});
  return fused;
}

}  // namespace pir::runtime
