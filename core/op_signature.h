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

#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "core/operation.h"
#include "core/sighting_slots.h"

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
      return end - at == key.size() && std::memcmp(memo.keys_.data() + at, key.data(), key.size_bytes()) == 0;
    }
  };
  Same same(std::span<const void* const> key) const { return Same{*this, key}; }

  SightingSlots slots_;
  std::vector<const void*> keys_;             // the kept entries' keys, one after another
  std::vector<std::pair<size_t, V>> values_;  // per kept entry: where its key starts, its value
};

}  // namespace pir::core
