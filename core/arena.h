//===- arena.h - bump allocator for IR objects ------------------*- C++ -*-===//
//
// Types, attributes, values and operations live as long as their Context, so
// they are bump-allocated: one pointer increment per object, no per-object
// free, and no allocator headers. Objects placed here must not need their
// destructors run (the IR keeps no owning std:: containers in arena memory).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pir::core {

class SlabPool;

class Arena {
  class Prefault;

 public:
  Arena();
  /// An arena whose large slabs come from `pool` when it has one and go
  /// back to it when the arena is destroyed (none is faulted in ahead: a
  /// pooled slab is faulted in already).
  explicit Arena(std::shared_ptr<SlabPool> pool);
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();

  void* allocate(size_t size, size_t align) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(align - 1);
    if (cur_ == nullptr || p + size > reinterpret_cast<uintptr_t>(end_)) {
      grow(size + align);
      p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(align - 1);
    }
    cur_ = reinterpret_cast<char*>(p + size);
    bytesUsed_ += size;
    return reinterpret_cast<void*>(p);
  }

  template <class T, class... Args>
  T* make(Args&&... args) {
    static_assert(std::is_trivially_destructible_v<T>, "arena objects are never destroyed");
    return new (allocate(sizeof(T), alignof(T))) T(std::forward<Args>(args)...);
  }

  /// Copies a span into the arena; the copy lives as long as the arena.
  template <class T>
  std::span<const T> copy(std::span<const T> src) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (src.empty()) return {};
    T* dst = static_cast<T*>(allocate(sizeof(T) * src.size(), alignof(T)));
    std::memcpy(dst, src.data(), sizeof(T) * src.size());
    return {dst, src.size()};
  }

  std::string_view copy(std::string_view s) {
    if (s.empty()) return {};
    char* dst = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(dst, s.data(), s.size());
    return {dst, s.size()};
  }

  size_t bytesUsed() const { return bytesUsed_; }

  /// While it lives, the helper thread that faults in the arena's next
  /// slabs also faults in a big table (reserved, not yet touched) that a
  /// loop fills front to back, `ahead` bytes past what advance() last
  /// reported. One helper for both, so they do not take turns on the
  /// cores with the loop. Tables under 16 MB are left to fault on use.
  /// It must not outlive the arena; the table may be freed once it is gone.
  class TableFaulting {
   public:
    TableFaulting(Arena& arena, const void* data, size_t bytes, size_t ahead);
    TableFaulting(const TableFaulting&) = delete;
    TableFaulting& operator=(const TableFaulting&) = delete;
    ~TableFaulting();
    /// The table is filled up to `usedBytes`. Takes a lock: call it every
    /// few hundred entries, not every one.
    void advance(size_t usedBytes);

   private:
    static constexpr size_t kMinTableBytes = size_t{16} << 20;
    Prefault* helper_ = nullptr;
    size_t id_ = 0;
  };

 private:
  void grow(size_t atLeast);

  struct Slab {
    char* data = nullptr;
    size_t size = 0;
  };
  std::vector<Slab> slabs_;
  char* cur_ = nullptr;
  char* end_ = nullptr;
  size_t slabSize_ = 64 * 1024;
  size_t bytesUsed_ = 0;
  std::unique_ptr<Prefault> prefault_;
  std::shared_ptr<SlabPool> pool_;

  friend class SlabPool;
};

/// Large slabs that arenas which are gone leave to arenas that grow: many
/// Contexts made one after another (split-ranks' one per rank) reuse the
/// pages the last ones faulted in, instead of the kernel zeroing new ones
/// for each. Thread-safe; the slabs are unmapped when the pool goes, which
/// is after the last arena that uses it.
class SlabPool {
 public:
  SlabPool() = default;
  SlabPool(const SlabPool&) = delete;
  SlabPool& operator=(const SlabPool&) = delete;
  ~SlabPool();
  /// Bytes the pool holds now, for tests.
  size_t bytesHeld();

 private:
  friend class Arena;
  struct Slab {
    char* data = nullptr;
    size_t size = 0;
  };
  /// The last slab given back that holds `size` bytes, or none.
  Slab take(size_t size);
  void give(Slab slab);

  std::mutex mutex_;
  std::vector<Slab> slabs_;  // newest last: its pages are the likeliest still in cache
};

}  // namespace pir::core
