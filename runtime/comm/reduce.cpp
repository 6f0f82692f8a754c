//===- reduce.cpp - the one elementwise reduction every communicator uses -===//
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "runtime/comm/communicator.h"

namespace pir::runtime {
namespace {

template <class Acc>
Acc combine(Acc a, Acc b, ReduceOp op) {
  switch (op) {
    case ReduceOp::Max:
      return std::max(a, b);
    case ReduceOp::Min:
      return std::min(a, b);
    case ReduceOp::Prod:
      if constexpr (std::is_same_v<Acc, bool>)
        return a && b;
      else
        return a * b;
    default:  // Sum, Avg
      if constexpr (std::is_same_v<Acc, bool>)
        return a || b;
      else
        return a + b;
  }
}

/// dst[i] = dst[i] op src[i], one tight loop per op: folding part by part
/// keeps the order (((p0 op p1) op p2) ...) of every element. `Len` is
/// int64_t, or a constant for a whole block: GCC's -O2 vectorises a loop
/// only when its trip count is a known multiple of the vector width.
template <class T, class Len>
void foldInto(T* __restrict dst, const T* __restrict src, Len n, ReduceOp op) {
  switch (op) {
    case ReduceOp::Max:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceOp::Max);
      break;
    case ReduceOp::Min:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceOp::Min);
      break;
    case ReduceOp::Prod:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceOp::Prod);
      break;
    default:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceOp::Sum);
      break;
  }
}

// Elements per block: the block of the running result stays in L1 while
// each part's block streams past it.
constexpr int64_t kBlock = 1024;
using WholeBlock = std::integral_constant<int64_t, kBlock>;

/// One block of `len` elements at `at` into `acc`, then stored to dst + at.
template <class T, class Len>
void reduceBlock(std::span<const Tensor* const> parts, T* acc, T* dst, ReduceOp op, int64_t begin, int64_t at,
                 Len len) {
  std::memcpy(acc, parts[0]->data<T>() + begin + at, size_t(len) * sizeof(T));
  for (size_t k = 1; k < parts.size(); ++k) foldInto(acc, parts[k]->data<T>() + begin + at, len, op);
  if constexpr (!std::is_same_v<T, bool>)
    if (op == ReduceOp::Avg)
      for (int64_t i = 0; i < int64_t(len); ++i) acc[i] = acc[i] / T(parts.size());
  std::memcpy(dst + at, acc, size_t(len) * sizeof(T));
}

/// Block by block into a buffer on the stack, then stored: every part's
/// block is read before `dst`'s is written, so `dst` may be one of the parts
/// at the same offset (an in-place all_reduce_).
template <class T>
void reduceTyped(std::span<const Tensor* const> parts, T* dst, ReduceOp op, int64_t begin, int64_t count) {
  alignas(64) T acc[kBlock];
  int64_t at = 0;
  for (; at + kBlock <= count; at += kBlock) reduceBlock(parts, acc, dst, op, begin, at, WholeBlock{});
  if (at < count) reduceBlock(parts, acc, dst, op, begin, at, count - at);
}

/// bf16 is combined in f32 and rounded once at the end (element by element:
/// each element's parts are read before it is written).
void reduceBf16(std::span<const Tensor* const> parts, BFloat16* dst, ReduceOp op, int64_t begin, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    float a = parts[0]->data<BFloat16>()[begin + i].toFloat();
    for (size_t k = 1; k < parts.size(); ++k) a = combine(a, parts[k]->data<BFloat16>()[begin + i].toFloat(), op);
    if (op == ReduceOp::Avg) a /= float(parts.size());
    dst[i] = BFloat16::fromFloat(a);
  }
}

}  // namespace

void reduceInto(std::span<const Tensor* const> parts, Tensor& out, ReduceOp op, int64_t begin, int64_t count,
                int64_t outBegin) {
  if (count < 0) count = out.numel();
  switch (out.dtype()) {
    case DataType::F32:
      return reduceTyped<float>(parts, out.data<float>() + outBegin, op, begin, count);
    case DataType::F64:
      return reduceTyped<double>(parts, out.data<double>() + outBegin, op, begin, count);
    case DataType::I32:
      return reduceTyped<int32_t>(parts, out.data<int32_t>() + outBegin, op, begin, count);
    case DataType::I64:
      return reduceTyped<int64_t>(parts, out.data<int64_t>() + outBegin, op, begin, count);
    case DataType::BF16:
      return reduceBf16(parts, out.data<BFloat16>() + outBegin, op, begin, count);
    case DataType::Bool: {
      // SUM, AVG and MAX are "any", PROD and MIN "all".
      ReduceOp logical = (op == ReduceOp::Prod || op == ReduceOp::Min) ? ReduceOp::Min : ReduceOp::Max;
      return reduceTyped<bool>(parts, out.data<bool>() + outBegin, logical, begin, count);
    }
    default:
      return;
  }
}

}  // namespace pir::runtime
