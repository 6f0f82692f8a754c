//===- tensor.cpp - a dense CPU tensor for the runner ---------------------===//
#include "runtime/tensor.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <limits>
#include <new>
#include <string>

#include "runtime/buffer_cache.h"

namespace pir::runtime {

MemoryStats& threadMemory() {
  thread_local MemoryStats stats;
  return stats;
}

namespace {
std::atomic<size_t> byteLimit{std::numeric_limits<size_t>::max()};
}  // namespace

void setTensorByteLimit(size_t bytes) { byteLimit.store(bytes, std::memory_order_relaxed); }

struct Tensor::Storage {
  void* data;
  size_t bytes;
  explicit Storage(size_t n) : bytes(n) {
    MemoryStats& m = threadMemory();
    m.live += int64_t(n);
    m.peak = std::max(m.peak, m.live);
    data = BufferCache::instance().allocate(rounded(n));
    if (!data) throw std::bad_alloc();
  }
  ~Storage() {
    threadMemory().live -= int64_t(bytes);
    BufferCache::instance().release(data, rounded(bytes));
  }
  /// aligned_alloc wants a multiple of the alignment; never 0 bytes.
  static size_t rounded(size_t n) { return n == 0 ? 64 : (n + 63) / 64 * 64; }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
};

size_t elementSize(DataType dtype) {
  switch (dtype) {  // the dtypes the runner runs
    case DataType::F32:
    case DataType::F64:
    case DataType::I32:
    case DataType::I64:
    case DataType::Bool:
    case DataType::U8:  // dropout's mask
    case DataType::BF16:
      return core::dataTypeBytes(dtype);
    default:
      return 0;
  }
}

int64_t numElements(std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Tensor Tensor::allocate(DataType dtype, std::span<const int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || (d != 0 && n > std::numeric_limits<int64_t>::max() / d)) throw std::bad_alloc();
    n *= d;
  }
  if (uint64_t(n) > byteLimit.load(std::memory_order_relaxed) / std::max<size_t>(elementSize(dtype), 1))
    throw std::bad_alloc();
  Tensor t;
  t.dtype_ = dtype;
  t.shape_.assign(shape.begin(), shape.end());
  t.numel_ = numElements(shape);
  t.storage_ = std::make_shared<Storage>(t.bytes());
  t.data_ = t.storage_->data;
  return t;
}

Tensor Tensor::zeros(DataType dtype, std::span<const int64_t> shape) {
  Tensor t = allocate(dtype, shape);
  std::memset(t.data_, 0, t.bytes());
  return t;
}

Tensor Tensor::view(std::span<const int64_t> shape) const {
  Tensor t = *this;
  t.shape_.assign(shape.begin(), shape.end());
  return t;
}

Tensor Tensor::clone() const {
  Tensor t = allocate(dtype_, shape_);
  if (bytes() != 0) std::memcpy(t.data_, data_, bytes());
  return t;
}

std::string typeText(DataType dtype, std::span<const int64_t> shape) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s + std::string(core::dataTypeName(dtype)) + ">";
}

size_t Tensor::storageBytes() const { return storage_ ? storage_->bytes : 0; }

}  // namespace pir::runtime
