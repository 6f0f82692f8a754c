//===- buffer_cache.h - large tensor buffers kept for reuse ------*- C++ -*-===//
//
// A training step frees and remakes tensors of the same sizes every step. A
// fresh large block comes from the system as fresh pages (a fault each, and
// the kernel zeroes them: ~1% of a GEMM-bound step, more of an elementwise
// one), so freed blocks of at least kMinBytes are kept here, up to kMaxBytes
// in all, and the next allocation of the same size takes one back warm. The
// least recently kept blocks go first when the bound is reached.
//
// One cache for the process, under a mutex: rank threads free each other's
// tensors (the in-process communicator hands them over). Sanitizer builds
// keep nothing, so that they see every use after free.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>

namespace pir::runtime {

class BufferCache {
 public:
  static constexpr size_t kMinBytes = size_t{128} << 10;  // glibc's default mmap threshold
  static constexpr size_t kMaxBytes = size_t{2} << 30;

  /// The process's cache (Tensor's storage allocates through it).
  static BufferCache& instance();

  /// A block of `bytes` (a multiple of 64), 64-byte aligned: a kept one of
  /// that size, else a new one; null when the system has none.
  void* allocate(size_t bytes);
  /// Frees `p` (from allocate(bytes)), or keeps it for reuse.
  void release(void* p, size_t bytes);

  /// Bytes kept now (for tests).
  size_t keptBytes() const;
  /// Frees every kept block.
  void clear();
  /// Whether this build keeps blocks (not under a sanitizer).
  static bool enabled();

  /// A cache keeping at most `maxBytes` (the process's: kMaxBytes).
  explicit BufferCache(size_t maxBytes = kMaxBytes);
  ~BufferCache();
  BufferCache(const BufferCache&) = delete;
  BufferCache& operator=(const BufferCache&) = delete;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace pir::runtime
