//===- text_cache.h - printed text of interned objects by address -*- C++ -*-===//
//
// A program repeats a few hundred types and attribute lists hundreds of
// thousands of times; the printer prints each once and copies the text
// after. Interned objects never change, so their address is the key. Text
// is kept from a key's second sighting (most one-off lists never pay for a
// copy), for a bounded number of bytes; past that, text is printed again.
// The table of keys is bounded too: when it fills, the keys seen only once
// are forgotten, so a type or list that first shows up late in a big
// program (a later pipeline stage's mesh) still gets its text kept.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pir::core {

class TextCache {
 public:
  explicit TextCache(size_t capacity) { store_.reserve(capacity); }

  /// True with the text kept for `key`. Otherwise false, and `keep` says
  /// whether to hand the text printed now to keep().
  bool lookup(const void* key, std::string_view& text, bool& keep) {
    if ((count_ + 1) * 2 > slots_.size() && !frozen_) makeRoom();
    Slot& s = slotFor(key);
    if (s.key && s.size != kSeen) {
      text = std::string_view(store_.data() + s.offset, s.size);
      return true;
    }
    keep = s.key != nullptr && store_.size() < store_.capacity();
    if (!s.key && !frozen_) {
      s = {key, 0, kSeen};
      ++count_;
    }
    return false;
  }

  /// Keeps `text` for a key lookup() asked for, if it still fits.
  void keep(const void* key, std::string_view text) {
    if (store_.size() + text.size() > store_.capacity()) return;  // never reallocate: views stay valid
    Slot& s = slotFor(key);
    if (!s.key) {  // forgotten while its text was printed
      if (frozen_ || (count_ + 1) * 2 > slots_.size()) return;
      ++count_;
    }
    s = {key, static_cast<uint32_t>(store_.size()), static_cast<uint32_t>(text.size())};
    store_.append(text);
  }

 private:
  static constexpr uint32_t kSeen = UINT32_MAX;  // seen once, no text kept
  // Keys tracked at most, so the table stays in cache.
  static constexpr size_t kMaxKeys = size_t{1} << 16;
  struct Slot {
    const void* key = nullptr;
    uint32_t offset = 0, size = 0;
  };
  static size_t hashOf(const void* p) { return (reinterpret_cast<uintptr_t>(p) >> 3) * 0x9e3779b97f4a7c15ull >> 16; }
  /// The slot holding `key`, or the empty one where it would go.
  Slot& slotFor(const void* key) {
    size_t mask = slots_.size() - 1;
    size_t i = hashOf(key) & mask;
    while (slots_[i].key && slots_[i].key != key) i = (i + 1) & mask;
    return slots_[i];
  }
  /// Doubles the table up to 2 * kMaxKeys slots; at that size, forgets the
  /// keys seen only once instead. If kept texts then still hold more than
  /// half the keys, no key is added any more: forgetting again would free
  /// too little to pay for the pass over the table.
  void makeRoom() {
    bool full = slots_.size() >= 2 * kMaxKeys;
    moved_.clear();
    if (full) {  // forget in place: the table keeps its memory
      for (const Slot& s : slots_)
        if (s.key && s.size != kSeen) moved_.push_back(s);
      std::fill(slots_.begin(), slots_.end(), Slot{});
    } else {
      for (const Slot& s : slots_)
        if (s.key) moved_.push_back(s);
      slots_.assign(slots_.empty() ? 256 : slots_.size() * 2, Slot{});
    }
    count_ = moved_.size();
    for (const Slot& s : moved_) slotFor(s.key) = s;
    frozen_ = full && count_ * 2 > kMaxKeys;
  }

  std::vector<Slot> slots_;
  std::vector<Slot> moved_;  // makeRoom()'s scratch
  std::string store_;
  size_t count_ = 0;
  bool frozen_ = false;
};

}  // namespace pir::core
