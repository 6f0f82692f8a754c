//===- sighting_slots.h - the keys of a second-sighting memo ----*- C++ -*-===//
//
// The table of keys behind a memo that keeps a value from a key's second
// sighting on (core/op_signature.h's SignatureMemo, parser/tail_memo.h's
// TailMemo): a key seen once costs a slot (its hash and a tag), not a copy
// of the key and a value. The memo owns its entries and says how a kept
// entry's key compares; the slots hold the entry's number. The table is
// bounded: it doubles up to 2 * kMaxKeys slots, then forgets the keys seen
// only once, or everything when the entries kept since the last time fill
// half of it (the memo drops what it kept then). Probes stop after
// kMaxProbes slots, so keys made to collide cost a bounded time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pir::core {

class SightingSlots {
 public:
  enum class Found { Hit, Admit, Miss };

  /// Room for one more key, before a find(). True when every entry was
  /// forgotten: the memo drops them, and numbers entries from 0 again.
  bool makeRoom() {
    if ((count_ + 1) * 2 <= slots_.size()) return false;
    bool full = slots_.size() >= 2 * kMaxKeys;
    if (full && entries_ * 2 > kMaxKeys) {
      std::fill(slots_.begin(), slots_.end(), Slot{});
      count_ = entries_ = 0;
      return true;
    }
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(full ? old.size() : old.empty() ? 256 : old.size() * 2, Slot{});
    count_ = 0;
    for (const Slot& s : old) {
      if (s.entry == kEmpty || (full && s.entry == kSeen)) continue;
      if (Slot* to = freeSlot(s.hash)) {
        *to = s;
        ++count_;
      }
    }
    return false;
  }

  /// Looks up the key hashed `h`. A kept entry matches when `same(entry)`
  /// says its key is this one; a key seen once matches by hash and `tag`
  /// (a rare false match only admits a key early). On Hit `entry` is the
  /// kept entry's number; on Admit this is the key's second sighting: the
  /// memo should keep() an entry for it; on Miss the key is noted (or
  /// there was no room for it).
  template <class Same>
  Found find(uint64_t h, uint32_t tag, Same&& same, uint32_t& entry) {
    Slot* s = slotFor(h, tag, same);
    if (!s) return Found::Miss;
    if (s->entry == kSeen) return Found::Admit;
    if (s->entry != kEmpty) {
      entry = s->entry;
      return Found::Hit;
    }
    *s = Slot{h, tag, kSeen};
    ++count_;
    return Found::Miss;
  }

  /// Gives the key find() admitted the number of the memo's next entry.
  /// False (keep nothing) when its slot is gone.
  template <class Same>
  bool keep(uint64_t h, uint32_t tag, Same&& same) {
    Slot* s = slotFor(h, tag, same);
    if (!s || s->entry != kSeen) return false;
    s->entry = static_cast<uint32_t>(entries_++);
    return true;
  }

  void clear() {
    slots_.clear();
    count_ = entries_ = 0;
  }

 private:
  static constexpr uint32_t kSeen = UINT32_MAX;       // seen once, nothing kept
  static constexpr uint32_t kEmpty = UINT32_MAX - 1;  // a free slot
  static constexpr size_t kMaxKeys = size_t{1} << 16;
  static constexpr size_t kMaxProbes = 64;
  struct Slot {
    uint64_t hash = 0;
    uint32_t tag = 0;
    uint32_t entry = kEmpty;
  };

  /// The key's slot, or the free one where it would go; null after
  /// kMaxProbes slots held others.
  template <class Same>
  Slot* slotFor(uint64_t h, uint32_t tag, Same& same) {
    if (slots_.empty()) return nullptr;  // nothing noted since clear()
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    for (size_t probes = 0; probes < kMaxProbes; ++probes, i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.entry == kEmpty) return &s;
      if (s.hash != h) continue;
      if (s.entry == kSeen ? s.tag == tag : same(s.entry)) return &s;
    }
    return nullptr;
  }

  Slot* freeSlot(uint64_t h) {
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    for (size_t probes = 0; probes < kMaxProbes; ++probes, i = (i + 1) & mask)
      if (slots_[i].entry == kEmpty) return &slots_[i];
    return nullptr;
  }

  std::vector<Slot> slots_;
  size_t count_ = 0;    // slots in use
  size_t entries_ = 0;  // entries kept since the last time everything was forgotten
};

}  // namespace pir::core
