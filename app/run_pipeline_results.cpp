//===- run_pipeline_results.cpp - a pipeline run's results ----------------===//
#include <algorithm>
#include <climits>

#include "app/run_layout.h"
#include "app/run_pipeline_check.h"
#include "app/run_pipeline_rank.h"
#include "app/run_world.h"
#include "passes/schedule/job.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;
namespace sched = passes::schedule;

/// Under mpirun, what a rank's process sends rank 0: every result of a
/// PipelineRank (not its plans, which rank 0 has too).
std::string packRank(const PipelineRank& r) {
  BlobWriter w;
  w.put(r.shared), w.put(uint64_t(r.scopes.size()));
  for (const TensorMap& m : r.scopes) w.put(m);
  w.put(r.lossPieces), w.put(uint64_t(r.costs.size()));
  for (const auto& [type, c] : r.costs) w.put(type), w.put(c);
  w.put(r.firstNs), w.put(r.lastNs), w.put(r.busySeconds), w.put(r.track.events);
  w.put(uint64_t(r.track.eventNames.size()));
  for (const std::string& n : r.track.eventNames) w.put(n);
  w.put(uint64_t(r.track.spans.size()));
  for (const TraceSpan& sp : r.track.spans) w.put(sp.name), w.put(sp.startNs), w.put(sp.durationNs);
  w.put(r.seconds), w.put(r.commSeconds), w.put(r.peakBytes), w.put(r.bytesByRing);
  return w.take();
}

Status unpackRank(std::string_view bytes, PipelineRank& r) {
  BlobReader in(bytes);
  uint64_t n = 0;
  r.shared.clear();
  in.get(r.shared), in.get(n);
  r.scopes.assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
  for (TensorMap& m : r.scopes) in.get(m);
  in.get(r.lossPieces), in.get(n);
  for (uint64_t i = 0; i < n && i < bytes.size(); ++i) {
    std::string type;
    in.get(type);
    in.get(r.costs[type]);
  }
  in.get(r.firstNs), in.get(r.lastNs), in.get(r.busySeconds), in.get(r.track.events), in.get(n);
  r.track.eventNames.assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
  for (std::string& name : r.track.eventNames) in.get(name);
  in.get(n);
  r.track.spans.assign(size_t(std::min<uint64_t>(n, bytes.size())), {});
  for (TraceSpan& sp : r.track.spans) in.get(sp.name), in.get(sp.startNs), in.get(sp.durationNs);
  in.get(r.seconds), in.get(r.commSeconds), in.get(r.peakBytes), in.get(r.bytesByRing);
  return in.ok() ? Status::ok()
                 : Status::internal("internal error: rank " + std::to_string(r.rank) + "'s results are cut short\n");
}

/// summary.yaml's pipeline part: the micro-batch losses, each rank's costs
/// and `costs:` (what `pir-opt schedule --costs` reads).
std::string pipelineSummary(const PipelineSet& set, const std::vector<double>& mbLosses) {
  const sched::Schedule& sc = set.schedule;
  std::string y = "# pir-run summary\nranks: " + std::to_string(set.ranks.size()) +
                  "\nmode: " + (sc.mode.empty() ? std::string("null") : sc.mode) +
                  "\nstages: " + std::to_string(sc.stages) + "\nmicro_batches: " + std::to_string(sc.microBatches) +
                  "\nmicro_batch_loss: [";
  for (size_t i = 0; i < mbLosses.size(); ++i) y += (i ? ", " : "") + number(mbLosses[i]);
  y += "]\nper_rank:\n";
  // Per stage and job type, the mean over micro-batches (and the stage's ranks).
  std::map<int, std::map<std::string, JobCost>> byStage;
  for (const PipelineRank& r : set.ranks) {
    y += "  - rank: " + std::to_string(r.rank) + "\n    stage: " + std::to_string(r.stage) +
         "\n    seconds: " + number(r.seconds) + "\n    comm_seconds: " + number(r.commSeconds) +
         "\n    peak_tensor_bytes: " + std::to_string(r.peakBytes) +
         "\n    bytes_sent: " + bytesByRingYaml(r.bytesByRing) + "\n";
    for (auto& [type, c] : r.costs) {
      byStage[r.stage][type].seconds += c.seconds;
      byStage[r.stage][type].runs += c.runs;
    }
  }
  // Costs by kind (chunks merged), microseconds, mean over stages.
  std::map<std::string, double> byKind;
  y += "stage_costs_us:  # per stage, mean compute microseconds per job (communication waits excluded)\n";
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
  for (const PipelineRank& r : set.ranks) {
    first = std::min(first, r.firstNs);
    last = std::max(last, r.lastNs);
    busy += r.busySeconds;
  }
  double makespan = last > first ? double(last - first) / 1e3 : 0;
  double bubble = makespan > 0 ? 1 - busy * 1e6 / (double(set.ranks.size()) * makespan) : 0;
  y += "measured:  # first job's start to last job's end, and the idle share of the ranks' time\n  makespan_us: " +
       us(makespan) + "\n  bubble_ratio: " + number(bubble) + "\n";
  y += "costs:  # measured, for `pir-opt schedule --costs` (microseconds: mean over micro-batches, the slowest "
       "stage's)\n"
       "  forward: " +
       us(cost("forward")) + "\n  backward_b: " + us(b) + "\n  backward_w: " + us(w) +
       "\n  optimizer: " + us(cost("optimizer")) + "\n  communication: 0\n";
  return y;
}

/// Stacks every fetched output over micro-batches, assembles it across
/// ranks; adds parameters and state. `mbLosses` gets the last step's losses.
Status gatherResults(const RunOptions& opts, PipelineSet& set, const std::string& lossName, TensorMap& results,
                     std::vector<double>& stepLosses, std::vector<double>& mbLosses) {
  const int64_t n = set.schedule.microBatches;
  for (const passes::LayoutValue& v : set.layout.values) {
    bool out = v.kind == passes::LayoutValueKind::ShadowOutput;
    if (!out && v.kind != passes::LayoutValueKind::Parameter && !v.persistable) continue;
    if (!out) {
      std::map<int64_t, Tensor> byRank;
      for (auto& r : set.ranks)
        if (auto it = r.shared.find(v.name); it != r.shared.end()) byRank[r.rank] = it->second;
      auto value = assemble(v, byRank);
      if (!value) return Status::error("error: " + value.status().message());
      results[v.name] = *value;
      continue;
    }
    std::vector<Tensor> parts;
    for (int64_t j = 0; j < n; ++j) {
      std::map<int64_t, Tensor> byRank;
      for (auto& r : set.ranks)
        if (auto it = r.scopes[size_t(j)].find(v.name); it != r.scopes[size_t(j)].end()) byRank[r.rank] = it->second;
      if (byRank.empty()) break;
      auto value = assemble(v, byRank);
      if (!value) return Status::error("error: " + value.status().message());
      parts.push_back(*value);
    }
    if (int64_t(parts.size()) == n) results[v.name] = stackMicroBatches(parts);
    if (v.name != lossName) continue;
    for (int64_t k = 0; k < opts.steps * n; ++k) {
      std::map<int64_t, Tensor> pieces;
      for (auto& r : set.ranks)
        if (size_t(k) < r.lossPieces.size()) pieces[r.rank] = r.lossPieces[size_t(k)];
      auto l = assemble(v, pieces);
      if (!l) continue;
      if (auto x = scalarOf(*l)) {
        if (k % n == 0) stepLosses.push_back(0);
        stepLosses.back() += *x / double(n);
        if (k >= (opts.steps - 1) * n) mbLosses.push_back(*x);
      }
    }
  }
  return Status::ok();
}

}  // namespace pir::app
