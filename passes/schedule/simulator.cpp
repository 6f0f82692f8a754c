//===- simulator.cpp - timing a job list ------------------------------------===//
#include "passes/schedule/simulator.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "passes/schedule/dependency.h"

namespace pir::passes::schedule {

namespace {

using Key = std::tuple<int, JobKind, int, int>;

Key keyOf(int stage, const Job& job) { return {stage, job.kind, job.chunkIndex(), job.microBatch}; }

/// The start time of `job` on `stage` if every dependency has ended.
bool readyAt(const DependencyModel& model, const std::map<Key, int64_t>& ends, int stage, const Job& job, int64_t free,
             const Costs& costs, int64_t& start, const Job* pairedWith = nullptr) {
  start = free;
  for (const Dependency& dep : model.dependencies(stage, job)) {
    if (pairedWith && dep.stage == stage && keyOf(stage, dep.job) == keyOf(stage, *pairedWith)) continue;
    auto it = ends.find(keyOf(dep.stage, dep.job));
    if (it == ends.end()) return false;
    start = std::max(start, it->second + (dep.crossStage ? costs.communicationAfter(dep.stage, dep.job) : 0));
  }
  return true;
}

void computeMetrics(Simulation& sim) {
  const int p = int(sim.stages.size());
  for (const auto& jobs : sim.stages)
    for (const TimedJob& t : jobs) sim.makespan = std::max(sim.makespan, t.end);
  int64_t idle = 0;
  sim.peakInFlight.assign(p, 0);
  for (int s = 0; s < p; ++s) {
    int64_t busy = 0;
    for (const TimedJob& t : sim.stages[s]) busy += t.end - t.start;
    idle += sim.makespan - busy;
    sim.peakInFlight[s] = peakInFlight(sim.stages[s]);
  }
  sim.bubbleRatio = bubbleRatio(double(idle), p, double(sim.makespan));
}

}  // namespace

int peakInFlight(const std::vector<TimedJob>& jobs) {
  std::map<std::pair<int, int>, std::pair<int64_t, int64_t>> life;  // (chunk, mb) -> F start, last end
  for (const TimedJob& t : jobs) {
    if (t.job.kind == JobKind::Optimizer) continue;
    auto& span = life[{t.job.chunkIndex(), t.job.microBatch}];
    if (t.job.kind == JobKind::Forward) span.first = t.start;
    if (t.job.kind == JobKind::Backward || t.job.kind == JobKind::BackwardW) span.second = t.end;
  }
  std::vector<std::pair<int64_t, int>> events;  // ends (-1) sort before starts (+1)
  for (const auto& [pair, span] : life) {
    events.emplace_back(span.first, 1);
    events.emplace_back(span.second, -1);
  }
  std::sort(events.begin(), events.end());
  int live = 0, peak = 0;
  for (const auto& [time, delta] : events) peak = std::max(peak, live += delta);
  return peak;
}

double bubbleRatio(double idle, int64_t lanes, double makespan) {
  return makespan > 0 && lanes > 0 ? idle / (double(lanes) * makespan) : 0.0;
}

core::Result<Simulation> simulate(const Schedule& schedule, const Costs& costs) {
  DependencyModel model(schedule);
  const int p = int(schedule.stageJobs.size());
  Simulation sim;
  sim.stages.resize(p);
  std::vector<int64_t> free(p, 0);
  std::map<Key, int64_t> ends;
  for (bool progress = true; progress;) {
    progress = false;
    for (int s = 0; s < p; ++s) {
      const auto& jobs = schedule.stageJobs[s];
      for (size_t i = sim.stages[s].size(); i < jobs.size(); ++i) {
        int64_t start = 0;
        if (!readyAt(model, ends, s, jobs[i], free[s], costs, start)) break;
        // An overlapped pair starts when the inputs of both have arrived
        // (dualpipev.py's _forward_backward_chunk receives both first).
        if (i + 1 < jobs.size() && jobs[i + 1].overlapsPrevious) {
          int64_t pairStart = 0;
          if (!readyAt(model, ends, s, jobs[i + 1], free[s], costs, pairStart, &jobs[i])) break;
          start = std::max(start, pairStart);
        }
        int64_t end = start + costs.of(s, jobs[i]);
        sim.stages[s].push_back({jobs[i], start, end});
        ends[keyOf(s, jobs[i])] = end;
        free[s] = end;
        progress = true;
      }
    }
  }
  for (int s = 0; s < p; ++s)
    if (sim.stages[s].size() != schedule.stageJobs[s].size())
      return core::Status::error("the job lists deadlock (see the dry run); stage " + std::to_string(s) + " stops at " +
                                 schedule.stageJobs[s][sim.stages[s].size()].name());
  computeMetrics(sim);
  return sim;
}

}  // namespace pir::passes::schedule
