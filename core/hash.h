//===- hash.h - hashing and a small uniquing table -------------*- C++ -*-===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pir::core {

/// FNV-1a over bytes, then a final mix; good enough for interning keys.
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

template <class T>
uint64_t hashSpan(std::span<const T> s, uint64_t seed) {
  return hashBytes(s.data(), s.size_bytes(), hashMix(seed, s.size()));
}

/// Open-addressing set of pointers to uniqued objects. Each object stores its
/// own hash (`hash()`), so lookups compare hashes before calling `eq`.
template <class T>
class UniqueTable {
 public:
  template <class Eq>
  const T* find(uint64_t hash, Eq&& eq) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const T* s = slots_[i];
      if (!s) return nullptr;
      if (s->hash() == hash && eq(s)) return s;
    }
  }

  void insert(const T* value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) rehash(slots_.empty() ? 64 : slots_.size() * 2);
    place(value);
    ++size_;
  }

  size_t size() const { return size_; }

 private:
  void place(const T* value) {
    size_t mask = slots_.size() - 1;
    size_t i = value->hash() & mask;
    while (slots_[i]) i = (i + 1) & mask;
    slots_[i] = value;
  }
  void rehash(size_t n) {
    std::vector<const T*> old;
    old.swap(slots_);
    slots_.assign(n, nullptr);
    for (const T* v : old)
      if (v) place(v);
  }

  std::vector<const T*> slots_;
  size_t size_ = 0;
};

}  // namespace pir::core
