//===- unary.h - the elementwise unary loops ---------------------*- C++ -*-===//
//
// unaryKernel (out = f(x)) and unaryGradKernel (x_grad = f(a, out_grad), a
// being x or out) over the float dtypes, bf16 computed in f32: the loops the
// activations (unary_kernels.cpp) and the math functions (math_kernels.cpp)
// share. An in-place op's result arrives preset to x and is written there;
// otherwise the result takes a dying operand's buffer when it can
// (reuseOrAllocate): element i is read before it is written.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/kernels/math_util.h"

namespace pir::runtime::kernels {

/// o[i] = f(a[i]) (SIMD clones: the activations are hot in training steps).
template <class T, class F>
PIR_SIMD_CLONES void mapLoop(const T* a, T* o, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) o[i] = store<T>(f(load(a[i])));
}
/// o[i] = f(a[i], d[i]).
template <class T, class F>
PIR_SIMD_CLONES void mapLoop2(const T* a, const T* d, T* o, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) o[i] = store<T>(f(load(a[i]), load(d[i])));
}

/// out = f(x) elementwise; the result is x's buffer for an in-place op.
template <class F>
core::Status unaryKernel(KernelContext& ctx, F f) {
  if (core::Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> core::Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    if (!ctx.out(0).defined()) ctx.setOut(0, reuseOrAllocate(ctx, 0, x.dtype(), x.shape()));
    mapLoop(x.data<T>(), ctx.out(0).template data<T>(), x.numel(), f);
    return core::Status::ok();
  });
}

/// x_grad = f(a, dout) elementwise, `a` being x or out.
template <class F>
core::Status unaryGradKernel(KernelContext& ctx, F f) {
  if (core::Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& a = ctx.in(0);
  const Tensor& dout = ctx.in(1);
  if (a.numel() != dout.numel())
    return kernelError(ctx, "out_grad " + shapeText(dout.shape()) + " does not match " + shapeText(a.shape()));
  return visitFloat(ctx, a.dtype(), [&](auto* tag) -> core::Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    if (!ctx.out(0).defined())
      ctx.setOut(0, ctx.reusable(1) ? reuseOrAllocate(ctx, 1, a.dtype(), a.shape())
                                    : reuseOrAllocate(ctx, 0, a.dtype(), a.shape()));
    mapLoop2(a.data<T>(), dout.data<T>(), ctx.out(0).template data<T>(), a.numel(), f);
    return core::Status::ok();
  });
}

}  // namespace pir::runtime::kernels
