//===- reduce_kernels.cpp - mean, sum, max, min and their kin -------------===//
//
// mean(x){axis, keepdim} and sum(x, axis?){dtype, keepdim}: an empty axis
// list (or reduce_all) reduces every dim. A reduction is the broadcast-grad
// sum (sumToShape) onto the shape with reduced dims set to 1, then viewed
// without them unless keepdim. mean_grad divides by the local count
// numel(x) / numel(out) as Paddle's MeanGradFunctor does. max(x, axis) and
// min(x, axis){keepdim} propagate NaN (np.max, np.min); reducing a dim of
// size 0 is an error, as in numpy. CINN's reduce_max and reduce_sum
// (x){dim, keep_dim} are the same with their axes an attribute (an empty
// list reduces every dim) and sum's dtype x's. prod (x, axis){keepdim,
// reduce_all} and logsumexp (x){axis, keepdim, reduce_all} with their grads,
// and max_grad/min_grad (x, out, out_grad, axis), which give out_grad to
// every element equal to the extreme (ties each get all of it, as Paddle).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/kernels/math_util.h"
#include "runtime/kernels/reduce.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

constexpr size_t kNoOperand = SIZE_MAX;  // mean's axis is an attribute only

/// The dtypes pd_op.square and square_grad compute.
bool isFloat(DataType dtype) { return dtype == DataType::F32 || dtype == DataType::F64 || dtype == DataType::BF16; }

/// x's shape with the reduced dims set to 1.
Status keptShape(const KernelContext& ctx, std::span<const int64_t> xs, const std::vector<int64_t>& axes, bool all,
                 Shape& kept) {
  kept.assign(xs.begin(), xs.end());
  if (all || axes.empty()) {
    std::fill(kept.begin(), kept.end(), 1);
    return Status::ok();
  }
  for (int64_t a : axes) {
    auto n = normalizeAxis(a, xs.size());
    if (!n) return kernelError(ctx, "axis " + std::to_string(a) + " is out of range for " + shapeText(xs));
    if (!kept.empty()) kept[size_t(*n)] = 1;
  }
  return Status::ok();
}

/// Multiplies every element by `k`.
void scaleBy(Tensor& t, double k) {
  visitDtype(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (!std::is_same_v<T, bool>) {
      T* p = t.data<T>();
      for (int64_t i = 0; i < t.numel(); ++i) p[i] = store<T>(double(load(p[i])) * k);
    }
  });
}

/// Which of x's dims `axes` reduce (checked by keptShape): every dim when
/// `all` or when the list is empty.
std::vector<bool> reducedDims(std::span<const int64_t> xs, const std::vector<int64_t>& axes, bool all) {
  std::vector<bool> red(xs.size(), all || axes.empty());
  for (int64_t a : axes)
    if (auto n = normalizeAxis(a, xs.size()); n && !xs.empty()) red[size_t(*n)] = true;
  return red;
}

/// The result shape: `kept` itself with keepdim, else x's dims that are
/// not reduced.
Shape resultShape(std::span<const int64_t> xs, const std::vector<int64_t>& axes, bool all, bool keepdim,
                  const Shape& kept) {
  if (keepdim) return kept;
  Shape out;
  std::vector<bool> red = reducedDims(xs, axes, all);
  for (size_t i = 0; i < xs.size(); ++i)
    if (!red[i]) out.push_back(xs[i]);
  return out;
}

/// The sum (or mean) of x (or of its squares) over `axes` in `dtype`.
template <bool kMean, Summand kSummand = Summand::Value>
Status sumOver(KernelContext& ctx, const Tensor& x, const std::vector<int64_t>& axes, bool all, bool keepdim,
               DataType dtype) {
  Shape kept;
  if (Status s = keptShape(ctx, x.shape(), axes, all, kept); !s) return s;
  if (dtype == DataType::Bool) return kernelError(ctx, "no reduction into bool");
  if (kMean && dtype != DataType::F32 && dtype != DataType::F64 && dtype != DataType::BF16)
    return kernelError(ctx, "mean needs a float dtype");
  if (kSummand == Summand::Square && (dtype != x.dtype() || !isFloat(dtype)))
    return Status::internal("a sum of squares of " + std::string(core::dataTypeName(x.dtype())) + " into " +
                            std::string(core::dataTypeName(dtype)));
  Tensor in = castTensor(x, dtype);
  Tensor r = sumToShape(in, kept, kSummand);
  if (kMean && x.numel() > 0) scaleBy(r, double(r.numel()) / double(x.numel()));
  ctx.setOut(0, r.view(resultShape(x.shape(), axes, all, keepdim, kept)));
  return Status::ok();
}

/// mean (axis an attribute) and sum (axis operand 1 or an attribute); with
/// Summand::Square, of x's squares: a fused loss's pd_op.square and its
/// reduction, x being the square's input (runtime/loss_fusion.h).
template <bool kMean, Summand kSummand = Summand::Value>
Status reduceKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  auto axes = intArrayArg(ctx, kMean ? kNoOperand : 1, "axis");
  if (!axes) return kernelError(ctx, "axis is neither an int tensor nor an IntArray attribute");
  bool keepdim = core::getBool(ctx.op, "keepdim").value_or(false);
  bool all = core::getBool(ctx.op, "reduce_all").value_or(false);
  DataType dtype = x.dtype();
  if (!kMean) {
    // Paddle's SumInferMeta: bool and int32 sum to int64 unless a dtype is given.
    auto given = core::getDataType(ctx.op, "dtype");
    bool promote = x.dtype() == DataType::Bool || x.dtype() == DataType::I32;
    dtype = given && *given != DataType::Undefined ? *given : promote ? DataType::I64 : x.dtype();
  }
  return sumOver<kMean, kSummand>(ctx, x, *axes, all, keepdim, dtype);
}

/// The maximum (or minimum) of x over `axes`, NaN propagating; an error
/// when a reduced dim has no elements (numpy's "zero-size array").
template <bool kMax>
Status extremeOver(KernelContext& ctx, const Tensor& x, const std::vector<int64_t>& axes, bool keepdim) {
  Shape kept;
  if (Status s = keptShape(ctx, x.shape(), axes, false, kept); !s) return s;
  std::vector<bool> red = reducedDims(x.shape(), axes, false);
  for (size_t i = 0; i < x.rank(); ++i)
    if (red[i] && x.dim(i) == 0)
      return kernelError(
          ctx, "reducing dim " + std::to_string(i) + " of " + shapeText(x.shape()) + ", which has no elements");
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    using Limits = std::numeric_limits<C>;
    C init;
    if constexpr (Limits::has_infinity)
      init = kMax ? -Limits::infinity() : Limits::infinity();
    else
      init = kMax ? Limits::lowest() : Limits::max();
    std::vector<C> acc(size_t(numElements(kept)), init);
    Shape xs(x.shape().begin(), x.shape().end());
    Shape contiguous = broadcastStrides(xs, xs);
    Shape target = broadcastStrides(kept, xs);
    int64_t tl = xs.empty() ? 0 : target.back();
    const T* a = x.data<T>();
    forEachRow(xs, contiguous, target, [&](int64_t offX, int64_t offT, int64_t, int64_t n) {
      for (int64_t j = 0; j < n; ++j) {
        C& m = acc[size_t(offT + j * tl)];
        m = kMax ? nanMax(m, load(a[offX + j])) : nanMin(m, load(a[offX + j]));
      }
    });
    Tensor out = Tensor::allocate(x.dtype(), kept);
    T* o = out.data<T>();
    for (size_t i = 0; i < acc.size(); ++i) o[i] = store<T>(acc[i]);
    ctx.setOut(0, out.view(resultShape(x.shape(), axes, false, keepdim, kept)));
    return Status::ok();
  });
}

/// max and min (x, axis){keepdim}: axis an int tensor (full_int_array's) or
/// an IntArray attribute.
template <bool kMax>
Status extremeKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  auto axes = intArrayArg(ctx, 1, "axis");
  if (!axes) return kernelError(ctx, "axis is neither an int tensor nor an IntArray attribute");
  return extremeOver<kMax>(ctx, ctx.in(0), *axes, core::getBool(ctx.op, "keepdim").value_or(false));
}

/// cinn_op.reduce_max and cinn_op.reduce_sum (x){dim, keep_dim}.
template <bool kSum>
Status cinnReduceKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  auto dims = core::getInt64Array(ctx.op, "dim");
  if (!dims) return kernelError(ctx, "dim is not an int array attribute");
  bool keepdim = core::getBool(ctx.op, "keep_dim").value_or(false);
  const Tensor& x = ctx.in(0);
  if constexpr (kSum)
    return sumOver<false>(ctx, x, *dims, false, keepdim, x.dtype());
  else
    return extremeOver<true>(ctx, x, *dims, keepdim);
}

/// o[i] = 2·x[i]·b: square_grad of x with every out_grad element b.
template <class T>
PIR_SIMD_CLONES void twiceTimes(const T* x, ComputeT<T> b, T* o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = store<T>(ComputeT<T>(2) * load(x[i]) * b);
}

/// mean_grad (x, out_grad){axis, keepdim, reduce_all} and sum_grad (x,
/// out_grad, axis?){keepdim, reduce_all}: out_grad broadcast back to x's
/// shape, divided by the reduced count for mean. With kSquareGrad, a fused
/// loss's reduction grad and the square_grad that reads it
/// (runtime/loss_fusion.h): x is the square's input, and each broadcast
/// element b, rounded as the reduction grad rounds it, becomes 2·x·b as
/// square_grad computes it.
template <bool kMean, bool kSquareGrad = false>
Status reduceGradKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {1}); !s) return s;
  if (!ctx.has(0)) return kernelError(ctx, "x is needed for its shape");
  const Tensor& x = ctx.in(0);
  const Tensor& dout = ctx.in(1);
  if (kSquareGrad && (x.dtype() != dout.dtype() || !isFloat(x.dtype())))
    return kernelError(ctx, "square_grad of " + std::string(core::dataTypeName(x.dtype())) + " x and " +
                                std::string(core::dataTypeName(dout.dtype())) + " out_grad");
  auto axes = intArrayArg(ctx, kMean ? kNoOperand : 2, "axis");
  if (!axes) return kernelError(ctx, "axis is neither an int tensor nor an IntArray attribute");
  Shape kept;
  if (Status s = keptShape(ctx, x.shape(), *axes, core::getBool(ctx.op, "reduce_all").value_or(false), kept); !s)
    return s;
  if (numElements(kept) != dout.numel())
    return kernelError(ctx, "out_grad " + shapeText(dout.shape()) + " is not x " + shapeText(x.shape()) + " reduced");
  double k = kMean && dout.numel() > 0 ? double(dout.numel()) / double(x.numel()) : 1.0;
  return visitNumber(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    // x is read for its shape only, or (kSquareGrad) element i before o[i] is written.
    Tensor out = reuseOrAllocate(ctx, 0, dout.dtype(), x.shape());
    Shape sd = broadcastStrides(kept, x.shape());
    Shape so = broadcastStrides(x.shape(), x.shape());
    int64_t ld = sd.empty() ? 0 : sd.back();
    const T* d = dout.data<T>();
    const T* xs = kSquareGrad ? x.data<T>() : nullptr;  // x's elements, when they are read
    T* o = out.data<T>();
    auto rounded = [&](int64_t i) {  // out_grad's element i as the reduction grad stores it
      auto v = load(d[i]);
      return kMean ? store<T>(double(v) * k) : store<T>(v);
    };
    forEachRow(x.shape(), so, sd, [&](int64_t offO, int64_t offD, int64_t, int64_t n) {
      if constexpr (kSquareGrad) {
        if (ld == 0) {
          if constexpr (std::is_floating_point_v<ComputeT<T>>) twiceTimes(xs + offO, load(rounded(offD)), o + offO, n);
          return;
        }
      }
      for (int64_t j = 0; j < n; ++j) {
        T b = rounded(offD + j * ld);
        if constexpr (kSquareGrad)
          o[offO + j] = store<T>(ComputeT<T>(2) * load(xs[offO + j]) * load(b));
        else
          o[offO + j] = b;
      }
    });
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// Calls f(xi, ki) for every flat index xi of x's shape `xs` and the flat
/// index ki of its reduction in the kept shape.
template <class F>
void forEachReduced(std::span<const int64_t> xs, const Shape& kept, F&& f) {
  Shape contiguous = broadcastStrides(xs, xs);
  Shape target = broadcastStrides(kept, xs);
  int64_t tl = xs.empty() ? 0 : target.back();
  forEachRow(xs, contiguous, target, [&](int64_t offX, int64_t offT, int64_t, int64_t n) {
    for (int64_t j = 0; j < n; ++j) f(offX + j, offT + j * tl);
  });
}

/// The axes (operand `operandIndex` or attribute axis), keepdim and
/// reduce_all of a reduction and its kept shape over x.
struct Reduction {
  std::vector<int64_t> axes;
  bool keepdim = false, all = false;
  Shape kept;
};
Status readReduction(const KernelContext& ctx, size_t operandIndex, const Tensor& x, Reduction& r) {
  auto axes = intArrayArg(ctx, operandIndex, "axis");
  if (!axes) axes = intArrayArg(ctx, kNoOperand, "dims");  // prod's name before Paddle 3
  if (!axes) return kernelError(ctx, "axis is neither an int tensor nor an IntArray attribute");
  r.axes = *axes;
  r.keepdim = core::getBool(ctx.op, "keepdim").value_or(core::getBool(ctx.op, "keep_dim").value_or(false));
  r.all = core::getBool(ctx.op, "reduce_all").value_or(false);
  return keptShape(ctx, x.shape(), r.axes, r.all, r.kept);
}

/// prod (x, axis){keepdim, reduce_all}: products accumulated in f64 for
/// floats (as sums are), in the int type for ints.
Status prod(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  Reduction r;
  if (Status s = readReduction(ctx, 1, x, r); !s) return s;
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    using Acc = std::conditional_t<std::is_integral_v<C>, C, double>;
    std::vector<Acc> acc(size_t(numElements(r.kept)), Acc(1));
    const T* a = x.data<T>();
    forEachReduced(x.shape(), r.kept, [&](int64_t xi, int64_t ki) { acc[size_t(ki)] *= Acc(load(a[xi])); });
    Tensor out = Tensor::allocate(x.dtype(), r.kept);
    T* o = out.data<T>();
    for (size_t i = 0; i < acc.size(); ++i) o[i] = store<T>(acc[i]);
    ctx.setOut(0, out.view(resultShape(x.shape(), r.axes, r.all, r.keepdim, r.kept)));
    return Status::ok();
  });
}

/// Checks that out and out_grad hold x reduced (`kept`'s element count).
Status checkReduced(const KernelContext& ctx, const Tensor& x, const Reduction& r, std::initializer_list<size_t> ops) {
  for (size_t i : ops)
    if (ctx.in(i).numel() != numElements(r.kept))
      return kernelError(ctx, "operand " + std::to_string(i) + " " + shapeText(ctx.in(i).shape()) + " is not x " +
                                  shapeText(x.shape()) + " reduced");
  return Status::ok();
}

/// prod_grad (x, out, out_grad, axis){keepdim, reduce_all}: out_grad times
/// the product of the other elements of x's group, computed from the
/// group's zero count and product of nonzeros, so a zero in x gives the
/// exact derivative (Paddle's out / x gives NaN there).
Status prodGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 2}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& dout = ctx.in(2);
  Reduction r;
  if (Status s = readReduction(ctx, 3, x, r); !s) return s;
  if (Status s = checkReduced(ctx, x, r, {2}); !s) return s;
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    size_t k = size_t(numElements(r.kept));
    std::vector<double> nonzero(k, 1.0);
    std::vector<int64_t> zeros(k, 0);
    const T* a = x.data<T>();
    forEachReduced(x.shape(), r.kept, [&](int64_t xi, int64_t ki) {
      double v = double(load(a[xi]));
      if (v == 0)
        ++zeros[size_t(ki)];
      else
        nonzero[size_t(ki)] *= v;
    });
    Tensor g = Tensor::allocate(x.dtype(), x.shape());
    const T* d = dout.data<T>();
    T* o = g.data<T>();
    forEachReduced(x.shape(), r.kept, [&](int64_t xi, int64_t ki) {
      double v = double(load(a[xi])), others;
      int64_t z = zeros[size_t(ki)];
      if (v == 0)
        others = z == 1 ? nonzero[size_t(ki)] : 0.0;
      else
        others = z > 0 ? 0.0 : nonzero[size_t(ki)] / v;
      o[xi] = store<T>(double(load(d[ki])) * others);
    });
    ctx.setOut(0, std::move(g));
    return Status::ok();
  });
}

/// max_grad and min_grad (x, out, out_grad, axis){keepdim, reduce_all}:
/// out_grad to every element equal to its group's extreme (ties each get
/// all of it, as Paddle's).
Status extremeGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  const Tensor& x = ctx.in(0);
  Reduction r;
  if (Status s = readReduction(ctx, 3, x, r); !s) return s;
  if (Status s = checkReduced(ctx, x, r, {1, 2}); !s) return s;
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor g = Tensor::allocate(x.dtype(), x.shape());
    const T *a = x.data<T>(), *m = ctx.in(1).template data<T>(), *d = ctx.in(2).template data<T>();
    T* o = g.data<T>();
    forEachReduced(x.shape(), r.kept, [&](int64_t xi, int64_t ki) {
      auto v = load(a[xi]), e = load(m[ki]);
      bool hit = v == e || (v != v && e != e);  // a NaN maximum came from the NaNs
      o[xi] = hit ? d[ki] : store<T>(decltype(v)(0));
    });
    ctx.setOut(0, std::move(g));
    return Status::ok();
  });
}

/// logsumexp (x){axis, keepdim, reduce_all}: max + log(sum(exp(x - max))),
/// in f64; an all -inf group gives -inf, a +inf one +inf, NaN stays.
Status logsumexp(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  Reduction r;
  if (Status s = readReduction(ctx, kNoOperand, x, r); !s) return s;
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    size_t k = size_t(numElements(r.kept));
    std::vector<double> mx(k, -std::numeric_limits<double>::infinity()), sum(k, 0.0);
    const T* a = x.data<T>();
    forEachReduced(x.shape(), r.kept,
                   [&](int64_t xi, int64_t ki) { mx[size_t(ki)] = nanMax(mx[size_t(ki)], double(load(a[xi]))); });
    forEachReduced(x.shape(), r.kept, [&](int64_t xi, int64_t ki) {
      if (std::isfinite(mx[size_t(ki)])) sum[size_t(ki)] += std::exp(double(load(a[xi])) - mx[size_t(ki)]);
    });
    Tensor out = Tensor::allocate(x.dtype(), r.kept);
    T* o = out.data<T>();
    for (size_t i = 0; i < k; ++i) o[i] = store<T>(std::isfinite(mx[i]) ? mx[i] + std::log(sum[i]) : mx[i]);
    ctx.setOut(0, out.view(resultShape(x.shape(), r.axes, r.all, r.keepdim, r.kept)));
    return Status::ok();
  });
}

/// logsumexp_grad (x, out, out_grad){axis, keepdim, reduce_all}:
/// out_grad·exp(x - out).
Status logsumexpGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  const Tensor& x = ctx.in(0);
  Reduction r;
  if (Status s = readReduction(ctx, kNoOperand, x, r); !s) return s;
  if (Status s = checkReduced(ctx, x, r, {1, 2}); !s) return s;
  return visitFloat(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor g = Tensor::allocate(x.dtype(), x.shape());
    const T *a = x.data<T>(), *m = ctx.in(1).template data<T>(), *d = ctx.in(2).template data<T>();
    T* o = g.data<T>();
    forEachReduced(x.shape(), r.kept, [&](int64_t xi, int64_t ki) {
      o[xi] = store<T>(double(load(d[ki])) * std::exp(double(load(a[xi])) - double(load(m[ki]))));
    });
    ctx.setOut(0, std::move(g));
    return Status::ok();
  });
}

}  // namespace

Status sumOfSquares(KernelContext& ctx) { return reduceKernel<false, Summand::Square>(ctx); }
Status meanOfSquares(KernelContext& ctx) { return reduceKernel<true, Summand::Square>(ctx); }
Status sumGradSquareGrad(KernelContext& ctx) { return reduceGradKernel<false, true>(ctx); }
Status meanGradSquareGrad(KernelContext& ctx) { return reduceGradKernel<true, true>(ctx); }

}  // namespace kernels

void registerReduceKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("cinn_op.reduce_max", cinnReduceKernel<false>, kNumbers);
  r.add("cinn_op.reduce_sum", cinnReduceKernel<true>, kNumbers);
  r.add("pd_op.logsumexp", logsumexp, kFloats);
  r.add("pd_op.logsumexp_grad", logsumexpGrad, kFloats);
  r.add("pd_op.max", extremeKernel<true>, kNumbers);
  r.add("pd_op.max_grad", extremeGrad, kNumbers);
  r.add("pd_op.mean", reduceKernel<true>, kFloats);
  r.add("pd_op.mean_grad", reduceGradKernel<true>, kNumbers);
  r.add("pd_op.min", extremeKernel<false>, kNumbers);
  r.add("pd_op.min_grad", extremeGrad, kNumbers);
  r.add("pd_op.prod", prod, kNumbers);
  r.add("pd_op.prod_grad", prodGrad, kFloats);
  r.add("pd_op.sum", reduceKernel<false>, kAllDtypes);
  r.add("pd_op.sum_grad", reduceGradKernel<false>, kNumbers);
}

}  // namespace pir::runtime
