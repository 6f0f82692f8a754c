//===- math_util.cpp - shared pieces of the math kernels ------------------===//
#include "runtime/kernels/math_util.h"

#include <algorithm>

namespace pir::runtime::kernels {

core::Status kernelError(const KernelContext& ctx, const std::string& message) {
  return core::Status::error(message, ctx.op.location());
}

std::string shapeText(std::span<const int64_t> shape) {
  if (shape.empty()) return "[]";
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "x" : "") + std::to_string(shape[i]);
  return s + "]";
}

bool wantsResult(const KernelContext& ctx, size_t i) {
  if (i >= ctx.results.size()) return false;
  if (i >= ctx.op.numResults()) return true;
  const core::Type* t = ctx.op.result(static_cast<uint32_t>(i))->type();
  return t && !t->isa<core::NullType>();
}

core::Status requireOperands(const KernelContext& ctx, std::initializer_list<size_t> indices) {
  DataType dtype = DataType::Undefined;
  for (size_t i : indices) {
    if (!ctx.has(i) || !ctx.in(i).defined()) return kernelError(ctx, "operand " + std::to_string(i) + " is missing");
    if (dtype == DataType::Undefined) dtype = ctx.in(i).dtype();
    if (ctx.in(i).dtype() != dtype)
      return kernelError(ctx, "operands have different dtypes (" + std::string(core::dataTypeName(dtype)) + ", " +
                                  std::string(core::dataTypeName(ctx.in(i).dtype())) + ")");
  }
  return core::Status::ok();
}

std::optional<Shape> broadcastShapes(std::span<const int64_t> a, std::span<const int64_t> b) {
  size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

core::Status broadcastOf(const KernelContext& ctx, const Tensor& x, const Tensor& y, Shape& shape) {
  auto s = broadcastShapes(x.shape(), y.shape());
  if (!s)
    return kernelError(ctx, "shapes " + shapeText(x.shape()) + " and " + shapeText(y.shape()) + " do not broadcast");
  shape = std::move(*s);
  return core::Status::ok();
}

Shape broadcastStrides(std::span<const int64_t> in, std::span<const int64_t> out) {
  Shape strides(out.size(), 0);
  int64_t s = 1;
  size_t lead = out.size() - in.size();
  for (size_t i = in.size(); i-- > 0;) {
    strides[lead + i] = in[i] == 1 && out[lead + i] != 1 ? 0 : s;
    s *= in[i];
  }
  return strides;
}

namespace {

/// Element i of g as sumToShape adds it: its value, or its square as
/// pd_op.square makes it (computed in ComputeT, rounded to T).
template <Summand kSummand, class T>
auto summand(const T* g, int64_t i) {
  if constexpr (kSummand == Summand::Square) {
    auto v = load(g[i]);
    return load(store<T>(v * v));
  } else {
    return load(g[i]);
  }
}

/// The sum of n contiguous summands in Acc, in eight running sums added
/// pairwise at the end: one chain of dependent adds ran at one add per add
/// latency, these run as vectors. A fixed order, so runs agree bitwise.
template <Summand kSummand, class Acc, class T>
inline Acc rowSum(const T* g, int64_t n) {
  Acc s[8] = {};
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    for (int k = 0; k < 8; ++k) s[k] += Acc(summand<kSummand>(g, j + k));
  Acc tail = 0;
  for (; j < n; ++j) tail += Acc(summand<kSummand>(g, j));
  return ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7])) + tail;
}

/// rowSum built for AVX-512 and AVX2 too (the same operations in the same
/// order, so the same bits), for rows long enough to pay for the call
/// through the loader's choice; a short row sums inline.
template <Summand kSummand, class Acc, class T>
PIR_SIMD_CLONES Acc longRowSum(const T* g, int64_t n) {
  return rowSum<kSummand, Acc>(g, n);
}
constexpr int64_t kLongRow = 256;

template <Summand kSummand, class T>
void sumInto(const Tensor& grad, std::span<const int64_t> shape, Tensor& out) {
  using C = ComputeT<T>;
  // Floats accumulate in f64: a shard's sum and the whole's then agree far
  // inside --check's tolerance whatever the summation order.
  using Acc = std::conditional_t<std::is_integral_v<C>, C, double>;
  std::vector<Acc> acc(size_t(out.numel()), Acc(0));
  Shape gs(grad.shape().begin(), grad.shape().end());
  Shape contiguous = broadcastStrides(gs, gs);
  Shape target = broadcastStrides(shape, gs);
  const T* g = grad.data<T>();
  size_t last = gs.empty() ? 0 : gs.size() - 1;
  int64_t tl = gs.empty() ? 0 : target[last];
  forEachRow(gs, contiguous, target, [&](int64_t offG, int64_t offT, int64_t, int64_t n) {
    if (tl == 0) {
      acc[size_t(offT)] += n >= kLongRow ? longRowSum<kSummand, Acc>(g + offG, n) : rowSum<kSummand, Acc>(g + offG, n);
    } else {
      for (int64_t j = 0; j < n; ++j) acc[size_t(offT + j)] += summand<kSummand>(g + offG, j);
    }
  });
  T* o = out.data<T>();
  for (size_t i = 0; i < acc.size(); ++i) o[i] = store<T>(acc[i]);
}

}  // namespace

Tensor sumToShape(const Tensor& grad, std::span<const int64_t> shape, Summand summand) {
  const bool same = std::equal(grad.shape().begin(), grad.shape().end(), shape.begin(), shape.end());
  if (same && summand == Summand::Value) return grad.clone();
  if (shape.size() > grad.rank()) {  // leading unit dims the gradient lacks
    Shape wide(shape.size() - grad.rank(), 1);
    wide.insert(wide.end(), grad.shape().begin(), grad.shape().end());
    return sumToShape(grad.view(wide), shape, summand);
  }
  Tensor out = Tensor::allocate(grad.dtype(), shape);
  visitDtype(grad.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (!std::is_same_v<T, bool>) {
      if (summand == Summand::Square)
        sumInto<Summand::Square, T>(grad, shape, out);  // with `same`, each element squared
      else
        sumInto<Summand::Value, T>(grad, shape, out);
    }
  });
  return out;
}

std::optional<int64_t> normalizeAxis(int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (r == 0) return axis == 0 || axis == -1 ? std::optional<int64_t>(0) : std::nullopt;
  if (axis < -r || axis >= r) return std::nullopt;
  return axis < 0 ? axis + r : axis;
}

void castInto(const Tensor& src, Tensor& dst) {
  visitDtype(src.dtype(), [&](auto* fromTag) {
    using From = std::remove_pointer_t<decltype(fromTag)>;
    visitDtype(dst.dtype(), [&](auto* toTag) {
      using To = std::remove_pointer_t<decltype(toTag)>;
      const From* a = src.data<From>();
      To* o = dst.data<To>();
      for (int64_t i = 0; i < src.numel(); ++i) o[i] = store<To>(load(a[i]));
    });
  });
}

Tensor castTensor(const Tensor& src, DataType dtype) {
  if (src.dtype() == dtype) return src;
  Tensor out = Tensor::allocate(dtype, src.shape());
  castInto(src, out);
  return out;
}

Tensor reuseOrAllocate(const KernelContext& ctx, size_t i, DataType dtype, std::span<const int64_t> shape) {
  if (ctx.reusable(i) && ctx.in(i).dtype() == dtype && ctx.in(i).numel() == numElements(shape))
    return ctx.in(i).view(shape);
  return Tensor::allocate(dtype, shape);
}

double valueAt(const Tensor& t, int64_t i) {
  return visitDtype(t.dtype(), [&](auto* tag) -> double {
    using T = std::remove_pointer_t<decltype(tag)>;
    return static_cast<double>(load(t.data<T>()[i]));
  });
}

std::optional<std::vector<int64_t>> intArrayArg(const KernelContext& ctx, size_t operandIndex, std::string_view attr) {
  if (ctx.has(operandIndex) && ctx.in(operandIndex).defined()) {
    const Tensor& t = ctx.in(operandIndex);
    std::vector<int64_t> v(size_t(t.numel()));
    if (t.dtype() == DataType::I64)
      std::copy_n(t.data<int64_t>(), v.size(), v.begin());
    else if (t.dtype() == DataType::I32)
      std::copy_n(t.data<int32_t>(), v.size(), v.begin());
    else
      return std::nullopt;
    return v;
  }
  if (auto v = core::getIntArray(ctx.op, attr)) return v;
  if (auto v = core::getInt64Array(ctx.op, attr)) return v;
  if (auto v = core::getInt64(ctx.op, attr)) return std::vector<int64_t>{*v};
  return std::nullopt;
}

double scalarArg(const KernelContext& ctx, size_t operandIndex, std::string_view attr, double fallback) {
  if (ctx.has(operandIndex) && ctx.in(operandIndex).defined() && ctx.in(operandIndex).numel() >= 1)
    return valueAt(ctx.in(operandIndex), 0);
  return core::getDouble(ctx.op, attr).value_or(fallback);
}

}  // namespace pir::runtime::kernels
