//===- run_pipeline.cpp - pir-run over pipeline job lists -----------------===//
#include "app/run_pipeline.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app/run_inputs.h"
#include "app/run_layout.h"
#include "app/run_outputs.h"
#include "app/run_pipeline_check.h"
#include "app/run_ranks.h"
#include "app/run_trace.h"
#include "app/run_world.h"
#include "core/clone.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"
#include "runtime/kernels/kernel_util.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;
namespace sched = passes::schedule;

namespace {

/// The suffix of gradient-merge's buffers (`<param>@GRAD@MERGE` kwargs).
constexpr std::string_view kMergeSuffix = "@GRAD@MERGE";

/// One job type's program on a rank.
struct JobProgram {
  std::string type;
  std::unique_ptr<runtime::Executor> executor;
  const core::SourceFile* source = nullptr;
};

/// Measured time of one job type on a rank: compute only (the job's time
/// less its waits in communication).
struct JobCost {
  double seconds = 0;
  int64_t runs = 0;
};

/// One rank of a pipeline: its job programs, scopes and measurements.
struct PipelineRank {
  int64_t rank = 0;
  int stage = -1;
  std::vector<JobProgram> jobs;
  TensorMap shared;                           // parameters, state, merge buffers
  std::vector<TensorMap> feeds;               // per micro-batch: the cut feeds
  std::vector<TensorMap> scopes;              // per micro-batch: the last step's values
  std::vector<Tensor> lossPieces;             // per step and micro-batch
  const core::SourceFile* current = nullptr;  // the running job's program (errors, deadlock reports)
  std::map<std::string, JobCost> costs;
  int64_t firstNs = INT64_MAX, lastNs = 0;  // the first job's start, the last one's end
  double busySeconds = 0;                   // compute time of every job
  TraceTrack track;
  double seconds = 0, commSeconds = 0;
  int64_t peakBytes = 0;
  std::map<int64_t, uint64_t> bytesByRing;

  JobProgram* job(const std::string& type) {
    for (auto& j : jobs)
      if (j.type == type) return &j;
    return nullptr;
  }
};

int fail(const std::string& msg) {
  std::fprintf(stderr, "%s%s", msg.c_str(), msg.ends_with("\n") ? "" : "\n");
  return 1;
}

const passes::LayoutValue* findValue(const passes::RankLayout& layout, const std::string& name, bool parameter) {
  auto kind = parameter ? passes::LayoutValueKind::Parameter : passes::LayoutValueKind::Data;
  for (auto& v : layout.values)
    if (v.name == name && v.kind == kind) return &v;
  return nullptr;
}

/// Everything a pipeline run needs.
struct PipelineSet {
  std::vector<std::unique_ptr<Loaded>> loaded;  // --programs: each job's file
  std::vector<PipelineRank> ranks;
  passes::RankLayout layout;
  sched::Schedule schedule;
  /// --check: the serial meaning, run on the whole-batch feeds; 0 when it agrees.
  std::function<int(const TensorMap& feeds, const TensorMap& results, const std::string& lossName)> check;
};

/// The global feeds and state, then each rank's pieces: feeds cut into
/// micro-batches first, each then sliced as ranks.yaml says.
Status loadPipelineInputs(const RunOptions& opts, PipelineSet& set, TensorMap& global) {
  const int64_t n = set.schedule.microBatches;
  for (PipelineRank& pr : set.ranks) {
    pr.feeds.assign(size_t(n), {});
    std::set<std::string> seen;
    for (JobProgram& jp : pr.jobs)
      for (runtime::ProgramInput in : jp.executor->inputs()) {
        if (!seen.insert(in.name).second) continue;
        if (in.kind == runtime::ProgramInput::Kind::Kwarg) {
          // gradient-merge's buffers: state of this rank, zero at the start.
          if (in.name.ends_with(kMergeSuffix)) pr.shared[in.name] = Tensor::zeros(in.dtype, in.shape);
          continue;
        }
        bool param = in.kind == runtime::ProgramInput::Kind::Parameter;
        const passes::LayoutValue* v = findValue(set.layout, in.name, param);
        if (!v && !param && in.persistable) {
          // State the rank passes made (a merge buffer): this rank's alone.
          if (Status s = loadInputs({in}, {opts.inputsDir, opts.seed}, *jp.source, pr.shared); !s) return s;
          continue;
        }
        if (!v)
          return Status::error("error: '" + in.name + "' (rank " + std::to_string(pr.rank) + ") is not in ranks.yaml");
        in.shape = v->shape;
        bool feed = !param && !in.persistable;
        if (feed) {
          if (in.shape.empty())
            return Status::error("error: feed '" + in.name + "' is 0-D: it cannot be cut into micro-batches");
          bool file = !opts.inputsDir.empty() && std::ifstream(opts.inputsDir + "/" + in.name + ".npy").good();
          if (in.shape[0] >= 0) in.shape[0] = file ? -1 : in.shape[0] * n;
        }
        if (!global.count(in.name))
          if (Status s = loadInputs({in}, {opts.inputsDir, opts.seed}, *jp.source, global); !s) return s;
        const Tensor& whole = global.at(in.name);
        if (!feed) {
          auto piece = slicePiece(*v, whole, pr.rank);
          if (!piece) return Status::error("error: " + piece.status().message());
          pr.shared[in.name] = *piece;
          continue;
        }
        if (whole.dim(0) % n != 0)
          return Status::error("error: feed '" + in.name + "': dim 0 (" + std::to_string(whole.dim(0)) +
                               ") is not divisible by --micro-batches " + std::to_string(n));
        if (v->shape[0] >= 0 && whole.dim(0) / n != v->shape[0])
          return Status::error("error: feed '" + in.name + "': dim 0 (" + std::to_string(whole.dim(0)) + ") is not " +
                               std::to_string(n) + " micro-batches of the program's " + std::to_string(v->shape[0]));
        for (int64_t j = 0; j < n; ++j) {
          auto piece = slicePiece(*v, microBatch(whole, j, n), pr.rank);
          if (!piece) return Status::error("error: " + piece.status().message());
          pr.feeds[size_t(j)][in.name] = *piece;
        }
      }
  }
  return Status::ok();
}

/// Runs one job of `pr`'s list on its micro-batch's scope.
Status runJob(PipelineRank& pr, const sched::Job& job, const RunOptions& opts, const std::string& lossName,
              runtime::Communicator& comm) {
  JobProgram* jp = pr.job(job.type());
  std::string where = "job " + job.name() + ": ";
  if (!jp) return Status::error(where + "rank " + std::to_string(pr.rank) + " has no program for it");
  pr.current = jp->source;
  TensorMap& scope = pr.scopes[size_t(job.microBatch)];
  TensorMap& feeds = pr.feeds[size_t(job.microBatch)];
  TensorMap in, out;
  for (const runtime::ProgramInput& i : jp->executor->inputs()) {
    auto it = scope.find(i.name);
    if (it == scope.end() && (it = feeds.find(i.name)) == feeds.end() &&
        (it = pr.shared.find(i.name)) == pr.shared.end())
      return Status::error(where + "'" + i.name + "' was made by no earlier job of micro-batch " +
                               std::to_string(job.microBatch) + " and is no feed, parameter or state",
                           i.op ? i.op->location() : -1);
    in[i.name] = it->second;
  }
  runtime::RunStats stats;
  size_t firstEvent = pr.track.events.size();
  if (!opts.trace.empty()) stats.events = &pr.track.events;
  double commBefore = comm.stats().seconds;
  auto start = std::chrono::steady_clock::now();
  Status s = jp->executor->run(in, out, &comm, &stats);
  auto end = std::chrono::steady_clock::now();
  if (!s) {
    if (s.message() == runtime::kStoppedMessage) return s;  // passed on as it is
    return Status::error(where + s.message(), s.offset());
  }
  double secs = std::chrono::duration<double>(end - start).count();
  JobCost& c = pr.costs[job.type()];
  double busy = std::max(0.0, secs - (comm.stats().seconds - commBefore));
  c.seconds += busy;
  c.runs += 1;
  pr.busySeconds += busy;
  int64_t startNs = std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
  pr.firstNs = std::min(pr.firstNs, startNs);
  pr.lastNs = std::max(pr.lastNs, startNs + int64_t(secs * 1e9));
  if (!opts.trace.empty()) {
    for (size_t e = firstEvent; e < pr.track.events.size(); ++e)
      pr.track.eventNames.emplace_back(jp->executor->stepOp(pr.track.events[e].step).name());
    pr.track.spans.push_back({job.name(), startNs, int64_t(secs * 1e9)});
  }
  for (auto& [name, t] : out) {
    if (auto it = pr.shared.find(name); it != pr.shared.end())
      it->second = t;  // builtin.set_parameter
    else
      scope[name] = t;
  }
  if (job.kind != sched::JobKind::Optimizer)
    if (auto it = out.find(lossName); it != out.end()) pr.lossPieces.push_back(it->second.clone());
  return Status::ok();
}

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

Status runPipelineRanks(const RunOptions& opts, PipelineSet& set, const std::string& lossName) {
  runtime::RingTable rings;
  for (const core::ProcessGroup& g : set.layout.rings.rings()) rings[g.ringId] = g.ranks;
  int64_t world = std::max<int64_t>(opts.ranks, set.layout.worldSize);
  auto sourceOf = [&](int64_t rank) -> const core::SourceFile* {
    for (auto& pr : set.ranks)
      if (pr.rank == rank) return pr.current;
    return nullptr;
  };
  auto rankOf = [&](int64_t rank) -> PipelineRank* {
    for (auto& r : set.ranks)
      if (r.rank == rank) return &r;
    return nullptr;
  };
  RankResults results{[&](int64_t rank) { return rankOf(rank) ? packRank(*rankOf(rank)) : std::string(); },
                      [&](int64_t rank, std::string_view bytes) {
                        return rankOf(rank) ? unpackRank(bytes, *rankOf(rank)) : Status::ok();
                      }};
  auto body = [&](int64_t rank, runtime::Communicator& comm) -> Status {
    PipelineRank* pr = rankOf(rank);
    if (!pr) return Status::ok();  // a rank in no mesh idles
    runtime::threadMemory() = {};
    auto start = std::chrono::steady_clock::now();
    for (int64_t step = 0; step < opts.steps; ++step) {
      pr->scopes.assign(pr->feeds.size(), {});
      for (const sched::Job& job : set.schedule.stageJobs[size_t(pr->stage)])
        if (Status s = runJob(*pr, job, opts, lossName, comm); !s) return s;
    }
    pr->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pr->commSeconds = comm.stats().seconds;
    pr->bytesByRing = comm.stats().bytesByRing;
    pr->peakBytes = runtime::threadMemory().peak;
    return Status::ok();
  };
  return runOnWorld(opts, world, rings, sourceOf, body, results);
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
         "\n    peak_tensor_bytes: " + std::to_string(r.peakBytes) + "\n    bytes_sent: {";
    bool first = true;
    for (auto& [ring, bytes] : r.bytesByRing) {
      y += (first ? "" : ", ") + std::to_string(ring) + ": " + std::to_string(bytes);
      first = false;
    }
    y += "}\n";
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

int runPipelineSet(const RunOptions& opts, PipelineSet& set) {
  if (opts.ranks > 0 && opts.ranks < set.layout.worldSize)
    return fail("error: --ranks " + std::to_string(opts.ranks) + " is smaller than the world size " +
                std::to_string(set.layout.worldSize));
  for (PipelineRank& pr : set.ranks) {
    if (pr.stage < 0 || pr.stage >= set.schedule.stages)
      return fail("error: rank " + std::to_string(pr.rank) + " is on stage " + std::to_string(pr.stage) +
                  ", the schedule has " + std::to_string(set.schedule.stages));
    for (const sched::Job& job : set.schedule.stageJobs[size_t(pr.stage)])
      if (!pr.job(job.type()))
        return fail("error: the schedule's job " + job.name() + " (stage " + std::to_string(pr.stage) +
                    ") has no program on rank " + std::to_string(pr.rank));
  }
  TensorMap global;
  if (Status s = loadPipelineInputs(opts, set, global); !s) return fail(s.message());
  std::string lossName = opts.loss;
  if (lossName.empty()) {
    std::vector<std::string> zeroD;
    for (auto& v : set.layout.values)
      if (v.kind == passes::LayoutValueKind::ShadowOutput && v.shape.empty()) zeroD.push_back(v.name);
    if (zeroD.size() == 1) lossName = zeroD[0];
  }
  // --check needs the inputs as they were: the run changes parameters in place.
  TensorMap original;
  if (set.check) original = cloneAll(global);
  if (Status s = runPipelineRanks(opts, set, lossName); !s) return fail(s.message());
  TensorMap results;
  std::vector<double> stepLosses, mbLosses;
  if (Status s = gatherResults(opts, set, lossName, results, stepLosses, mbLosses); !s) return fail(s.message());
  printLosses(lossName, stepLosses);
  if (set.check)
    if (int rc = set.check(original, results, lossName); rc != 0) return rc;
  std::vector<TraceTrack> tracks;
  for (PipelineRank& pr : set.ranks) {
    pr.track.rank = pr.rank;
    tracks.push_back(std::move(pr.track));
  }
  return finishRun(opts, tracks, results, pipelineSummary(set, mbLosses));
}

Status readSchedule(const std::string& path, sched::Schedule& out) {
  std::ifstream f(path);
  if (!f) return Status::error("error: cannot read the schedule '" + path + "'");
  std::stringstream text;
  text << f.rdbuf();
  auto s = sched::scheduleFromYaml(text.str(), path);
  if (!s) return Status::error("error: " + s.status().message());
  out = std::move(s.value());
  return Status::ok();
}

/// The schedule: --schedule FILE, else generated for `mode`.
Status makeSchedule(const RunOptions& opts, const std::string& mode, int stages, int vpp, bool splitBw,
                    sched::Schedule& out) {
  if (!opts.schedule.empty()) {
    if (Status s = readSchedule(opts.schedule, out); !s) return s;
    if (out.stages != stages)
      return Status::error("error: " + opts.schedule + " has " + std::to_string(out.stages) + " stages, the programs " +
                           std::to_string(stages));
    if (opts.microBatches > 0 && out.microBatches != opts.microBatches)
      return Status::error("error: " + opts.schedule + " has " + std::to_string(out.microBatches) +
                           " micro-batches, --micro-batches says " + std::to_string(opts.microBatches));
    return Status::ok();
  }
  if (mode.empty()) return Status::error("error: give --mode or --schedule: the programs name no schedule mode");
  sched::ScheduleOptions o;
  o.mode = mode;
  o.stages = stages;
  o.microBatches = int(opts.microBatches > 0 ? opts.microBatches : 1);
  o.vpp = vpp;
  o.splitBw = splitBw;
  auto s = sched::generateSchedule(o);
  if (!s) return Status::error("error: --mode " + mode + ": " + s.status().message());
  out = std::move(s.value());
  return Status::ok();
}

/// Stages unknown everywhere (one stage's programs) are stage 0.
int stageCount(std::vector<PipelineRank>& ranks) {
  int most = -1;
  for (auto& r : ranks) most = std::max(most, r.stage);
  if (most < 0)
    for (auto& r : ranks) r.stage = 0;
  return std::max(most, 0) + 1;
}

/// Each rank's stage when the passes record none: the position of the
/// first mesh holding it among the meshes of ranks.yaml's values (in
/// program order), counting only meshes that hold a rank first.
void stagesFromLayout(const passes::RankLayout& layout, std::vector<PipelineRank>& ranks) {
  for (auto& r : ranks)
    if (r.stage >= 0) return;
  std::vector<std::vector<int64_t>> meshes;
  std::map<int64_t, int> stage;
  for (const passes::LayoutValue& v : layout.values) {
    if (std::find(meshes.begin(), meshes.end(), v.processIds) != meshes.end()) continue;
    meshes.push_back(v.processIds);
    int next = 0;
    for (auto& [r, s] : stage) next = std::max(next, s + 1);
    bool fresh = false;
    for (int64_t r : v.processIds) fresh |= !stage.count(r);
    for (int64_t r : v.processIds)
      if (fresh) stage.emplace(r, next);
  }
  for (auto& r : ranks)
    if (auto it = stage.find(r.rank); it != stage.end()) r.stage = it->second;
}

}  // namespace

bool wantsPipeline(const RunOptions& opts) {
  return !opts.mode.empty() || !opts.schedule.empty() || opts.microBatches > 0;
}

int executePipelineDir(const RunOptions& opts) {
  if (opts.check) return fail("error: --check needs the distributed PROGRAM (its serial meaning), not --programs");
  auto manifest = passes::loadManifest(opts.programsDir + "/" + std::string(passes::kManifestName));
  if (!manifest) return fail(manifest.status().message());
  auto layout = passes::loadRankLayout(opts.programsDir + "/" + std::string(passes::kRankLayoutName));
  if (!layout) return fail(layout.status().message());
  PipelineSet set;
  set.layout = std::move(layout.value());
  for (const passes::ManifestProgram& mp : manifest->programs) {
    if (mp.rank < 0 || mp.job.empty())
      return fail("error: " + mp.name + ": a pipeline program needs a rank and a job in programs.yaml");
    PipelineRank* pr = nullptr;
    for (auto& r : set.ranks)
      if (r.rank == mp.rank) pr = &r;
    if (!pr) {
      pr = &set.ranks.emplace_back();
      pr->rank = mp.rank;
      pr->stage = mp.stage;
    }
    if (pr->job(mp.job)) return fail("error: two programs for job " + mp.job + " of rank " + std::to_string(mp.rank));
    auto l = std::make_unique<Loaded>();
    if (Status s = loadProgram(opts.programsDir + "/" + mp.file, *l); !s) return fail(s.message());
    auto compiled = runtime::Executor::compile(*l->program);
    if (!compiled) return fail(render(*l->source, compiled.status()));
    pr->jobs.push_back({mp.job, std::move(compiled.value()), l->source.get()});
    set.loaded.push_back(std::move(l));
  }
  if (set.ranks.empty()) return fail("error: " + opts.programsDir + " lists no program");
  stagesFromLayout(set.layout, set.ranks);
  int stages = stageCount(set.ranks);
  // The options, else what pipeline-split wrote into programs.yaml.
  std::string mode = opts.mode.empty() ? manifest->mode : opts.mode;
  int vpp = opts.vpp > 0 ? int(opts.vpp) : manifest->vpp > 0 ? manifest->vpp : 0;
  bool splitBw = opts.splitBw || manifest->splitBw == 1;
  if (Status s = makeSchedule(opts, mode, stages, vpp, splitBw, set.schedule); !s) return fail(s.message());
  return runPipelineSet(opts, set);
}

int executePipelineProgram(const RunOptions& opts, Loaded& l) {
  int64_t n = opts.microBatches > 0 ? opts.microBatches : 1;
  core::Context serialCtx;
  std::unique_ptr<core::Program> serial;
  if (opts.check) serial = core::cloneProgram(*l.program, serialCtx);
  std::string mode = sched::canonicalMode(opts.mode);
  if (mode.empty() && !opts.mode.empty()) return fail("error: --mode '" + opts.mode + "' is not a schedule mode");
  if (mode.empty() && !opts.schedule.empty()) {
    // The schedule's mode says which program set to make.
    sched::Schedule given;
    if (Status s = readSchedule(opts.schedule, given); !s) return fail(s.message());
    mode = sched::canonicalMode(given.mode);
    if (opts.microBatches == 0) n = given.microBatches;  // gradient-merge's k
  }
  if (mode.empty()) return fail("error: give --mode (or a --schedule naming its mode)");
  std::string pipeline = "apply-partition,split-ranks";
  if (passes::PassRegistry::instance().contains("gradient-merge"))
    pipeline += ",gradient-merge{k=" + std::to_string(n) + " avg=true}";
  else if (n > 1)
    return fail("error: --micro-batches " + std::to_string(n) + " needs the gradient-merge pass");
  // ZB1P runs ZBH1's program set.
  pipeline += ",pipeline-split{mode=" + (mode == "ZB1P" ? std::string("ZBH1") : mode);
  if (opts.vpp > 1) pipeline += " vpp=" + std::to_string(opts.vpp);
  if (opts.splitBw) pipeline += " split-bw=true";
  pipeline += "}";
  core::DiagnosticEngine diag(l.source.get());
  std::vector<passes::PassSpec> specs;
  passes::PassManager pm;
  if (!passes::parsePassPipeline(pipeline, specs, diag) || !pm.addPipeline(specs, diag))
    return std::fprintf(stderr, "%s", diag.render().c_str()), 2;
  core::ProgramSet programs;
  programs.programs.emplace_back("", std::move(l.program));
  if (Status s = pm.run(programs, diag); !s) {
    if (diag.hasErrors())
      std::fprintf(stderr, "%s", diag.render().c_str());
    else
      std::fprintf(stderr, "%s", render(*l.source, s, "pipeline: ").c_str());
    return s.isInternal() ? 2 : 1;
  }
  PipelineSet set;
  bool haveLayout = false;
  for (const auto& pass : pm.passes())
    for (const auto& [name, content] : pass->outputFiles())
      if (name == passes::kRankLayoutName) {
        auto layout = passes::parseRankLayout(content);
        if (!layout) return fail("internal error: ranks.yaml: " + layout.status().message()), 2;
        set.layout = std::move(layout.value());
        haveLayout = true;
      }
  if (!haveLayout) return fail("internal error: split-ranks made no ranks.yaml"), 2;
  for (core::NamedProgram& np : programs.programs) {
    auto compiled = runtime::Executor::compile(*np.program);
    if (!compiled)
      return fail(render(*l.source, compiled.status(), "rank " + std::to_string(np.rank) + " " + np.job + ": "));
    PipelineRank* pr = nullptr;
    for (auto& r : set.ranks)
      if (r.rank == np.rank) pr = &r;
    if (!pr) {
      pr = &set.ranks.emplace_back();
      pr->rank = np.rank;
      pr->stage = np.stage;
    }
    pr->jobs.push_back({np.job, std::move(compiled.value()), l.source.get()});
  }
  stagesFromLayout(set.layout, set.ranks);
  if (Status s = makeSchedule(opts, mode, stageCount(set.ranks), int(opts.vpp), opts.splitBw, set.schedule); !s)
    return fail(s.message());
  if (serial)
    set.check = [&](const TensorMap& feeds, const TensorMap& results, const std::string& lossName) {
      return checkPipelineSerial(opts, *l.source, *serial, set.schedule.microBatches, feeds, results, lossName);
    };
  int rc = runPipelineSet(opts, set);
  set.ranks.clear();  // the plans point into the programs
  return rc;
}

}  // namespace pir::app
