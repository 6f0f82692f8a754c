//===- reduce.cpp - the one elementwise reduction every communicator uses -===//
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "runtime/comm/communicator.h"

namespace pir::runtime {
namespace {

template <class Acc>
Acc combine(Acc a, Acc b, ReduceType op) {
  switch (op) {
    case ReduceType::Max:
    case ReduceType::Any:
      return std::max(a, b);
    case ReduceType::Min:
    case ReduceType::All:
      return std::min(a, b);
    case ReduceType::Product:
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
void foldInto(T* __restrict dst, const T* __restrict src, Len n, ReduceType op) {
  switch (op) {
    case ReduceType::Max:
    case ReduceType::Any:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceType::Max);
      break;
    case ReduceType::Min:
    case ReduceType::All:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceType::Min);
      break;
    case ReduceType::Product:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceType::Product);
      break;
    default:
      for (int64_t i = 0; i < int64_t(n); ++i) dst[i] = combine(dst[i], src[i], ReduceType::Sum);
      break;
  }
}

// Elements per block: the block of the running result stays in L1 while
// each part's block streams past it.
constexpr int64_t kBlock = 1024;
using WholeBlock = std::integral_constant<int64_t, kBlock>;

/// One block of `len` elements at `at` into `acc`, then stored to every
/// dst + at.
template <class T, class Len>
void reduceBlock(std::span<const T* const> parts, T* acc, std::span<T* const> dsts, ReduceType op, int64_t at,
                 Len len) {
  std::memcpy(acc, parts[0] + at, size_t(len) * sizeof(T));
  for (size_t k = 1; k < parts.size(); ++k) foldInto(acc, parts[k] + at, len, op);
  if constexpr (!std::is_same_v<T, bool>)
    if (op == ReduceType::Avg)
      for (int64_t i = 0; i < int64_t(len); ++i) acc[i] = acc[i] / T(parts.size());
  for (T* dst : dsts) std::memcpy(dst + at, acc, size_t(len) * sizeof(T));
}

/// Block by block into a buffer on the stack, then stored: every part's
/// block is read before any dst's is written, so a dst may be one of the
/// parts (an in-place all_reduce_).
template <class T>
void reduceTyped(std::span<const void* const> raw, std::span<void* const> outs, ReduceType op, int64_t count) {
  std::vector<const T*> parts(raw.size());
  for (size_t k = 0; k < raw.size(); ++k) parts[k] = static_cast<const T*>(raw[k]);
  std::vector<T*> dsts(outs.size());
  for (size_t k = 0; k < outs.size(); ++k) dsts[k] = static_cast<T*>(outs[k]);
  alignas(64) T acc[kBlock];
  int64_t at = 0;
  for (; at + kBlock <= count; at += kBlock) reduceBlock<T>(parts, acc, dsts, op, at, WholeBlock{});
  if (at < count) reduceBlock<T>(parts, acc, dsts, op, at, count - at);
}

/// bf16 is combined in f32 and rounded once at the end (element by element:
/// each element's parts are read before it is written).
void reduceBf16(std::span<const void* const> raw, std::span<void* const> outs, ReduceType op, int64_t count) {
  auto part = [&](size_t k) { return static_cast<const BFloat16*>(raw[k]); };
  for (int64_t i = 0; i < count; ++i) {
    float a = part(0)[i].toFloat();
    for (size_t k = 1; k < raw.size(); ++k) a = combine(a, part(k)[i].toFloat(), op);
    if (op == ReduceType::Avg) a /= float(raw.size());
    for (void* out : outs) static_cast<BFloat16*>(out)[i] = BFloat16::fromFloat(a);
  }
}

}  // namespace

void reduceElements(DataType dtype, std::span<const void* const> parts, std::span<void* const> outs, int64_t count,
                    ReduceType op) {
  switch (dtype) {
    case DataType::F32:
      return reduceTyped<float>(parts, outs, op, count);
    case DataType::F64:
      return reduceTyped<double>(parts, outs, op, count);
    case DataType::I32:
      return reduceTyped<int32_t>(parts, outs, op, count);
    case DataType::I64:
      return reduceTyped<int64_t>(parts, outs, op, count);
    case DataType::BF16:
      return reduceBf16(parts, outs, op, count);
    case DataType::U8:
      return reduceTyped<uint8_t>(parts, outs, op, count);
    case DataType::Bool: {
      // SUM, AVG and MAX are "any", PROD and MIN "all".
      ReduceType logical = (op == ReduceType::Product || op == ReduceType::Min) ? ReduceType::Min : ReduceType::Max;
      return reduceTyped<bool>(parts, outs, logical, count);
    }
    default:
      return;
  }
}

void reduceElements(DataType dtype, std::span<const void* const> parts, void* out, int64_t count, ReduceType op) {
  void* outs[] = {out};
  reduceElements(dtype, parts, std::span<void* const>(outs), count, op);
}

void reduceInto(std::span<const Tensor* const> parts, Tensor& out, ReduceType op, int64_t begin, int64_t count,
                int64_t outBegin) {
  if (count < 0) count = out.numel();
  size_t elem = elementSize(out.dtype());
  std::vector<const void*> at(parts.size());
  for (size_t k = 0; k < parts.size(); ++k) at[k] = static_cast<const char*>(parts[k]->raw()) + size_t(begin) * elem;
  reduceElements(out.dtype(), at, static_cast<char*>(out.raw()) + size_t(outBegin) * elem, count, op);
}

}  // namespace pir::runtime
