//===- simulator.h - timing a job list --------------------------*- C++ -*-===//
//
// Each stage runs its list in order; a job starts when its stage is free and
// every dependency (dependency.h) has ended, plus `communication` for a
// dependency on another stage. An overlapped pair (DualPipeV's F&B) runs as
// its two jobs one after the other, the first starting once the inputs of
// both are there, as dualpipev.py receives both before computing. Metrics:
//   makespan       end of the last job, the optimizer's included (it costs 0 unless
//                  --costs says otherwise, so unit-cost makespans are Paddle's);
//   bubble_ratio   sum over stages of idle time in [0, makespan] / (P * makespan);
//   peak_in_flight per stage, the most (chunk, micro-batch) pairs whose forward
//                  has started and whose last backward piece (backward, or
//                  backward_w when split) has not ended.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

#include "core/status.h"
#include "passes/schedule/costs.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

struct TimedJob {
  Job job;
  int64_t start = 0;
  int64_t end = 0;
};

struct Simulation {
  std::vector<std::vector<TimedJob>> stages;
  int64_t makespan = 0;
  double bubbleRatio = 0;
  std::vector<int> peakInFlight;
};

/// The bubble ratio, the one formula (the simulator's and pir-run's
/// measured one): the idle share of `lanes` timelines over [0, makespan],
/// idle / (lanes * makespan), where `idle` sums every lane's idle time in
/// it; 0 for an empty span.
double bubbleRatio(double idle, int64_t lanes, double makespan);

/// The most (chunk, micro-batch) pairs of one stage's timed jobs whose
/// forward has started and whose last backward piece has not ended: the
/// simulator's and pir-run's measured peak_in_flight.
int peakInFlight(const std::vector<TimedJob>& jobs);

/// Fails (naming the dry run) when the lists deadlock.
core::Result<Simulation> simulate(const Schedule& schedule, const Costs& costs);

}  // namespace pir::passes::schedule
