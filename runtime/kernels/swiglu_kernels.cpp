//===- swiglu_kernels.cpp - silu, swiglu and their grads ------------------===//
//
// silu(x) = x·sigmoid(x); silu_grad(x, out, out_grad) =
// out_grad·s·(1 + x·(1 - s)), s = sigmoid(x) (from x, as Paddle's functor).
// swiglu(x, y?) = silu(x)·y, x and y alike; without y, x's last axis is cut
// in half, [a, b], and out = silu(a)·b (Paddle's SwiGLU kernel).
// swiglu_grad(x, y?, out_grad) -> (x_grad, y_grad): out_grad·y·silu'(x) and
// out_grad·silu(x); without y, x_grad has both halves and y_grad is not made.
// Float dtypes, bf16 computed in f32.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/unary.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

template <class C>
inline C sigmoidOf(C x) {
  return C(1) / (C(1) + std::exp(-x));
}
template <class C>
inline C siluOf(C x) {
  return x * sigmoidOf(x);
}
template <class C>
inline C siluDerivative(C x) {
  C s = sigmoidOf(x);
  return s * (C(1) + x * (C(1) - s));
}

bool present(const KernelContext& ctx, size_t i) { return ctx.has(i) && ctx.in(i).defined(); }

Status silu(KernelContext& ctx) {
  return unaryKernel(ctx, [](auto x) { return siluOf(x); });
}
Status siluGrad(KernelContext& ctx) {  // (x, out, out_grad)
  return unaryGradKernel(
      ctx, [](auto x, auto d) { return d * siluDerivative(x); }, 0, 2);
}

/// The gate and value rows of swiglu: with y, x and y whole (rows of one
/// element stride); without, x's last axis split: rows of `n` with gate at
/// row·2n and value at row·2n + n.
struct Halves {
  int64_t rows = 1, n = 0;
  bool split = false;
  Shape outShape;
};

Status halvesOf(const KernelContext& ctx, Halves& h) {
  if (!present(ctx, 0)) return kernelError(ctx, "x is required");
  const Tensor& x = ctx.in(0);
  h = {};
  if (present(ctx, 1)) {
    const Tensor& y = ctx.in(1);
    if (y.dtype() != x.dtype() || !std::equal(x.shape().begin(), x.shape().end(), y.shape().begin(), y.shape().end()))
      return kernelError(ctx, "y " + y.typeText() + " does not match x " + x.typeText());
    h.rows = 1;
    h.n = x.numel();
    h.outShape.assign(x.shape().begin(), x.shape().end());
    return Status::ok();
  }
  if (x.rank() == 0 || x.dim(x.rank() - 1) % 2)
    return kernelError(ctx, "without y, x's last axis must be even to split in half, not " + shapeText(x.shape()));
  h.split = true;
  h.n = x.dim(x.rank() - 1) / 2;
  h.rows = h.n ? x.numel() / (2 * h.n) : 0;
  h.outShape.assign(x.shape().begin(), x.shape().end());
  h.outShape.back() = h.n;
  return Status::ok();
}

Status swiglu(KernelContext& ctx) {  // (x, y?)
  Halves h;
  if (Status s = halvesOf(ctx, h); !s) return s;
  const Tensor& x = ctx.in(0);
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(x.dtype(), h.outShape);
    const T* px = x.data<T>();
    const T* py = h.split ? nullptr : ctx.in(1).template data<T>();
    T* o = out.data<T>();
    for (int64_t r = 0; r < h.rows; ++r) {
      const T* a = h.split ? px + r * 2 * h.n : px;
      const T* b = h.split ? a + h.n : py;
      T* orow = o + r * h.n;
      for (int64_t j = 0; j < h.n; ++j) orow[j] = store<T>(siluOf(load(a[j])) * load(b[j]));
    }
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

Status swigluGrad(KernelContext& ctx) {  // (x, y?, out_grad)
  Halves h;
  if (Status s = halvesOf(ctx, h); !s) return s;
  const Tensor& x = ctx.in(0);
  if (!present(ctx, 2)) return kernelError(ctx, "out_grad is required");
  const Tensor& dout = ctx.in(2);
  if (dout.dtype() != x.dtype() || dout.numel() != h.rows * h.n)
    return kernelError(ctx, "out_grad " + dout.typeText() + " does not match the output " + shapeText(h.outShape));
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor dx = Tensor::allocate(x.dtype(), x.shape());
    Tensor dy = h.split ? Tensor() : Tensor::allocate(x.dtype(), x.shape());
    const T* px = x.data<T>();
    const T* py = h.split ? nullptr : ctx.in(1).template data<T>();
    const T* pd = dout.data<T>();
    for (int64_t r = 0; r < h.rows; ++r) {
      const T* a = h.split ? px + r * 2 * h.n : px;
      const T* b = h.split ? a + h.n : py;
      T* da = dx.data<T>() + (h.split ? r * 2 * h.n : 0);
      T* db = h.split ? da + h.n : dy.data<T>();
      const T* d = pd + r * h.n;
      for (int64_t j = 0; j < h.n; ++j) {
        C av = load(a[j]), g = load(d[j]);
        da[j] = store<T>(g * C(load(b[j])) * siluDerivative(av));
        db[j] = store<T>(g * siluOf(av));
      }
    }
    ctx.setOut(0, std::move(dx));
    if (!h.split && wantsResult(ctx, 1)) ctx.setOut(1, std::move(dy));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerSwigluKernels(KernelRegistry& r) {
  r.add("pd_op.silu", kernels::silu, kFloats);
  r.add("pd_op.silu_grad", kernels::siluGrad, kFloats);
  r.add("pd_op.swiglu", kernels::swiglu, kFloats);
  r.add("pd_op.swiglu_grad", kernels::swigluGrad, kFloats);
}

}  // namespace pir::runtime
