//===- index_kernels.cpp - gather, index_select, scatter, one_hot, arange -===//
//
// Indexing as Paddle's CPU kernels do it; indices are int32 or int64 and an
// index out of range is an error naming it.
// - gather (x, index, axis) is numpy's take along axis (the axis a Scalar:
//   a `full` operand or the attribute); index is 0-D (the axis is dropped),
//   1-D or [n, 1]. index_select (x, index){axis} the same with a 1-D or
//   [n, 1] index. gather_nd (x, index) is x[tuple(index.T)]: index's last
//   dim k <= rank indexes x's first k dims, out is index.shape[:-1] +
//   x.shape[k:]. These three take indices in [-n, n), negatives wrapping as
//   numpy's; their grads (gather_grad (x, index, out_grad, axis),
//   index_select_grad (..){axis}, gather_nd_grad (x, index, out_grad)) add
//   out_grad into zeros of x's shape, repeated indices accumulating.
// - scatter (x, index, updates){overwrite} writes updates' rows at index's
//   rows (dim 0) of a copy of x, index 0-D, 1-D or [n, 1] in [0, n) (no
//   wrapping: Paddle's CPU kernel refuses negatives). overwrite=true: row by
//   row, so the last of repeated indices wins; overwrite=false: the indexed
//   rows are zeroed, then every update is added (repeats sum). scatter_grad
//   (index, updates, out_grad){overwrite}, as Paddle's, in both modes:
//   x_grad is out_grad with the indexed rows zeroed, updates_grad
//   out_grad's indexed rows (under overwrite=true with repeated indices
//   every repeat gets the row's grad, not only the last).
// - one_hot (x, num_classes) is np.eye(num_classes)[x] as f32; x's values
//   in [0, num_classes).
// - arange (start, end, step){dtype}: 0-D or [1] operands; length
//   ceil((end - start) / step), values start + i·step (numpy's), computed in
//   dtype (f32 for bf16). step 0, or a step going away from end, is an
//   error (Paddle's; numpy gives an empty result for the latter).
// Grads accumulate in f64 for floats, modulo 2^64 for ints.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

std::string numberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

Status requireRunnable(const KernelContext& ctx, const Tensor& t) {
  if (!isRunnable(t.dtype()))
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(t.dtype())));
  return Status::ok();
}

/// The integer in operand `i` (a `full`'s Scalar) when present, else
/// attribute `attr`, else `fallback`.
Status intArg(const KernelContext& ctx, size_t i, std::string_view attr, std::optional<int64_t> fallback,
              const std::string& what, int64_t& v) {
  if (ctx.has(i) && ctx.in(i).defined()) {
    const Tensor& t = ctx.in(i);
    if (t.numel() != 1 || !isRunnable(t.dtype()))
      return kernelError(ctx, what + " must hold one number, not " + t.typeText());
    double d = valueAt(t, 0);
    if (!(std::abs(d) < 0x1p62) || d != std::trunc(d))
      return kernelError(ctx, what + " " + numberText(d) + " is not an integer");
    v = int64_t(d);
    return Status::ok();
  }
  std::optional<int64_t> a = core::getInt64(ctx.op, attr);
  if (!a) a = fallback;
  if (!a) return kernelError(ctx, what + " is neither an operand nor an attribute");
  v = *a;
  return Status::ok();
}

/// Index `v` for a dim of size `n` (dim `axis` of `shape`), wrapped from
/// [-n, n) when `wraps`, else in [0, n); an error naming it otherwise.
Status checkIndex(const KernelContext& ctx, int64_t v, int64_t n, bool wraps, size_t axis,
                  std::span<const int64_t> shape, int64_t& out) {
  int64_t lo = wraps ? -n : 0;
  if (v < lo || v >= n)
    return kernelError(ctx, "index " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
                                std::to_string(n) + ") for axis " + std::to_string(axis) + " of " + shapeText(shape));
  out = v < 0 ? v + n : v;
  return Status::ok();
}

/// A tensor seen as [outer, n, inner] around one axis.
struct Split {
  int64_t outer = 1, n = 1, inner = 1;
};

Split splitAt(std::span<const int64_t> shape, size_t axis) {
  Split s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis) s.outer *= shape[d];
    if (d == axis) s.n = shape[d];
    if (d > axis) s.inner *= shape[d];
  }
  return s;
}

/// [outer, idx.size(), inner] of x's [outer, n, inner] rows at `idx` (in
/// range), as a new tensor of `shape` (byte copies: any dtype).
Tensor takeRows(const Tensor& x, const Split& s, const std::vector<int64_t>& idx, std::span<const int64_t> shape) {
  Tensor out = Tensor::allocate(x.dtype(), shape);
  if (out.numel() == 0) return out;
  size_t es = elementSize(x.dtype()), row = size_t(s.inner) * es;
  int64_t m = int64_t(idx.size());
  const char* src = static_cast<const char*>(x.raw());
  char* dst = static_cast<char*>(out.raw());
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t j = 0; j < m; ++j)
      std::memcpy(dst + size_t((o * m + j) * s.inner) * es, src + size_t((o * s.n + idx[size_t(j)]) * s.inner) * es,
                  row);
  return out;
}

/// `base` (or zeros) of `shape` ([outer, n, inner]) with g's [outer,
/// idx.size(), inner] rows added at rows `idx`: repeats accumulate.
Status addRows(const KernelContext& ctx, const Tensor* base, const Tensor& g, const Split& s,
               const std::vector<int64_t>& idx, std::span<const int64_t> shape, Tensor& out) {
  return visitNumber(ctx, g.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using A = std::conditional_t<std::is_integral_v<T>, uint64_t, double>;  // ints wrap, never overflow
    std::vector<A> acc(size_t(numElements(shape)), A{});
    if (base)
      for (size_t i = 0; i < acc.size(); ++i) acc[i] = A(load(base->data<T>()[i]));
    const T* a = g.data<T>();
    int64_t m = int64_t(idx.size());
    for (int64_t o = 0; o < s.outer; ++o)
      for (int64_t j = 0; j < m; ++j) {
        A* dst = acc.data() + (o * s.n + idx[size_t(j)]) * s.inner;
        const T* src = a + (o * m + j) * s.inner;
        for (int64_t k = 0; k < s.inner; ++k) dst[k] += A(load(src[k]));
      }
    out = Tensor::allocate(g.dtype(), shape);
    T* p = out.data<T>();
    for (size_t i = 0; i < acc.size(); ++i) p[i] = store<T>(acc[i]);
    return Status::ok();
  });
}

Status indexValues(const KernelContext& ctx, const Tensor& index, std::vector<int64_t>& v) {
  auto r = intValues(index, "index");
  if (!r) return kernelError(ctx, r.status().message());
  v = std::move(*r);
  return Status::ok();
}

/// What gather and index_select take from x: x split at the axis, the
/// wrapped indices and the result's shape.
struct Take {
  Split s;
  std::vector<int64_t> idx;
  Shape shape;
};

/// index 0-D (when `scalarIndex`: the axis is dropped), 1-D or [n, 1].
Status takeAlong(const KernelContext& ctx, const Tensor& x, const Tensor& index, int64_t a, bool scalarIndex, Take& t) {
  if (x.rank() == 0) return kernelError(ctx, "x " + shapeText(x.shape()) + " has no axis to index");
  auto axis = normalizeAxis(a, x.rank());
  if (!axis) return kernelError(ctx, "axis " + std::to_string(a) + " is out of range for " + shapeText(x.shape()));
  bool zeroD = index.rank() == 0;
  if (!(index.rank() == 1 || (index.rank() == 2 && index.dim(1) == 1) || (zeroD && scalarIndex)))
    return kernelError(ctx, "index " + shapeText(index.shape()) +
                                (scalarIndex ? " must be 0-D, 1-D or [n, 1]" : " must be 1-D or [n, 1]"));
  if (Status s = indexValues(ctx, index, t.idx); !s) return s;
  size_t ax = size_t(*axis);
  t.s = splitAt(x.shape(), ax);
  for (int64_t& v : t.idx)
    if (Status s = checkIndex(ctx, v, t.s.n, true, ax, x.shape(), v); !s) return s;
  t.shape.assign(x.shape().begin(), x.shape().end());
  if (zeroD)
    t.shape.erase(t.shape.begin() + *axis);
  else
    t.shape[ax] = int64_t(t.idx.size());
  return Status::ok();
}

Status requireIndexOps(const KernelContext& ctx, size_t x, size_t index) {
  if (Status s = requireOperands(ctx, {x}); !s) return s;
  return requireOperands(ctx, {index});
}

/// out_grad must have the forward's result shape.
Status requireGradShape(const KernelContext& ctx, const Tensor& g, std::span<const int64_t> want) {
  if (!std::ranges::equal(g.shape(), want))
    return kernelError(ctx, "out_grad " + shapeText(g.shape()) + " is not the forward's " + shapeText(want));
  return Status::ok();
}

Status gather(KernelContext& ctx) {
  if (Status s = requireIndexOps(ctx, 0, 1); !s) return s;
  const Tensor& x = ctx.in(0);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  int64_t a = 0;
  if (Status s = intArg(ctx, 2, "axis", 0, "axis", a); !s) return s;
  Take t;
  if (Status s = takeAlong(ctx, x, ctx.in(1), a, true, t); !s) return s;
  ctx.setOut(0, takeRows(x, t.s, t.idx, t.shape));
  return Status::ok();
}

/// gather_grad (x, index, out_grad, axis).
Status gatherGrad(KernelContext& ctx) {
  if (Status s = requireIndexOps(ctx, 0, 1); !s) return s;
  if (Status s = requireOperands(ctx, {2}); !s) return s;
  const Tensor& x = ctx.in(0);
  int64_t a = 0;
  if (Status s = intArg(ctx, 3, "axis", 0, "axis", a); !s) return s;
  Take t;
  if (Status s = takeAlong(ctx, x, ctx.in(1), a, true, t); !s) return s;
  if (Status s = requireGradShape(ctx, ctx.in(2), t.shape); !s) return s;
  Tensor out;
  if (Status s = addRows(ctx, nullptr, ctx.in(2), t.s, t.idx, x.shape(), out); !s) return s;
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status indexSelect(KernelContext& ctx) {
  if (Status s = requireIndexOps(ctx, 0, 1); !s) return s;
  const Tensor& x = ctx.in(0);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  Take t;
  if (Status s = takeAlong(ctx, x, ctx.in(1), core::getInt64(ctx.op, "axis").value_or(0), false, t); !s) return s;
  ctx.setOut(0, takeRows(x, t.s, t.idx, t.shape));
  return Status::ok();
}

/// index_select_grad (x, index, out_grad){axis}.
Status indexSelectGrad(KernelContext& ctx) {
  if (Status s = requireIndexOps(ctx, 0, 1); !s) return s;
  if (Status s = requireOperands(ctx, {2}); !s) return s;
  const Tensor& x = ctx.in(0);
  Take t;
  if (Status s = takeAlong(ctx, x, ctx.in(1), core::getInt64(ctx.op, "axis").value_or(0), false, t); !s) return s;
  if (Status s = requireGradShape(ctx, ctx.in(2), t.shape); !s) return s;
  Tensor out;
  if (Status s = addRows(ctx, nullptr, ctx.in(2), t.s, t.idx, x.shape(), out); !s) return s;
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

/// gather_nd's view of x as [N, inner] (N the product of x's first k dims),
/// the row of each index tuple, and the result's shape.
Status gatherNdRows(const KernelContext& ctx, const Tensor& x, const Tensor& index, Take& t) {
  if (index.rank() == 0) return kernelError(ctx, "index must have at least one dim, not " + index.typeText());
  int64_t k = index.dim(index.rank() - 1);
  if (k > int64_t(x.rank()))
    return kernelError(
        ctx, "index " + shapeText(index.shape()) + " has more components than x " + shapeText(x.shape()) + " has dims");
  std::vector<int64_t> flat;
  if (Status s = indexValues(ctx, index, flat); !s) return s;
  std::span<const int64_t> lead = index.shape().first(index.rank() - 1);
  int64_t m = numElements(lead);
  t.s = Split{1, numElements(x.shape().first(size_t(k))), numElements(x.shape().subspan(size_t(k)))};
  t.idx.assign(size_t(m), 0);
  for (int64_t p = 0; p < m; ++p) {
    int64_t row = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t v = 0;
      if (Status s = checkIndex(ctx, flat[size_t(p * k + j)], x.dim(size_t(j)), true, size_t(j), x.shape(), v); !s)
        return s;
      row = row * x.dim(size_t(j)) + v;
    }
    t.idx[size_t(p)] = row;
  }
  t.shape.assign(lead.begin(), lead.end());
  t.shape.insert(t.shape.end(), x.shape().begin() + k, x.shape().end());
  return Status::ok();
}

Status gatherNd(KernelContext& ctx) {
  if (Status s = requireIndexOps(ctx, 0, 1); !s) return s;
  const Tensor& x = ctx.in(0);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  Take t;
  if (Status s = gatherNdRows(ctx, x, ctx.in(1), t); !s) return s;
  ctx.setOut(0, takeRows(x, t.s, t.idx, t.shape));
  return Status::ok();
}

/// gather_nd_grad (x, index, out_grad).
Status gatherNdGrad(KernelContext& ctx) {
  if (Status s = requireIndexOps(ctx, 0, 1); !s) return s;
  if (Status s = requireOperands(ctx, {2}); !s) return s;
  const Tensor& x = ctx.in(0);
  Take t;
  if (Status s = gatherNdRows(ctx, x, ctx.in(1), t); !s) return s;
  if (Status s = requireGradShape(ctx, ctx.in(2), t.shape); !s) return s;
  Tensor out;
  if (Status s = addRows(ctx, nullptr, ctx.in(2), t.s, t.idx, x.shape(), out); !s) return s;
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

/// scatter's rows: `shape` (x's or out_grad's) as [n, slice] and index's
/// values, each in [0, n).
Status scatterRows(const KernelContext& ctx, std::span<const int64_t> shape, const Tensor& index, Take& t) {
  if (shape.empty()) return kernelError(ctx, "x " + shapeText(shape) + " has no rows to scatter into");
  if (!(index.rank() <= 1 || (index.rank() == 2 && index.dim(1) == 1)))
    return kernelError(ctx, "index " + shapeText(index.shape()) + " must be 0-D, 1-D or [n, 1]");
  if (Status s = indexValues(ctx, index, t.idx); !s) return s;
  t.s = splitAt(shape, 0);
  for (int64_t& v : t.idx)
    if (Status s = checkIndex(ctx, v, t.s.n, false, 0, shape, v); !s) return s;
  t.shape.assign(shape.begin() + 1, shape.end());  // the updates' shape
  if (index.rank() != 0) t.shape.insert(t.shape.begin(), int64_t(t.idx.size()));
  return Status::ok();
}

Status scatter(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 2}); !s) return s;
  if (Status s = requireOperands(ctx, {1}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& u = ctx.in(2);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  Take t;
  if (Status s = scatterRows(ctx, x.shape(), ctx.in(1), t); !s) return s;
  if (!std::ranges::equal(u.shape(), t.shape))
    return kernelError(ctx, "updates " + shapeText(u.shape()) + " are not " + shapeText(t.shape) +
                                " (index's rows of x " + shapeText(x.shape()) + ")");
  Tensor out = x.clone();
  size_t row = size_t(t.s.inner) * elementSize(x.dtype());
  char* o = static_cast<char*>(out.raw());
  if (core::getBool(ctx.op, "overwrite").value_or(true)) {
    const char* src = static_cast<const char*>(u.raw());
    for (size_t j = 0; j < t.idx.size() && row; ++j) std::memcpy(o + size_t(t.idx[j]) * row, src + j * row, row);
    ctx.setOut(0, std::move(out));
    return Status::ok();
  }
  for (size_t j = 0; j < t.idx.size() && row; ++j) std::memset(o + size_t(t.idx[j]) * row, 0, row);  // 0 in every dtype
  Tensor sum;
  if (Status s = addRows(ctx, &out, u, Split{1, t.s.n, t.s.inner}, t.idx, x.shape(), sum); !s) return s;
  ctx.setOut(0, std::move(sum));
  return Status::ok();
}

/// scatter_grad (index, updates, out_grad){overwrite} -> (x_grad,
/// updates_grad).
Status scatterGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {2}); !s) return s;
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& g = ctx.in(2);
  if (Status s = requireRunnable(ctx, g); !s) return s;
  Take t;
  if (Status s = scatterRows(ctx, g.shape(), ctx.in(0), t); !s) return s;
  if (ctx.has(1) && ctx.in(1).defined() && !std::ranges::equal(ctx.in(1).shape(), t.shape))
    return kernelError(ctx, "updates " + shapeText(ctx.in(1).shape()) + " are not " + shapeText(t.shape) +
                                " (index's rows of out_grad " + shapeText(g.shape()) + ")");
  if (wantsResult(ctx, 0)) {
    Tensor xg = g.clone();
    size_t row = size_t(t.s.inner) * elementSize(g.dtype());
    char* o = static_cast<char*>(xg.raw());
    for (size_t j = 0; j < t.idx.size() && row; ++j) std::memset(o + size_t(t.idx[j]) * row, 0, row);
    ctx.setOut(0, std::move(xg));
  }
  if (wantsResult(ctx, 1)) ctx.setOut(1, takeRows(g, t.s, t.idx, t.shape));
  return Status::ok();
}

/// one_hot (x, num_classes): np.eye(num_classes, dtype=float32)[x].
Status oneHot(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  int64_t n = 0;
  std::optional<int64_t> depth = core::getInt64(ctx.op, "depth");  // one_hot_v2's attribute
  if (Status s = intArg(ctx, 1, "num_classes", depth, "num_classes", n); !s) return s;
  if (n <= 0) return kernelError(ctx, "num_classes " + std::to_string(n) + " must be positive");
  std::vector<int64_t> v;
  auto r = intValues(x, "x");
  if (!r) return kernelError(ctx, r.status().message());
  v = std::move(*r);
  if (!v.empty() && n > std::numeric_limits<int64_t>::max() / int64_t(v.size()))
    return kernelError(
        ctx, "one_hot of " + shapeText(x.shape()) + " with " + std::to_string(n) + " classes has too many elements");
  for (int64_t c : v)
    if (c < 0 || c >= n)
      return kernelError(ctx, "x value " + std::to_string(c) + " is out of range [0, " + std::to_string(n) +
                                  ") for num_classes " + std::to_string(n));
  Shape shape(x.shape().begin(), x.shape().end());
  shape.push_back(n);
  Tensor out = Tensor::zeros(DataType::F32, shape);
  float* o = out.data<float>();
  for (size_t i = 0; i < v.size(); ++i) o[int64_t(i) * n + v[i]] = 1.0f;
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

/// arange (start, end, step){dtype, place}: numpy's arange; a static length
/// in the result type must be the one computed.
Status arange(KernelContext& ctx) {
  double in[3];
  const char* names[3] = {"start", "end", "step"};
  for (size_t i = 0; i < 3; ++i) {
    if (Status s = requireOperands(ctx, {i}); !s) return s;
    if (ctx.in(i).numel() != 1 || ctx.in(i).rank() > 1 || !isRunnable(ctx.in(i).dtype()))
      return kernelError(ctx, std::string(names[i]) + " must be a 0-D or [1] tensor, not " + ctx.in(i).typeText());
    in[i] = valueAt(ctx.in(i), 0);
    if (!std::isfinite(in[i]))
      return kernelError(ctx, std::string(names[i]) + " " + numberText(in[i]) + " is not finite");
  }
  DataType dtype = core::getDataType(ctx.op, "dtype").value_or(ctx.in(0).dtype());
  if (!isRunnable(dtype)) dtype = ctx.in(0).dtype();
  if (in[2] == 0) return kernelError(ctx, "step is 0");
  auto away = [&] {
    return kernelError(ctx, "step " + numberText(in[2]) + " goes away from end " + numberText(in[1]) + " (start " +
                                numberText(in[0]) + ")");
  };
  // A result type with a static length states what the operands must make;
  // -1 (the usual: arange's length depends on data) takes any.
  auto declared = [&](int64_t size) -> Status {
    auto shape = ctx.op.numResults() ? core::tensorShape(ctx.op.result(0)->type()) : std::nullopt;
    if (!shape) return Status::ok();
    if (shape->dims.size() != 1)
      return kernelError(
          ctx, "its result type declares rank " + std::to_string(shape->dims.size()) + ", arange makes a 1-D tensor");
    if (shape->dims[0] >= 0 && shape->dims[0] != size)
      return kernelError(ctx, "start " + numberText(in[0]) + ", end " + numberText(in[1]) + " and step " +
                                  numberText(in[2]) + " make " + std::to_string(size) +
                                  " elements, but its result type declares " + std::to_string(shape->dims[0]));
    return Status::ok();
  };
  return visitNumber(ctx, dtype, [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    int64_t size = 0;
    Tensor out;
    if constexpr (std::is_integral_v<T>) {
      for (double v : in)  // Paddle's cast truncates
        if (!(v >= double(std::numeric_limits<T>::min()) && v < -double(std::numeric_limits<T>::min())))
          return kernelError(ctx, numberText(v) + " does not fit " + std::string(core::dataTypeName(dtype)));
      int64_t s = int64_t(in[0]), e = int64_t(in[1]), st = int64_t(in[2]);
      if (st == 0) return kernelError(ctx, "step is 0");
      if ((s < e && st < 0) || (s > e && st > 0)) return away();
      // In uint64, exact: |e - s| < 2^64, and each value lies between s and e.
      uint64_t d = e > s ? uint64_t(e) - uint64_t(s) : uint64_t(s) - uint64_t(e);
      uint64_t as = st < 0 ? uint64_t(0) - uint64_t(st) : uint64_t(st);
      uint64_t n = d / as + (d % as != 0);
      if (n > (uint64_t(1) << 62)) return kernelError(ctx, "arange of too many elements");
      size = int64_t(n);
      if (Status bad = declared(size); !bad) return bad;
      out = Tensor::allocate(dtype, std::span<const int64_t>(&size, 1));
      for (int64_t i = 0; i < size; ++i) out.data<T>()[i] = static_cast<T>(uint64_t(s) + uint64_t(i) * uint64_t(st));
    } else {
      using C = ComputeT<T>;
      C s = C(in[0]), e = C(in[1]), st = C(in[2]);
      if (st == 0) return kernelError(ctx, "step is 0");
      if ((s < e && st < 0) || (s > e && st > 0)) return away();
      C n = std::ceil(std::abs((e - s) / st));
      if (!(n < C(0x1p62))) return kernelError(ctx, "arange of too many elements");
      size = int64_t(n);
      if (Status bad = declared(size); !bad) return bad;
      out = Tensor::allocate(dtype, std::span<const int64_t>(&size, 1));
      for (int64_t i = 0; i < size; ++i) out.data<T>()[i] = store<T>(s + C(i) * st);
    }
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerIndexKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.arange", arange, kNumbers);
  r.add("pd_op.gather", gather, kAllDtypes);
  r.add("pd_op.gather_grad", gatherGrad, kNumbers);
  r.add("pd_op.gather_nd", gatherNd, kAllDtypes);
  r.add("pd_op.gather_nd_grad", gatherNdGrad, kNumbers);
  r.add("pd_op.index_select", indexSelect, kAllDtypes);
  r.add("pd_op.index_select_grad", indexSelectGrad, kNumbers);
  r.add("pd_op.one_hot", oneHot, kInts);
  r.add("pd_op.scatter", scatter, kAllDtypes);
  r.add("pd_op.scatter_grad", scatterGrad, kAllDtypes);
}

}  // namespace pir::runtime
