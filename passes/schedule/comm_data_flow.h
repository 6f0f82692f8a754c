//===- comm_data_flow.h - values handed from job to job -----------*- C++ -*-===//
//
// The runner's scope rule (runtime/runner/session.h): a job reads each
// kwarg from its micro-batch's scope (what the rank's earlier jobs of that
// micro-batch exported), then the feeds, then the shared scope. A kwarg
// that some program of the rank exports (builtin.shadow_output) is never
// fed, so an earlier job of the rank must have made it for the same
// micro-batch; any other kwarg, and every persistable one, is a feed,
// parameter or state. Each break is an error at the op reading the kwarg:
// `job X:mb reads 'NAME', which job Y:mb makes later` (or never, for that
// micro-batch). Linear in the jobs times their kwargs and exports, with a
// bit per exported name and micro-batch.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "passes/schedule/comm_ops.h"
#include "passes/schedule/comm_report.h"

namespace pir::passes::schedule {

void checkDataFlow(const RankRun& rank, CommErrors& errors);

}  // namespace pir::passes::schedule
