//===- math_util.h - shared pieces of the math kernels ----------*- C++ -*-===//
//
// Errors that name the op, dtype dispatch (bf16 stored as bf16, computed in
// f32), numpy broadcasting (right-aligned shapes, size-1 dims stretched) and
// the reverse of broadcasting that binary grads need (sum a gradient back to
// an operand's shape). Every kernel runs on one thread: ranks are the
// parallelism.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/attr_access.h"
#include "core/status.h"
#include "core/types.h"
#include "runtime/kernel.h"
#include "runtime/tensor.h"

/// On a hot elementwise loop: also built for AVX-512 and AVX2, the loader
/// picking the CPU's (GCC's target_clones; x86-64 builds without a
/// sanitizer). Every clone gives the same bits: IEEE operations in the same
/// order, no FMA (pir_runtime builds with -ffp-contract=off).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
#define PIR_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PIR_SIMD_CLONES
#endif

namespace pir::runtime::kernels {

using Shape = std::vector<int64_t>;

/// A user error located at the op (the executor puts the op's name before
/// every kernel's message).
core::Status kernelError(const KernelContext& ctx, const std::string& message);
/// `2x3xf32`-style text of a tensor's shape, for messages.
std::string shapeText(std::span<const int64_t> shape);

/// Whether result `i` is to be computed: false for a `<<NULL TYPE>>` result.
bool wantsResult(const KernelContext& ctx, size_t i);

/// The element type a storage type is computed in.
template <class T>
using ComputeT = std::conditional_t<std::is_same_v<T, BFloat16>, float, T>;

template <class T>
inline ComputeT<T> load(T v) {
  if constexpr (std::is_same_v<T, BFloat16>)
    return v.toFloat();
  else
    return v;
}
/// A float as the signed integer type T, as an x86 conversion (and so
/// numpy's astype there) gives it: truncated toward zero, and NaN, ±inf and
/// values outside T's range become T's minimum. A plain static_cast of those
/// is undefined behaviour.
template <class T, class C>
inline T floatToInt(C v) {
  static_assert(std::is_signed_v<T> && std::is_floating_point_v<C>);
  constexpr C lo = C(std::numeric_limits<T>::min());  // -2^(bits-1): exact in C
  if (!(v >= lo && v < -lo)) return std::numeric_limits<T>::min();
  return static_cast<T>(v);
}

template <class T, class C>
inline T store(C v) {
  if constexpr (std::is_same_v<T, BFloat16>)
    return BFloat16::fromFloat(static_cast<float>(v));
  else if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool> && std::is_floating_point_v<C>)
    return static_cast<T>(floatToInt<int64_t>(v));  // u8: through int64, wrapping as numpy's astype on x86
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && std::is_floating_point_v<C>)
    return floatToInt<T>(v);
  else
    return static_cast<T>(v);
}

/// numpy's maximum and minimum: NaN when either operand is NaN. std::max and
/// std::min return their first operand when a comparison with NaN is false,
/// so they drop a NaN second operand.
template <class C>
inline C nanMax(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  return a < b ? b : a;
}
template <class C>
inline C nanMin(C a, C b) {
  if (a != a) return a;
  if (b != b) return b;
  return b < a ? b : a;
}

/// Calls `f(T*)` for a float dtype (f32, f64, bf16); an error naming the
/// dtype for the others.
template <class F>
core::Status visitFloat(const KernelContext& ctx, DataType dtype, F&& f) {
  switch (dtype) {
    case DataType::F32:
      return f(static_cast<float*>(nullptr));
    case DataType::F64:
      return f(static_cast<double*>(nullptr));
    case DataType::BF16:
      return f(static_cast<BFloat16*>(nullptr));
    default:
      return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(dtype)));
  }
}
/// As visitFloat, also for i32 and i64 (the arithmetic that makes sense on
/// integers: add, subtract, multiply, divide, scale, sum).
template <class F>
core::Status visitNumber(const KernelContext& ctx, DataType dtype, F&& f) {
  if (dtype == DataType::I32) return f(static_cast<int32_t*>(nullptr));
  if (dtype == DataType::I64) return f(static_cast<int64_t*>(nullptr));
  return visitFloat(ctx, dtype, f);
}

/// Checks that the operands `indices` are present and all of one dtype.
core::Status requireOperands(const KernelContext& ctx, std::initializer_list<size_t> indices);

/// numpy's broadcast of two shapes, or nothing when a pair of dims is
/// neither equal nor 1.
std::optional<Shape> broadcastShapes(std::span<const int64_t> a, std::span<const int64_t> b);
/// broadcastShapes of x's and y's shapes into `shape`, or an error naming
/// both shapes.
core::Status broadcastOf(const KernelContext& ctx, const Tensor& x, const Tensor& y, Shape& shape);
/// The element strides with which a contiguous tensor of shape `in` is read
/// at each index of the broadcast shape `out` (0 on stretched dims).
Shape broadcastStrides(std::span<const int64_t> in, std::span<const int64_t> out);

/// Walks the contiguous shape `shape` row by row (the last dim is the row):
/// `f(offA, offB, row, n)` with the offsets of row `row` in two strided
/// operands, n = the row length. A 0-D shape is one row of one element.
template <class F>
void forEachRow(std::span<const int64_t> shape, std::span<const int64_t> sa, std::span<const int64_t> sb, F&& f) {
  size_t r = shape.size();
  int64_t n = r ? shape[r - 1] : 1;
  int64_t rows = numElements(shape) / (n ? n : 1);
  if (numElements(shape) == 0) return;
  std::vector<int64_t> idx(r ? r - 1 : 0, 0);
  int64_t offA = 0, offB = 0;
  for (int64_t row = 0; row < rows; ++row) {
    f(offA, offB, row, n);
    for (size_t d = idx.size(); d-- > 0;) {  // odometer increment over the outer dims
      offA += sa[d];
      offB += sb[d];
      if (++idx[d] < shape[d]) break;
      offA -= sa[d] * shape[d];
      offB -= sb[d] * shape[d];
      idx[d] = 0;
    }
  }
}

/// What sumToShape adds up: each element, or its square rounded to the
/// dtype as pd_op.square rounds it (the sum of squares a fused loss makes:
/// runtime/loss_fusion.h), so both sum bitwise alike.
enum class Summand : uint8_t { Value, Square };

/// `grad` (of a broadcast shape) summed over the dims that broadcasting
/// stretched, as a contiguous tensor of `shape` (same dtype; floats summed
/// in f64).
Tensor sumToShape(const Tensor& grad, std::span<const int64_t> shape, Summand summand = Summand::Value);

/// `axis` wrapped into [0, rank), or nothing when out of range. For a 0-D
/// tensor, axis 0 and -1 are the (empty) whole.
std::optional<int64_t> normalizeAxis(int64_t axis, size_t rank);

/// An IntArray that is either operand `operandIndex` (an int tensor, e.g.
/// full_int_array's) when present, or attribute `attr`.
std::optional<std::vector<int64_t>> intArrayArg(const KernelContext& ctx, size_t operandIndex, std::string_view attr);
/// A Scalar that is operand `operandIndex` (a one-element tensor) when
/// present, else attribute `attr`, else `fallback`.
double scalarArg(const KernelContext& ctx, size_t operandIndex, std::string_view attr, double fallback);
/// Writes `src`'s elements converted to `dst`'s dtype into `dst`'s buffer
/// (the same element count; any runnable dtypes).
void castInto(const Tensor& src, Tensor& dst);
/// `src` converted into a new tensor of `dtype` (`src` itself when it has it).
Tensor castTensor(const Tensor& src, DataType dtype);

/// Element `i` (flat) of a tensor of any runnable dtype, as f64.
double valueAt(const Tensor& t, int64_t i);

/// sgd_'s update in place: param -= lr·grad, in f64, rounded once (f32,
/// f64, bf16; grad of param's dtype and element count).
void sgdUpdate(Tensor& param, const Tensor& grad, double lr);

/// A result of `dtype` and `shape`: operand `i`'s buffer when it is
/// reusable (KernelContext::reusable) and of that dtype and size, else a new
/// one. For loops that read each index of the operand before writing it.
Tensor reuseOrAllocate(const KernelContext& ctx, size_t i, DataType dtype, std::span<const int64_t> shape);

}  // namespace pir::runtime::kernels
