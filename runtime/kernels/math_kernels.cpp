//===- math_kernels.cpp - sin, cos, log, rsqrt, pow, clip, floor, sign ----===//
//
// The elementwise math functions real programs use, with their grads:
// sin_grad, cos_grad, log_grad and pow_grad take x, rsqrt_grad takes out
// (Paddle's backward.yaml), floor_grad and sign_grad only out_grad (their
// derivative is 0 wherever it exists, as Paddle's). pow's exponent is the Scalar attribute
// `y`. clip's bounds are operands 1 and 2 (the `full`s PIR prints for its
// Scalar(float) min and max) or, when absent, attributes; clip_grad passes
// out_grad where min < x < max, strictly, as Paddle's ClipGradFunctor.
// Float dtypes, bf16 computed in f32; sign also takes i32 and i64. NaN
// propagates as in numpy (sign(NaN) and clip(NaN) are NaN).
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/unary.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

Status sinK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::sin(x); });
}
Status cosK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::cos(x); });
}
Status logK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::log(x); });
}
Status rsqrt(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return decltype(x)(1) / std::sqrt(x); });
}
Status floorK(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return std::floor(x); });
}

Status sinGrad(KernelContext& ctx) {  // (x, out_grad): out_grad·cos(x)
  return unaryGradKernel(ctx, [](auto x, auto d) { return d * std::cos(x); });
}
Status cosGrad(KernelContext& ctx) {  // (x, out_grad): -out_grad·sin(x)
  return unaryGradKernel(ctx, [](auto x, auto d) { return -d * std::sin(x); });
}
Status logGrad(KernelContext& ctx) {  // (x, out_grad): out_grad / x
  return unaryGradKernel(ctx, [](auto x, auto d) { return d / x; });
}
Status rsqrtGrad(KernelContext& ctx) {  // (out, out_grad): -0.5·out_grad·out³
  return unaryGradKernel(ctx, [](auto out, auto d) { return decltype(d)(-0.5) * d * out * out * out; });
}

/// floor_grad and sign_grad (out_grad): zeros of out_grad's shape and dtype
/// (Paddle's sign_grad invokes scale(out_grad, 0)).
Status zerosGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& d = ctx.in(0);
  return visitFloat(ctx, d.dtype(), [&](auto*) -> Status {
    ctx.setOut(0, Tensor::zeros(d.dtype(), d.shape()));
    return Status::ok();
  });
}

/// sign (x): -1, 0 or 1, NaN for NaN (numpy's); ints too.
Status sign(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    const T* a = x.data<T>();
    T* o = out.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      C v = load(a[i]);
      o[i] = store<T>(v > C(0) ? C(1) : v < C(0) ? C(-1) : v);  // 0 and NaN stay
    }
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// pow (x){y}: x^y, y a Scalar attribute (or operand 1 when PIR made it one).
Status powK(KernelContext& ctx) {
  double y = scalarArg(ctx, 1, "y", 1.0);
  return unaryKernel(ctx, [y](auto x) { return std::pow(x, decltype(x)(y)); });
}

/// pow_grad (x, out_grad){y}: out_grad·y·x^(y-1).
Status powGrad(KernelContext& ctx) {
  double y = scalarArg(ctx, 2, "y", -1.0);
  return unaryGradKernel(ctx, [y](auto x, auto d) {
    using C = decltype(x);
    return d * C(y) * std::pow(x, C(y - 1));
  });
}

/// clip's bound `name`: operand `i` (a one-element tensor) or the attribute.
Status clipBound(const KernelContext& ctx, size_t i, std::string_view name, double& v) {
  if (ctx.has(i) && ctx.in(i).defined()) {
    if (ctx.in(i).numel() != 1)
      return kernelError(ctx, std::string(name) + " must hold one value, not " + ctx.in(i).typeText());
    v = valueAt(ctx.in(i), 0);
    return Status::ok();
  }
  auto a = core::getDouble(ctx.op, name);
  if (!a) return kernelError(ctx, std::string(name) + " is neither an operand nor an attribute");
  v = *a;
  return Status::ok();
}

/// clip (x, min, max): numpy's minimum(maximum(x, min), max), NaN kept.
Status clip(KernelContext& ctx) {
  double lo = 0, hi = 0;
  if (Status s = clipBound(ctx, 1, "min", lo); !s) return s;
  if (Status s = clipBound(ctx, 2, "max", hi); !s) return s;
  return unaryKernel(ctx, [lo, hi](auto x) {
    using C = decltype(x);
    return x < C(lo) ? C(lo) : x > C(hi) ? C(hi) : x;
  });
}

/// clip_grad (x, out_grad, min, max): out_grad where min < x < max, else 0.
Status clipGrad(KernelContext& ctx) {
  double lo = 0, hi = 0;
  if (Status s = clipBound(ctx, 2, "min", lo); !s) return s;
  if (Status s = clipBound(ctx, 3, "max", hi); !s) return s;
  return unaryGradKernel(ctx, [lo, hi](auto x, auto d) {
    using C = decltype(x);
    return x > C(lo) && x < C(hi) ? d : C(0);
  });
}

}  // namespace
}  // namespace kernels

void registerMathKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.clip", clip, kFloats);
  r.add("pd_op.clip_grad", clipGrad, kFloats);
  r.add("pd_op.cos", cosK, kFloats);
  r.add("pd_op.cos_grad", cosGrad, kFloats);
  r.add("pd_op.floor", floorK, kFloats);
  r.add("pd_op.floor_grad", zerosGrad, kFloats);
  r.add("pd_op.log", logK, kFloats);
  r.add("pd_op.log_grad", logGrad, kFloats);
  r.add("pd_op.pow", powK, kFloats);
  r.add("pd_op.pow_grad", powGrad, kFloats);
  r.add("pd_op.rsqrt", rsqrt, kFloats);
  r.add("pd_op.rsqrt_grad", rsqrtGrad, kFloats);
  r.add("pd_op.sign", sign, kNumbers);
  r.add("pd_op.sign_grad", zerosGrad, kFloats);
  r.add("pd_op.sin", sinK, kFloats);
  r.add("pd_op.sin_grad", sinGrad, kFloats);
}

}  // namespace pir::runtime
