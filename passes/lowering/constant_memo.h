//===- constant_memo.h - the helper constants one lowering makes -*- C++ -*-===//
//
// Lowering a program's reshards makes a `pd_op.full` axis or a
// `pd_op.full_int_array` for most of them (Emitter::fullAxis, fullIntArray),
// and a program needs only a few distinct ones, made again before each
// reshard: building one through AttrListBuilder and the Context's tables cost
// more than all the rest of a gather. The memo keeps each distinct op's
// interned name, attribute list and result type, keyed by everything they are
// made from, so the next one is created from them directly. It lives for one
// program's run (its pointers are that program's Context's).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/attributes.h"
#include "core/hash.h"
#include "core/types.h"

namespace pir::passes::lowering {

class ConstantMemo {
 public:
  struct Key {
    const core::ProcessMesh* mesh = nullptr;
    const core::Attribute* role = nullptr;       // the reshard's op_role, as read
    const core::Attribute* chunkAttr = nullptr;  // the reshard's chunk_id attribute, as read
    int64_t chunk = -1;                          // the source value's producer's chunk
    bool intArray = false;                       // full_int_array of `values`, else full of values[0]
    std::vector<int64_t> values;
    bool operator==(const Key&) const = default;
  };
  struct Made {
    std::string_view name;
    std::span<const core::NamedAttr> attrs;
    const core::Type* type = nullptr;
  };

  const Made* find(const Key& key) const {
    auto it = made_.find(key);
    return it == made_.end() ? nullptr : &it->second;
  }
  void add(Key key, const Made& made) { made_.emplace(std::move(key), made); }

 private:
  struct KeyHash {
    size_t operator()(const Key& k) const {
      uint64_t h = core::hashMix(reinterpret_cast<uintptr_t>(k.mesh), reinterpret_cast<uintptr_t>(k.role));
      h = core::hashMix(h, reinterpret_cast<uintptr_t>(k.chunkAttr));
      h = core::hashMix(h, static_cast<uint64_t>(k.chunk) * 2 + k.intArray);
      for (int64_t v : k.values) h = core::hashMix(h, static_cast<uint64_t>(v));
      return static_cast<size_t>(h);
    }
  };
  std::unordered_map<Key, Made, KeyHash> made_;
};

}  // namespace pir::passes::lowering
