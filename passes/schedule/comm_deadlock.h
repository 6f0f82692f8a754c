//===- comm_deadlock.h - what every blocked rank waits for --------*- C++ -*-===//
//
// When no rank of the communication check can go on and some have jobs
// left, the report is one error: the cycle of waits when there is one
// (rank A waits for B, ..., which waits for A: found by following who waits
// on whom), located at the first rank's op; then a note per blocked rank,
// the cycle's first, at the op it waits in: what it waits for (a receive
// from rank X on ring R, or a collective on ring R still missing ranks),
// and of a rank it waits for that will never send, why (done, or no
// program).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "passes/schedule/comm_report.h"

namespace pir::passes::schedule {

/// A blocked rank.
struct RankWait {
  JobSite site;
  const CommOp* op = nullptr;     ///< the recv_v2 or collective it waits in
  std::vector<int64_t> waitsFor;  ///< global ranks: the peer, or the ring's members not there yet
  int64_t collectiveNumber = 0;   ///< a collective: its number on the ring for this rank, from 1
};

/// The deadlock's error. `idle(rank)` says why a rank that is not blocked
/// will never act ("done", "runs no program").
core::Diagnostic deadlockDiagnostic(const std::vector<RankWait>& waits,
                                    const std::function<std::string(int64_t)>& idle);

}  // namespace pir::passes::schedule
