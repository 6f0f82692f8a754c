//===- generate.h - job lists per pipeline mode -----------------*- C++ -*-===//
//
// FThenB, 1F1B, VPP and ZBVPP reproduce Paddle's job lists exactly
// (python/paddle/distributed/passes/pipeline_scheduler_pass/); ZB1P is ours
// (zb1p.cpp); ZBH1, ZBV and DualPipeV follow their authors' code (zbh1.cpp,
// zbv.cpp, dualpipev.cpp). generateSchedule checks the options and dispatches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "passes/schedule/costs.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

struct ScheduleOptions {
  std::string mode;  ///< FThenB, 1F1B, VPP, ZBH1, ZBVPP, ZB1P, ZBV or DualPipeV (any case)
  int stages = 0;
  int microBatches = 0;
  int vpp = 0;  ///< 0: not given (1, or 2 for ZBVPP)
  bool splitBw = false;
  Costs costs;          ///< simulation costs; ZBVPP also schedules with them when fromFile
  int maxInFlight = 0;  ///< ZB1P only; 0: not given (P)
};

/// The canonical spelling of a mode name, or "" when unknown.
std::string canonicalMode(const std::string& mode);

/// Whether the job programs of `mode` (canonical) split the backward into
/// backward_b and backward_w: ZBH1, ZB1P, ZBVPP, ZBV, DualPipeV, and VPP
/// with split-bw. Their pass pipeline runs split-matmul-grad first, so that
/// a matmul_grad's weight gradient lands in backward_w (Paddle's VPP pass
/// splits it too, PR #68742).
bool splitsBackward(const std::string& mode, bool splitBw);

/// The pass pipeline that makes a pipelined run's job programs from a
/// distributed program (what pir-run runs, and docs/pipelines.md shows):
/// apply-partition, split-ranks (`splitRanks`: the pass with its options,
/// e.g. a planner), gradient-merge{k=N avg=true}, then
/// split-matmul-grad where splitsBackward, then pipeline-split.
std::string pipelinePassPipeline(const std::string& mode, int64_t microBatches, int64_t vpp, bool splitBw,
                                 const std::string& splitRanks = "split-ranks");

/// Checks the options (clear errors for what Paddle would assert or ignore)
/// and builds every stage's job list.
core::Result<Schedule> generateSchedule(const ScheduleOptions& options);

// One stage's list, exactly as Paddle's _create_job_list builds it.
std::vector<Job> fthenbJobs(int stages, int microBatches, int stage);
std::vector<Job> oneFOneBJobs(int stages, int microBatches, int stage);
std::vector<Job> vppJobs(int stages, int microBatches, int vpp, int stage, bool splitBw);
/// One stage's ZB-H1 list, the zero-bubble paper's (zbh1.cpp; not Paddle's).
std::vector<Job> zbh1Jobs(int stages, int microBatches, int stage);

/// Paddle's VScheduleCreator (pipeline_zero_bubble.py at 06a80bf; the N
/// Paddle's pass refuses at 0ab6998c, N != P, generateSchedule refuses).
core::Result<Schedule> zbvppSchedule(int stages, int microBatches, int vpp, const Costs& costs);
/// ZB-V, the zero-bubble paper's handcrafted V schedule (zbv.cpp).
core::Result<Schedule> zbvSchedule(int stages, int microBatches);
/// DeepSeek's DualPipeV (dualpipev.cpp); needs microBatches >= 2 * stages.
core::Result<Schedule> dualPipeVSchedule(int stages, int microBatches);
/// Our zero-bubble schedule (see zb1p.cpp).
core::Result<Schedule> zb1pSchedule(int stages, int microBatches, const Costs& costs, int maxInFlight);

}  // namespace pir::passes::schedule
