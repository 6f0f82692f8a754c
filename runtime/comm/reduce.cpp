//===- reduce.cpp - the one elementwise reduction every communicator uses -===//
#include <algorithm>
#include <algorithm>
#include <type_traits>

#include "runtime/comm/communicator.h"

namespace pir::runtime {
namespace {

template <class T, class Acc>
void reduceTyped(std::span<const Tensor* const> parts, Tensor& out, ReduceOp op, int64_t begin, int64_t count) {
  T* dst = out.data<T>();
  auto load = [&](size_t k, int64_t i) -> Acc {
    const T* p = parts[k]->data<T>() + begin;
    if constexpr (std::is_same_v<T, BFloat16>)
      return p[i].toFloat();
    else
      return Acc(p[i]);
  };
  auto store = [&](int64_t i, Acc v) {
    if constexpr (std::is_same_v<T, BFloat16>)
      dst[i] = BFloat16::fromFloat(v);
    else
      dst[i] = T(v);
  };
  size_t n = parts.size();
  for (int64_t i = 0; i < count; ++i) {
    Acc a = load(0, i);
    for (size_t k = 1; k < n; ++k) {
      Acc b = load(k, i);
      switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Avg:
          a = a + b;
          break;
        case ReduceOp::Max:
          a = std::max(a, b);
          break;
        case ReduceOp::Min:
          a = std::min(a, b);
          break;
        case ReduceOp::Prod:
          if constexpr (std::is_same_v<Acc, bool>)
            a = a && b;
          else
            a = a * b;
          break;
      }
    }
    if (op == ReduceOp::Avg) a = a / Acc(n);
    store(i, a);
  }
}

}  // namespace

void reduceInto(std::span<const Tensor* const> parts, Tensor& out, ReduceOp op, int64_t begin, int64_t count) {
  if (count < 0) count = out.numel();
  switch (out.dtype()) {
    case DataType::F32:
      return reduceTyped<float, float>(parts, out, op, begin, count);
    case DataType::F64:
      return reduceTyped<double, double>(parts, out, op, begin, count);
    case DataType::I32:
      return reduceTyped<int32_t, int32_t>(parts, out, op, begin, count);
    case DataType::I64:
      return reduceTyped<int64_t, int64_t>(parts, out, op, begin, count);
    case DataType::BF16:
      return reduceTyped<BFloat16, float>(parts, out, op, begin, count);
    case DataType::Bool: {
      // SUM and MAX are "any", PROD and MIN "all"; AVG is "any" too.
      ReduceOp logical = (op == ReduceOp::Prod || op == ReduceOp::Min) ? ReduceOp::Min : ReduceOp::Max;
      return reduceTyped<bool, bool>(parts, out, logical, begin, count);
    }
    default:
      return;
  }
}

}  // namespace pir::runtime
