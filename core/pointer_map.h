//===- pointer_map.h - a flat map keyed by address --------------*- C++ -*-===//
//
// The memos that map one Context's objects to another's (an importer's
// types, attributes and lists; dist-to-dense's rewritten lists) get
// hundreds of thousands of entries per rank program. In std::unordered_map
// each entry is a node to allocate and, at the end, to free: glibc's malloc
// and free were ~8% of split-ranks, and a lookup chased two pointers. Here
// the entries sit in one array, probed in a row from the key's hash.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace pir::core {

/// A map from non-null addresses (null marks an empty slot) to values of a
/// trivially copyable type. Pointers into it stay valid until the next
/// insertion.
template <class V>
class PointerMap {
  static_assert(std::is_trivially_copyable_v<V>);

 public:
  /// The value of `key`, or null.
  V* find(const void* key) {
    assert(key);
    if (slots_.empty()) return nullptr;
    for (size_t i = indexOf(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (!slots_[i].key) return nullptr;
    }
  }

  /// The value of `key`, default-made when it had none (then `second` is true).
  std::pair<V*, bool> tryEmplace(const void* key) {
    assert(key);
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = indexOf(key);; i = (i + 1) & mask()) {
      if (slots_[i].key == key) return {&slots_[i].value, false};
      if (!slots_[i].key) {
        slots_[i].key = key;
        ++size_;
        return {&slots_[i].value, true};
      }
    }
  }

  V& operator[](const void* key) { return *tryEmplace(key).first; }

  size_t size() const { return size_; }

  void clear() {
    slots_.clear();
    size_ = 0;
  }

 private:
  struct Slot {
    const void* key = nullptr;
    V value{};
  };

  size_t mask() const { return slots_.size() - 1; }
  // Fibonacci hashing: the address's bits mixed into the top ones, which pick the slot.
  size_t indexOf(const void* key) const {
    return static_cast<size_t>((reinterpret_cast<uintptr_t>(key) * 0x9e3779b97f4a7c15ull) >> shift_);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    for (const Slot& s : old)
      if (s.key)
        for (size_t i = indexOf(s.key);; i = (i + 1) & mask())
          if (!slots_[i].key) {
            slots_[i] = s;
            break;
          }
  }

  std::vector<Slot> slots_;  // a power of two of them, at most half full
  size_t size_ = 0;
  unsigned shift_ = 64;
};

}  // namespace pir::core
