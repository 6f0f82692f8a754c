//===- swiglu_kernels.cpp - silu, swiglu and their grads ------------------===//
//
// silu(x) = x·sigmoid(x); silu_grad(x, out, out_grad) =
// out_grad·s·(1 + x·(1 - s)), s = sigmoid(x) (from x, as Paddle's functor).
// swiglu(x, y?) = silu(x)·y, x and y alike; without y, x's last axis is cut
// in half, [a, b], and out = silu(a)·b (Paddle's SwiGLU kernel).
// swiglu_grad(x, y?, out_grad) -> (x_grad, y_grad): out_grad·y·silu'(x) and
// out_grad·silu(x); without y, x_grad has both halves and y_grad is not made.
// Float dtypes: f32 and f64 as Eigen arrays (its vectorised exp), bf16 in
// f32 loops.
//
//===----------------------------------------------------------------------===//
#include <Eigen/Core>
#include <cmath>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

template <class C>
inline C siluOf(C x) {
  return x / (C(1) + std::exp(-x));
}

template <class T>
using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T>
using In = Eigen::Map<const Arr<T>>;
template <class T>
using Out = Eigen::Map<Arr<T>>;

/// o = silu(a)·b over n elements (b null: silu(a)): Eigen's vectorised exp
/// for f32/f64, a loop for bf16.
template <class T>
void gateRow(const T* a, const T* b, T* o, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    In<T> x(a, n);
    if (b)
      Out<T>(o, n) = x / (T(1) + (-x).exp()) * In<T>(b, n);
    else
      Out<T>(o, n) = x / (T(1) + (-x).exp());
  } else {
    for (int64_t j = 0; j < n; ++j) o[j] = store<T>(b ? siluOf(load(a[j])) * load(b[j]) : siluOf(load(a[j])));
  }
}

/// da = g·b·silu'(a) and db = g·silu(a) over n elements (b null: da =
/// g·silu'(a), no db), silu'(a) = s·(1 + a·(1 - s)), s = sigmoid(a); `s` is
/// scratch of n.
template <class T>
void gateGradRow(const T* a, const T* b, const T* g, T* da, T* db, int64_t n, std::vector<ComputeT<T>>& s) {
  if constexpr (std::is_floating_point_v<T>) {
    In<T> x(a, n), d(g, n);
    Out<T> sg(s.data(), n);
    sg = T(1) / (T(1) + (-x).exp());
    if (b) {
      Out<T>(da, n) = d * In<T>(b, n) * sg * (T(1) + x * (T(1) - sg));
      Out<T>(db, n) = d * x * sg;
    } else {
      Out<T>(da, n) = d * sg * (T(1) + x * (T(1) - sg));
    }
  } else {
    using C = ComputeT<T>;
    for (int64_t j = 0; j < n; ++j) {
      C av = load(a[j]), gv = load(g[j]), sj = C(1) / (C(1) + std::exp(-av));
      C slope = sj * (C(1) + av * (C(1) - sj));
      da[j] = store<T>(b ? gv * C(load(b[j])) * slope : gv * slope);
      if (b) db[j] = store<T>(gv * av * sj);
    }
  }
}

bool present(const KernelContext& ctx, size_t i) { return ctx.has(i) && ctx.in(i).defined(); }

Status silu(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    gateRow<T>(x.data<T>(), nullptr, out.data<T>(), x.numel());
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

Status siluGrad(KernelContext& ctx) {  // (x, out, out_grad)
  if (Status s = requireOperands(ctx, {0, 2}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& dout = ctx.in(2);
  if (dout.numel() != x.numel())
    return kernelError(ctx, "out_grad " + shapeText(dout.shape()) + " does not match x " + shapeText(x.shape()));
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor dx = Tensor::allocate(x.dtype(), x.shape());
    std::vector<ComputeT<T>> scratch(static_cast<size_t>(x.numel()));
    gateGradRow<T>(x.data<T>(), nullptr, dout.data<T>(), dx.data<T>(), nullptr, x.numel(), scratch);
    ctx.setOut(0, std::move(dx));
    return Status::ok();
  });
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
      gateRow<T>(a, h.split ? a + h.n : py, o + r * h.n, h.n);
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
    Tensor dx = Tensor::allocate(x.dtype(), x.shape());
    Tensor dy = h.split ? Tensor() : Tensor::allocate(x.dtype(), x.shape());
    const T* px = x.data<T>();
    const T* py = h.split ? nullptr : ctx.in(1).template data<T>();
    std::vector<ComputeT<T>> scratch(static_cast<size_t>(h.n));
    for (int64_t r = 0; r < h.rows; ++r) {
      const T* a = h.split ? px + r * 2 * h.n : px;
      T* da = dx.data<T>() + (h.split ? r * 2 * h.n : 0);
      gateGradRow<T>(a, h.split ? a + h.n : py, dout.data<T>() + r * h.n, da, h.split ? da + h.n : dy.data<T>(), h.n,
                     scratch);
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
