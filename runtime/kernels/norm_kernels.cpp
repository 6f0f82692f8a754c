//===- norm_kernels.cpp - softmax, layer_norm and their grads -------------===//
//
// softmax(x){axis} = exp(x - max) / sum over `axis`; softmax_grad(out,
// out_grad){axis} = out·(dout - sum(dout·out)). layer_norm(x, scale?,
// bias?){epsilon, begin_norm_axis}: biased mean and variance over the dims
// from begin_norm_axis on; results (out, mean, variance), mean and variance
// of shape [rows] in f32 for a bf16 x (as Paddle keeps them). Row sums are
// accumulated in f64 so that shards and the whole agree within --check's
// tolerance.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <unsupported/Eigen/CXX11/Tensor>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// A tensor seen as [outer, n, inner] around `axis`.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};

Status axisView(const KernelContext& ctx, const Tensor& x, AxisView& v) {
  auto axis = normalizeAxis(core::getInt64(ctx.op, "axis").value_or(-1), x.rank());
  if (!axis) return kernelError(ctx, "axis is out of range for " + shapeText(x.shape()));
  v = {};
  for (size_t i = 0; i < x.rank(); ++i) {
    if (int64_t(i) < *axis) v.outer *= x.dim(i);
    if (int64_t(i) == *axis) v.n = x.dim(i);
    if (int64_t(i) > *axis) v.inner *= x.dim(i);
  }
  return Status::ok();
}

/// Softmax over contiguous rows (the last axis) in Eigen's Tensor module:
/// its vectorised exp measured faster than a plain loop (README "Kernels").
template <class T>
void softmaxLastAxis(const T* x, T* o, const AxisView& v) {
  using In = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor>>;
  using Out = Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor>>;
  for (int64_t a = 0; a < v.outer; ++a) {
    In row(x + a * v.n, v.n);
    Out out(o + a * v.n, v.n);
    // A NaN in the row makes the sum NaN, so the row is NaN (as numpy's)
    // whether or not maximum() returns it.
    Eigen::Tensor<T, 0, Eigen::RowMajor> m = row.maximum();
    out = (row - m()).exp();
    Eigen::Tensor<T, 0, Eigen::RowMajor> sum = out.sum();
    out = out * (T(1) / sum());
  }
}

template <class T>
void softmaxRows(const T* x, T* o, const AxisView& v) {
  using C = ComputeT<T>;
  if constexpr (std::is_floating_point_v<T>) {
    if (v.inner == 1 && v.n > 0) return softmaxLastAxis(x, o, v);
  }
  std::vector<C> e(static_cast<size_t>(v.n));
  for (int64_t a = 0; a < v.outer; ++a)
    for (int64_t b = 0; b < v.inner; ++b) {
      int64_t base = a * v.n * v.inner + b;
      C m = load(x[base]);
      for (int64_t k = 1; k < v.n; ++k) m = nanMax(m, C(load(x[base + k * v.inner])));
      double sum = 0;
      for (int64_t k = 0; k < v.n; ++k) {
        e[size_t(k)] = std::exp(C(load(x[base + k * v.inner])) - m);
        sum += double(e[size_t(k)]);
      }
      C inv = C(1.0 / sum);
      for (int64_t k = 0; k < v.n; ++k) o[base + k * v.inner] = store<T>(e[size_t(k)] * inv);
    }
}

Status softmax(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  AxisView v;
  if (Status s = axisView(ctx, x, v); !s) return s;
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    if (!ctx.out(0).defined()) ctx.setOut(0, Tensor::allocate(x.dtype(), x.shape()));
    softmaxRows(x.data<T>(), ctx.out(0).template data<T>(), v);
    return Status::ok();
  });
}

Status softmaxGrad(KernelContext& ctx) {  // (out, out_grad)
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& out = ctx.in(0);
  const Tensor& dout = ctx.in(1);
  if (out.numel() != dout.numel()) return kernelError(ctx, "out and out_grad differ in size");
  AxisView v;
  if (Status s = axisView(ctx, out, v); !s) return s;
  return visitFloat(ctx, out.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor dx = Tensor::allocate(out.dtype(), out.shape());
    const T* y = out.data<T>();
    const T* d = dout.data<T>();
    T* o = dx.data<T>();
    for (int64_t a = 0; a < v.outer; ++a)
      for (int64_t b = 0; b < v.inner; ++b) {
        int64_t base = a * v.n * v.inner + b;
        double dot = 0;
        for (int64_t k = 0; k < v.n; ++k)
          dot += double(load(y[base + k * v.inner])) * double(load(d[base + k * v.inner]));
        for (int64_t k = 0; k < v.n; ++k) {
          int64_t i = base + k * v.inner;
          o[i] = store<T>(C(load(y[i])) * (C(load(d[i])) - C(dot)));
        }
      }
    ctx.setOut(0, std::move(dx));
    return Status::ok();
  });
}

/// The [rows, cols] split of x at begin_norm_axis.
Status normSplit(const KernelContext& ctx, const Tensor& x, int64_t& rows, int64_t& cols) {
  int64_t axis = core::getInt64(ctx.op, "begin_norm_axis").value_or(1);
  if (axis < 0) axis += int64_t(x.rank());
  if (axis < 0 || axis > int64_t(x.rank()))
    return kernelError(ctx, "begin_norm_axis is out of range for " + shapeText(x.shape()));
  rows = 1;
  cols = 1;
  for (size_t i = 0; i < x.rank(); ++i) (int64_t(i) < axis ? rows : cols) *= x.dim(i);
  return Status::ok();
}

/// Element `i` of an optional per-column operand (scale, bias), or `dflt`.
double optAt(const KernelContext& ctx, size_t operand, int64_t i, double dflt) {
  if (!ctx.has(operand) || !ctx.in(operand).defined()) return dflt;
  return valueAt(ctx.in(operand), i);
}

Status checkPerColumn(const KernelContext& ctx, size_t operand, int64_t cols) {
  if (ctx.has(operand) && ctx.in(operand).defined() && ctx.in(operand).numel() != cols)
    return kernelError(ctx, "operand " + std::to_string(operand) + " has " + std::to_string(ctx.in(operand).numel()) +
                                " elements, not the normalized size " + std::to_string(cols));
  return Status::ok();
}

/// The dtype of layer_norm's mean and variance for x's dtype.
DataType statsDtype(DataType x) { return x == DataType::BF16 ? DataType::F32 : x; }

Status layerNorm(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  int64_t rows, cols;
  if (Status s = normSplit(ctx, x, rows, cols); !s) return s;
  if (Status s = checkPerColumn(ctx, 1, cols); !s) return s;
  if (Status s = checkPerColumn(ctx, 2, cols); !s) return s;
  double eps = core::getDouble(ctx.op, "epsilon").value_or(1e-5);
  std::vector<double> gamma(static_cast<size_t>(cols)), beta(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j) gamma[size_t(j)] = optAt(ctx, 1, j, 1.0), beta[size_t(j)] = optAt(ctx, 2, j, 0.0);
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using S = std::conditional_t<std::is_same_v<T, double>, double, float>;
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    int64_t rowShape[] = {rows};
    Tensor mean = Tensor::allocate(statsDtype(x.dtype()), rowShape);
    Tensor var = Tensor::allocate(statsDtype(x.dtype()), rowShape);
    const T* a = x.data<T>();
    T* o = out.data<T>();
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = a + r * cols;
      double mu = 0, sq = 0;
      for (int64_t j = 0; j < cols; ++j) mu += double(load(row[j]));
      mu /= double(cols ? cols : 1);
      for (int64_t j = 0; j < cols; ++j) {
        double c = double(load(row[j])) - mu;
        sq += c * c;
      }
      double v = sq / double(cols ? cols : 1);
      double rstd = 1.0 / std::sqrt(v + eps);
      for (int64_t j = 0; j < cols; ++j)
        o[r * cols + j] = store<T>((double(load(row[j])) - mu) * rstd * gamma[size_t(j)] + beta[size_t(j)]);
      mean.data<S>()[r] = S(mu);
      var.data<S>()[r] = S(v);
    }
    ctx.setOut(0, std::move(out));
    if (wantsResult(ctx, 1)) ctx.setOut(1, std::move(mean));
    if (wantsResult(ctx, 2)) ctx.setOut(2, std::move(var));
    return Status::ok();
  });
}

/// A per-column result (scale_grad, bias_grad) in the dtype of its operand.
Tensor perColumn(const KernelContext& ctx, size_t operand, const std::vector<double>& v, DataType fallback) {
  DataType dt = ctx.has(operand) && ctx.in(operand).defined() ? ctx.in(operand).dtype() : fallback;
  int64_t shape[] = {int64_t(v.size())};
  Tensor t = ctx.has(operand) && ctx.in(operand).defined() ? Tensor::allocate(dt, ctx.in(operand).shape())
                                                           : Tensor::allocate(dt, shape);
  visitDtype(dt, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    for (size_t i = 0; i < v.size(); ++i) t.data<T>()[i] = store<T>(v[i]);
  });
  return t;
}

/// layer_norm_grad (x, scale?, bias?, mean, variance, out_grad) -> (x_grad,
/// scale_grad, bias_grad): with x̂ = (x - μ)·rstd and g = dout·scale,
/// dx = rstd·(g - mean(g) - x̂·mean(g·x̂)), dscale = Σ dout·x̂, dbias = Σ dout.
Status layerNormGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 5}); !s) return s;
  if (!ctx.has(3) || !ctx.has(4)) return kernelError(ctx, "mean and variance are missing");
  const Tensor& x = ctx.in(0);
  const Tensor& mean = ctx.in(3);
  const Tensor& var = ctx.in(4);
  const Tensor& dout = ctx.in(5);
  int64_t rows, cols;
  if (Status s = normSplit(ctx, x, rows, cols); !s) return s;
  if (mean.numel() != rows || var.numel() != rows || dout.numel() != x.numel())
    return kernelError(ctx, "mean, variance or out_grad do not match x " + shapeText(x.shape()));
  if (Status s = checkPerColumn(ctx, 1, cols); !s) return s;
  double eps = core::getDouble(ctx.op, "epsilon").value_or(1e-5);
  std::vector<double> gamma(static_cast<size_t>(cols)), dscale(size_t(cols), 0.0), dbias(size_t(cols), 0.0),
      xh(static_cast<size_t>(cols)), g(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j) gamma[size_t(j)] = optAt(ctx, 1, j, 1.0);
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor dx = Tensor::allocate(x.dtype(), x.shape());
    const T* a = x.data<T>();
    const T* d = dout.data<T>();
    T* o = dx.data<T>();
    for (int64_t r = 0; r < rows; ++r) {
      double mu = valueAt(mean, r);
      double rstd = 1.0 / std::sqrt(valueAt(var, r) + eps);
      double mg = 0, mgx = 0;
      for (int64_t j = 0; j < cols; ++j) {
        size_t k = size_t(j);
        double dj = double(load(d[r * cols + j]));
        xh[k] = (double(load(a[r * cols + j])) - mu) * rstd;
        g[k] = dj * gamma[k];
        mg += g[k];
        mgx += g[k] * xh[k];
        dscale[k] += dj * xh[k];
        dbias[k] += dj;
      }
      mg /= double(cols);
      mgx /= double(cols);
      for (int64_t j = 0; j < cols; ++j) o[r * cols + j] = store<T>(rstd * (g[size_t(j)] - mg - xh[size_t(j)] * mgx));
    }
    if (wantsResult(ctx, 0)) ctx.setOut(0, std::move(dx));
    if (wantsResult(ctx, 1)) ctx.setOut(1, perColumn(ctx, 1, dscale, statsDtype(x.dtype())));
    if (wantsResult(ctx, 2)) ctx.setOut(2, perColumn(ctx, 2, dbias, statsDtype(x.dtype())));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerNormKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.layer_norm", layerNorm, kFloats);
  r.add("pd_op.layer_norm_grad", layerNormGrad, kFloats);
  r.add("pd_op.softmax", softmax, kFloats);
  r.add("pd_op.softmax_grad", softmaxGrad, kFloats);
}

}  // namespace pir::runtime
