//===- unary_kernels.cpp - activations, scale, cast and their grads -------===//
//
// relu, gelu (erf form, or the tanh form with `approximate`), square, exp,
// sqrt, tanh, sigmoid, abs, scale (and scale_), cast; relu_grad, exp_grad,
// sqrt_grad, tanh_grad and sigmoid_grad (which take out, not x: Paddle's
// kDepOut in backward.yaml), gelu_grad, square_grad, abs_grad and cast_grad
// (reshape_grad is shape_ops_kernels.cpp's). Float dtypes, bf16 computed in
// f32.
// NaN propagates as in numpy (relu(NaN) is NaN, not 0).
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/unary.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kSqrt2OverPi = 0.79788456080286535588;  // sqrt(2/pi)
constexpr double kInvSqrt2Pi = 0.39894228040143267794;   // 1/sqrt(2 pi)
constexpr double kGeluCoeff = 0.044715;

template <class C>
C geluExact(C x) {
  return C(0.5) * x * (C(1) + std::erf(x / C(kSqrt2)));
}
template <class C>
C geluTanh(C x) {
  return C(0.5) * x * (C(1) + std::tanh(C(kSqrt2OverPi) * (x + C(kGeluCoeff) * x * x * x)));
}
template <class C>
C geluExactGrad(C x, C d) {
  return d * (C(0.5) * (C(1) + std::erf(x / C(kSqrt2))) + x * C(kInvSqrt2Pi) * std::exp(C(-0.5) * x * x));
}
template <class C>
C geluTanhGrad(C x, C d) {
  C t = std::tanh(C(kSqrt2OverPi) * (x + C(kGeluCoeff) * x * x * x));
  C du = C(kSqrt2OverPi) * (C(1) + C(3 * kGeluCoeff) * x * x);
  return d * (C(0.5) * (C(1) + t) + C(0.5) * x * (C(1) - t * t) * du);
}

Status relu(KernelContext& ctx) {  // numpy's maximum(x, 0): NaN stays NaN
  return unaryKernel(ctx, [](auto x) { return !(x <= 0) ? x : decltype(x)(0); });
}
Status gelu(KernelContext& ctx) {
  if (core::getBool(ctx.op, "approximate").value_or(false)) return unaryKernel(ctx, [](auto x) { return geluTanh(x); });
  return unaryKernel(ctx, [](auto x) { return geluExact(x); });
}
Status square(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return x * x; });
}
Status expK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::exp(x); });
}
Status sqrtK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::sqrt(x); });
}
Status tanhK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::tanh(x); });
}
Status sigmoid(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return decltype(x)(1) / (decltype(x)(1) + std::exp(-x)); });
}
Status absK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::abs(x); });
}

/// relu_grad (out, out_grad): numpy's out_grad·(out > 0), so a NaN or inf
/// out_grad is not masked to 0; a NaN out (relu of NaN) has no derivative: NaN.
/// d·0 is computed for every element (selects, no branch: GCC does not
/// speculate a multiply that may raise, so a branch would keep it scalar).
Status reluGrad(KernelContext& ctx) {
  return unaryGradKernel(ctx, [](auto out, auto d) {
    auto masked = d * decltype(d)(0);
    auto r = out > 0 ? d : masked;
    return out != out ? out : r;
  });
}
Status expGrad(KernelContext& ctx) {  // (out, out_grad): out_grad·out
  return unaryGradKernel(ctx, [](auto out, auto d) { return d * out; });
}
Status sqrtGrad(KernelContext& ctx) {  // (out, out_grad): out_grad·0.5/out
  return unaryGradKernel(ctx, [](auto out, auto d) { return d * decltype(d)(0.5) / out; });
}
Status tanhGrad(KernelContext& ctx) {  // (out, out_grad): out_grad·(1 - out²)
  return unaryGradKernel(ctx, [](auto out, auto d) { return d * (decltype(d)(1) - out * out); });
}
Status sigmoidGrad(KernelContext& ctx) {  // (out, out_grad): out_grad·out·(1 - out)
  return unaryGradKernel(ctx, [](auto out, auto d) { return d * out * (decltype(d)(1) - out); });
}
Status geluGrad(KernelContext& ctx) {  // (x, out_grad)
  if (core::getBool(ctx.op, "approximate").value_or(false))
    return unaryGradKernel(ctx, [](auto x, auto d) { return geluTanhGrad(x, d); });
  return unaryGradKernel(ctx, [](auto x, auto d) { return geluExactGrad(x, d); });
}
Status squareGrad(KernelContext& ctx) {  // (x, out_grad)
  return unaryGradKernel(ctx, [](auto x, auto d) { return decltype(x)(2) * x * d; });
}
/// abs_grad (x, out_grad): out_grad·sign(x), 0 at x = 0 and NaN at a NaN x,
/// as Paddle's AbsGradFunctor (out_grad·x/|x|) for finite x; at ±inf that
/// division is NaN, here it is ±out_grad.
Status absGrad(KernelContext& ctx) {
  return unaryGradKernel(ctx, [](auto x, auto d) {
    using C = decltype(x);
    if (x > 0) return d;
    if (x < 0) return -d;
    return x == 0 ? d * C(0) : x;  // d·0 keeps a NaN out_grad NaN; a NaN x stays NaN
  });
}

/// scale(x, scale?) {scale, bias, bias_after_scale}: scale·x + bias, or
/// scale·(x + bias) when bias_after_scale is false. Ints too.
Status scale(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  double k = scalarArg(ctx, 1, "scale", 1.0);
  double bias = core::getDouble(ctx.op, "bias").value_or(0.0);
  bool after = core::getBool(ctx.op, "bias_after_scale").value_or(true);
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    using F = std::conditional_t<std::is_integral_v<C>, double, C>;
    if (!ctx.out(0).defined()) ctx.setOut(0, reuseOrAllocate(ctx, 0, x.dtype(), x.shape()));
    const T* a = x.data<T>();
    T* o = ctx.out(0).template data<T>();
    F fk = F(k), fb = F(bias);
    for (int64_t i = 0; i < x.numel(); ++i) {
      F v = F(load(a[i]));
      o[i] = store<T>(after ? fk * v + fb : fk * (v + fb));
    }
    return Status::ok();
  });
}

Status cast(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  auto dtype = core::getDataType(ctx.op, "dtype");
  if (!dtype || !isRunnable(*dtype) || !isRunnable(ctx.in(0).dtype()))
    return kernelError(ctx, "no cast to or from this dtype");
  ctx.setOut(0, ctx.in(0).dtype() == *dtype ? ctx.in(0).clone() : castTensor(ctx.in(0), *dtype));
  return Status::ok();
}

Status castGrad(KernelContext& ctx) {  // (x, out_grad): out_grad cast back to x's dtype
  if (Status s = requireOperands(ctx, {1}); !s) return s;
  if (!ctx.has(0)) return kernelError(ctx, "x is needed for its dtype");
  ctx.setOut(0, ctx.in(1).dtype() == ctx.in(0).dtype() ? ctx.in(1).clone() : castTensor(ctx.in(1), ctx.in(0).dtype()));
  return Status::ok();
}

}  // namespace
}  // namespace kernels

void registerUnaryKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.abs", absK, kFloats);
  r.add("pd_op.abs_grad", absGrad, kFloats);
  r.add("pd_op.cast", cast, kAllDtypes);
  r.add("pd_op.cast_grad", castGrad, kAllDtypes);
  r.add("pd_op.exp", expK, kFloats);
  r.add("pd_op.exp_grad", expGrad, kFloats);
  r.add("pd_op.gelu", gelu, kFloats);
  r.add("pd_op.gelu_grad", geluGrad, kFloats);
  r.add("pd_op.relu", relu, kFloats);
  r.add("pd_op.relu_grad", reluGrad, kFloats);
  r.add("pd_op.scale", scale, kNumbers);
  r.add("pd_op.scale_", scale, kNumbers);  // in place: the result arrives preset to x
  r.add("pd_op.sigmoid", sigmoid, kFloats);
  r.add("pd_op.sigmoid_grad", sigmoidGrad, kFloats);
  r.add("pd_op.sqrt", sqrtK, kFloats);
  r.add("pd_op.sqrt_grad", sqrtGrad, kFloats);
  r.add("pd_op.square", square, kFloats);
  r.add("pd_op.square_grad", squareGrad, kFloats);
  r.add("pd_op.tanh", tanhK, kFloats);
  r.add("pd_op.tanh_grad", tanhGrad, kFloats);
}

}  // namespace pir::runtime
