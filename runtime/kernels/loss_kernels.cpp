//===- loss_kernels.cpp - cross_entropy_with_softmax and its grad ---------===//
//
// Paddle's phi CPU kernels (cross_entropy_kernel.cc, cross_entropy_grad_
// kernel.cc), attributes soft_label, use_softmax, numeric_stable_mode (the
// CPU kernel ignores it: its softmax always subtracts the max), ignore_index,
// axis:
//
//   cross_entropy_with_softmax(input, label) -> (softmax, loss)
//     softmax = softmax(input) over axis (use_softmax), else input itself;
//     loss (input's shape with the axis dim 1) = -log(softmax[label]), 0 where
//     label == ignore_index (hard label: integer, axis dim 1), or
//     -sum(label · log(softmax)) over axis (soft label: input's shape and
//     dtype). log(0) is clamped to -1e20 as Paddle's TolerableValue does.
//   cross_entropy_with_softmax_grad(label, softmax, loss_grad) -> input_grad
//     use_softmax: loss_grad · (softmax - onehot(label)) (soft: - label),
//     rows with ignore_index 0; else the grad in the probabilities:
//     -loss_grad / softmax at the label (soft: -loss_grad · label / softmax).
//
// Float dtypes; bf16 computed in f32; row sums in f64.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

constexpr double kApproInf = 1e20;  // Paddle's TolerableValue: what an infinite log becomes

struct CrossEntropyAttrs {
  bool softLabel = false, useSoftmax = true;
  int64_t ignoreIndex = -100;
  size_t axis = 0;
  int64_t outer = 1, n = 1, inner = 1;  // input as [outer, n, inner] around the axis
};

template <class C>
C tolerableLog(C p) {
  C l = std::log(p);
  if (std::isinf(l)) return l > 0 ? C(kApproInf) : C(-kApproInf);
  return l;
}

/// Reads the attributes and checks the label (and, for the grad, the
/// loss_grad) against `x`, the input or softmax.
Status readAttrs(const KernelContext& ctx, const Tensor& x, const Tensor& label, CrossEntropyAttrs& a) {
  a.softLabel = core::getBool(ctx.op, "soft_label").value_or(false);
  a.useSoftmax = core::getBool(ctx.op, "use_softmax").value_or(true);
  a.ignoreIndex = core::getInt64(ctx.op, "ignore_index").value_or(-100);
  auto axis = normalizeAxis(core::getInt64(ctx.op, "axis").value_or(-1), x.rank());
  if (!axis || x.rank() == 0) return kernelError(ctx, "axis is out of range for " + shapeText(x.shape()));
  a.axis = size_t(*axis);
  for (size_t i = 0; i < x.rank(); ++i)
    (int64_t(i) < *axis ? a.outer : int64_t(i) == *axis ? a.n : a.inner) *= x.dim(i);
  if (label.rank() != x.rank())
    return kernelError(ctx, "label " + shapeText(label.shape()) + " and " + shapeText(x.shape()) + " differ in rank");
  for (size_t i = 0; i < x.rank(); ++i) {
    int64_t want = int64_t(i) == *axis && !a.softLabel ? 1 : x.dim(i);
    if (label.dim(i) != want)
      return kernelError(ctx, std::string(a.softLabel ? "soft" : "hard") + " label " + shapeText(label.shape()) +
                                  " does not fit " + shapeText(x.shape()) + " on axis " + std::to_string(*axis));
  }
  if (a.softLabel && label.dtype() != x.dtype()) return kernelError(ctx, "a soft label must have the input's dtype");
  if (!a.softLabel && label.dtype() != DataType::I64 && label.dtype() != DataType::I32)
    return kernelError(ctx, "a hard label must be int32 or int64");
  return Status::ok();
}

/// The class of sample (a, b), or an error for one outside [0, n) that is
/// not ignore_index.
core::Result<int64_t> hardLabel(const KernelContext& ctx, const Tensor& label, const CrossEntropyAttrs& a, int64_t i) {
  int64_t l = label.dtype() == DataType::I64 ? label.data<int64_t>()[i] : label.data<int32_t>()[i];
  if (l != a.ignoreIndex && (l < 0 || l >= a.n))
    return kernelError(ctx, "label " + std::to_string(l) + " at flat index " + std::to_string(i) + " is outside [0, " +
                                std::to_string(a.n) + ") and is not ignore_index " + std::to_string(a.ignoreIndex));
  return l;
}

template <class T>
void softmaxInto(const T* x, T* p, const CrossEntropyAttrs& a) {
  using C = ComputeT<T>;
  for (int64_t o = 0; o < a.outer; ++o)
    for (int64_t b = 0; b < a.inner; ++b) {
      int64_t base = o * a.n * a.inner + b;
      C m = load(x[base]);
      for (int64_t k = 1; k < a.n; ++k) m = nanMax(m, C(load(x[base + k * a.inner])));
      double sum = 0;
      for (int64_t k = 0; k < a.n; ++k) sum += double(std::exp(C(load(x[base + k * a.inner])) - m));
      C inv = C(1.0 / sum);
      for (int64_t k = 0; k < a.n; ++k)
        p[base + k * a.inner] = store<T>(std::exp(C(load(x[base + k * a.inner])) - m) * inv);
    }
}

Status crossEntropyWithSoftmax(KernelContext& ctx) {  // (input, label)
  if (!ctx.has(0) || !ctx.has(1)) return kernelError(ctx, "expects input and label");
  const Tensor& x = ctx.in(0);
  const Tensor& label = ctx.in(1);
  CrossEntropyAttrs a;
  if (Status s = readAttrs(ctx, x, label, a); !s) return s;
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor p = a.useSoftmax ? Tensor::allocate(x.dtype(), x.shape()) : x.clone();
    if (a.useSoftmax) softmaxInto(x.data<T>(), p.template data<T>(), a);
    Shape lossShape(x.shape().begin(), x.shape().end());
    lossShape[a.axis] = 1;
    Tensor loss = Tensor::allocate(x.dtype(), lossShape);
    const T* pp = p.template data<T>();
    T* lo = loss.template data<T>();
    for (int64_t o = 0; o < a.outer; ++o)
      for (int64_t b = 0; b < a.inner; ++b) {
        int64_t base = o * a.n * a.inner + b, li = o * a.inner + b;
        if (a.softLabel) {
          double s = 0;
          for (int64_t k = 0; k < a.n; ++k)
            s += double(load(label.data<T>()[base + k * a.inner])) *
                 double(tolerableLog(C(load(pp[base + k * a.inner]))));
          lo[li] = store<T>(-s);
          continue;
        }
        auto l = hardLabel(ctx, label, a, li);
        if (!l) return l.takeStatus();
        lo[li] = store<T>(*l == a.ignoreIndex ? C(0) : -tolerableLog(C(load(pp[base + *l * a.inner]))));
      }
    ctx.setOut(0, std::move(p));
    if (ctx.results.size() > 1) ctx.setOut(1, std::move(loss));
    return Status::ok();
  });
}

Status crossEntropyWithSoftmaxGrad(KernelContext& ctx) {  // (label, softmax, loss_grad)
  if (!ctx.has(0) || !ctx.has(1) || !ctx.has(2)) return kernelError(ctx, "expects label, softmax and loss_grad");
  const Tensor& label = ctx.in(0);
  const Tensor& p = ctx.in(1);
  const Tensor& dloss = ctx.in(2);
  CrossEntropyAttrs a;
  if (Status s = readAttrs(ctx, p, label, a); !s) return s;
  if (dloss.dtype() != p.dtype() || dloss.numel() != a.outer * a.inner)
    return kernelError(ctx, "loss_grad " + dloss.typeText() + " does not fit softmax " + p.typeText());
  return visitFloat(ctx, p.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor dx = Tensor::allocate(p.dtype(), p.shape());
    const T* pp = p.data<T>();
    const T* d = dloss.data<T>();
    T* o = dx.data<T>();
    for (int64_t r = 0; r < a.outer; ++r)
      for (int64_t b = 0; b < a.inner; ++b) {
        int64_t base = r * a.n * a.inner + b, li = r * a.inner + b;
        C g = load(d[li]);
        int64_t l = -1;
        if (!a.softLabel) {
          auto hl = hardLabel(ctx, label, a, li);
          if (!hl) return hl.takeStatus();
          l = *hl;
        }
        for (int64_t k = 0; k < a.n; ++k) {
          int64_t i = base + k * a.inner;
          C pk = load(pp[i]);
          C v;
          if (a.softLabel) {
            C y = load(label.data<T>()[i]);
            v = a.useSoftmax ? g * (pk - y) : g * (-y / pk);
          } else if (l == a.ignoreIndex) {
            v = C(0);
          } else if (a.useSoftmax) {
            v = g * pk - (k == l ? g : C(0));
          } else {
            v = k == l ? -g / pk : g * C(0);  // 0·g off the label: a NaN g is not masked
          }
          o[i] = store<T>(v);
        }
      }
    ctx.setOut(0, std::move(dx));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerLossKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.cross_entropy_with_softmax", crossEntropyWithSoftmax, kFloats);
  r.add("pd_op.cross_entropy_with_softmax_grad", crossEntropyWithSoftmaxGrad, kFloats);
}

}  // namespace pir::runtime
