//===- shape.cpp - kernels that move data without computing ---------------===//
//
// slice, split, split_with_num, concat, transpose, reshape, the builtin
// vec ops and fetch (the identity: its operand, shared), and the grads of
// slice, concat, split (PIR's split_grad) and transpose, which move
// out_grad back. Index operands (starts, sections, axis, shape) are tensors a
// full_int_array or a full produced; numbers follow Paddle: negative starts,
// ends and axes wrap, slice bounds clamp, one -1 in sections or a shape is
// inferred, a 0 in a reshape's shape copies the input's dim.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <numeric>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace {

using core::Result;
using core::Status;

std::vector<int64_t> dimsOf(const Tensor& t) { return {t.shape().begin(), t.shape().end()}; }

/// The box slice(x, starts, ends){axes} reads: its corner and extent.
Status sliceBox(const KernelContext& ctx, std::span<const int64_t> xDims, size_t startsOperand,
                std::vector<int64_t>& at, std::vector<int64_t>& extent) {
  auto starts = intValues(ctx.in(startsOperand), "starts");
  auto ends = intValues(ctx.in(startsOperand + 1), "ends");
  auto axes = core::getInt64Array(ctx.op, "axes");
  if (!starts) return starts.takeStatus();
  if (!ends) return ends.takeStatus();
  if (!axes || axes->size() != starts->size() || axes->size() != ends->size())
    return Status::error("axes, starts and ends must have one entry per sliced axis");
  at.assign(xDims.size(), 0);
  extent.assign(xDims.begin(), xDims.end());
  for (size_t i = 0; i < axes->size(); ++i) {
    auto axis = wrapAxis((*axes)[i], xDims.size());
    if (!axis) return axis.takeStatus();
    int64_t d = xDims[size_t(*axis)], b = (*starts)[i], e = (*ends)[i];
    if (b < 0) b += d;
    if (e < 0) e += d;
    b = std::clamp<int64_t>(b, 0, d);
    e = std::clamp<int64_t>(e, 0, d);
    at[*axis] = b;
    extent[*axis] = std::max<int64_t>(e - b, 0);
  }
  return Status::ok();
}

Status slice(KernelContext& ctx) {
  const Tensor& x = ctx.in(0);
  std::vector<int64_t> at, extent;
  if (Status s = sliceBox(ctx, x.shape(), 1, at, extent); !s) return s;
  Tensor out = Tensor::allocate(x.dtype(), extent);
  std::vector<int64_t> zero(x.rank(), 0);
  copyBox(x, at, out, zero, extent);
  auto decrease = core::getInt64Array(ctx.op, "decrease_axis").value_or(std::vector<int64_t>{});
  if (!decrease.empty()) {
    std::vector<int64_t> kept;
    for (size_t d = 0; d < extent.size(); ++d)
      if (std::find(decrease.begin(), decrease.end(), int64_t(d)) == decrease.end() || extent[d] != 1)
        kept.push_back(extent[d]);
    out = out.view(kept);
  }
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

/// slice_grad (input, out_grad, starts, ends){axes, infer_flags,
/// decrease_axis}: zeros of input's shape with out_grad in the sliced box
/// (its decreased axes restored).
Status sliceGrad(KernelContext& ctx) {
  if (Status s = kernels::requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& input = ctx.in(0);
  const Tensor& d = ctx.in(1);
  std::vector<int64_t> at, extent;
  if (Status s = sliceBox(ctx, input.shape(), 2, at, extent); !s) return s;
  if (d.numel() != numElements(extent))
    return kernels::kernelError(
        ctx, "out_grad " + d.typeText() + " is not the slice " + dimsText(extent) + " of " + input.typeText());
  Tensor g = Tensor::zeros(input.dtype(), input.shape());
  std::vector<int64_t> zero(input.rank(), 0);
  copyBox(d.view(extent), zero, g, at, extent);
  ctx.setOut(0, std::move(g));
  return Status::ok();
}

/// x cut along `axis` into pieces of `sizes`.
Status splitInto(KernelContext& ctx, int64_t axis, std::vector<int64_t> sizes) {
  const Tensor& x = ctx.in(0);
  int64_t d = x.dim(size_t(axis)), known = 0, infer = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0) {
      if (infer >= 0) return Status::error("sections hold more than one -1");
      infer = int64_t(i);
    } else {
      known += sizes[i];
    }
  }
  if (infer >= 0) sizes[infer] = d - known;
  if (std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != d || (infer >= 0 && sizes[infer] < 0))
    return Status::error("sections " + dimsText(sizes) + " do not add up to dim " + std::to_string(axis) + " of " +
                         x.typeText());
  std::vector<Tensor> pieces;
  std::vector<int64_t> at(x.rank(), 0), zero(x.rank(), 0);
  for (int64_t s : sizes) {
    std::vector<int64_t> extent = dimsOf(x);
    extent[axis] = s;
    Tensor piece = Tensor::allocate(x.dtype(), extent);
    copyBox(x, at, piece, zero, extent);
    at[axis] += s;
    pieces.push_back(std::move(piece));
  }
  ctx.setOutList(0, std::move(pieces));
  return Status::ok();
}

Result<int64_t> axisOperand(const KernelContext& ctx, size_t i, size_t rank) {
  auto v = scalarValue(ctx.in(i), "axis");
  if (!v) return v.takeStatus();
  return wrapAxis(kernels::floatToInt<int64_t>(*v), rank);  // a NaN axis is out of range, not undefined
}

Status split(KernelContext& ctx) {
  auto sections = intValues(ctx.in(1), "sections");
  if (!sections) return sections.takeStatus();
  auto axis = axisOperand(ctx, 2, ctx.in(0).rank());
  if (!axis) return axis.takeStatus();
  return splitInto(ctx, *axis, *sections);
}

Status splitWithNum(KernelContext& ctx) {
  auto axis = axisOperand(ctx, 1, ctx.in(0).rank());
  if (!axis) return axis.takeStatus();
  int64_t num = core::getInt64(ctx.op, "num").value_or(0), d = ctx.in(0).dim(size_t(*axis));
  if (num <= 0 || d % num != 0)
    return Status::error("dim " + std::to_string(*axis) + " of " + ctx.in(0).typeText() + " does not split into " +
                         std::to_string(num) + " equal pieces");
  return splitInto(ctx, *axis, std::vector<int64_t>(size_t(num), d / num));
}

/// `xs` joined along the axis operand `axisIndex`.
Status concatInto(KernelContext& ctx, const std::vector<Tensor>& xs, size_t axisIndex, const char* what) {
  if (xs.empty()) return Status::error(std::string("nothing to ") + what);
  for (const Tensor& x : xs)
    if (!x.defined()) return kernels::kernelError(ctx, std::string("cannot ") + what + " a missing tensor");
  auto axis = axisOperand(ctx, axisIndex, xs[0].rank());
  if (!axis) return axis.takeStatus();
  std::vector<int64_t> shape = dimsOf(xs[0]);
  shape[*axis] = 0;
  for (const Tensor& x : xs) {
    bool same = x.rank() == shape.size() && x.dtype() == xs[0].dtype();
    for (size_t d = 0; same && d < shape.size(); ++d) same = d == size_t(*axis) || x.dim(d) == shape[d];
    if (!same) return Status::error(std::string("cannot ") + what + " " + xs[0].typeText() + " and " + x.typeText());
    shape[*axis] += x.dim(size_t(*axis));
  }
  Tensor out = Tensor::allocate(xs[0].dtype(), shape);
  std::vector<int64_t> at(shape.size(), 0), zero(shape.size(), 0);
  for (const Tensor& x : xs) {
    copyBox(x, zero, out, at, x.shape());
    at[*axis] += x.dim(size_t(*axis));
  }
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status concat(KernelContext& ctx) { return concatInto(ctx, ctx.inList(0), 1, "concatenate"); }

/// split_grad (out_grad: a vec, axis) -> x_grad: the pieces joined again
/// (Paddle's SplitGradOp, what PIR builds for split's backward).
Status splitGrad(KernelContext& ctx) {
  if (!ctx.has(0) || !ctx.has(1)) return kernels::kernelError(ctx, "out_grad or axis is missing");
  return concatInto(ctx, ctx.inList(0), 1, "join");
}

/// concat_grad (x: a vec, out_grad, axis) -> x_grad, a vec: out_grad cut
/// along axis into pieces of each x's shape.
Status concatGrad(KernelContext& ctx) {
  if (!ctx.has(0) || !ctx.has(1) || !ctx.has(2)) return kernels::kernelError(ctx, "x, out_grad or axis is missing");
  const std::vector<Tensor>& xs = ctx.inList(0);
  const Tensor& d = ctx.in(1);
  auto axis = axisOperand(ctx, 2, d.rank());
  if (!axis) return axis.takeStatus();
  int64_t total = 0;
  for (const Tensor& x : xs) {
    bool fits = x.defined() && x.rank() == d.rank();
    for (size_t k = 0; fits && k < d.rank(); ++k) fits = k == size_t(*axis) || x.dim(k) == d.dim(k);
    if (!fits)
      return kernels::kernelError(ctx, "out_grad " + d.typeText() + " does not join " +
                                           (x.defined() ? x.typeText() : std::string("a missing x")) + " along axis " +
                                           std::to_string(*axis));
    total += x.dim(size_t(*axis));
  }
  if (total != d.dim(size_t(*axis)))
    return kernels::kernelError(ctx, "out_grad " + d.typeText() + " is not the " + std::to_string(xs.size()) +
                                         " x joined along axis " + std::to_string(*axis));
  std::vector<Tensor> grads;
  std::vector<int64_t> at(d.rank(), 0), zero(d.rank(), 0);
  for (const Tensor& x : xs) {
    Tensor g = Tensor::allocate(d.dtype(), x.shape());
    copyBox(d, at, g, zero, x.shape());
    at[*axis] += x.dim(size_t(*axis));
    grads.push_back(std::move(g));
  }
  ctx.setOutList(0, std::move(grads));
  return Status::ok();
}

template <class T>
void transposeTyped(const Tensor& x, Tensor& out, const std::vector<int64_t>& perm) {
  size_t r = x.rank();
  std::vector<int64_t> xStride(r), idx(r, 0);
  for (size_t i = r, acc = 1; i-- > 0;) xStride[i] = int64_t(acc), acc *= size_t(x.dim(i));
  std::vector<int64_t> step(r);  // x stride of each out dim
  for (size_t i = 0; i < r; ++i) step[i] = xStride[perm[i]];
  const T* src = x.data<T>();
  T* dst = out.data<T>();
  int64_t n = out.numel(), off = 0;
  for (int64_t k = 0; k < n; ++k) {
    dst[k] = src[off];
    for (size_t d = r; d-- > 0;) {  // odometer over out's dims
      off += step[d];
      if (++idx[d] < out.dim(d)) break;
      off -= step[d] * out.dim(d);
      idx[d] = 0;
    }
  }
}

/// `perm` checked against `x` and wrapped; false when it is no permutation.
bool permutation(const Tensor& x, std::vector<int64_t>& perm) {
  if (perm.size() != x.rank()) return false;
  std::vector<bool> seen(x.rank(), false);
  for (int64_t& p : perm) {
    auto a = wrapAxis(p, x.rank());
    if (!a || seen[*a]) return false;
    seen[*a] = true;
    p = *a;
  }
  return true;
}

/// x with its dims permuted: dim i of the result is x's dim perm[i].
Tensor transposed(const Tensor& x, const std::vector<int64_t>& perm) {
  std::vector<int64_t> shape(x.rank());
  for (size_t i = 0; i < perm.size(); ++i) shape[i] = x.dim(size_t(perm[i]));
  Tensor out = Tensor::allocate(x.dtype(), shape);
  if (out.numel() > 0) {
    switch (elementSize(x.dtype())) {  // moves bytes: only the width matters
      case 1:
        transposeTyped<uint8_t>(x, out, perm);
        break;
      case 2:
        transposeTyped<uint16_t>(x, out, perm);
        break;
      case 4:
        transposeTyped<uint32_t>(x, out, perm);
        break;
      default:
        transposeTyped<uint64_t>(x, out, perm);
        break;
    }
  }
  return out;
}

Status transpose(KernelContext& ctx) {
  const Tensor& x = ctx.in(0);
  auto perm = core::getInt64Array(ctx.op, "perm");
  if (!perm || perm->size() != x.rank())
    return Status::error("perm must name each of x's " + std::to_string(x.rank()) + " dims");
  std::vector<int64_t> p = *perm;
  if (!permutation(x, p)) return Status::error("perm " + dimsText(*perm) + " is not a permutation");
  ctx.setOut(0, transposed(x, p));
  return Status::ok();
}

/// transpose_grad (out_grad){perm}: out_grad transposed by perm's inverse.
Status transposeGrad(KernelContext& ctx) {
  if (Status s = kernels::requireOperands(ctx, {0}); !s) return s;
  const Tensor& d = ctx.in(0);
  auto perm = core::getInt64Array(ctx.op, "perm");
  if (!perm || perm->size() != d.rank())
    return kernels::kernelError(ctx, "perm must name each of out_grad's " + std::to_string(d.rank()) + " dims");
  std::vector<int64_t> p = *perm;
  if (!permutation(d, p)) return kernels::kernelError(ctx, "perm " + dimsText(*perm) + " is not a permutation");
  std::vector<int64_t> inverse(p.size());
  for (size_t i = 0; i < p.size(); ++i) inverse[size_t(p[i])] = int64_t(i);
  ctx.setOut(0, transposed(d, inverse));
  return Status::ok();
}

Status reshape(KernelContext& ctx) {
  const Tensor& x = ctx.in(0);
  Result<std::vector<int64_t>> want =
      ctx.has(1) ? intValues(ctx.in(1), "shape") : core::getIntArray(ctx.op, "shape").value_or(std::vector<int64_t>{});
  if (!want) return want.takeStatus();
  std::vector<int64_t> shape = *want;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && i < x.rank()) shape[i] = x.dim(i);
    if (shape[i] == -1) {
      if (infer >= 0) return Status::error("shape " + dimsText(*want) + " holds more than one -1");
      infer = int64_t(i);
    } else {
      known *= shape[i];
    }
  }
  if (infer >= 0 && known > 0 && x.numel() % known == 0) shape[infer] = x.numel() / known;
  if (numElements(shape) != x.numel() || (infer >= 0 && shape[infer] < 0))
    return Status::error("cannot reshape " + x.typeText() + " to " + dimsText(*want));
  ctx.setOut(0, x.view(shape));
  if (ctx.results.size() > 1) {  // xshape of dumps before PR #66089: [0] + x's dims, no data
    std::vector<int64_t> xshape{0};
    xshape.insert(xshape.end(), x.shape().begin(), x.shape().end());
    ctx.setOut(1, Tensor::allocate(x.dtype(), xshape));
  }
  return Status::ok();
}

Status combine(KernelContext& ctx) {
  std::vector<Tensor> elems;
  for (size_t i = 0; i < ctx.operands.size(); ++i) elems.push_back(ctx.has(i) ? ctx.in(i) : Tensor());
  ctx.setOutList(0, std::move(elems));
  return Status::ok();
}

Status builtinSplit(KernelContext& ctx) {
  const std::vector<Tensor>& elems = ctx.inList(0);
  if (elems.size() != ctx.results.size())
    return Status::error("a vec of " + std::to_string(elems.size()) + " split into " +
                         std::to_string(ctx.results.size()) + " values");
  for (size_t i = 0; i < elems.size(); ++i) ctx.setOut(i, elems[i]);
  return Status::ok();
}

Status builtinSlice(KernelContext& ctx) {
  const std::vector<Tensor>& elems = ctx.inList(0);
  int64_t index = core::getInt64(ctx.op, "index").value_or(-1);
  if (index < 0 || index >= int64_t(elems.size()))
    return Status::error("index " + std::to_string(index) + " is outside a vec of " + std::to_string(elems.size()));
  ctx.setOut(0, elems[size_t(index)]);
  return Status::ok();
}

Status fetch(KernelContext& ctx) {
  if (!ctx.has(0) || !ctx.in(0).defined()) return Status::error("operand 0 is missing");
  ctx.setOut(0, ctx.in(0));
  return Status::ok();
}

}  // namespace

void registerShapeKernels(KernelRegistry& r) {
  r.add("builtin.combine", combine, kAllDtypes);
  r.add("builtin.slice", builtinSlice, kAllDtypes);
  r.add("builtin.split", builtinSplit, kAllDtypes);
  r.add("pd_op.concat", concat, kAllDtypes);
  r.add("pd_op.concat_grad", concatGrad, kAllDtypes);
  r.add("pd_op.fetch", fetch, kAllDtypes);
  r.add("pd_op.reshape", reshape, kAllDtypes);
  r.add("pd_op.slice", slice, kAllDtypes);
  r.add("pd_op.slice_grad", sliceGrad, kAllDtypes);
  r.add("pd_op.split", split, kAllDtypes);
  r.add("pd_op.split_grad", splitGrad, kAllDtypes);
  r.add("pd_op.split_with_num", splitWithNum, kAllDtypes);
  r.add("pd_op.transpose", transpose, kAllDtypes);
  r.add("pd_op.transpose_grad", transposeGrad, kAllDtypes);
}

}  // namespace pir::runtime
