//===- scan_kernels.cpp - argmax, argmin, cumsum and cumsum_grad ----------===//
//
// Kernels that walk one axis: argmax and argmin (x, axis){keepdims, flatten,
// dtype} give the first extreme's index (the first NaN's when there is one,
// as numpy's), int64 or int32 as dtype says; cumsum (x, axis){flatten,
// exclusive, reverse} and cumsum_grad (x, out_grad, axis){same}, which is
// cumsum of out_grad the other way. The axis is operand 1 (a `full`, as PIR
// prints the Scalar) or the attribute; flatten walks every element as one
// axis. Sums accumulate in f64 for floats, as the reductions do.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// x seen as [outer, n, inner] around one axis.
struct AxisWalk {
  int64_t outer = 1, n = 1, inner = 1;
  size_t axis = 0;
};

/// The axis operand (operand `i`) or attribute, wrapped; with `flatten`,
/// the whole tensor is one axis.
Status axisWalk(const KernelContext& ctx, size_t i, const Tensor& x, bool flatten, AxisWalk& w) {
  if (flatten) {
    w.n = x.numel();
    return Status::ok();
  }
  std::optional<int64_t> a;
  if (ctx.has(i) && ctx.in(i).defined()) {
    if (ctx.in(i).numel() != 1) return kernelError(ctx, "axis must hold one value, not " + ctx.in(i).typeText());
    a = floatToInt<int64_t>(valueAt(ctx.in(i), 0));
  } else {
    a = core::getInt64(ctx.op, "axis");
  }
  if (!a) return kernelError(ctx, "axis is neither an operand nor an attribute");
  auto axis = normalizeAxis(*a, x.rank());
  if (!axis) return kernelError(ctx, "axis " + std::to_string(*a) + " is out of range for " + shapeText(x.shape()));
  w.axis = size_t(*axis);
  for (size_t d = 0; d < x.rank(); ++d) {
    if (d < w.axis) w.outer *= x.dim(d);
    if (d == w.axis) w.n = x.dim(d);
    if (d > w.axis) w.inner *= x.dim(d);
  }
  return Status::ok();
}

/// argmax and argmin: the index of the first extreme along the axis.
template <bool kMax>
Status argExtreme(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  bool flatten = core::getBool(ctx.op, "flatten").value_or(false);
  bool keepdims = core::getBool(ctx.op, "keepdims").value_or(false);
  DataType dtype = core::getDataType(ctx.op, "dtype").value_or(DataType::I64);
  if (dtype != DataType::I64 && dtype != DataType::I32) return kernelError(ctx, "dtype must be int32 or int64");
  AxisWalk w;
  if (Status s = axisWalk(ctx, 1, x, flatten, w); !s) return s;
  if (w.n == 0) return kernelError(ctx, "an arg reduction over a dim with no elements (" + shapeText(x.shape()) + ")");
  Shape shape;
  for (size_t d = 0; d < x.rank(); ++d)
    if (flatten || d == w.axis) {
      if (keepdims) shape.push_back(1);
    } else {
      shape.push_back(x.dim(d));
    }
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(dtype, shape);
    const T* a = x.data<T>();
    for (int64_t o = 0; o < w.outer; ++o)
      for (int64_t in = 0; in < w.inner; ++in) {
        const T* p = a + o * w.n * w.inner + in;
        int64_t best = 0;
        auto bv = load(p[0]);
        for (int64_t j = 1; j < w.n && bv == bv; ++j) {  // stops at a NaN: numpy's first NaN
          auto v = load(p[j * w.inner]);
          if (v != v || (kMax ? v > bv : v < bv)) best = j, bv = v;
        }
        int64_t at = o * w.inner + in;
        if (dtype == DataType::I64)
          out.data<int64_t>()[at] = best;
        else
          out.data<int32_t>()[at] = int32_t(best);
      }
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// Writes the (exclusive, reversed) running sum of `x` along `w` into `out`.
template <class T>
void runningSum(const T* x, T* out, const AxisWalk& w, bool exclusive, bool reverse) {
  using Acc = std::conditional_t<std::is_integral_v<ComputeT<T>>, ComputeT<T>, double>;
  for (int64_t o = 0; o < w.outer; ++o)
    for (int64_t in = 0; in < w.inner; ++in) {
      int64_t base = o * w.n * w.inner + in;
      Acc acc = 0;
      for (int64_t k = 0; k < w.n; ++k) {
        int64_t j = reverse ? w.n - 1 - k : k;
        Acc v = Acc(load(x[base + j * w.inner]));
        if (!exclusive) acc += v;
        out[base + j * w.inner] = store<T>(acc);
        if (exclusive) acc += v;
      }
    }
}

/// cumsum (x, axis) and cumsum_grad (x, out_grad, axis): out_grad's sum
/// runs the other way; with flatten the result is 1-D (x's shape for the
/// grad).
template <bool kGrad>
Status cumsum(KernelContext& ctx) {
  size_t src = kGrad ? 1 : 0;
  if (Status s = requireOperands(ctx, {src}); !s) return s;
  if (kGrad && !ctx.has(0)) return kernelError(ctx, "x is needed for its shape");
  const Tensor& x = ctx.in(src);
  if (kGrad && ctx.in(0).numel() != x.numel())
    return kernelError(ctx, "out_grad " + shapeText(x.shape()) + " does not match x " + shapeText(ctx.in(0).shape()));
  bool flatten = core::getBool(ctx.op, "flatten").value_or(false);
  bool exclusive = core::getBool(ctx.op, "exclusive").value_or(false);
  bool reverse = core::getBool(ctx.op, "reverse").value_or(false) != kGrad;
  AxisWalk w;
  if (Status s = axisWalk(ctx, kGrad ? 2 : 1, x, flatten, w); !s) return s;
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    runningSum(x.data<T>(), out.data<T>(), w, exclusive, reverse);
    if (kGrad)
      out = out.view(ctx.in(0).shape());
    else if (flatten)
      out = out.view(Shape{x.numel()});
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerScanKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.argmax", argExtreme<true>, kNumbers);
  r.add("pd_op.argmin", argExtreme<false>, kNumbers);
  r.add("pd_op.cumsum", cumsum<false>, kNumbers);
  r.add("pd_op.cumsum_grad", cumsum<true>, kNumbers);
}

}  // namespace pir::runtime
