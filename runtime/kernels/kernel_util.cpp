//===- kernel_util.cpp - what the data-movement kernels share -------------===//
#include "runtime/kernels/kernel_util.h"

#include <algorithm>
#include <type_traits>

#include "core/types.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {

using core::Result;
using core::Status;

Result<std::vector<int64_t>> intValues(const Tensor& t, std::string_view what) {
  std::vector<int64_t> v(size_t(t.numel()));
  switch (t.dtype()) {
    case DataType::I64:
      std::copy(t.data<int64_t>(), t.data<int64_t>() + t.numel(), v.begin());
      break;
    case DataType::I32:
      std::copy(t.data<int32_t>(), t.data<int32_t>() + t.numel(), v.begin());
      break;
    default:
      return Status::error(std::string(what) + " must be an int32 or int64 tensor, not " + t.typeText());
  }
  return v;
}

Result<double> scalarValue(const Tensor& t, std::string_view what) {
  if (t.numel() != 1) return Status::error(std::string(what) + " must hold one value, not " + t.typeText());
  return visitDtype(t.dtype(), [&](auto* tag) -> double {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<T, BFloat16>)
      return t.data<BFloat16>()[0].toFloat();
    else
      return double(t.data<T>()[0]);
  });
}

Result<int64_t> wrapAxis(int64_t axis, size_t rank) {
  int64_t r = int64_t(std::max<size_t>(rank, 1));
  if (axis < -r || axis >= r)
    return Status::error("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

std::optional<std::vector<int64_t>> staticResultDims(const core::Operation& op, uint32_t i) {
  if (i >= op.numResults()) return std::nullopt;
  auto shape = core::tensorShape(op.result(i)->type());
  if (!shape) return std::nullopt;
  for (int64_t d : shape->dims)
    if (d < 0) return std::nullopt;
  return std::vector<int64_t>(shape->dims.begin(), shape->dims.end());
}

namespace {

void copyBoxAt(const char* src, std::span<const int64_t> srcStrides, char* dst, std::span<const int64_t> dstStrides,
               std::span<const int64_t> extent, size_t d, size_t innerBytes) {
  if (d + 1 == extent.size() || extent.empty()) {
    if (extent.empty()) {
      std::memcpy(dst, src, innerBytes);
      return;
    }
    std::memcpy(dst, src, size_t(extent[d]) * innerBytes);
    return;
  }
  for (int64_t i = 0; i < extent[d]; ++i)
    copyBoxAt(src + i * srcStrides[d], srcStrides, dst + i * dstStrides[d], dstStrides, extent, d + 1, innerBytes);
}

std::vector<int64_t> byteStrides(std::span<const int64_t> shape, size_t elem) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = int64_t(elem);
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = acc;
    acc *= shape[i];
  }
  return s;
}

}  // namespace

void copyBox(const Tensor& src, std::span<const int64_t> srcAt, Tensor& dst, std::span<const int64_t> dstAt,
             std::span<const int64_t> extent) {
  for (int64_t e : extent)
    if (e == 0) return;
  size_t elem = elementSize(src.dtype());
  auto ss = byteStrides(src.shape(), elem), ds = byteStrides(dst.shape(), elem);
  const char* s = static_cast<const char*>(src.raw());
  char* d = static_cast<char*>(dst.raw());
  for (size_t i = 0; i < extent.size(); ++i) {
    s += srcAt[i] * ss[i];
    d += dstAt[i] * ds[i];
  }
  // Trailing dims copied whole merge into one memcpy.
  size_t k = extent.size();
  size_t inner = elem;
  while (k > 1 && extent[k - 1] == src.dim(k - 1) && extent[k - 1] == dst.dim(k - 1)) {
    inner *= size_t(extent[k - 1]);
    --k;
  }
  copyBoxAt(s, ss, d, ds, extent.subspan(0, k), 0, inner);
}

void fillWith(Tensor& t, double v) {
  visitDtype(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T x;
    if constexpr (std::is_same_v<T, BFloat16>)
      x = BFloat16::fromFloat(float(v));
    else if constexpr (std::is_same_v<T, bool>)
      x = v != 0;
    else
      x = kernels::store<T>(v);  // an int from NaN or inf: numpy's, not undefined behaviour
    std::fill(t.data<T>(), t.data<T>() + t.numel(), x);
    return 0;
  });
}

std::string dimsText(std::span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

}  // namespace pir::runtime
