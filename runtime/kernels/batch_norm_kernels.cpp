//===- batch_norm_kernels.cpp - batch_norm, batch_norm_ and the grad -------===//
//
// batch_norm(x, mean, variance, scale?, bias?){is_test, momentum, epsilon,
// data_format, use_global_stats, trainable_statistics} -> (out, mean_out,
// variance_out, saved_mean, saved_variance, reserve_space), as Paddle's CPU
// kernel (phi/kernels/cpu/batch_norm_kernel.cc). The channel is dim 1
// (NCHW, any rank >= 2) or the last dim (NHWC). With global statistics
// (is_test and not trainable_statistics, or use_global_stats) x is
// normalised by the running mean and variance, which stay as they are;
// saved_mean and saved_variance are zeros (Paddle leaves them unset).
// Otherwise by the batch's mean and biased variance: saved_mean = the batch
// mean, saved_variance = 1/sqrt(batch variance + epsilon), and the running
// statistics move: mean_out = momentum·mean + (1 - momentum)·batch mean,
// variance_out likewise with the biased batch variance. batch_norm_ writes
// mean_out and variance_out into mean and variance; batch_norm makes new
// tensors (Paddle's static yaml declares them views of mean and variance). reserve_space is an
// empty [0] tensor (the CPU kernel has none). data_layout, the 2023 name of
// data_format, is read too. Sums in f64; bf16 x with f32 statistics.
//
// batch_norm_grad (x, scale?, bias?, mean_out?, variance_out?, saved_mean,
// saved_variance, reserve_space?, out_grad) -> (x_grad, scale_grad,
// bias_grad): with x̂ the normalised x, bias_grad = Σ dy, scale_grad =
// Σ dy·x̂ and, from batch statistics, x_grad = scale·inv_std·(dy -
// mean(dy) - x̂·mean(dy·x̂)); with global statistics (mean_out and
// variance_out) x_grad = dy·scale·inv_std.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "core/attributes.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// A bool attribute, or the 0/1 integer of 2023 dumps (`is_test:0`).
bool flag(const core::Operation& op, std::string_view key, bool dflt) {
  if (auto b = core::getBool(op, key)) return *b;
  if (auto i = core::getInt64(op, key)) return *i != 0;
  return dflt;
}

/// x seen as [outer, c, inner] around its channel dim.
struct ChannelView {
  int64_t outer = 1, c = 1, inner = 1;
  int64_t count() const { return outer * inner; }  // elements per channel
  int64_t at(int64_t o, int64_t ch, int64_t i) const { return (o * c + ch) * inner + i; }
};

std::string dataFormat(const core::Operation& op) {
  for (std::string_view key : {"data_format", "data_layout"}) {
    if (auto* s = op.attrOf<core::StringAttr>(key)) return s->value();
    if (auto* s = op.attrOf<core::SymbolAttr>(key)) return std::string(s->text());
  }
  return "NCHW";
}

Status channelView(const KernelContext& ctx, const Tensor& x, ChannelView& v) {
  if (x.rank() < 2) return kernelError(ctx, "batch_norm needs x of rank >= 2, not " + shapeText(x.shape()));
  std::string f = dataFormat(ctx.op);
  bool last = f == "NHWC" || f == "NLC" || f == "NDHWC";
  if (!last && f != "NCHW" && f != "NCL" && f != "NCDHW" && f != "AnyLayout")
    return kernelError(ctx, "data_format " + f + " is not supported (NCHW or NHWC)");
  size_t axis = last ? x.rank() - 1 : 1;
  v = {};
  for (size_t i = 0; i < x.rank(); ++i) {
    if (i < axis) v.outer *= x.dim(i);
    if (i == axis) v.c = x.dim(i);
    if (i > axis) v.inner *= x.dim(i);
  }
  return Status::ok();
}

/// Whether the running statistics normalise (Paddle's global_stats).
bool globalStats(const core::Operation& op) {
  bool isTest = flag(op, "is_test", false);
  bool trainable = flag(op, "trainable_statistics", false);
  return (isTest && !trainable) || flag(op, "use_global_stats", false);
}

/// Operand `i` as c doubles, or `dflt` everywhere when it is absent; an
/// error when present with another size.
Status perChannel(const KernelContext& ctx, size_t i, const char* name, int64_t c, double dflt,
                  std::vector<double>& v) {
  v.assign(size_t(c), dflt);
  if (!ctx.has(i) || !ctx.in(i).defined()) return Status::ok();
  if (ctx.in(i).numel() != c)
    return kernelError(ctx, std::string(name) + " " + shapeText(ctx.in(i).shape()) + " does not have the " +
                                std::to_string(c) + " channels of x");
  for (int64_t k = 0; k < c; ++k) v[size_t(k)] = valueAt(ctx.in(i), k);
  return Status::ok();
}

/// A [c] tensor of `dt` holding v.
Tensor channelTensor(DataType dt, const std::vector<double>& v) {
  Tensor d = Tensor::allocate(DataType::F64, {int64_t(v.size())});
  std::copy(v.begin(), v.end(), d.data<double>());
  return castTensor(d, dt);
}

/// Writes v into result `i`: into its preset buffer (batch_norm_'s mean and
/// variance) or a new [c] tensor of `dt`.
void setChannelResult(KernelContext& ctx, size_t i, DataType dt, const std::vector<double>& v) {
  if (!wantsResult(ctx, i)) return;
  Tensor t = channelTensor(dt, v);
  if (ctx.out(i).defined() && ctx.out(i).numel() == t.numel()) {
    castInto(t, ctx.out(i));
    return;
  }
  ctx.setOut(i, std::move(t));
}

Status batchNorm(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  if (!ctx.has(1) || !ctx.has(2)) return kernelError(ctx, "mean and variance are missing");
  const Tensor& x = ctx.in(0);
  ChannelView v;
  if (Status s = channelView(ctx, x, v); !s) return s;
  std::vector<double> mean, var, scale, bias;
  if (Status s = perChannel(ctx, 1, "mean", v.c, 0, mean); !s) return s;
  if (Status s = perChannel(ctx, 2, "variance", v.c, 1, var); !s) return s;
  if (Status s = perChannel(ctx, 3, "scale", v.c, 1, scale); !s) return s;
  if (Status s = perChannel(ctx, 4, "bias", v.c, 0, bias); !s) return s;
  double eps = core::getDouble(ctx.op, "epsilon").value_or(1e-5);
  double momentum = core::getDouble(ctx.op, "momentum").value_or(0.9);
  bool global = globalStats(ctx.op);
  DataType statsDt = ctx.in(1).dtype();
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* a = x.data<T>();
    size_t c = size_t(v.c);
    std::vector<double> mu(c, 0.0), sigma2(c, 0.0), inv(c), zero(c, 0.0);
    if (global) {
      mu = mean, sigma2 = var;
    } else {
      if (v.count() == 0) return kernelError(ctx, "batch statistics of an empty x " + shapeText(x.shape()));
      for (int64_t o = 0; o < v.outer; ++o)
        for (int64_t ch = 0; ch < v.c; ++ch)
          for (int64_t i = 0; i < v.inner; ++i) mu[size_t(ch)] += double(load(a[v.at(o, ch, i)]));
      for (double& m : mu) m /= double(v.count());
      for (int64_t o = 0; o < v.outer; ++o)
        for (int64_t ch = 0; ch < v.c; ++ch)
          for (int64_t i = 0; i < v.inner; ++i) {
            double d = double(load(a[v.at(o, ch, i)])) - mu[size_t(ch)];
            sigma2[size_t(ch)] += d * d;
          }
      for (double& s : sigma2) s /= double(v.count());
    }
    for (size_t ch = 0; ch < c; ++ch) inv[ch] = 1.0 / std::sqrt(sigma2[ch] + eps);
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    T* o = out.data<T>();
    for (int64_t b = 0; b < v.outer; ++b)
      for (int64_t ch = 0; ch < v.c; ++ch) {
        size_t k = size_t(ch);
        double mul = inv[k] * scale[k], add = bias[k] - mu[k] * mul;
        for (int64_t i = 0; i < v.inner; ++i) {
          int64_t at = v.at(b, ch, i);
          o[at] = store<T>(double(load(a[at])) * mul + add);
        }
      }
    std::vector<double> meanOut = mean, varOut = var;
    if (!global)
      for (size_t ch = 0; ch < c; ++ch) {
        meanOut[ch] = momentum * mean[ch] + (1 - momentum) * mu[ch];
        varOut[ch] = momentum * var[ch] + (1 - momentum) * sigma2[ch];
      }
    ctx.setOut(0, std::move(out));
    setChannelResult(ctx, 1, statsDt, meanOut);
    setChannelResult(ctx, 2, statsDt, varOut);
    setChannelResult(ctx, 3, statsDt, global ? zero : mu);
    setChannelResult(ctx, 4, statsDt, global ? zero : inv);
    if (wantsResult(ctx, 5)) ctx.setOut(5, Tensor::allocate(statsDt, {0}));
    return Status::ok();
  });
}

/// batch_norm_grad (x, scale, bias, mean_out, variance_out, saved_mean,
/// saved_variance, reserve_space, out_grad).
Status batchNormGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 8}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& dout = ctx.in(8);
  ChannelView v;
  if (Status s = channelView(ctx, x, v); !s) return s;
  if (dout.numel() != x.numel())
    return kernelError(ctx, "out_grad " + shapeText(dout.shape()) + " is not x's shape " + shapeText(x.shape()));
  bool global = globalStats(ctx.op);
  double eps = core::getDouble(ctx.op, "epsilon").value_or(1e-5);
  size_t meanAt = global ? 3 : 5, varAt = global ? 4 : 6;
  if (!ctx.has(meanAt) || !ctx.has(varAt))
    return kernelError(ctx, global ? "mean_out and variance_out are missing (global statistics)"
                                   : "saved_mean and saved_variance are missing");
  std::vector<double> scale, mu, inv;
  if (Status s = perChannel(ctx, 1, "scale", v.c, 1, scale); !s) return s;
  if (Status s = perChannel(ctx, meanAt, global ? "mean_out" : "saved_mean", v.c, 0, mu); !s) return s;
  if (Status s = perChannel(ctx, varAt, global ? "variance_out" : "saved_variance", v.c, 1, inv); !s) return s;
  if (global)
    for (double& s : inv) s = 1.0 / std::sqrt(s + eps);
  DataType statsDt = ctx.has(5) && ctx.in(5).defined() ? ctx.in(5).dtype()
                     : x.dtype() == DataType::BF16     ? DataType::F32
                                                       : x.dtype();
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* a = x.data<T>();
    const T* d = dout.data<T>();
    size_t c = size_t(v.c);
    std::vector<double> dbias(c, 0.0), dscale(c, 0.0);
    for (int64_t o = 0; o < v.outer; ++o)
      for (int64_t ch = 0; ch < v.c; ++ch)
        for (int64_t i = 0; i < v.inner; ++i) {
          int64_t at = v.at(o, ch, i);
          size_t k = size_t(ch);
          double dy = double(load(d[at]));
          dbias[k] += dy;
          dscale[k] += dy * (double(load(a[at])) - mu[k]) * inv[k];
        }
    Tensor dx = Tensor::allocate(x.dtype(), x.shape());
    T* o = dx.data<T>();
    double n = double(v.count() ? v.count() : 1);
    for (int64_t b = 0; b < v.outer; ++b)
      for (int64_t ch = 0; ch < v.c; ++ch) {
        size_t k = size_t(ch);
        for (int64_t i = 0; i < v.inner; ++i) {
          int64_t at = v.at(b, ch, i);
          double dy = double(load(d[at]));
          if (global) {
            o[at] = store<T>(dy * scale[k] * inv[k]);
          } else {
            double xh = (double(load(a[at])) - mu[k]) * inv[k];
            o[at] = store<T>(scale[k] * inv[k] * (dy - dbias[k] / n - xh * dscale[k] / n));
          }
        }
      }
    if (wantsResult(ctx, 0)) ctx.setOut(0, std::move(dx));
    DataType scaleDt = ctx.has(1) && ctx.in(1).defined() ? ctx.in(1).dtype() : statsDt;
    DataType biasDt = ctx.has(2) && ctx.in(2).defined() ? ctx.in(2).dtype() : statsDt;
    if (wantsResult(ctx, 1)) ctx.setOut(1, channelTensor(scaleDt, dscale));
    if (wantsResult(ctx, 2)) ctx.setOut(2, channelTensor(biasDt, dbias));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerBatchNormKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.batch_norm", batchNorm, kFloats);
  r.add("pd_op.batch_norm_", batchNorm, kFloats);
  r.add("pd_op.batch_norm_grad", batchNormGrad, kFloats);
}

}  // namespace pir::runtime
