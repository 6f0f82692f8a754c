//===- prefetch.h - fetch memory ahead of a walk ----------------*- C++ -*-===//
//
// A walk over a million ops that reads values defined far away waits on the
// memory for each; asking for them a few ops ahead overlaps the waits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/operation.h"

namespace pir::core {

/// Starts loading the cache line at `p`. The empty volatile asm keeps GCC
/// from deleting a loop that does nothing but prefetch.
inline void prefetch(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

/// Starts loading the op at `op` and the operand array the arena placed
/// right after it (Operation::create allocates them in one go).
inline void prefetchOp(const Operation* op) {
  const char* p = reinterpret_cast<const char*>(op);
  prefetch(p);
  prefetch(p + 64);
  prefetch(p + 128);
}

/// In a walk over a block's ops, fetches the operands of the op
/// kDistance ops after the current one.
class OperandPrefetcher {
 public:
  static constexpr int kDistance = 8;

  explicit OperandPrefetcher(const Block& block) : OperandPrefetcher(block.front()) {}
  /// A walk starting at `first` (null: an empty one).
  explicit OperandPrefetcher(const Operation* first) : ahead_(first) {
    for (int i = 0; i < kDistance && ahead_; ++i) ahead_ = ahead_->nextOp();
  }

  /// Call once per op of the walk, in order.
  void next() {
    if (!ahead_) return;
    for (const OpOperand& o : ahead_->operands())
      if (const Value* v = o.get()) prefetch(v);
    ahead_ = ahead_->nextOp();
  }

 private:
  const Operation* ahead_;
};

}  // namespace pir::core
