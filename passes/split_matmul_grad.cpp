//===- split_matmul_grad.cpp - matmul_grad into matmuls -------------------===//
//
// `split-matmul-grad` replaces `pd_op.matmul_grad(x, y, out_grad)` by ops
// computing the same x_grad and y_grad, so that the two can land in
// different jobs (backward_b and backward_w). Paddle's version (PR #68742)
// ignores transpose_x/transpose_y and always uses the untransposed formulas;
// here every transpose case gets its own:
//
//   (tx,ty)  x_grad                  y_grad
//   (F,F)    matmul(og, y, F, T)     matmul(x, og, T, F)
//   (T,F)    matmul(y, og, F, T)     matmul(x, og, F, F)
//   (F,T)    matmul(og, y, F, F)     matmul(og, x, T, F)
//   (T,T)    matmul(y, og, T, T)     matmul(og, x, T, T)
//
// A rank-3 x with a rank-2 y and no transposes gets Paddle's sequence:
// y_grad = reshape(matmul(reshape(x, [x0*x1, ..]), reshape(og, [o0*o1, ..]),
// T, F), y dims). Anything else stays a matmul_grad and is counted. The new
// ops' result types are computed, and the op is left alone if they do not
// equal the types of the results they replace.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <optional>

#include "core/context.h"
#include "core/op_table.h"
#include "passes/pass_registry.h"
#include "passes/reshard_builder.h"

namespace pir::passes {

namespace {

using namespace pir::core;

/// Dims of matmul(a, b, ta, tb): a's batch dims, then M x N.
std::optional<std::vector<int64_t>> matmulDims(std::span<const int64_t> a, std::span<const int64_t> b, bool ta,
                                               bool tb) {
  if (a.size() < 2 || b.size() != 2) return std::nullopt;
  std::vector<int64_t> out(a.begin(), a.end() - 2);
  out.push_back(ta ? a[a.size() - 1] : a[a.size() - 2]);
  out.push_back(tb ? b[0] : b[1]);
  return out;
}

/// matmul_grad's operands, by place, as the op table names them.
int matmulGradOperand(std::string_view name) { return lookupOp("pd_op.matmul_grad")->operandIndex(name); }
const int X = matmulGradOperand("x"), Y = matmulGradOperand("y"), OG = matmulGradOperand("out_grad");

/// A boolean attribute of `op`, bare or tagged (`(Bool)true`): false when
/// absent, nothing when it is not a boolean.
std::optional<bool> flagOf(const Operation& op, std::string_view key) {
  const Attribute* a = op.attr(key);
  return a ? getBool(a) : false;
}

/// Whether `v` is a result its op marks `stop_gradient` true.
bool stopsGradient(const Value* v) {
  const Operation* def = v ? v->definingOp() : nullptr;
  auto* sg = def ? def->attrOf<ArrayAttr>("stop_gradient") : nullptr;
  if (!sg || v->index() >= sg->size()) return false;
  return getBool(sg->elements()[v->index()]).value_or(false);
}

class SplitMatmulGradPass : public ProgramPass {
 public:
  std::string_view name() const override { return "split-matmul-grad"; }
  std::string_view description() const override {
    return "replace pd_op.matmul_grad by matmuls (and reshapes) computing x_grad and y_grad separately";
  }

  core::Status runOnProgram(NamedProgram& named, DiagnosticEngine&) override {
    Program& program = *named.program;
    program_ = &program;
    factory_ = std::make_unique<DistOpFactory>(program);
    std::vector<Operation*> grads;
    walk(program.body(), [&](Operation& op) {
      if (op.name() == "pd_op.matmul_grad" && op.numOperands() == 3 && op.numResults() == 2) grads.push_back(&op);
    });
    for (Operation* op : grads) split(*op);
    return core::Status::ok();
  }

 private:
  Context& ctx() { return program_->context(); }

  void split(Operation& grad) {
    auto operand = [&](int i) { return grad.operandValue(static_cast<uint32_t>(i)); };
    Value *x = operand(X), *y = operand(Y), *og = operand(OG);
    auto xs = tensorShape(x ? x->type() : nullptr), ys = tensorShape(y ? y->type() : nullptr);
    std::optional<bool> tx = flagOf(grad, "transpose_x"), ty = flagOf(grad, "transpose_y");
    if (!tx || !ty) return leave("left as matmul_grad: transpose_x or transpose_y not a boolean");
    bool ta = *tx, tb = *ty;
    if (!xs || !ys || !og) return leave("left as matmul_grad: operand types not tensors");
    Builder b(ctx());
    b.setInsertionPoint(&grad);
    if (xs->dims.size() == 2 && ys->dims.size() == 2) return splitRank2(grad, b, ta, tb);
    if (xs->dims.size() >= 3 && ys->dims.size() == 2 && !ta && !tb) {
      if (grad.distAttr()) return leave("left as matmul_grad: rank >= 3 in a distributed program");
      return splitFolded(grad, b, x, y, og);
    }
    leave("left as matmul_grad: ranks or transposes not supported");
  }

  void leave(const std::string& why) { stats_.add(why); }

  void splitRank2(Operation& grad, Builder& b, bool ta, bool tb) {
    // (operands, transposes) of x_grad and y_grad per (ta, tb), operands by
    // their place in matmul_grad; see the header.
    struct Mm {
      int a;
      int b;
      bool ta;
      bool tb;
    };
    Mm dx = !ta && !tb  ? Mm{OG, Y, false, true}
            : ta && !tb ? Mm{Y, OG, false, true}
            : !ta && tb ? Mm{OG, Y, false, false}
                        : Mm{Y, OG, true, true};
    Mm dy = !ta && !tb  ? Mm{X, OG, true, false}
            : ta && !tb ? Mm{X, OG, false, false}
            : !ta && tb ? Mm{OG, X, true, false}
                        : Mm{OG, X, true, true};
    auto operand = [&](int i) { return grad.operandValue(static_cast<uint32_t>(i)); };
    const Type* dxType = matmulType(operand(dx.a), operand(dx.b), dx.ta, dx.tb, grad.result(0)->type());
    const Type* dyType = matmulType(operand(dy.a), operand(dy.b), dy.ta, dy.tb, grad.result(1)->type());
    if (!dxType || !dyType) return leave("left as matmul_grad: result shapes disagree");
    Operation* mx = matmul(b, grad, {dx.a, dx.b}, dx.ta, dx.tb, dxType, 0);
    Operation* my = matmul(b, grad, {dy.a, dy.b}, dy.ta, dy.tb, dyType, 1);
    replace(grad, mx->result(0), my->result(0));
    stats_.add("matmul_grad split (rank 2)");
  }

  void splitFolded(Operation& grad, Builder& b, Value* x, Value* y, Value* og) {
    auto xs = *tensorShape(x->type()), os = *tensorShape(og->type()), ys = *tensorShape(y->type());
    const Type* dxType = matmulType(og, y, false, true, grad.result(0)->type());
    if (!dxType || os.dims.size() != xs.dims.size()) return leave("left as matmul_grad: result shapes disagree");
    auto fold = [](std::span<const int64_t> d) {
      std::vector<int64_t> f{d[0] < 0 || d[1] < 0 ? -1 : d[0] * d[1]};
      f.insert(f.end(), d.begin() + 2, d.end());
      return f;
    };
    // Checked before anything is built: giving up must leave no ops behind.
    if (!matmulDims(fold(xs.dims), fold(os.dims), true, false))
      return leave("left as matmul_grad: result shapes disagree");
    Operation* mx = matmul(b, grad, {OG, Y}, false, true, dxType, 0);
    Value* x2 = reshape(b, grad, x, fold(xs.dims));
    Value* og2 = reshape(b, grad, og, fold(os.dims));
    const Type* prodType = matmulType(x2, og2, true, false, nullptr);
    Value* prodIns[] = {x2, og2};
    Operation* prod = matmul(b, grad, prodIns, true, false, prodType);
    Value* dy = reshape(b, grad, prod->result(0), std::vector<int64_t>(ys.dims.begin(), ys.dims.end()));
    replace(grad, mx->result(0), dy);
    stats_.add("matmul_grad split (rank 3, folded)");
  }

  /// The type of matmul(a, b, ta, tb): dims computed, spelled like `like`
  /// (the result it replaces) when there is one; null if they disagree.
  const Type* matmulType(Value* a, Value* b, bool ta, bool tb, const Type* like) {
    auto as = tensorShape(a->type()), bs = tensorShape(b->type());
    auto dims = matmulDims(as->dims, bs->dims, ta, tb);
    if (!dims) return nullptr;
    const Type* t = makeType(as->dtype, *dims, like ? like : a->type());
    if (like && !typesEqual(t, like)) return nullptr;
    return t;
  }

  const Type* makeType(DataType dtype, std::span<const int64_t> dims, const Type* like) {
    if (const TensorDistAttr* dist = distAttrOf(like)) return ctx().distTensorType(dtype, dims, dist);
    auto* dense = like->dynCast<DenseTensorType>();
    return ctx().denseTensorType(dense ? dense->spelling() : program_->style().tensorSpelling, dtype, dims);
  }

  /// op_role, chunk_id (and op_dist_attr in distributed programs) copied
  /// from the op being replaced, plus stop_gradient from the operands. An
  /// operand that is matmul_grad's operand `operandIndex[i]` gets that
  /// operand's dist entry, and a result standing for its result
  /// `resultIndex` that result's entry, not its value's type: an operand
  /// not yet in the dist attr matmul_grad expects keeps its pending reshard
  /// visible to apply-partition. Otherwise the value's type is used.
  AttrListBuilder inherited(const Operation& from, std::span<Value* const> operands, const Type* resultType,
                            std::span<const int> operandIndex = {}, int resultIndex = -1) {
    AttrListBuilder attrs = factory_->attrs();
    for (std::string_view key : {"op_role", "chunk_id"}) attrs.set(key, from.attr(key));
    if (const OpDistAttr* od = from.distAttr()) {
      auto distOf = [&](const Type* t) -> const Attribute* {
        const TensorDistAttr* d = distAttrOf(t);
        return d ? static_cast<const Attribute*>(d) : ctx().nullAttr();
      };
      std::vector<const Attribute*> ins;
      for (size_t i = 0; i < operands.size(); ++i) {
        const TensorDistAttr* entry = i < operandIndex.size() ? od->operandDist(operandIndex[i]) : nullptr;
        ins.push_back(entry ? entry : distOf(operands[i]->type()));
      }
      const TensorDistAttr* resultEntry = resultIndex >= 0 ? od->resultDist(resultIndex) : nullptr;
      const Attribute* outs[] = {resultEntry ? resultEntry : distOf(resultType)};
      attrs.set(factory_->opDistAttrKey(), factory_->opDistAttr(od->mesh(), ins, outs, &from));
    }
    bool stop = true;
    for (Value* v : operands) stop = stop && stopsGradient(v);
    const Attribute* sg[] = {ctx().boolAttr(stop)};
    attrs.set("stop_gradient", ctx().arrayAttr(sg));
    return attrs;
  }

  /// matmul(x, y) of two of matmul_grad `from`'s operands, by place,
  /// standing for its result `result`.
  Operation* matmul(Builder& b, const Operation& from, std::array<int, 2> operands, bool tx, bool ty, const Type* type,
                    int result) {
    Value* ins[] = {from.operandValue(static_cast<uint32_t>(operands[0])),
                    from.operandValue(static_cast<uint32_t>(operands[1]))};
    return matmul(b, from, ins, tx, ty, type, operands, result);
  }

  Operation* matmul(Builder& b, const Operation& from, std::span<Value* const> ins, bool tx, bool ty, const Type* type,
                    std::span<const int> operandIndex = {}, int result = -1) {
    AttrListBuilder attrs = inherited(from, ins, type, operandIndex, result);
    attrs.setBool("transpose_x", tx).setBool("transpose_y", ty);
    const Type* out[] = {type};
    return b.create("pd_op.matmul", ins, out, attrs.attrs());
  }

  /// `full_int_array` holding `dims`, then `reshape(v, it)`.
  Value* reshape(Builder& b, const Operation& from, Value* v, const std::vector<int64_t>& dims) {
    AttrListBuilder attrs = inherited(from, {}, v->type());
    attrs.setDataType("dtype", DataType::I64).setPlace("place", Place{"cpu"}).setInt64Array("value", dims);
    int64_t n[] = {static_cast<int64_t>(dims.size())};
    const Type* shapeType[] = {ctx().denseTensorType(program_->style().tensorSpelling, DataType::I64, n)};
    Value* shape = b.create("pd_op.full_int_array", {}, shapeType, attrs.attrs())->result(0);

    auto src = *tensorShape(v->type());
    Value* ins[] = {v, shape};
    const Type* out[] = {makeType(src.dtype, dims, v->type())};
    return b.create("pd_op.reshape", ins, out, inherited(from, ins, out[0]).attrs())->result(0);
  }

  void replace(Operation& grad, Value* dx, Value* dy) {
    grad.result(0)->replaceAllUsesWith(dx);
    grad.result(1)->replaceAllUsesWith(dy);
    grad.erase();
  }

  Program* program_ = nullptr;
  std::unique_ptr<DistOpFactory> factory_;
};

}  // namespace

void registerSplitMatmulGradPass() { registerPass<SplitMatmulGradPass>(); }

}  // namespace pir::passes
