//===- hash.h - hashing and a small uniquing table -------------*- C++ -*-===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pir::core {

/// FNV-1a over bytes (64 bits: offset basis 14695981039346656037, prime
/// 1099511628211): interning keys, and pir-run's input draw per name.
inline uint64_t hashBytes(const void* data, size_t n, uint64_t seed = 0xcbf29ce484222325ull) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint64_t h = seed;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

inline uint64_t hashMix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

inline uint64_t hashString(std::string_view s, uint64_t seed = 0xcbf29ce484222325ull) {
  return hashBytes(s.data(), s.size(), seed);
}

/// Fibonacci hashing: the slot of `key` in a table of 2^`bits` (1-63)
/// slots, from the top bits of key * 2^64 / phi, into which every bit of
/// the key is mixed (a pointer's low bits alone repeat with its alignment).
inline size_t fibonacciSlot(uint64_t key, unsigned bits) {
  return static_cast<size_t>((key * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

template <class T>
uint64_t hashSpan(std::span<const T> s, uint64_t seed) {
  return hashBytes(s.data(), s.size_bytes(), hashMix(seed, s.size()));
}

/// Open-addressing set of pointers to uniqued objects. Each object stores its
/// own hash (`hash()`). A slot holds the pointer and, in the top 16 bits that
/// x86-64 and AArch64 user pointers leave zero, a tag from the hash: probing
/// past another object compares tags in the slot instead of loading the
/// object, which in a table of a million strings is a cache miss each.
template <class T>
class UniqueTable {
 public:
  template <class Eq>
  const T* find(uint64_t hash, Eq&& eq) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    uintptr_t tag = tagOf(hash);
    for (size_t i = indexOf(hash);; i = (i + 1) & mask) {
      uintptr_t slot = slots_[i];
      if (!slot) return nullptr;
      if (tagged_ && (slot & ~kPtrMask) != tag) continue;
      const T* s = reinterpret_cast<const T*>(tagged_ ? slot & kPtrMask : slot);
      if (s->hash() == hash && eq(s)) return s;
    }
  }

  void insert(const T* value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.empty() ? 64 : slots_.size() * 2);
    place(value);
    ++size_;
  }

  /// Makes room for `n` entries in all, so inserting up to that many moves
  /// the table at most once, now.
  void reserve(size_t n) {
    size_t slots = slots_.empty() ? 64 : slots_.size();
    while (n * 4 > slots * 3) slots *= 2;
    if (slots != slots_.size()) rehash(slots);
  }

  /// Fetches the slot where find(hash) starts probing.
  void prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[indexOf(hash)]);
  }

  size_t size() const { return size_; }

 private:
  static constexpr uintptr_t kPtrMask = (uintptr_t{1} << 48) - 1;
  static constexpr uint64_t kFib = 0x9e3779b97f4a7c15ull;

  // Fibonacci hashing: the top bits of hash * kFib pick the slot, so a weak
  // hash still spreads; the tag comes from lower bits of the same product.
  size_t indexOf(uint64_t hash) const { return static_cast<size_t>((hash * kFib) >> shift_); }
  static uintptr_t tagOf(uint64_t hash) { return static_cast<uintptr_t>((hash * kFib) >> 16 & 0xffff) << 48; }

  void place(const T* value) {
    auto p = reinterpret_cast<uintptr_t>(value);
    if (tagged_ && (p & ~kPtrMask)) untag();  // a pointer using the top bits: no tags from now on
    size_t mask = slots_.size() - 1;
    size_t i = indexOf(value->hash());
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = tagged_ ? p | tagOf(value->hash()) : p;
  }
  void untag() {
    for (uintptr_t& slot : slots_) slot &= kPtrMask;
    tagged_ = false;
  }
  /// Moves every entry to a table of `n` slots. Each move loads its entry
  /// (for the hash) and its new slot, both anywhere in memory: fetching them
  /// a few entries ahead overlaps those misses instead of taking them in turn.
  void rehash(size_t n) {
    std::vector<uintptr_t> old;
    old.swap(slots_);
    slots_.assign(n, 0);
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
    uintptr_t mask = tagged_ ? kPtrMask : ~uintptr_t{0};
    auto entry = [&](size_t i) { return reinterpret_cast<const T*>(old[i] & mask); };
    constexpr size_t kEntryAhead = 16, kSlotAhead = 8;
    for (size_t i = 0; i < old.size(); ++i) {
      if (i + kEntryAhead < old.size() && old[i + kEntryAhead]) __builtin_prefetch(entry(i + kEntryAhead));
      if (i + kSlotAhead < old.size() && old[i + kSlotAhead])
        __builtin_prefetch(&slots_[indexOf(entry(i + kSlotAhead)->hash())]);
      if (old[i]) place(entry(i));
    }
  }

  std::vector<uintptr_t> slots_;
  unsigned shift_ = 64;
  bool tagged_ = true;
  size_t size_ = 0;
};

}  // namespace pir::core
