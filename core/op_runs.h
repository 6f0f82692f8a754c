//===- op_runs.h - a block's ops cut into runs for threads ------*- C++ -*-===//
//
// The threaded printer and verifier give each thread runs of consecutive
// ops of a program's body. Finding where runs start means walking the
// block's list, and at 1M ops that walk is a cache miss per op (~0.1 s
// here, on the one thread, before the others can start). So landmarks,
// every ~1024th op with its position, are kept with the program: the
// threaded reader leaves them (each chunk's chain notes its own,
// OpChain::landmarks), and otherwise the first walk makes them for the next
// user (the printer after the verifier). They stay usable while no op has
// left the body (Block::removals) and it has at most half again the ops it
// had: a pass that links ops in (apply-partition's reshards, 48% more ops)
// does not cost the walk, which at 1M ops was 9% of such a run. Positions
// are then those of when they were taken, so a run may hold the ops linked
// in since beside its share: a pass that linked half again the ops into one
// place would give one run (whose text the printer buffers) all of them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <utility>
#include <vector>

#include "core/operation.h"

namespace pir::core {

class OpLandmarks {
 public:
  using Landmark = std::pair<const Operation*, size_t>;  // an op and its position in the block

  /// Landmarks of `block` as it is now: in order, the first at position 0.
  void set(const Block& block, std::vector<Landmark> landmarks) {
    block_ = &block;
    removals_ = block.removals();
    opsWhenSet_ = block.numOps();
    landmarks_ = std::move(landmarks);
  }

  /// Whether the landmarks are of `block` with only ops linked in since,
  /// not too many of them, and still start at its front.
  bool usable(const Block& block) const {
    return block_ == &block && removals_ == block.removals() && block.numOps() <= opsWhenSet_ + opsWhenSet_ / 2 &&
           !landmarks_.empty() && landmarks_[0].second == 0 && landmarks_[0].first == block.front();
  }
  const std::vector<Landmark>& landmarks() const { return landmarks_; }

  /// The first op of each of at most `runs` runs of about equal length
  /// (each at least n / runs ops, at most OpChain::kLandmarkStride more
  /// plus the ops linked in since the landmarks were taken), then a null
  /// (the end of the last run).
  std::vector<const Operation*> runs(const Block& block, size_t runs) {
    size_t n = block.numOps();
    if (n == 0 || runs == 0) return {nullptr};
    if (!usable(block)) walk(block);
    size_t per = (n + runs - 1) / runs;
    std::vector<const Operation*> starts;
    starts.reserve(runs + 1);
    size_t next = 0;
    for (const Landmark& l : landmarks_)
      if (l.second >= next) {
        starts.push_back(l.first);
        next = l.second + per;
      }
    starts.push_back(nullptr);
    return starts;
  }

 private:
  void walk(const Block& block) {
    std::vector<Landmark> found;
    found.reserve(block.numOps() / OpChain::kLandmarkStride + 1);
    size_t at = 0, left = 0;  // a countdown, not `at % stride`: a division per op costs more than the load
    for (const Operation* op = block.front(); op; op = op->nextOp(), ++at) {
      if (left == 0) {
        found.emplace_back(op, at);
        left = OpChain::kLandmarkStride;
      }
      --left;
    }
    set(block, std::move(found));
  }

  const Block* block_ = nullptr;
  uint64_t removals_ = 0;
  size_t opsWhenSet_ = 0;
  std::vector<Landmark> landmarks_;
};

}  // namespace pir::core
