//===- emission_memo.h - a reshard's lowered ops, made again -----*- C++ -*-===//
//
// A program lowers the same few reshards again and again: a gather of
// each layer's activations, an all_reduce of each partial result. The ops
// the Emitter builds for one depend only on its plan, the source value's
// type, the reshard's result type and attribute list (role, chunks, its
// op_dist_attr), the source's producer chunk and stop_gradient, its users'
// chunk, and the rank and rings of the pass run. The memo records the ops
// the first such reshard got (interned names, attribute lists and result
// types, operands as the reshard's input or an earlier op's result) and
// makes the next ones from that record, without the Emitter. Plans with a
// send/recv step are never recorded: those ops look at the source value's
// uses. It lives for one program's run (its pointers are that program's
// Context's).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/operation.h"
#include "passes/lowering/plan.h"

namespace pir::passes::lowering {

class EmissionMemo {
 public:
  struct Key {
    const ReshardPlan* plan = nullptr;
    const core::Type* source = nullptr;      // the reshard's operand type
    const core::Type* result = nullptr;      // the reshard's result type
    const core::NamedAttr* attrs = nullptr;  // the reshard's (interned) attribute list
    int64_t chunk = -1, recvChunk = -1;      // Emitter::chunk(), recvChunk()
    const core::Attribute* stopGradient = nullptr;
    bool operator==(const Key&) const = default;
  };

  /// True when the ops of a plan can be recorded: no step sends or
  /// receives.
  static bool recordable(const ReshardPlan& plan);

  /// Makes the recorded ops of `key` before `reshard` on its input, and
  /// returns the value that replaces its result; null when nothing is
  /// recorded for `key`.
  core::Value* replay(const Key& key, core::Context& ctx, core::Operation& reshard);

  /// Records the ops between `before` (exclusive; null: the block's start)
  /// and `reshard`, which the Emitter just made from `reshard`'s input, and
  /// `out`, the value they end in. Records nothing if an op reads a value
  /// made elsewhere or holds a region.
  void record(const Key& key, core::Operation* before, core::Operation& reshard, core::Value* out);

 private:
  /// A value of the record: the reshard's input (op -1) or result `index`
  /// of the record's op `op`.
  struct Ref {
    int32_t op = -1;
    uint32_t index = 0;
  };
  struct Op {
    std::string_view name;
    std::span<const core::NamedAttr> attrs;
    std::vector<const core::Type*> results;
    std::vector<Ref> operands;
  };
  struct Record {
    std::vector<Op> ops;
    Ref out;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  std::unordered_map<Key, Record, KeyHash> records_;
  // replay's scratch, kept between calls: a reshard replayed allocates nothing of its own
  std::vector<core::Operation*> made_;
  std::vector<core::Value*> operands_;
};

}  // namespace pir::passes::lowering
