//===- summary.cpp - summary.yaml ------------------------------------------===//
#include "runtime/runner/summary.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <vector>

#include "passes/schedule/costs.h"
#include "passes/schedule/simulator.h"

namespace pir::runtime::runner {

namespace sched = passes::schedule;

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string bytesByRingYaml(const std::map<int64_t, uint64_t>& bytesByRing) {
  std::string y = "{";
  for (auto& [ring, bytes] : bytesByRing)
    y += (y.size() > 1 ? ", " : "") + std::to_string(ring) + ": " + std::to_string(bytes);
  return y + "}";
}

namespace {

/// What a message costs per byte: the in-process world copies each one
/// (into the receiver's mailbox), so a copy's rate, best of a few 4 MiB
/// copies. Under MPI the transport is slower: the simulation then
/// underestimates communication.
double copyBytesPerUs() {
  constexpr size_t kBytes = size_t{4} << 20;
  std::vector<char> from(kBytes, 1), to(kBytes);
  double best = 0;
  for (int i = 0; i < 5; ++i) {
    auto start = std::chrono::steady_clock::now();
    std::memcpy(to.data(), from.data(), kBytes);
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (us > 0) best = std::max(best, double(kBytes) / us);
    from[size_t(i)] = to[kBytes - 1 - size_t(i)];  // keep the copies observable
  }
  return best;
}

/// `fused_updates` and `fused_loss_ops`: how many sgd_ updates the rank's
/// plans make in their gradient's GEMM (runtime/update_fusion.h), and how
/// many squares and square_grads in their loss's reduction and its grad
/// (runtime/loss_fusion.h).
std::string fusionsYaml(const RankSession& r) {
  size_t updates = 0, lossOps = 0;
  for (const JobPlan& j : r.jobs) {
    updates += j.executor->numFusedUpdates();
    lossOps += j.executor->numFusedLossOps();
  }
  return "\n    fused_updates: " + std::to_string(updates) + "\n    fused_loss_ops: " + std::to_string(lossOps);
}

std::string plainSummary(const Session& session, int64_t steps, const std::vector<double>& losses) {
  std::string y = "# pir-run summary\nranks: " + std::to_string(session.worldSize) +
                  "\nsteps: " + std::to_string(steps) + "\nloss: [";
  for (size_t i = 0; i < losses.size(); ++i) y += (i ? ", " : "") + number(losses[i]);
  y += "]\nper_rank:\n";
  for (const RankSession& r : session.ranks) {
    y += "  - rank: " + std::to_string(r.rank) + "\n    seconds: " + number(r.seconds) + "\n    step_seconds: [";
    for (size_t i = 0; i < r.stepSeconds.size(); ++i) y += (i ? ", " : "") + number(r.stepSeconds[i]);
    y += "]\n    kernel_seconds: " + number(r.kernelSeconds) + "\n    comm_seconds: " + number(r.commSeconds) +
         "\n    peak_tensor_bytes: " + std::to_string(r.peakBytes) + fusionsYaml(r) +
         "\n    bytes_sent: " + bytesByRingYaml(r.bytesSent) +
         "\n    bytes_received: " + bytesByRingYaml(r.bytesReceived) + "\n";
  }
  return y;
}

/// summary.yaml's pipeline part: the micro-batch losses, each rank's costs
/// and `costs:` (what `pir-opt schedule --costs` reads).
std::string pipelineSummary(const Session& set, const std::vector<double>& mbLosses) {
  const sched::Schedule& sc = set.schedule;
  std::string y = "# pir-run summary\nranks: " + std::to_string(set.worldSize) +
                  "\nmode: " + (sc.mode.empty() ? std::string("null") : sc.mode) +
                  "\nstages: " + std::to_string(sc.stages) + "\nmicro_batches: " + std::to_string(sc.microBatches) +
                  "\nmicro_batch_loss: [";
  for (size_t i = 0; i < mbLosses.size(); ++i) y += (i ? ", " : "") + number(mbLosses[i]);
  y += "]\nper_rank:\n";
  // Per stage and job type, the mean over micro-batches (and the stage's ranks).
  std::map<int, std::map<std::string, JobCost>> byStage;
  for (const RankSession& r : set.ranks) {
    y += "  - rank: " + std::to_string(r.rank) + "\n    stage: " + std::to_string(r.stage) +
         "\n    seconds: " + number(r.seconds) + "\n    comm_seconds: " + number(r.commSeconds) +
         "\n    peak_tensor_bytes: " + std::to_string(r.peakBytes) + fusionsYaml(r) +
         "\n    bytes_sent: " + bytesByRingYaml(r.bytesSent) +
         "\n    bytes_received: " + bytesByRingYaml(r.bytesReceived) + "\n";
    for (auto& [type, c] : r.costs) {
      byStage[r.stage][type].seconds += c.seconds;
      byStage[r.stage][type].runs += c.runs;
      byStage[r.stage][type].bytesSent += c.bytesSent;
    }
  }
  // Costs by kind (chunks merged), microseconds, mean over stages.
  std::map<std::string, double> byKind;
  y += "stage_costs_us:  # per stage, mean compute microseconds per job (communication waits excluded), and bytes "
       "sent per job (`pir-opt schedule --costs` reads both)\n";
  for (auto& [stage, types] : byStage) {
    y += "  - stage: " + std::to_string(stage) + "\n    jobs: {";
    bool first = true;
    std::map<std::string, JobCost> kinds;
    for (auto& [type, c] : types) {
      double us = c.runs ? c.seconds / double(c.runs) * 1e6 : 0;
      y += (first ? "" : ", ") + type + ": " + number(us);
      first = false;
      auto job = sched::parseJob(type);
      std::string kind = job ? std::string(sched::kindName(job->kind)) : type;
      kinds[kind].seconds += c.seconds;
      kinds[kind].runs += c.runs;
    }
    y += "}\n    bytes_sent: {";
    first = true;
    for (auto& [type, c] : types) {
      y += (first ? "" : ", ") + type + ": " + std::to_string(c.runs ? c.bytesSent / uint64_t(c.runs) : 0);
      first = false;
    }
    y += "}\n";
    for (auto& [kind, c] : kinds) byKind[kind] = std::max(byKind[kind], c.runs ? c.seconds / double(c.runs) * 1e6 : 0);
  }
  // The simulator takes one cost per kind: the slowest stage's, which bounds the makespan.
  auto cost = [&](const char* kind) {
    auto it = byKind.find(kind);
    return it == byKind.end() ? 0.0 : it->second;
  };
  double b = cost("backward_b"), w = cost("backward_w");
  if (b == 0 && w == 0) b = cost("backward");  // unsplit: all of it in backward_b
  auto us = [](double v) { return std::to_string(int64_t(v + 0.5)); };
  // What the run measured, to set beside the simulation of `costs`.
  int64_t first = INT64_MAX, last = 0;
  double busy = 0;
  for (const RankSession& r : set.ranks) {
    first = std::min(first, r.firstNs);
    last = std::max(last, r.lastNs);
    busy += r.busySeconds;
  }
  double makespan = last > first ? double(last - first) / 1e3 : 0;
  const int64_t lanes = int64_t(set.ranks.size());
  double bubble = sched::bubbleRatio(double(lanes) * makespan - busy * 1e6, lanes, makespan);
  y += "measured:  # first job's start to last job's end, and the idle share of the ranks' time\n  makespan_us: " +
       us(makespan) + "\n  bubble_ratio: " + number(bubble) + "\n  peak_in_flight: [";
  // Per rank, of its last step, as the simulator counts them.
  for (size_t i = 0; i < set.ranks.size(); ++i)
    y += (i ? ", " : "") + std::to_string(sched::peakInFlight(set.ranks[i].lastStep));
  y += "]\n  peak_tensor_bytes: [";
  for (size_t i = 0; i < set.ranks.size(); ++i) y += (i ? ", " : "") + std::to_string(set.ranks[i].peakBytes);
  y += "]\n";
  auto rounded = [](double v) { return int64_t(v + 0.5); };
  sched::Costs measured;
  measured.forward = rounded(cost("forward"));
  measured.backwardB = rounded(b);
  measured.backwardW = rounded(w);
  measured.optimizer = rounded(cost("optimizer"));
  measured.communication = 0;
  measured.bytesPerUs = copyBytesPerUs();
  y += sched::writeCostsEntry(measured,
                              "measured, for `pir-opt schedule --costs` (microseconds: mean over micro-batches, the "
                              "slowest stage's)");
  return y;
}

}  // namespace

std::string summaryYaml(const Session& session, int64_t steps, const SessionResults& results) {
  return session.pipelined ? pipelineSummary(session, results.microBatchLosses)
                           : plainSummary(session, steps, results.stepLosses);
}

}  // namespace pir::runtime::runner
