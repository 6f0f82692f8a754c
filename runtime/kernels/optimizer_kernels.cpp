//===- optimizer_kernels.cpp - sgd_, adam_ and adamw_ ---------------------===//
//
// In place: each result arrives preset to its operand (param_out = param,
// moment1_out = moment1, ...), so the kernels update the operands' buffers.
// The learning rate is read as f64 (cpu/sgd_kernel.cc). Operands are found
// by name in the op table's layout for the op's operand count, so adam_ and
// adamw_ take every signature: 9 operands, 10 with amsgrad's moment2_max,
// 12 and 13 with beta1, beta2, epsilon as tensors.
//
// adam_ (funcs/adam_functors.h), with the input beta pows b1p, b2p:
//   lr_t = lr·√(1-b2p)/(1-b1p);  m1 = β1·m1 + (1-β1)·g;  m2 = β2·m2 + (1-β2)·g²
//   (amsgrad: m2max = max(m2max, m2), used for m2 below)
//   p -= lr_t·m1/(√m2 + ε·√(1-b2p));  b1p *= β1, b2p *= β2 (unless use_global_beta_pow)
// adamw_ (cpu/adamw_kernel.cc): lr scaled by lr_ratio, and with with_decay
// first p -= lr·lr_ratio·coeff·p. With a master param (multi_precision) the
// update runs on the master and param is its rounding.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// Operand `name` of the op's layout, or null when the layout has none or
/// it is absent.
const Tensor* named(const KernelContext& ctx, std::string_view name) {
  const core::OpInfo* info = core::lookupRunOp(ctx.op);
  if (!info) return nullptr;
  int i = info->operandIndex(name, uint32_t(ctx.operands.size()));
  if (i < 0 || !ctx.has(size_t(i)) || !ctx.in(size_t(i)).defined()) return nullptr;
  return &ctx.in(size_t(i));
}

/// The result tensor paired with operand `name` (preset by the executor),
/// or a clone of the operand written back there when it is not preset.
Tensor* inplaceOut(KernelContext& ctx, std::string_view operand, size_t result) {
  const Tensor* in = named(ctx, operand);
  if (!in || result >= ctx.results.size()) return nullptr;
  if (!ctx.out(result).defined()) ctx.setOut(result, in->clone());
  return &ctx.out(result);
}

bool skipped(const KernelContext& ctx) {
  const Tensor* skip = named(ctx, "skip_update");
  return skip && skip->numel() > 0 && valueAt(*skip, 0) != 0;
}

/// The tensor the update runs on (the master param when there is one) and
/// the gradient in its dtype.
struct Target {
  Tensor* param = nullptr;
  Tensor* master = nullptr;
  Tensor* t = nullptr;
  Tensor grad;
};

Status target(KernelContext& ctx, size_t masterResult, Target& tg) {
  const Tensor* grad = named(ctx, "grad");
  if (!grad || !named(ctx, "param") || !named(ctx, "learning_rate"))
    return kernelError(ctx, "param, grad and learning_rate are needed");
  tg.param = inplaceOut(ctx, "param", 0);
  tg.master = inplaceOut(ctx, "master_param", masterResult);
  tg.t = tg.master ? tg.master : tg.param;
  if (tg.t->numel() != grad->numel() || tg.param->numel() != grad->numel())
    return kernelError(ctx,
                       "param " + shapeText(tg.param->shape()) + " and grad " + shapeText(grad->shape()) + " differ");
  tg.grad = castTensor(*grad, tg.t->dtype());
  return Status::ok();
}

/// With a master param, param becomes its rounding.
void finish(Target& tg) {
  if (tg.master) castInto(*tg.master, *tg.param);
}

/// sgd_'s f32 loop: the conversions to f64 and back keep it compute-bound
/// on SSE2, so it has SIMD clones.
PIR_SIMD_CLONES void sgdF32(float* p, const float* g, double lr, int64_t n) {
  for (int64_t i = 0; i < n; ++i) p[i] = float(double(p[i]) - lr * double(g[i]));
}

}  // namespace

void sgdUpdate(Tensor& param, const Tensor& grad, double lr) {
  visitDtype(param.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<T, float>) {
      sgdF32(param.data<float>(), grad.data<float>(), lr, param.numel());
    } else if constexpr (std::is_same_v<T, double> || std::is_same_v<T, BFloat16>) {
      using C = ComputeT<T>;
      T* p = param.data<T>();
      const T* g = grad.data<T>();
      for (int64_t i = 0; i < param.numel(); ++i)
        p[i] = store<T>(static_cast<C>(double(load(p[i])) - lr * double(load(g[i]))));
    }
  });
}

namespace {

Status sgd(KernelContext& ctx) {
  Target tg;
  if (Status s = target(ctx, 1, tg); !s) return s;
  double lr = valueAt(*named(ctx, "learning_rate"), 0);
  return visitFloat(ctx, tg.t->dtype(), [&](auto*) -> Status {
    sgdUpdate(*tg.t, tg.grad, lr);
    finish(tg);
    return Status::ok();
  });
}

/// A hyper-parameter: the tensor operand `name` when the layout has it,
/// else the attribute, else `fallback`.
double hyper(const KernelContext& ctx, std::string_view name, double fallback) {
  if (const Tensor* t = named(ctx, name); t && t->numel() > 0) return valueAt(*t, 0);
  return core::getDouble(ctx.op, name).value_or(fallback);
}

struct AdamState {
  Tensor *m1, *m2, *m2max, *b1p, *b2p;
};

/// adam_ and adamw_ (kW: with lr_ratio and decoupled weight decay).
template <bool kW>
Status adam(KernelContext& ctx) {
  const core::OpInfo* info = core::lookupRunOp(ctx.op);
  const core::OpLayout* layout = info ? info->layoutFor(uint32_t(ctx.operands.size())) : nullptr;
  if (!layout) return kernelError(ctx, "no signature with " + std::to_string(ctx.operands.size()) + " operands");
  bool ams = info->operandIndex("moment2_max", uint32_t(ctx.operands.size())) >= 0;
  // Results: param, m1, m2, [m2max], b1p, b2p, master.
  size_t r = ams ? 4 : 3;
  Target tg;
  if (Status s = target(ctx, r + 2, tg); !s) return s;
  AdamState st{inplaceOut(ctx, "moment1", 1), inplaceOut(ctx, "moment2", 2),
               ams ? inplaceOut(ctx, "moment2_max", 3) : nullptr, inplaceOut(ctx, "beta1_pow", r),
               inplaceOut(ctx, "beta2_pow", r + 1)};
  if (!st.m1 || !st.m2 || !st.b1p || !st.b2p || (ams && !st.m2max))
    return kernelError(ctx, "moment1, moment2, beta1_pow and beta2_pow are needed");
  for (Tensor* m : {st.m1, st.m2, st.m2max})
    if (m && (m->dtype() != tg.t->dtype() || m->numel() != tg.t->numel()))
      return kernelError(ctx, "a moment differs from the param in dtype or size");
  if (skipped(ctx)) return Status::ok();
  double lr = valueAt(*named(ctx, "learning_rate"), 0);
  double b1 = hyper(ctx, "beta1", 0.9), b2 = hyper(ctx, "beta2", 0.999), eps = hyper(ctx, "epsilon", 1e-8);
  double b1p = valueAt(*st.b1p, 0), b2p = valueAt(*st.b2p, 0);
  double decay = 0;
  if constexpr (kW) {
    lr *= core::getDouble(ctx.op, "lr_ratio").value_or(1.0);
    if (core::getBool(ctx.op, "with_decay").value_or(false))
      decay = lr * core::getDouble(ctx.op, "coeff").value_or(0.01);
  }
  bool amsgrad = ams && core::getBool(ctx.op, "amsgrad").value_or(false);
  double lrT = lr * std::sqrt(1 - b2p) / (1 - b1p);
  double epsT = eps * std::sqrt(1 - b2p);
  Status s = visitFloat(ctx, tg.t->dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    T *p = tg.t->data<T>(), *m1 = st.m1->data<T>(), *m2 = st.m2->data<T>();
    T* mx = amsgrad ? st.m2max->data<T>() : nullptr;
    const T* g = tg.grad.data<T>();
    C cb1 = C(b1), cb2 = C(b2), cLr = C(lrT), cEps = C(epsT), cDecay = C(decay);
    for (int64_t i = 0; i < tg.t->numel(); ++i) {
      C gi = load(g[i]), pi = load(p[i]);
      if constexpr (kW) pi -= cDecay * pi;
      C a = cb1 * C(load(m1[i])) + (C(1) - cb1) * gi;
      C b = cb2 * C(load(m2[i])) + (C(1) - cb2) * gi * gi;
      m1[i] = store<T>(a);
      m2[i] = store<T>(b);
      if (mx) {
        b = nanMax(b, C(load(mx[i])));  // numpy maximum: a NaN moment2_max stays NaN
        mx[i] = store<T>(b);
      }
      p[i] = store<T>(pi - cLr * (a / (std::sqrt(b) + cEps)));
    }
    finish(tg);
    return Status::ok();
  });
  if (!s) return s;
  if (!core::getBool(ctx.op, "use_global_beta_pow").value_or(false)) {
    auto scalePow = [](Tensor& t, double beta, double v) {
      Tensor one = Tensor::allocate(DataType::F64, {1});
      one.data<double>()[0] = v * beta;
      Tensor view = t.view(std::span<const int64_t>(one.shape()));
      castInto(one, view);
    };
    scalePow(*st.b1p, b1, b1p);
    scalePow(*st.b2p, b2, b2p);
  }
  return Status::ok();
}

}  // namespace
}  // namespace kernels

void registerOptimizerKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.adam_", adam<false>, kFloats);
  r.add("pd_op.adamw_", adam<true>, kFloats);
  r.add("pd_op.sgd_", sgd, kFloats);
}

}  // namespace pir::runtime
