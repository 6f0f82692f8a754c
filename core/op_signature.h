//===- op_signature.h - what an op shares with many others ------*- C++ -*-===//
//
// Most ops of a program repeat another op's attribute list and operand and
// result types; only their values differ. What the printer writes after an
// op's operands, and what the verifier's dist checks find, depend on those
// alone (and on the op's name), so each keeps it per signature: the
// interned pointers of the list and the types. SignatureMemo keeps a value
// from a signature's second sighting, in a bounded table
// (core/sighting_slots.h); the first only notes it, so ops whose signature
// is their own cost a slot, not a value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/operation.h"
#include "core/sighting_slots.h"

namespace pir::core {

/// An op's signature (opSignature's): its words in storage that only
/// grows, so that writing one is a store a word.
class OpSignatureKey {
 public:
  std::span<const void* const> words() const { return {store_.data(), size_}; }
  operator std::span<const void* const>() const { return words(); }

 private:
  friend uint64_t opSignature(const Operation& op, bool withName, OpSignatureKey& key);
  std::vector<const void*> store_;
  size_t size_ = 0;
};

/// The signature of `op` into `key`: its name (when `withName`), attribute
/// list, operand count and operand and result types (null for a null
/// operand). Returns its hash. Every op printed or verified asks: the words
/// are hashed as they are written.
inline uint64_t opSignature(const Operation& op, bool withName, OpSignatureKey& key) {
  size_t n = size_t{withName} + 2 + op.numOperands() + op.numResults();
  if (key.store_.size() < n) key.store_.resize(std::max(n, 2 * key.store_.size()));
  key.size_ = n;
  const void** p = key.store_.data();
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  auto put = [&](const void* v) {
    *p++ = v;
    h = (h ^ reinterpret_cast<uintptr_t>(v)) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  };
  if (withName) put(op.name().data());
  put(op.attributes().data());
  put(reinterpret_cast<const void*>(uintptr_t{op.numOperands()} << 32 | op.attributes().size()));
  for (const OpOperand& o : op.operands()) put(o.get() ? o.get()->type() : nullptr);
  for (uint32_t i = 0; i < op.numResults(); ++i) put(op.result(i)->type());
  return h;
}

template <class V>
class SignatureMemo {
 public:
  using Found = SightingSlots::Found;

  /// Looks up `key` (hashed `h`). On Hit `value` points at what was kept;
  /// on Admit this is the key's second sighting: keep() a value for it.
  Found find(std::span<const void* const> key, uint64_t h, V*& value) {
    if (slots_.makeRoom()) {
      keys_.clear();
      values_.clear();
    }
    uint32_t entry = 0;
    Found found = slots_.find(h, static_cast<uint32_t>(key.size()), same(key), entry);
    if (found == Found::Hit) value = &values_[entry].second;
    return found;
  }

  /// Keeps `value` for `key`, which find() admitted.
  void keep(std::span<const void* const> key, uint64_t h, V value) {
    if (!slots_.keep(h, static_cast<uint32_t>(key.size()), same(key))) return;
    values_.emplace_back(keys_.size(), std::move(value));
    keys_.insert(keys_.end(), key.begin(), key.end());
  }

 private:
  /// Whether entry `e`'s key is `key`.
  struct Same {
    const SignatureMemo& memo;
    std::span<const void* const> key;
    bool operator()(uint32_t e) const {
      size_t at = memo.values_[e].first;
      size_t end = e + 1 < memo.values_.size() ? memo.values_[e + 1].first : memo.keys_.size();
      if (end - at != key.size()) return false;
      const void* const* kept = memo.keys_.data() + at;
      for (size_t i = 0; i < key.size(); ++i)  // a few words: no call to memcmp
        if (kept[i] != key[i]) return false;
      return true;
    }
  };
  Same same(std::span<const void* const> key) const { return Same{*this, key}; }

  SightingSlots slots_;
  std::vector<const void*> keys_;             // the kept entries' keys, one after another
  std::vector<std::pair<size_t, V>> values_;  // per kept entry: where its key starts, its value
};

}  // namespace pir::core
