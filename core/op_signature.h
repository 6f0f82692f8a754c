//===- op_signature.h - what an op shares with many others ------*- C++ -*-===//
//
// Most ops of a program repeat another op's attribute list and operand and
// result types; only their values differ. What the printer writes after an
// op's operands, and what the verifier's dist checks find, depend on those
// alone (and on the op's name), so each keeps it per signature: the
// interned pointers of the list and the types. SignatureMemo keeps a value
// from a signature's second sighting, in a bounded table; the first only
// notes it, so ops whose signature is their own cost a slot, not a value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "core/operation.h"

namespace pir::core {

/// The signature of `op` into `out`: its name (when `withName`), attribute
/// list, operand count and operand and result types (null for a null
/// operand). Returns its hash.
inline uint64_t opSignature(const Operation& op, bool withName, std::vector<const void*>& out) {
  out.clear();
  if (withName) out.push_back(op.name().data());
  out.push_back(op.attributes().data());
  out.push_back(reinterpret_cast<const void*>(uintptr_t{op.numOperands()} << 32 | op.attributes().size()));
  for (const OpOperand& o : op.operands()) out.push_back(o.get() ? o.get()->type() : nullptr);
  for (uint32_t i = 0; i < op.numResults(); ++i) out.push_back(op.result(i)->type());
  uint64_t h = 0x9e3779b97f4a7c15ull ^ out.size();
  for (const void* p : out) {
    h = (h ^ reinterpret_cast<uintptr_t>(p)) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

template <class V>
class SignatureMemo {
 public:
  enum class Found { Hit, Admit, Miss };

  /// Looks up `key` (hashed `h`). On Hit `value` points at what was kept;
  /// on Admit this is the key's second sighting: keep() a value for it.
  Found find(std::span<const void* const> key, uint64_t h, V*& value) {
    if ((count_ + 1) * 2 > slots_.size()) makeRoom();
    Slot* s = slotFor(key, h);
    if (!s) return Found::Miss;
    if (s->state == kKept) {
      value = &values_[s->value];
      return Found::Hit;
    }
    if (s->state == kSeen) return Found::Admit;
    *s = Slot{h, static_cast<uint32_t>(keys_.size()), static_cast<uint32_t>(key.size()), kSeen, 0};
    keys_.insert(keys_.end(), key.begin(), key.end());
    ++count_;
    return Found::Miss;
  }

  /// Keeps `value` for `key`, which find() admitted.
  void keep(std::span<const void* const> key, uint64_t h, V value) {
    Slot* s = slotFor(key, h);
    if (!s || s->state != kSeen) return;
    s->state = kKept;
    s->value = static_cast<uint32_t>(values_.size());
    values_.push_back(std::move(value));
  }

  size_t kept() const { return values_.size(); }

 private:
  static constexpr uint8_t kEmpty = 0, kSeen = 1, kKept = 2;
  static constexpr size_t kMaxKeys = size_t{1} << 16;
  static constexpr size_t kMaxProbes = 64;
  struct Slot {
    uint64_t hash = 0;
    uint32_t keyAt = 0, keySize = 0;
    uint8_t state = kEmpty;
    uint32_t value = 0;
  };

  Slot* slotFor(std::span<const void* const> key, uint64_t h) {
    size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    for (size_t probes = 0; probes < kMaxProbes; ++probes, i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.state == kEmpty) return &s;
      if (s.hash == h && s.keySize == key.size() &&
          std::memcmp(keys_.data() + s.keyAt, key.data(), key.size_bytes()) == 0)
        return &s;
    }
    return nullptr;
  }

  /// Doubles the table up to 2 * kMaxKeys slots; at that size, forgets the
  /// keys seen only once, or everything when kept ones fill half of it.
  void makeRoom() {
    bool full = slots_.size() >= 2 * kMaxKeys;
    std::vector<Slot> old;
    old.swap(slots_);
    std::vector<const void*> oldKeys;
    oldKeys.swap(keys_);
    std::vector<V> oldValues;
    if (full && values_.size() * 2 > kMaxKeys) {
      values_.clear();
      slots_.assign(old.size(), Slot{});
      count_ = 0;
      return;
    }
    oldValues.swap(values_);
    slots_.assign(full ? old.size() : old.empty() ? 256 : old.size() * 2, Slot{});
    count_ = 0;
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.state == kEmpty || (full && s.state == kSeen)) continue;
      size_t i = s.hash & mask;
      for (size_t probes = 0; probes < kMaxProbes && slots_[i].state != kEmpty; ++probes) i = (i + 1) & mask;
      if (slots_[i].state != kEmpty) continue;
      Slot moved = s;
      moved.keyAt = static_cast<uint32_t>(keys_.size());
      keys_.insert(keys_.end(), oldKeys.begin() + s.keyAt, oldKeys.begin() + s.keyAt + s.keySize);
      if (s.state == kKept) {
        moved.value = static_cast<uint32_t>(values_.size());
        values_.push_back(std::move(oldValues[s.value]));
      }
      slots_[i] = moved;
      ++count_;
    }
  }

  std::vector<Slot> slots_;
  std::vector<const void*> keys_;
  std::vector<V> values_;
  size_t count_ = 0;
};

}  // namespace pir::core
