//===- dropout_kernels.cpp - dropout and dropout_grad ---------------------===//
//
// dropout(x, seed_tensor?){p, is_test, mode, seed, fix_seed} -> (out, mask),
// the mask u8 of x's shape, as Paddle's CPU kernel for the modes:
//   is_test: out = x (upscale_in_train) or x·(1 - p) (downgrade_in_infer);
//     the mask is all ones;
//   training: element i is kept (mask 1) or dropped (mask 0, out 0); a kept
//     one is x/(1 - p) (upscale_in_train; p = 1 drops all) or x
//     (downgrade_in_infer). p = 0 keeps every element.
// Training with p > 0 needs a seed: seed_tensor's one element, else `seed`
// with fix_seed; without one it is an error (the runner has no global
// generator to draw from). The draw (docs/pir-run.md): element i, flat
// row-major, is dropped when u_i < p, u_i = (z_i >> 11)·2^-53 with z_i the
// i-th (from 0) output of SplitMix64 seeded with the seed: one seed gives one
// mask, on any machine and any number of threads, not Paddle's curand one.
// dropout_grad(mask, out_grad){p, is_test, mode}: out_grad (is_test,
// upscale_in_train), out_grad·(1 - p) (is_test, downgrade_in_infer),
// out_grad·mask/(1 - p) (0 for p = 1) or out_grad·mask in training.
// p may also come as a third operand (a Scalar given as a tensor).
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// The attributes both kernels read.
struct Dropout {
  double p = 0.5;
  bool isTest = false;
  bool upscale = true;  // mode upscale_in_train, else downgrade_in_infer
};

std::string stringAttr(const core::Operation& op, std::string_view key, std::string fallback) {
  if (auto* s = op.attrOf<core::StringAttr>(key)) return s->value();
  return fallback;
}

Status dropoutOf(const KernelContext& ctx, size_t pOperand, Dropout& d) {
  d.p = scalarArg(ctx, pOperand, "p", 0.5);
  if (!(d.p >= 0 && d.p <= 1)) return kernelError(ctx, "p " + std::to_string(d.p) + " is outside [0, 1]");
  d.isTest = core::getBool(ctx.op, "is_test").value_or(false);
  std::string mode = stringAttr(ctx.op, "mode", "upscale_in_train");
  if (mode != "upscale_in_train" && mode != "downgrade_in_infer")
    return kernelError(ctx, "mode \"" + mode + "\" is neither upscale_in_train nor downgrade_in_infer");
  d.upscale = mode == "upscale_in_train";
  return Status::ok();
}

/// SplitMix64's output after `state` advanced by one step.
inline uint64_t splitMix64(uint64_t state) {
  uint64_t z = state + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The seed of a training dropout: seed_tensor's, else `seed` with fix_seed.
Status seedOf(const KernelContext& ctx, uint64_t& seed) {
  if (ctx.has(1) && ctx.in(1).defined()) {
    auto v = intValues(ctx.in(1), "seed_tensor");
    if (!v || v->size() != 1) return kernelError(ctx, "seed_tensor must hold one int32 or int64");
    seed = uint64_t(v->front());
    return Status::ok();
  }
  if (core::getBool(ctx.op, "fix_seed").value_or(false)) {
    seed = uint64_t(core::getInt64(ctx.op, "seed").value_or(0));
    return Status::ok();
  }
  return kernelError(ctx,
                     "training dropout with p > 0 needs a seed (fix_seed with seed, or seed_tensor): the runner "
                     "draws its mask from the seed alone");
}

Status dropout(KernelContext& ctx) {  // (x, seed_tensor?, p?)
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  Dropout d;
  if (Status s = dropoutOf(ctx, 2, d); !s) return s;
  const Tensor& x = ctx.in(0);
  bool drawn = !d.isTest && d.p > 0;
  uint64_t seed = 0;
  if (drawn)
    if (Status s = seedOf(ctx, seed); !s) return s;
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor out = Tensor::allocate(x.dtype(), x.shape());
    Tensor mask = Tensor::allocate(DataType::U8, x.shape());
    const T* a = x.data<T>();
    T* o = out.data<T>();
    uint8_t* m = mask.data<uint8_t>();
    int64_t n = x.numel();
    if (!drawn) {
      C k = C(d.isTest && !d.upscale ? 1 - d.p : 1);
      for (int64_t i = 0; i < n; ++i) o[i] = store<T>(C(load(a[i])) * k);
      std::memset(m, 1, size_t(n));
    } else {
      C k = C(d.upscale ? (d.p < 1 ? 1 / (1 - d.p) : 0) : 1);
      uint64_t state = seed;
      for (int64_t i = 0; i < n; ++i, state += 0x9E3779B97F4A7C15ull) {
        double u = double(splitMix64(state) >> 11) * 0x1.0p-53;
        bool keep = !(u < d.p);
        m[i] = keep;
        o[i] = store<T>(keep ? C(load(a[i])) * k : C(0));
      }
    }
    ctx.setOut(0, std::move(out));
    if (wantsResult(ctx, 1)) ctx.setOut(1, std::move(mask));
    return Status::ok();
  });
}

Status dropoutGrad(KernelContext& ctx) {  // (mask, out_grad, p?)
  if (!ctx.has(1) || !ctx.in(1).defined()) return kernelError(ctx, "out_grad is required");
  Dropout d;
  if (Status s = dropoutOf(ctx, 2, d); !s) return s;
  const Tensor& dout = ctx.in(1);
  const Tensor* mask = ctx.has(0) && ctx.in(0).defined() ? &ctx.in(0) : nullptr;
  if (!d.isTest && (!mask || mask->dtype() != DataType::U8 || mask->numel() != dout.numel()))
    return kernelError(ctx, "a training dropout_grad needs the forward's u8 mask of out_grad's shape, not " +
                                (mask ? mask->typeText() : std::string("none")));
  return visitFloat(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor dx = Tensor::allocate(dout.dtype(), dout.shape());
    const T* g = dout.data<T>();
    T* o = dx.data<T>();
    int64_t n = dout.numel();
    if (d.isTest) {
      C k = C(d.upscale ? 1 : 1 - d.p);
      for (int64_t i = 0; i < n; ++i) o[i] = store<T>(C(load(g[i])) * k);
    } else {
      C k = C(d.upscale ? (d.p < 1 ? 1 / (1 - d.p) : 0) : 1);
      const uint8_t* m = mask->data<uint8_t>();
      for (int64_t i = 0; i < n; ++i) o[i] = store<T>(m[i] ? C(load(g[i])) * k : C(0));
    }
    ctx.setOut(0, std::move(dx));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerDropoutKernels(KernelRegistry& r) {
  r.add("pd_op.dropout", kernels::dropout, kFloats);
  r.add("pd_op.dropout_grad", kernels::dropoutGrad, kFloats);
}

}  // namespace pir::runtime
