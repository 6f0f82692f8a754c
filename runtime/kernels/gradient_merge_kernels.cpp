//===- gradient_merge_kernels.cpp - full_, set_value_with_tensor_ ---------===//
//
// The in-place ops gradient-merge adds besides add_ and scale_ (whose
// kernels are the binary and unary ones):
//   full_(output) {shape, value, dtype}: output's buffer filled with value;
//   set_value_with_tensor_(x, values, starts, ends, steps) {axes,
//     decrease_axes, none_axes}: the box starts:ends:steps on `axes` of x
//     (the whole tensor when axes is empty) set to values, broadcast
//     numpy-style to the box's shape without the decreased axes (Paddle's
//     SetTensorValueKernel; a one-element values fills any box). Bounds are
//     normalised as Paddle's CheckAndUpdateSliceAttrs: negatives wrap, then
//     clamp; a zero step is an error. none_axes is not supported.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstring>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace {

using core::Status;
using kernels::kernelError;
using kernels::shapeText;

/// The result of an in-place op: the preset operand, or a copy of it when
/// the op runs out of place.
Tensor& inPlaceResult(KernelContext& ctx) {
  if (!ctx.out(0).defined()) ctx.setOut(0, ctx.in(0).clone());
  return ctx.out(0);
}

Status fillInPlace(KernelContext& ctx) {
  if (Status s = kernels::requireOperands(ctx, {0}); !s) return s;
  Tensor& out = inPlaceResult(ctx);
  if (auto dtype = core::getDataType(ctx.op, "dtype"); dtype && *dtype != out.dtype())
    return kernelError(ctx, "dtype " + std::string(core::dataTypeName(*dtype)) + " differs from the output's " +
                                out.typeText() + " (in place, it cannot change)");
  if (auto shape = core::getIntArray(ctx.op, "shape"); shape && !shape->empty()) {
    int64_t n = 1;
    for (int64_t d : *shape) n *= d;
    if (n != out.numel())
      return kernelError(ctx, "shape " + dimsText(*shape) + " differs from the output's " + out.typeText() +
                                  " (in place, it cannot change)");
  }
  auto value = core::getDouble(ctx.op, "value");
  if (!value) return kernelError(ctx, "no value");
  fillWith(out, *value);
  return Status::ok();
}

/// The box set_value_with_tensor_ writes, per dim of x.
struct Box {
  std::vector<int64_t> begin, count, step;
};

core::Result<std::vector<int64_t>> boundsOperand(const KernelContext& ctx, size_t i, std::string_view what) {
  if (!ctx.has(i)) return std::vector<int64_t>{};
  auto v = intValues(ctx.in(i), what);
  if (!v) return kernelError(ctx, v.status().message());
  return v;
}

core::Result<Box> boxOf(const KernelContext& ctx, std::span<const int64_t> dims) {
  Box box{std::vector<int64_t>(dims.size(), 0), std::vector<int64_t>(dims.begin(), dims.end()),
          std::vector<int64_t>(dims.size(), 1)};
  std::vector<int64_t> axes = core::getInt64Array(ctx.op, "axes").value_or(std::vector<int64_t>{});
  auto starts = boundsOperand(ctx, 2, "starts");
  auto ends = boundsOperand(ctx, 3, "ends");
  auto steps = boundsOperand(ctx, 4, "steps");
  if (!starts) return starts.takeStatus();
  if (!ends) return ends.takeStatus();
  if (!steps) return steps.takeStatus();
  if (starts->size() != axes.size() || ends->size() != axes.size() || (!steps->empty() && steps->size() != axes.size()))
    return kernelError(ctx, "starts, ends and steps need one value per axis (" + std::to_string(axes.size()) + ")");
  for (size_t i = 0; i < axes.size(); ++i) {
    auto a = wrapAxis(axes[i], dims.size());
    if (!a || dims.empty()) return kernelError(ctx, "axis " + std::to_string(axes[i]) + " is out of range");
    int64_t d = dims[size_t(*a)], s = (*starts)[i], e = (*ends)[i], st = steps->empty() ? 1 : (*steps)[i];
    if (st == 0) return kernelError(ctx, "step 0 on axis " + std::to_string(*a));
    if (s < 0) s += d;
    if (e < 0) e += d;
    if (st > 0) {
      s = std::clamp<int64_t>(s, 0, d);
      e = std::clamp<int64_t>(e, 0, d);
    } else {
      s = std::clamp<int64_t>(s, -1, d - 1);
      e = std::clamp<int64_t>(e, -1, d - 1);
    }
    int64_t n = st > 0 ? (e > s ? (e - s + st - 1) / st : 0) : (s > e ? (s - e - st - 1) / -st : 0);
    box.begin[size_t(*a)] = s;
    box.count[size_t(*a)] = n;
    box.step[size_t(*a)] = st;
  }
  return box;
}

/// Element strides of `values` read as broadcast over the box's dims
/// (decreased axes dropped): 0 where values has no such dim or a 1.
core::Result<std::vector<int64_t>> valueStrides(const KernelContext& ctx, const Tensor& values, const Box& box) {
  std::vector<int64_t> decrease = core::getInt64Array(ctx.op, "decrease_axes").value_or(std::vector<int64_t>{});
  std::vector<size_t> kept;  // the box dims the value shape has
  for (size_t d = 0; d < box.count.size(); ++d) {
    bool dropped = std::find(decrease.begin(), decrease.end(), int64_t(d)) != decrease.end();
    if (dropped && box.count[d] != 1)
      return kernelError(
          ctx, "decreased axis " + std::to_string(d) + " has " + std::to_string(box.count[d]) + " elements, not 1");
    if (!dropped) kept.push_back(d);
  }
  std::vector<int64_t> strides(box.count.size(), 0);
  if (values.numel() == 1) return strides;
  std::span<const int64_t> vs = values.shape();
  if (vs.size() > kept.size() && vs.size() == box.count.size()) {  // values keeps the decreased axes as 1s
    kept.clear();
    for (size_t d = 0; d < box.count.size(); ++d) kept.push_back(d);
  }
  if (vs.size() > kept.size())
    return kernelError(ctx, "values " + shapeText(vs) + " has more dims than the box " + shapeText(box.count));
  int64_t stride = 1;
  for (size_t i = vs.size(); i-- > 0;) {
    size_t d = kept[kept.size() - vs.size() + i];
    if (vs[i] != 1 && vs[i] != box.count[d])
      return kernelError(ctx, "values " + shapeText(vs) + " does not broadcast to the box " + shapeText(box.count));
    strides[d] = vs[i] == 1 ? 0 : stride;
    stride *= vs[i];
  }
  return strides;
}

Status setValueWithTensor(KernelContext& ctx) {
  if (Status s = kernels::requireOperands(ctx, {0, 1}); !s) return s;
  if (auto none = core::getInt64Array(ctx.op, "none_axes"); none && !none->empty())
    return kernelError(ctx, "none_axes is not supported");
  const Tensor& values = ctx.in(1);
  Tensor& out = inPlaceResult(ctx);
  if (values.dtype() != out.dtype())
    return kernelError(ctx, "values " + values.typeText() + " and x " + out.typeText() + " differ in dtype");
  auto box = boxOf(ctx, out.shape());
  if (!box) return box.takeStatus();
  auto vstrides = valueStrides(ctx, values, *box);
  if (!vstrides) return vstrides.takeStatus();
  size_t rank = box->count.size(), elem = elementSize(out.dtype());
  std::vector<int64_t> xstrides(rank, 1);
  for (size_t d = rank; d-- > 1;) xstrides[d - 1] = xstrides[d] * out.dim(d);
  int64_t total = 1;
  for (int64_t c : box->count) total *= c;
  // A copy first: values may be x's own buffer.
  Tensor src = values.sharesStorageWith(out) ? values.clone() : values;
  const char* from = static_cast<const char*>(src.raw());
  char* to = static_cast<char*>(out.raw());
  std::vector<int64_t> idx(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t xi = 0, vi = 0;
    for (size_t d = 0; d < rank; ++d) {
      xi += (box->begin[d] + idx[d] * box->step[d]) * xstrides[d];
      vi += idx[d] * (*vstrides)[d];
    }
    std::memcpy(to + size_t(xi) * elem, from + size_t(vi) * elem, elem);
    for (size_t d = rank; d-- > 0;) {
      if (++idx[d] < box->count[d]) break;
      idx[d] = 0;
    }
  }
  return Status::ok();
}

}  // namespace

void registerMergeKernels(KernelRegistry& r) {
  r.add("pd_op.full_", fillInPlace, kAllDtypes);
  r.add("pd_op.set_value_with_tensor_", setValueWithTensor, kAllDtypes);
}

}  // namespace pir::runtime
