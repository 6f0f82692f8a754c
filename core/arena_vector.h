//===- arena_vector.h - a growable array in arena memory -------*- C++ -*-===//
#pragma once

#include <cstdint>
#include <cstring>
#include <span>

#include "core/arena.h"

namespace pir::core {

/// A vector whose storage is arena memory: trivially destructible, so it can
/// live inside arena-allocated IR objects. Growth abandons the old storage.
template <class T>
class ArenaVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  std::span<const T> span() const { return {data_, size_}; }

  void assign(Arena& arena, std::span<const T> items) {
    reserve(arena, static_cast<uint32_t>(items.size()));
    if (!items.empty()) std::memcpy(data_, items.data(), items.size_bytes());
    size_ = static_cast<uint32_t>(items.size());
  }
  void push_back(Arena& arena, const T& v) { insert(arena, size_, v); }
  void insert(Arena& arena, size_t pos, const T& v) {
    if (size_ == cap_) reserve(arena, cap_ ? cap_ * 2 : 4);
    std::memmove(data_ + pos + 1, data_ + pos, (size_ - pos) * sizeof(T));
    data_[pos] = v;
    ++size_;
  }
  void erase(size_t pos) {
    std::memmove(data_ + pos, data_ + pos + 1, (size_ - pos - 1) * sizeof(T));
    --size_;
  }
  void clear() { size_ = 0; }

 private:
  void reserve(Arena& arena, uint32_t n) {
    if (n <= cap_) return;
    T* fresh = static_cast<T*>(arena.allocate(sizeof(T) * n, alignof(T)));
    if (size_) std::memcpy(fresh, data_, sizeof(T) * size_);
    data_ = fresh;
    cap_ = n;
  }

  T* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t cap_ = 0;
};

}  // namespace pir::core
