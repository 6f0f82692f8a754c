//===- text_memo.h - parse results of repeated text, by the text -*- C++ -*-===//
//
// Most op dictionaries of a program repeat another op's byte for byte, and
// the rest carry a name and appear once. The memo keeps a parse result from
// its text's second sighting only, so the one-off dictionaries of a million
// op program cost a slot, not a node and a hash-table entry each. The table
// is bounded: when it fills, texts seen only once are forgotten. Keys are
// views of the source text, which outlives the memo.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace pir::parser {

/// A 64-bit hash of `s`, two words at a time in two independent lanes (the
/// multiplies of one lane wait for each other; two lanes halve the wait).
inline uint64_t hashText(std::string_view s) {
  constexpr uint64_t kMul = 0xff51afd7ed558ccdull;
  auto mix = [](uint64_t h, uint64_t w) {
    h = (h ^ w) * kMul;
    return h ^ (h >> 32);
  };
  uint64_t a = 0x9e3779b97f4a7c15ull ^ s.size(), b = 0xc2b2ae3d27d4eb4full;
  const char* p = s.data();
  size_t n = s.size();
  for (; n >= 16; p += 16, n -= 16) {
    uint64_t w0, w1;
    std::memcpy(&w0, p, 8);
    std::memcpy(&w1, p + 8, 8);
    a = mix(a, w0);
    b = mix(b, w1);
  }
  if (n) {
    uint64_t w0 = 0, w1 = 0;
    std::memcpy(&w0, p, n < 8 ? n : 8);
    if (n > 8) std::memcpy(&w1, p + 8, n - 8);
    a = mix(a, w0);
    b = mix(b, w1);
  }
  return mix(a, b + 0x165667b19e3779f9ull);
}

template <class V>
class TextMemo {
 public:
  /// The value kept for `text`, or null. When null, `admit` says whether
  /// this is the text's second sighting, so the caller should add() the
  /// value it parses now.
  const V* find(std::string_view text, bool& admit) {
    if ((count_ + 1) * 2 > slots_.size() && !frozen_) makeRoom();
    uint64_t h = hashText(text);
    Slot* s = slotFor(h, text);
    admit = false;
    if (!s) return nullptr;  // a long probe: give up on this text
    if (s->data) {
      if (s->value != kSeen) return &values_[s->value];
      admit = true;
      return nullptr;
    }
    if (!frozen_) {
      *s = {h, text.data(), static_cast<uint32_t>(text.size()), kSeen};
      ++count_;
    }
    return nullptr;
  }

  /// Keeps `value` for `text`, which find() admitted.
  void add(std::string_view text, const V& value) {
    Slot* s = slotFor(hashText(text), text);
    if (!s || !s->data || s->value != kSeen) return;
    s->value = static_cast<uint32_t>(values_.size());
    values_.push_back(value);
  }

  void clear() {
    slots_.clear();
    values_.clear();
    count_ = 0;
    frozen_ = false;
  }

 private:
  static constexpr uint32_t kSeen = UINT32_MAX;  // seen once, no value kept
  static constexpr size_t kMaxKeys = size_t{1} << 16;
  // Probes at most per lookup, so texts made to collide cost a bounded time.
  static constexpr size_t kMaxProbes = 64;
  struct Slot {
    uint64_t hash = 0;
    const char* data = nullptr;  // null: empty
    uint32_t size = 0;
    uint32_t value = kSeen;
  };

  /// The slot holding `text`, or the empty one where it would go; null
  /// after kMaxProbes slots held other texts.
  Slot* slotFor(uint64_t h, std::string_view text) {
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    for (size_t probes = 0; probes < kMaxProbes; ++probes, i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.data) return &s;
      if (s.hash == h && s.size == text.size() && std::memcmp(s.data, text.data(), text.size()) == 0) return &s;
    }
    return nullptr;
  }

  /// Doubles the table up to 2 * kMaxKeys slots; at that size, forgets the
  /// texts seen only once instead, or stops adding texts when kept values
  /// would still fill more than half of it.
  void makeRoom() {
    bool full = slots_.size() >= 2 * kMaxKeys;
    moved_.clear();
    if (full) {  // forget in place: the table keeps its memory
      for (const Slot& s : slots_)
        if (s.data && s.value != kSeen) moved_.push_back(s);
      std::fill(slots_.begin(), slots_.end(), Slot{});
    } else {
      for (const Slot& s : slots_)
        if (s.data) moved_.push_back(s);
      slots_.assign(slots_.empty() ? 256 : slots_.size() * 2, Slot{});
    }
    count_ = 0;
    for (const Slot& s : moved_)
      if (Slot* to = slotFor(s.hash, std::string_view(s.data, s.size))) {
        *to = s;
        ++count_;
      }
    frozen_ = full && count_ * 2 > kMaxKeys;
  }

  std::vector<Slot> slots_;
  std::vector<Slot> moved_;  // makeRoom()'s scratch
  std::vector<V> values_;
  size_t count_ = 0;
  bool frozen_ = false;
};

}  // namespace pir::parser
