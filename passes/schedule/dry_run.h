//===- dry_run.h - can every stage run its list to the end ------*- C++ -*-===//
//
// Steps all stages together: in each step every stage whose next job has all
// its dependencies (dependency.h) finished in an earlier step runs it. A
// deadlock is a step where unfinished stages remain and none can start; the
// report then holds a stage x step grid with each stuck job marked *like:0*
// and, per stuck stage, the job it waits for.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "passes/schedule/job.h"

namespace pir::passes::schedule {

struct DryRunResult {
  bool deadlock = false;
  int steps = 0;       ///< steps taken (to the end, or to the deadlock)
  std::string report;  ///< the grid and the waits; empty without a deadlock
  /// On a deadlock, per stage, the index of the job it is stuck at (-1: done).
  std::vector<int> stuckAt;
};

DryRunResult dryRun(const Schedule& schedule);

}  // namespace pir::passes::schedule
