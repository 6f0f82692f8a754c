//===- compare_kernels.cpp - comparisons, logic, where, maximum, minimum --===//
//
// less_than, less_equal, greater_than, greater_equal, equal, not_equal (bool
// results); logical_and, logical_or, logical_xor, logical_not (any dtype,
// nonzero is true, as numpy's logical_*); isnan, isinf (bool results);
// where(condition, x, y); maximum, minimum. numpy broadcasting throughout,
// where's over all three operands. NaN compares as in numpy (NaN < x and
// NaN == NaN are false, NaN != NaN is true) and propagates through maximum
// and minimum (np.maximum, np.minimum). bf16 is compared in f32. The grads
// where_grad, maximum_grad and minimum_grad sum back to each operand's shape
// as the binary grads do.
//
// Departure from Paddle: `equal` and `not_equal` on f32 and f64 are exact,
// as numpy's; Paddle's EqualFunctor (phi/kernels/funcs/compare_functors.h)
// calls two finite ones equal within 1e-8.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <functional>
#include <optional>
#include <span>

#include "runtime/kernels/elementwise.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// Calls `f(T*)` for any dtype the runner computes with; an error naming
/// the dtype for the others.
template <class F>
Status visitRunnable(const KernelContext& ctx, DataType dtype, F&& f) {
  if (!isRunnable(dtype))
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(dtype)));
  return visitDtype(dtype, f);
}

struct Less {
  template <class C>
  bool operator()(C a, C b) const {
    return a < b;
  }
};
struct LessEqual {
  template <class C>
  bool operator()(C a, C b) const {
    return a <= b;
  }
};
struct Greater {
  template <class C>
  bool operator()(C a, C b) const {
    return a > b;
  }
};
struct GreaterEqual {
  template <class C>
  bool operator()(C a, C b) const {
    return a >= b;
  }
};
struct Equal {
  template <class C>
  bool operator()(C a, C b) const {
    return a == b;
  }
};
struct NotEqual {
  template <class C>
  bool operator()(C a, C b) const {
    return a != b;
  }
};

/// A comparison of x and y (one dtype) into a bool tensor of their
/// broadcast shape.
template <class Op>
Status compareKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& y = ctx.in(1);
  Shape shape;
  if (Status s = broadcastOf(ctx, x, y, shape); !s) return s;
  return visitRunnable(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(DataType::Bool, shape);
    binaryLoopTo<T, bool>(x, y, out, Op{});
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// `t` as bool (nonzero, NaN included, is true): numpy's truth of a value.
Status truthOf(const KernelContext& ctx, const Tensor& t, Tensor& out) {
  if (!isRunnable(t.dtype()))
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(t.dtype())));
  out = castTensor(t, DataType::Bool);
  return Status::ok();
}

/// logical_and, logical_or, logical_xor: the operands' truths combined; the
/// two dtypes may differ.
template <class Op>
Status logicalKernel(KernelContext& ctx) {
  for (size_t i : {0, 1})
    if (Status s = requireOperands(ctx, {i}); !s) return s;
  Tensor x, y;
  if (Status s = truthOf(ctx, ctx.in(0), x); !s) return s;
  if (Status s = truthOf(ctx, ctx.in(1), y); !s) return s;
  Shape shape;
  if (Status s = broadcastOf(ctx, x, y, shape); !s) return s;
  Tensor out = Tensor::allocate(DataType::Bool, shape);
  binaryLoopTo<bool, bool>(x, y, out, Op{});
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status logicalNot(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  Tensor x;
  if (Status s = truthOf(ctx, ctx.in(0), x); !s) return s;
  Tensor out = Tensor::allocate(DataType::Bool, x.shape());
  const bool* a = x.data<bool>();
  bool* o = out.data<bool>();
  for (int64_t i = 0; i < x.numel(); ++i) o[i] = !a[i];
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

/// isnan and isinf: a bool per element, false for integers and bools.
template <bool kNan>
Status classifyKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  return visitRunnable(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(DataType::Bool, x.shape());
    const T* a = x.data<T>();
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < x.numel(); ++i) {
      if constexpr (std::is_floating_point_v<ComputeT<T>>)
        o[i] = kNan ? std::isnan(load(a[i])) : std::isinf(load(a[i]));
      else
        o[i] = false;
    }
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// Calls `f(i, offA, offB, offC)` for each flat index i of the contiguous
/// `shape` with the offsets of three operands read with the broadcast
/// strides `sa`, `sb`, `sc` (an odometer over the output's indices).
template <class F>
void forEach3(std::span<const int64_t> shape, std::span<const int64_t> sa, std::span<const int64_t> sb,
              std::span<const int64_t> sc, F&& f) {
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t oa = 0, ob = 0, oc = 0;
  int64_t n = numElements(shape);
  for (int64_t i = 0; i < n; ++i) {
    f(i, oa, ob, oc);
    for (size_t d = shape.size(); d-- > 0;) {
      oa += sa[d];
      ob += sb[d];
      oc += sc[d];
      if (++idx[d] < shape[d]) break;
      oa -= sa[d] * shape[d];
      ob -= sb[d] * shape[d];
      oc -= sc[d] * shape[d];
      idx[d] = 0;
    }
  }
}

/// where(condition, x, y): x where the condition holds (nonzero), else y,
/// over the broadcast of the three shapes; x's dtype.
Status where(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  if (Status s = requireOperands(ctx, {1, 2}); !s) return s;
  Tensor cond;
  if (Status s = truthOf(ctx, ctx.in(0), cond); !s) return s;
  const Tensor& x = ctx.in(1);
  const Tensor& y = ctx.in(2);
  auto xy = broadcastShapes(x.shape(), y.shape());
  std::optional<Shape> all = xy ? broadcastShapes(cond.shape(), *xy) : std::nullopt;
  if (!all)
    return kernelError(ctx, "shapes " + shapeText(cond.shape()) + ", " + shapeText(x.shape()) + " and " +
                                shapeText(y.shape()) + " do not broadcast");
  const Shape& shape = *all;
  return visitRunnable(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(x.dtype(), shape);
    Shape sc = broadcastStrides(cond.shape(), shape);
    Shape sx = broadcastStrides(x.shape(), shape);
    Shape sy = broadcastStrides(y.shape(), shape);
    const bool* c = cond.data<bool>();
    const T* a = x.data<T>();
    const T* b = y.data<T>();
    T* o = out.data<T>();
    forEach3(shape, sc, sx, sy, [&](int64_t i, int64_t oc, int64_t ox, int64_t oy) { o[i] = c[oc] ? a[ox] : b[oy]; });
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// maximum and minimum (x, y of one dtype): numpy's, NaN when either is.
template <bool kMax>
Status extremumKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& y = ctx.in(1);
  Shape shape;
  if (Status s = broadcastOf(ctx, x, y, shape); !s) return s;
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(x.dtype(), shape);
    binaryLoop<T>(x, y, out, [](auto a, auto b) { return kMax ? nanMax(a, b) : nanMin(a, b); });
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// Checks that out_grad has the broadcast shape of `shapes` (the forward's
/// operands): the shape its result had.
Status checkGradShape(const KernelContext& ctx, std::initializer_list<std::span<const int64_t>> shapes,
                      const Tensor& dout) {
  std::optional<Shape> all = Shape{};
  for (auto s : shapes)
    if (all) all = broadcastShapes(*all, s);
  if (!all || !std::equal(all->begin(), all->end(), dout.shape().begin(), dout.shape().end())) {
    std::string names;
    for (auto s : shapes) names += (names.empty() ? "" : ", ") + shapeText(s);
    return kernelError(ctx, "out_grad " + shapeText(dout.shape()) + " is not the broadcast shape of " + names);
  }
  return Status::ok();
}

/// where_grad (condition, x, y, out_grad) -> (x_grad, y_grad): out_grad
/// where the condition holds to x, elsewhere to y (0 in the other), each
/// summed back to its operand's shape (Paddle's WhereGradKernel, which
/// selects rather than multiplies, and takes x and y only for their shapes).
Status whereGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  if (Status s = requireOperands(ctx, {3}); !s) return s;
  if (!ctx.has(1) || !ctx.has(2)) return kernelError(ctx, "x and y are needed for their shapes");
  Tensor cond;
  if (Status s = truthOf(ctx, ctx.in(0), cond); !s) return s;
  const Tensor& dout = ctx.in(3);
  std::span<const int64_t> xs = ctx.in(1).shape(), ys = ctx.in(2).shape();
  if (Status s = checkGradShape(ctx, {cond.shape(), xs, ys}, dout); !s) return s;
  return visitNumber(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor gx = Tensor::allocate(dout.dtype(), dout.shape());
    Tensor gy = Tensor::allocate(dout.dtype(), dout.shape());
    Shape sc = broadcastStrides(cond.shape(), dout.shape());
    const bool* c = cond.data<bool>();
    const T* d = dout.data<T>();
    T* px = gx.data<T>();
    T* py = gy.data<T>();
    const T zero = store<T>(ComputeT<T>(0));
    forEach3(dout.shape(), sc, sc, sc, [&](int64_t i, int64_t oc, int64_t, int64_t) {
      px[i] = c[oc] ? d[i] : zero;
      py[i] = c[oc] ? zero : d[i];
    });
    if (wantsResult(ctx, 0)) ctx.setOut(0, sumToShape(gx, xs));
    if (wantsResult(ctx, 1)) ctx.setOut(1, sumToShape(gy, ys));
    return Status::ok();
  });
}

/// maximum_grad and minimum_grad (x, y, out_grad) -> (x_grad, y_grad):
/// Paddle's MaxGradDx/MaxGradDy and MinGradDx/MinGradDy
/// (phi/kernels/funcs/elementwise_functor.h): out_grad·(x > y) to x and
/// out_grad·(x <= y) to y for maximum (x < y and x >= y for minimum), so a
/// tie gives the whole gradient to y, and a NaN in x or y gives it to
/// neither. Products as Paddle's (an infinite out_grad times 0 is NaN); each
/// summed back to its operand's shape.
template <bool kMax>
Status extremumGradKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& y = ctx.in(1);
  const Tensor& dout = ctx.in(2);
  if (Status s = checkGradShape(ctx, {x.shape(), y.shape()}, dout); !s) return s;
  return visitNumber(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    Tensor gx = Tensor::allocate(dout.dtype(), dout.shape());
    Tensor gy = Tensor::allocate(dout.dtype(), dout.shape());
    Shape sx = broadcastStrides(x.shape(), dout.shape());
    Shape sy = broadcastStrides(y.shape(), dout.shape());
    const T* a = x.data<T>();
    const T* b = y.data<T>();
    const T* d = dout.data<T>();
    T* px = gx.data<T>();
    T* py = gy.data<T>();
    forEach3(dout.shape(), sx, sy, sy, [&](int64_t i, int64_t ox, int64_t oy, int64_t) {
      C u = load(a[ox]), v = load(b[oy]), g = load(d[i]);
      bool toX = kMax ? u > v : u < v;
      bool toY = kMax ? u <= v : u >= v;
      px[i] = store<T>(C(g * C(toX)));
      py[i] = store<T>(C(g * C(toY)));
    });
    if (wantsResult(ctx, 0)) ctx.setOut(0, sumToShape(gx, x.shape()));
    if (wantsResult(ctx, 1)) ctx.setOut(1, sumToShape(gy, y.shape()));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerCompareKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.equal", compareKernel<Equal>, kAllDtypes);
  r.add("pd_op.greater_equal", compareKernel<GreaterEqual>, kAllDtypes);
  r.add("pd_op.greater_than", compareKernel<Greater>, kAllDtypes);
  r.add("pd_op.isinf", classifyKernel<false>, kAllDtypes);
  r.add("pd_op.isnan", classifyKernel<true>, kAllDtypes);
  r.add("pd_op.less_equal", compareKernel<LessEqual>, kAllDtypes);
  r.add("pd_op.less_than", compareKernel<Less>, kAllDtypes);
  r.add("pd_op.logical_and", logicalKernel<std::logical_and<>>, kAllDtypes);
  r.add("pd_op.logical_not", logicalNot, kAllDtypes);
  r.add("pd_op.logical_or", logicalKernel<std::logical_or<>>, kAllDtypes);
  r.add("pd_op.logical_xor", logicalKernel<std::not_equal_to<>>, kAllDtypes);
  r.add("pd_op.maximum", extremumKernel<true>, kNumbers);
  r.add("pd_op.maximum_grad", extremumGradKernel<true>, kNumbers);
  r.add("pd_op.minimum", extremumKernel<false>, kNumbers);
  r.add("pd_op.minimum_grad", extremumGradKernel<false>, kNumbers);
  r.add("pd_op.not_equal", compareKernel<NotEqual>, kAllDtypes);
  r.add("pd_op.where", where, kAllDtypes);
  r.add("pd_op.where_grad", whereGrad, kNumbers);
}

}  // namespace pir::runtime
