//===- known_reshards.h - a program's reshards, found by its maker -*- C++ -*-===//
//
// lower-reshard lowers every `dist_op.reshard` of a program, and finding
// them is a walk over every op: at 1M ops, split-ranks' copy of the input
// for a rank has 2.25M ops after lowering and each walk misses the cache on
// most of them. split-ranks knows where the input's reshards are (once, for
// every rank) and which op of its copy each became, so it hands lower-reshard
// the list as a result (PassResults) for that copy; lower-reshard walks the
// program itself when no list is given for it.
//
// Going the other way, lower-reshard tells the next pass how many reshards
// it left (fake reshards of a rank outside a mesh), so partition-rank,
// whose walk exists to erase them and ops of other ranks, can know there is
// nothing to erase without walking.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

#include "core/operation.h"
#include "core/program.h"

namespace pir::passes {

/// The ops lower-reshard lowers.
inline bool isReshard(const core::Operation& op) { return op.name() == "dist_op.reshard"; }

/// Every reshard of `program`, in walk order, as the program's maker found
/// it before any pass ran on it.
struct KnownReshards {
  const core::Program* program = nullptr;
  std::vector<core::Operation*> ops;
};

/// How many reshards lower-reshard left in `program`, for the next pass
/// only (PassResults::setForNextPass): the fake ones its lowerings made.
/// Every other one it lowered, which holds as long as a KnownReshards list
/// it was given holds every reshard, as its maker promises.
struct ReshardsLeft {
  const core::Program* program = nullptr;
  size_t count = 0;
};

}  // namespace pir::passes
