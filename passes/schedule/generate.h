//===- generate.h - job lists per pipeline mode -----------------*- C++ -*-===//
//
// FThenB, 1F1B, VPP, ZBH1 and ZBVPP reproduce Paddle's job lists exactly
// (python/paddle/distributed/passes/pipeline_scheduler_pass/); ZB1P is ours
// (zb1p.cpp). generateSchedule checks the options and dispatches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "passes/schedule/costs.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

struct ScheduleOptions {
  std::string mode;  ///< FThenB, 1F1B, VPP, ZBH1, ZBVPP or ZB1P (any case)
  int stages = 0;
  int microBatches = 0;
  int vpp = 0;  ///< 0: not given (1, or 2 for ZBVPP)
  bool splitBw = false;
  Costs costs;          ///< simulation costs; ZBVPP also schedules with them when fromFile
  int maxInFlight = 0;  ///< ZB1P only; 0: not given (P)
};

/// The canonical spelling of a mode name, or "" when unknown.
std::string canonicalMode(const std::string& mode);

/// Checks the options (clear errors for what Paddle would assert or ignore)
/// and builds every stage's job list.
core::Result<Schedule> generateSchedule(const ScheduleOptions& options);

// One stage's list, exactly as Paddle's _create_job_list builds it.
std::vector<Job> fthenbJobs(int stages, int microBatches, int stage);
std::vector<Job> oneFOneBJobs(int stages, int microBatches, int stage);
std::vector<Job> vppJobs(int stages, int microBatches, int vpp, int stage, bool splitBw);
std::vector<Job> zbh1Jobs(int stages, int microBatches, int stage);

/// Paddle's VScheduleCreator (pipeline_zero_bubble.py at 06a80bf; the N
/// Paddle's pass refuses at 0ab6998c, N != P, generateSchedule refuses).
core::Result<Schedule> zbvppSchedule(int stages, int microBatches, int vpp, const Costs& costs);
/// Our zero-bubble schedule (see zb1p.cpp).
core::Result<Schedule> zb1pSchedule(int stages, int microBatches, const Costs& costs, int maxInFlight);

}  // namespace pir::passes::schedule
