//===- unary.h - the elementwise unary loops ---------------------*- C++ -*-===//
//
// unaryKernel (out = f(x)) and unaryGradKernel (x_grad = f(a, out_grad), a
// being x or out) over the float dtypes, bf16 computed in f32: the loops the
// activations (unary_kernels.cpp) and the math functions (math_kernels.cpp)
// share. An in-place op's result arrives preset to x and is written there.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/kernels/math_util.h"

namespace pir::runtime::kernels {

/// out = f(x) elementwise; the result is x's buffer for an in-place op.
template <class F>
core::Status unaryKernel(KernelContext& ctx, F f) {
  if (core::Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> core::Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    if (!ctx.out(0).defined()) ctx.setOut(0, Tensor::allocate(x.dtype(), x.shape()));
    const T* a = x.data<T>();
    T* o = ctx.out(0).template data<T>();
    for (int64_t i = 0; i < x.numel(); ++i) o[i] = store<T>(f(load(a[i])));
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
    if (!ctx.out(0).defined()) ctx.setOut(0, Tensor::allocate(a.dtype(), a.shape()));
    const T* pa = a.data<T>();
    const T* pd = dout.data<T>();
    T* o = ctx.out(0).template data<T>();
    for (int64_t i = 0; i < a.numel(); ++i) o[i] = store<T>(f(load(pa[i]), load(pd[i])));
    return core::Status::ok();
  });
}

}  // namespace pir::runtime::kernels
