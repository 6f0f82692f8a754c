//===- comm_simulator.h - every rank's communication, stepped together -*- C++ -*-===//
//
// The communication check's symbolic execution (comm_check.h): each rank
// runs its job list, op by op of each job's communication, until it blocks
// in a receive whose message is not there or in a collective some member
// of the ring has not reached; a send wakes the receiver it is for, the
// last member of a collective releases the others. Each op is stepped
// once, and once more per wake-up: linear in the ops of the job lists.
// When every rank is blocked or done, a receive that could pair only
// wrongly (a message_index on one end) takes that message and is reported;
// when none can, it is a deadlock (comm_deadlock.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

#include "core/process_group.h"
#include "passes/schedule/comm_report.h"

namespace pir::passes::schedule {

struct CommCounts {
  int64_t messages = 0, collectives = 0;
};

/// Runs `ranks` (ascending by rank) over `rings`; what goes wrong into
/// `errors`: pairing and type errors as they happen, then a deadlock, or
/// else every message never received.
CommCounts simulateCommunication(const std::vector<RankRun>& ranks, const core::RingTable& rings, CommErrors& errors);

}  // namespace pir::passes::schedule
