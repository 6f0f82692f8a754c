//===- tensor.h - a dense CPU tensor for the runner -------------*- C++ -*-===//
//
// A Tensor is a dtype, a shape and a shared, 64-byte aligned storage block.
// Copies share the storage (a shared_ptr), so an in-place op's result, a
// share_data_ and a reshape view all alias the operand's buffer; the block
// is freed when its last tensor goes. bf16 is stored as bf16 (uint16 bits)
// and computed in f32 by the kernels.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/types.h"

namespace pir::runtime {

using core::DataType;

/// bf16: the top half of an f32. Conversion rounds to nearest even.
struct BFloat16 {
  uint16_t bits = 0;
  static BFloat16 fromFloat(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return {uint16_t((u >> 16) | 0x40)};  // NaN stays NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return {uint16_t(u >> 16)};
  }
  float toFloat() const {
    uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
};

/// Bytes per element of a dtype the runner computes with (F32, F64, I32,
/// I64, Bool, BF16, and U8, which only dropout's mask has); 0 for the others
/// (the runner refuses them).
size_t elementSize(DataType dtype);
inline bool isRunnable(DataType dtype) { return elementSize(dtype) != 0; }

/// The element count of `shape` (1 for a 0-D shape).
int64_t numElements(std::span<const int64_t> shape);

/// The shape and dtype as PIR spells a tensor type: `tensor<2x3xf32>`
/// (`tensor<f32>` for 0-D).
std::string typeText(DataType dtype, std::span<const int64_t> shape);

class Tensor {
 public:
  /// No value (an absent optional operand, a result not yet computed).
  Tensor() = default;

  /// Uninitialised storage for `shape` (every dim >= 0) of `dtype`.
  static Tensor allocate(DataType dtype, std::span<const int64_t> shape);
  static Tensor allocate(DataType dtype, std::initializer_list<int64_t> shape) {
    return allocate(dtype, std::span<const int64_t>(shape.begin(), shape.size()));
  }
  /// Zero-filled.
  static Tensor zeros(DataType dtype, std::span<const int64_t> shape);

  bool defined() const { return storage_ != nullptr; }
  DataType dtype() const { return dtype_; }
  std::span<const int64_t> shape() const { return shape_; }
  int64_t dim(size_t i) const { return shape_[i]; }
  size_t rank() const { return shape_.size(); }
  int64_t numel() const { return numel_; }
  size_t bytes() const { return size_t(numel_) * elementSize(dtype_); }

  void* raw() { return data_; }
  const void* raw() const { return data_; }
  template <class T>
  T* data() {
    return static_cast<T*>(data_);
  }
  template <class T>
  const T* data() const {
    return static_cast<const T*>(data_);
  }

  /// The same storage seen with another shape of the same element count
  /// (reshape, share_data_).
  Tensor view(std::span<const int64_t> shape) const;
  /// A new tensor holding a copy of this one's elements.
  Tensor clone() const;
  bool sharesStorageWith(const Tensor& other) const { return storage_ && storage_ == other.storage_; }
  /// The storage's identity: equal for tensors that share it (null: none).
  const void* storageId() const { return storage_.get(); }
  /// Whether no other tensor (a copy, a view) holds this one's storage.
  bool ownsStorageAlone() const { return storage_ && storage_.use_count() == 1; }
  /// Bytes of the storage block (for peak-memory accounting).
  size_t storageBytes() const;
  /// typeText of this tensor.
  std::string typeText() const { return runtime::typeText(dtype_, shape_); }

 private:
  struct Storage;
  std::shared_ptr<Storage> storage_;
  void* data_ = nullptr;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  DataType dtype_ = DataType::Undefined;
};

/// Tensor bytes allocated by the calling thread (a rank) and not yet freed,
/// and their high-water mark (summary.yaml's peak tensor bytes).
struct MemoryStats {
  int64_t live = 0;
  int64_t peak = 0;
};
MemoryStats& threadMemory();

/// The largest tensor Tensor::allocate makes (default: no limit); a larger
/// one, or a shape with a negative dim or an element count past int64,
/// throws std::bad_alloc, which the executor turns into the op's error. The
/// executor fuzz target sets it so that a program asking for terabytes is
/// an error, not an out-of-memory crash.
void setTensorByteLimit(size_t bytes);

/// Whether a tensor of shape `got` is one a program's shape `want` allows:
/// the same rank, every dim equal where `want`'s is not -1 (dynamic). The
/// one shape match (the executor's feeds and every kernel's results, the
/// runner's .npy inputs); inline: the executor calls it per op.
inline bool shapeMatches(std::span<const int64_t> want, std::span<const int64_t> got) {
  if (want.size() != got.size()) return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] >= 0 && want[i] != got[i]) return false;
  return true;
}

/// Calls `f(T*)` with the tensor's data typed by its dtype (bf16 as
/// BFloat16, bool as bool, u8 as uint8_t); for generic kernels over all
/// runnable dtypes.
template <class F>
auto visitDtype(DataType dtype, F&& f) {
  switch (dtype) {
    case DataType::F32:
      return f(static_cast<float*>(nullptr));
    case DataType::F64:
      return f(static_cast<double*>(nullptr));
    case DataType::I32:
      return f(static_cast<int32_t*>(nullptr));
    case DataType::I64:
      return f(static_cast<int64_t*>(nullptr));
    case DataType::Bool:
      return f(static_cast<bool*>(nullptr));
    case DataType::BF16:
      return f(static_cast<BFloat16*>(nullptr));
    case DataType::U8:
      return f(static_cast<uint8_t*>(nullptr));
    default:
      return f(static_cast<float*>(nullptr));  // callers check isRunnable first
  }
}

}  // namespace pir::runtime
