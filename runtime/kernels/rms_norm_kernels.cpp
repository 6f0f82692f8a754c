//===- rms_norm_kernels.cpp - rms_norm and rms_norm_grad ------------------===//
//
// rms_norm(x, bias?, residual?, norm_weight, norm_bias?){epsilon,
// begin_norm_axis, quant_scale, quant_round_type, quant_max_bound,
// quant_min_bound} -> (out, residual_out, inv_var), as Paddle's GPU kernel
// (gpu/rms_norm_kernel.cu): x is [rows, cols] split at begin_norm_axis;
// h = x (+ residual + bias, bias per column), residual_out = h (made when
// its type is not null, a residual or not); inv_var = 1/sqrt(mean(h²) +
// epsilon) per row, f32 (f64 for an f64 x) of x's dims before
// begin_norm_axis; out = h·inv_var·norm_weight (+ norm_bias). Paddle's
// kernel drops `bias` when there is no residual; here it is added either
// way (docs/pir-run.md). Quantised output (quant_scale > 0) is refused.
//
// rms_norm_grad(x, bias?, residual?, norm_weight, norm_bias?, inv_var,
// out_grad){epsilon, begin_norm_axis, quant_scale} -> (x_grad,
// norm_weight_grad, norm_bias_grad), from the saved inv_var r, with
// g = out_grad·norm_weight: x_grad = r·g - r³·h·mean(g·h) per row,
// norm_weight_grad = Σrows out_grad·h·r, norm_bias_grad = Σrows out_grad.
// As Paddle's, it refuses bias and residual (the op has no result for
// residual's gradient). Row and column sums are accumulated in f64.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

// Operand positions of rms_norm; rms_norm_grad has the same first five.
enum : size_t { kX, kBias, kResidual, kWeight, kNormBias, kInvVar, kOutGrad };

bool present(const KernelContext& ctx, size_t i) { return ctx.has(i) && ctx.in(i).defined(); }

/// x split at begin_norm_axis: [rows, cols], rowDims the dims before it
/// (inv_var's shape).
struct RmsShape {
  int64_t rows = 1, cols = 1;
  Shape rowDims;
};

/// x's RmsShape, and the checks both kernels share.
Status rmsShape(const KernelContext& ctx, RmsShape& shape) {
  if (!present(ctx, kX) || !present(ctx, kWeight)) return kernelError(ctx, "x and norm_weight are required");
  if (core::getDouble(ctx.op, "quant_scale").value_or(-1) > 0)
    return kernelError(ctx, "quant_scale > 0 (a quantised output) is not supported");
  const Tensor& x = ctx.in(kX);
  int64_t axis = core::getInt64(ctx.op, "begin_norm_axis").value_or(1);
  if (axis < 0) axis += int64_t(x.rank());
  if (axis < 0 || axis > int64_t(x.rank()))
    return kernelError(ctx, "begin_norm_axis is out of range for " + shapeText(x.shape()));
  shape = {};
  for (size_t i = 0; i < x.rank(); ++i) {
    (int64_t(i) < axis ? shape.rows : shape.cols) *= x.dim(i);
    if (int64_t(i) < axis) shape.rowDims.push_back(x.dim(i));
  }
  int64_t cols = shape.cols;
  for (size_t i : {kBias, kWeight, kNormBias})
    if (present(ctx, i) && ctx.in(i).numel() != cols)
      return kernelError(ctx, std::string(i == kBias     ? "bias"
                                          : i == kWeight ? "norm_weight"
                                                         : "norm_bias") +
                                  " " + shapeText(ctx.in(i).shape()) + " does not have the normalized size " +
                                  std::to_string(cols));
  for (size_t i : {kBias, kResidual, kWeight, kNormBias})
    if (present(ctx, i) && ctx.in(i).dtype() != x.dtype())
      return kernelError(ctx, "operand " + std::to_string(i) + " is not of x's dtype");
  if (present(ctx, kResidual) && ctx.in(kResidual).numel() != x.numel())
    return kernelError(
        ctx, "residual " + shapeText(ctx.in(kResidual).shape()) + " does not match x " + shapeText(x.shape()));
  return Status::ok();
}

/// The dtype of inv_var for x's dtype (f32 but for f64).
DataType invVarDtype(DataType x) { return x == DataType::F64 ? DataType::F64 : DataType::F32; }

Status rmsNorm(KernelContext& ctx) {
  RmsShape shape;
  if (Status s = rmsShape(ctx, shape); !s) return s;
  int64_t rows = shape.rows, cols = shape.cols;
  const Tensor& x = ctx.in(kX);
  double eps = core::getDouble(ctx.op, "epsilon").value_or(1e-6);
  bool residual = present(ctx, kResidual), bias = present(ctx, kBias), normBias = present(ctx, kNormBias);
  bool keepH = wantsResult(ctx, 1);  // residual_out: h (x + bias without a residual)
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    using S = std::conditional_t<std::is_same_v<T, double>, double, float>;
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    Tensor h = keepH ? Tensor::allocate(x.dtype(), x.shape()) : Tensor();
    Tensor invVar = Tensor::allocate(invVarDtype(x.dtype()), shape.rowDims);
    const T* px = x.data<T>();
    const T* pr = residual ? ctx.in(kResidual).template data<T>() : nullptr;
    const T* pb = bias ? ctx.in(kBias).template data<T>() : nullptr;
    const T* w = ctx.in(kWeight).template data<T>();
    const T* nb = normBias ? ctx.in(kNormBias).template data<T>() : nullptr;
    T* o = out.data<T>();
    std::vector<C> row(static_cast<size_t>(cols));  // h of one row, in the compute type
    for (int64_t r = 0; r < rows; ++r) {
      const T* xr = px + r * cols;
      double sq = 0;
      for (int64_t j = 0; j < cols; ++j) {
        C v = load(xr[j]);
        if (pr) v += load(pr[r * cols + j]);
        if (pb) v += load(pb[j]);
        row[size_t(j)] = v;
        sq += double(v) * double(v);
      }
      if (keepH) {
        T* hr = h.data<T>() + r * cols;
        for (int64_t j = 0; j < cols; ++j) hr[j] = store<T>(row[size_t(j)]);
      }
      C inv = C(1.0 / std::sqrt(sq / double(cols ? cols : 1) + eps));
      invVar.data<S>()[r] = S(inv);
      T* orow = o + r * cols;
      for (int64_t j = 0; j < cols; ++j) {
        C v = row[size_t(j)] * inv * C(load(w[j]));
        if (nb) v += load(nb[j]);
        orow[j] = store<T>(v);
      }
    }
    ctx.setOut(0, std::move(out));
    if (keepH) ctx.setOut(1, std::move(h));
    if (wantsResult(ctx, 2)) ctx.setOut(2, std::move(invVar));
    return Status::ok();
  });
}

Status rmsNormGrad(KernelContext& ctx) {
  RmsShape shape;
  if (Status s = rmsShape(ctx, shape); !s) return s;
  int64_t rows = shape.rows, cols = shape.cols;
  if (present(ctx, kBias) || present(ctx, kResidual))
    return kernelError(ctx,
                       "bias and residual are not supported (nor by Paddle's kernel: the op has no gradient "
                       "for residual)");
  if (!present(ctx, kInvVar) || !present(ctx, kOutGrad)) return kernelError(ctx, "inv_var and out_grad are required");
  const Tensor& x = ctx.in(kX);
  const Tensor& invVar = ctx.in(kInvVar);
  const Tensor& dout = ctx.in(kOutGrad);
  if (dout.numel() != x.numel() || dout.dtype() != x.dtype())
    return kernelError(ctx, "out_grad " + dout.typeText() + " does not match x " + x.typeText());
  if (invVar.numel() != rows || invVar.dtype() != invVarDtype(x.dtype()))
    return kernelError(ctx, "inv_var " + invVar.typeText() + " is not one " +
                                std::string(core::dataTypeName(invVarDtype(x.dtype()))) + " per row of " +
                                std::to_string(rows));
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    using S = std::conditional_t<std::is_same_v<T, double>, double, float>;
    Tensor dx = Tensor::allocate(x.dtype(), x.shape());
    const T* px = x.data<T>();
    const T* pd = dout.data<T>();
    const T* w = ctx.in(kWeight).template data<T>();
    const S* inv = invVar.data<S>();
    std::vector<double> dw(size_t(cols), 0.0), db(size_t(cols), 0.0);
    std::vector<C> g(static_cast<size_t>(cols));
    for (int64_t r = 0; r < rows; ++r) {
      const T* xr = px + r * cols;
      const T* dr = pd + r * cols;
      C ri = C(inv[r]);
      double dot = 0;
      for (int64_t j = 0; j < cols; ++j) {
        C d = load(dr[j]), xv = load(xr[j]);
        g[size_t(j)] = d * C(load(w[j]));
        dot += double(g[size_t(j)]) * double(xv);
        dw[size_t(j)] += double(d) * double(xv) * double(ri);
        db[size_t(j)] += double(d);
      }
      C k = C(dot / double(cols ? cols : 1)) * ri * ri * ri;
      T* o = dx.data<T>() + r * cols;
      for (int64_t j = 0; j < cols; ++j) o[j] = store<T>(ri * g[size_t(j)] - k * C(load(xr[j])));
    }
    ctx.setOut(0, std::move(dx));
    auto perColumn = [&](size_t operand, const std::vector<double>& v) {
      Tensor t = Tensor::allocate(x.dtype(), ctx.in(operand).shape());
      for (int64_t j = 0; j < cols; ++j) t.data<T>()[j] = store<T>(v[size_t(j)]);
      return t;
    };
    if (wantsResult(ctx, 1)) ctx.setOut(1, perColumn(kWeight, dw));
    if (wantsResult(ctx, 2)) ctx.setOut(2, perColumn(present(ctx, kNormBias) ? kNormBias : kWeight, db));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerRmsNormKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.rms_norm", kernels::rmsNorm, kFloats);
  r.add("pd_op.rms_norm_grad", kernels::rmsNormGrad, kFloats);
}

}  // namespace pir::runtime
