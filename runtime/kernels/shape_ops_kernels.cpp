//===- shape_ops_kernels.cpp - squeeze, expand, tile, stack, flatten, tri -===//
//
// unsqueeze and squeeze (x, axis) and flatten (x){start_axis, stop_axis}
// are views of x; in dumps before Paddle dropped it they have a second
// result, xshape ([0] + x's dims, no data), and their grads take xshape
// where newer ones take x: both are read as "x's shape". unsqueeze inserts
// a 1 at each axis in turn (negative axes count from the rank so far + 1);
// squeeze removes the listed dims of size 1 (others stay, as Paddle), every
// size-1 dim for an empty list. expand (x, shape) is numpy's broadcast_to
// (a -1 keeps x's dim), tile (x, repeat_times) numpy's tile; their grads sum
// back. stack (x: a vec){axis} and stack_grad (x, out_grad){axis}, a vec.
// triu and tril (x){diagonal} keep the upper/lower triangle of the last two
// dims, their grads mask out_grad alike. Any dtype (data movement).
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

Status requireRunnable(const KernelContext& ctx, const Tensor& t) {
  if (!isRunnable(t.dtype()))
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(t.dtype())));
  return Status::ok();
}

/// Sets result 0 to x viewed as `shape`, and xshape (result 1) when the
/// op has it.
void setView(KernelContext& ctx, const Tensor& x, const Shape& shape) {
  ctx.setOut(0, x.view(shape));
  if (wantsResult(ctx, 1)) {
    Shape xshape{0};
    xshape.insert(xshape.end(), x.shape().begin(), x.shape().end());
    ctx.setOut(1, Tensor::allocate(x.dtype(), xshape));
  }
}

Status unsqueeze(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  auto axes = intArrayArg(ctx, 1, "axis");
  if (!axes) return kernelError(ctx, "axis is neither an int tensor nor an IntArray attribute");
  Shape shape(x.shape().begin(), x.shape().end());
  for (int64_t a : *axes) {
    int64_t r = int64_t(shape.size()), at = a < 0 ? a + r + 1 : a;
    if (at < 0 || at > r)
      return kernelError(ctx, "axis " + std::to_string(a) + " is out of range for unsqueezing " + shapeText(shape));
    shape.insert(shape.begin() + at, 1);
  }
  setView(ctx, x, shape);
  return Status::ok();
}

Status squeeze(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  auto axes = intArrayArg(ctx, 1, "axis");
  if (!axes) return kernelError(ctx, "axis is neither an int tensor nor an IntArray attribute");
  std::vector<bool> drop(x.rank(), axes->empty());
  for (int64_t a : *axes) {
    auto n = normalizeAxis(a, x.rank());
    if (!n) return kernelError(ctx, "axis " + std::to_string(a) + " is out of range for " + shapeText(x.shape()));
    if (x.rank() > 0) drop[size_t(*n)] = true;
  }
  Shape shape;
  for (size_t d = 0; d < x.rank(); ++d)
    if (!drop[d] || x.dim(d) != 1) shape.push_back(x.dim(d));
  setView(ctx, x, shape);
  return Status::ok();
}

Status flatten(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  int64_t start = core::getInt64(ctx.op, "start_axis").value_or(1);
  int64_t stop = core::getInt64(ctx.op, "stop_axis").value_or(1);
  if (x.rank() == 0) {  // Paddle: a 0-D x flattens to [1]
    setView(ctx, x, Shape{1});
    return Status::ok();
  }
  auto b = normalizeAxis(start, x.rank()), e = normalizeAxis(stop, x.rank());
  if (!b || !e || *b > *e)
    return kernelError(ctx, "start_axis " + std::to_string(start) + " and stop_axis " + std::to_string(stop) +
                                " do not name a run of " + shapeText(x.shape()) + "'s dims");
  Shape shape(x.shape().begin(), x.shape().begin() + *b);
  shape.push_back(numElements(x.shape().subspan(size_t(*b), size_t(*e - *b + 1))));
  shape.insert(shape.end(), x.shape().begin() + *e + 1, x.shape().end());
  setView(ctx, x, shape);
  return Status::ok();
}

/// reshape_grad, squeeze_grad, unsqueeze_grad (x or xshape, out_grad, ..)
/// and flatten_grad (x or xshape, out_grad): out_grad with x's shape (a
/// copy). Before Paddle's PR #66089 the first operand was xshape = [0] +
/// x's dims.
Status viewGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {1}); !s) return s;
  if (!ctx.has(0)) return kernelError(ctx, "x is needed for its shape");
  std::span<const int64_t> shape = ctx.in(0).shape();
  if (ctx.in(0).numel() == 0 && !shape.empty() && shape[0] == 0 && ctx.in(1).numel() != 0) shape = shape.subspan(1);
  if (numElements(shape) != ctx.in(1).numel())
    return kernelError(
        ctx, "out_grad " + shapeText(ctx.in(1).shape()) + " does not have the elements of " + shapeText(shape));
  ctx.setOut(0, ctx.in(1).clone().view(shape));
  return Status::ok();
}

/// Copies x broadcast (numpy's strides) to a new tensor of `shape`.
Tensor broadcastCopy(const Tensor& x, std::span<const int64_t> xShape, const Shape& shape) {
  Tensor out = Tensor::allocate(x.dtype(), shape);
  visitDtype(x.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* a = x.data<T>();
    T* o = out.data<T>();
    Shape sx = broadcastStrides(xShape, shape), so = broadcastStrides(shape, shape);
    int64_t lx = sx.empty() ? 0 : sx.back();
    forEachRow(shape, so, sx, [&](int64_t offO, int64_t offX, int64_t, int64_t n) {
      for (int64_t j = 0; j < n; ++j) o[offO + j] = a[offX + j * lx];
    });
  });
  return out;
}

/// expand's output shape: `want` with -1 taking x's (right-aligned) dim.
Status expandShape(const KernelContext& ctx, std::span<const int64_t> xs, const std::vector<int64_t>& want,
                   Shape& shape) {
  if (want.size() < xs.size())
    return kernelError(ctx, "shape " + dimsText(want) + " has fewer dims than x " + shapeText(xs));
  size_t lead = want.size() - xs.size();
  shape.assign(want.begin(), want.end());
  for (size_t i = 0; i < want.size(); ++i) {
    int64_t xd = i < lead ? 1 : xs[i - lead];
    if (want[i] == -1 && i >= lead) shape[i] = xd;
    if (shape[i] < 0 || (xd != 1 && xd != shape[i]))
      return kernelError(ctx, "x " + shapeText(xs) + " does not expand to " + dimsText(want));
  }
  return Status::ok();
}

Status expand(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  auto want = intArrayArg(ctx, 1, "shape");
  if (!want) return kernelError(ctx, "shape is neither an int tensor nor an IntArray attribute");
  Shape shape;
  if (Status s = expandShape(ctx, x.shape(), *want, shape); !s) return s;
  ctx.setOut(0, broadcastCopy(x, x.shape(), shape));
  return Status::ok();
}

/// expand_grad (x, out_grad, shape): out_grad summed back to x's shape.
Status expandGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& d = ctx.in(1);
  auto b = broadcastShapes(x.shape(), d.shape());
  if (!b || !std::equal(b->begin(), b->end(), d.shape().begin(), d.shape().end()))
    return kernelError(ctx, "out_grad " + shapeText(d.shape()) + " is not x " + shapeText(x.shape()) + " expanded");
  return visitNumber(ctx, d.dtype(), [&](auto*) -> Status {
    ctx.setOut(0, sumToShape(d, x.shape()));
    return Status::ok();
  });
}

/// tile's repeats and x's shape, both padded with leading 1s to one rank.
Status tileShapes(const KernelContext& ctx, const Tensor& x, size_t operand, Shape& xs, Shape& reps) {
  auto r = intArrayArg(ctx, operand, "repeat_times");
  if (!r) return kernelError(ctx, "repeat_times is neither an int tensor nor an IntArray attribute");
  reps = *r;
  xs.assign(x.shape().begin(), x.shape().end());
  for (int64_t v : reps)
    if (v < 0) return kernelError(ctx, "repeat_times " + dimsText(reps) + " has a negative count");
  while (reps.size() < xs.size()) reps.insert(reps.begin(), 1);
  while (xs.size() < reps.size()) xs.insert(xs.begin(), 1);
  return Status::ok();
}

/// tile (x, repeat_times): numpy's tile. x viewed as [1, x0, 1, x1, ..]
/// broadcast to [r0, x0, r1, x1, ..] is the tiled result's layout.
Status tile(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  Shape xs, reps;
  if (Status s = tileShapes(ctx, x, 1, xs, reps); !s) return s;
  Shape inter, wide, out;
  for (size_t i = 0; i < xs.size(); ++i) {
    inter.insert(inter.end(), {1, xs[i]});
    wide.insert(wide.end(), {reps[i], xs[i]});
    out.push_back(reps[i] * xs[i]);
  }
  ctx.setOut(0, broadcastCopy(x, inter, wide).view(out));
  return Status::ok();
}

/// tile_grad (x, out_grad, repeat_times): out_grad as [r0, x0, ..] summed
/// over the repeats.
Status tileGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& d = ctx.in(1);
  Shape xs, reps;
  if (Status s = tileShapes(ctx, x, 2, xs, reps); !s) return s;
  Shape inter, wide;
  for (size_t i = 0; i < xs.size(); ++i) {
    inter.insert(inter.end(), {1, xs[i]});
    wide.insert(wide.end(), {reps[i], xs[i]});
  }
  if (numElements(wide) != d.numel())
    return kernelError(ctx, "out_grad " + shapeText(d.shape()) + " is not x " + shapeText(x.shape()) + " tiled");
  return visitNumber(ctx, d.dtype(), [&](auto*) -> Status {
    ctx.setOut(0, sumToShape(d.view(wide), inter).view(x.shape()));
    return Status::ok();
  });
}

/// stack (x: a vec){axis}: the tensors (one shape) joined along a new axis.
Status stack(KernelContext& ctx) {
  if (!ctx.has(0)) return kernelError(ctx, "operand 0 is missing");
  const std::vector<Tensor>& xs = ctx.inList(0);
  if (xs.empty()) return kernelError(ctx, "nothing to stack");
  const Tensor& x0 = xs[0];
  if (Status s = requireRunnable(ctx, x0); !s) return s;
  int64_t a = core::getInt64(ctx.op, "axis").value_or(0), r = int64_t(x0.rank());
  int64_t axis = a < 0 ? a + r + 1 : a;
  if (axis < 0 || axis > r)
    return kernelError(ctx, "axis " + std::to_string(a) + " is out of range for stacking " + shapeText(x0.shape()));
  for (const Tensor& x : xs)
    if (x.dtype() != x0.dtype() || !std::ranges::equal(x.shape(), x0.shape()))
      return kernelError(ctx, "cannot stack " + x0.typeText() + " and " + x.typeText());
  Shape one(x0.shape().begin(), x0.shape().end()), shape;
  one.insert(one.begin() + axis, 1);
  shape = one;
  shape[size_t(axis)] = int64_t(xs.size());
  Tensor out = Tensor::allocate(x0.dtype(), shape);
  Shape at(shape.size(), 0), zero(shape.size(), 0);
  for (const Tensor& x : xs) {
    copyBox(x.view(one), zero, out, at, one);
    ++at[size_t(axis)];
  }
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

/// stack_grad (x, out_grad){axis}: out_grad cut along axis, one per x.
Status stackGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {1}); !s) return s;
  const Tensor& d = ctx.in(1);
  int64_t a = core::getInt64(ctx.op, "axis").value_or(0);
  auto axis = normalizeAxis(a, d.rank());
  if (!axis || d.rank() == 0)
    return kernelError(ctx, "axis " + std::to_string(a) + " is out of range for " + shapeText(d.shape()));
  if (ctx.has(0) && ctx.inList(0).size() != size_t(d.dim(size_t(*axis))))
    return kernelError(ctx, "out_grad " + shapeText(d.shape()) + " does not stack " +
                                std::to_string(ctx.inList(0).size()) + " tensors");
  Shape one(d.shape().begin(), d.shape().end()), piece;
  one[size_t(*axis)] = 1;
  for (size_t i = 0; i < one.size(); ++i)
    if (i != size_t(*axis)) piece.push_back(one[i]);
  std::vector<Tensor> grads;
  Shape at(one.size(), 0), zero(one.size(), 0);
  for (int64_t k = 0; k < d.dim(size_t(*axis)); ++k) {
    Tensor g = Tensor::allocate(d.dtype(), one);
    at[size_t(*axis)] = k;
    copyBox(d, at, g, zero, one);
    grads.push_back(g.view(piece));
  }
  ctx.setOutList(0, std::move(grads));
  return Status::ok();
}

/// triu/tril and their grads: operand `src` with the elements outside the
/// triangle (j - i >= diagonal for the upper, <= for the lower) zeroed.
template <bool kUpper>
Status triangle(KernelContext& ctx, size_t src) {
  if (Status s = requireOperands(ctx, {src}); !s) return s;
  const Tensor& x = ctx.in(src);
  if (Status s = requireRunnable(ctx, x); !s) return s;
  if (x.rank() < 2) return kernelError(ctx, "x " + shapeText(x.shape()) + " has fewer than 2 dims");
  int64_t diag = core::getInt64(ctx.op, "diagonal").value_or(0);
  int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
  Tensor out = Tensor::allocate(x.dtype(), x.shape());
  visitDtype(x.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* a = x.data<T>();
    T* o = out.data<T>();
    for (int64_t k = 0; k < x.numel(); ++k) {
      int64_t j = k % cols, i = (k / cols) % rows;
      bool keep = kUpper ? j - i >= diag : j - i <= diag;
      o[k] = keep ? a[k] : T{};
    }
  });
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status triu(KernelContext& ctx) { return triangle<true>(ctx, 0); }
Status tril(KernelContext& ctx) { return triangle<false>(ctx, 0); }

}  // namespace
}  // namespace kernels

void registerShapeOpsKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.expand", expand, kAllDtypes);
  r.add("pd_op.expand_grad", expandGrad, kNumbers);
  r.add("pd_op.flatten", flatten, kAllDtypes);
  r.add("pd_op.flatten_grad", viewGrad, kAllDtypes);
  r.add("pd_op.squeeze", squeeze, kAllDtypes);
  r.add("pd_op.reshape_grad", viewGrad, kAllDtypes);
  r.add("pd_op.squeeze_grad", viewGrad, kAllDtypes);
  r.add("pd_op.stack", stack, kAllDtypes);
  r.add("pd_op.stack_grad", stackGrad, kAllDtypes);
  r.add("pd_op.tile", tile, kAllDtypes);
  r.add("pd_op.tile_grad", tileGrad, kNumbers);
  r.add("pd_op.tril", tril, kAllDtypes);
  r.add("pd_op.tril_grad", tril, kAllDtypes);  // (out_grad){diagonal}: the same mask
  r.add("pd_op.triu", triu, kAllDtypes);
  r.add("pd_op.triu_grad", triu, kAllDtypes);
  r.add("pd_op.unsqueeze", unsqueeze, kAllDtypes);
  r.add("pd_op.unsqueeze_grad", viewGrad, kAllDtypes);
}

}  // namespace pir::runtime
