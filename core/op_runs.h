//===- op_runs.h - a block's ops cut into runs for threads ------*- C++ -*-===//
//
// The threaded printer and verifier give each thread runs of consecutive
// ops of a program's own block. Finding where runs start is one walk of the
// block's list: ops sit in the arena in the order they were made, so the
// walk streams through memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "core/operation.h"

namespace pir::core {

/// The first op of each of at most `runs` runs of about equal length, then
/// a null (the end of the last run).
inline std::vector<const Operation*> opRuns(const Block& block, size_t runs) {
  std::vector<const Operation*> starts;
  size_t n = block.numOps();
  if (n == 0 || runs == 0) return {nullptr};
  size_t per = (n + runs - 1) / runs;
  size_t i = 0;
  for (const Operation* op = block.front(); op; op = op->nextOp(), ++i)
    if (i % per == 0) starts.push_back(op);
  starts.push_back(nullptr);
  return starts;
}

}  // namespace pir::core
