//===- run_pipeline.cpp - pir-run over pipeline job lists -----------------===//
#include "app/run_pipeline.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "app/run_inputs.h"
#include "app/run_layout.h"
#include "app/run_outputs.h"
#include "app/run_pipeline_check.h"
#include "app/run_pipeline_rank.h"
#include "app/run_ranks.h"
#include "app/run_timing.h"
#include "app/run_trace.h"
#include "core/clone.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;
namespace sched = passes::schedule;

namespace {

/// The suffix of gradient-merge's buffers (`<param>@GRAD@MERGE` kwargs).
constexpr std::string_view kMergeSuffix = "@GRAD@MERGE";

int fail(const std::string& msg) {
  std::fprintf(stderr, "%s%s", msg.c_str(), msg.ends_with("\n") ? "" : "\n");
  return 1;
}

/// The global feeds and state, then each rank's pieces: feeds cut into
/// micro-batches first, each then sliced as ranks.yaml says.
Status loadPipelineInputs(const RunOptions& opts, PipelineSet& set, TensorMap& global) {
  const int64_t n = set.schedule.microBatches;
  const passes::LayoutIndex index(set.layout);
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
        const passes::LayoutValue* v =
            index.find(in.name, param ? passes::LayoutValueKind::Parameter : passes::LayoutValueKind::Data);
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
      pr.track.eventNames.push_back(eventName(*jp->executor, pr.track.events[e]));
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
  RunProgress progress("jobs");
  auto body = [&](int64_t rank, runtime::Communicator& comm) -> Status {
    PipelineRank* pr = rankOf(rank);
    if (!pr) return Status::ok();  // a rank in no mesh idles
    runtime::threadMemory() = {};
    auto start = std::chrono::steady_clock::now();
    const auto& jobs = set.schedule.stageJobs[size_t(pr->stage)];
    auto opsOf = [&](const sched::Job& job) {
      JobProgram* jp = pr->job(job.type());
      return jp ? int64_t(jp->executor->numSteps()) : int64_t(0);
    };
    int64_t stepOps = 0;
    for (const sched::Job& job : jobs) stepOps += opsOf(job);
    progress.expect(opts.steps * int64_t(jobs.size()), opts.steps * stepOps);
    for (int64_t step = 0; step < opts.steps; ++step) {
      pr->scopes.assign(pr->feeds.size(), {});
      for (const sched::Job& job : jobs) {
        if (Status s = runJob(*pr, job, opts, lossName, comm); !s) return s;
        progress.done(1, opsOf(job));
      }
    }
    pr->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pr->commSeconds = comm.stats().seconds;
    pr->bytesByRing = comm.stats().bytesByRing;
    pr->peakBytes = runtime::threadMemory().peak;
    return Status::ok();
  };
  return runOnWorld(opts, world, rings, sourceOf, body, results, progress);
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
  {
    PhaseTimer timer("inputs");
    if (Status s = loadPipelineInputs(opts, set, global); !s) return fail(s.message());
  }
  std::string lossName = pickLoss(opts, set.layout);
  // --check needs the inputs as they were: the run changes parameters in place.
  TensorMap original;
  if (set.check) original = cloneAll(global);
  if (Status s = runPipelineRanks(opts, set, lossName); !s) return fail(s.message());
  TensorMap results;
  std::vector<double> stepLosses, mbLosses;
  std::optional<PhaseTimer> assembleTimer(std::in_place, "assemble");
  if (Status s = gatherResults(opts, set, lossName, results, stepLosses, mbLosses); !s) return fail(s.message());
  assembleTimer.reset();
  printLosses(lossName, stepLosses);
  if (set.check) {
    PhaseTimer timer("check");
    if (int rc = set.check(original, results, lossName); rc != 0) return rc;
  }
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
  auto layout = loadLayout(opts.programsDir);
  if (!layout) return fail(layout.status().message());
  PipelineSet set;
  set.layout = std::move(layout.value());
  for (const passes::ManifestProgram& mp : manifest->programs) {
    if (mp.rank < 0 || mp.job.empty())
      return fail("error: " + mp.name + ": a pipeline program needs a rank and a job in programs.yaml");
    PipelineRank* pr = &set.rankOf(mp.rank, mp.stage);
    if (pr->job(mp.job)) return fail("error: two programs for job " + mp.job + " of rank " + std::to_string(mp.rank));
    auto l = std::make_unique<Loaded>();
    if (Status s = loadProgram(opts.programsDir + "/" + mp.file, *l); !s) return fail(s.message());
    auto compiled = compilePlan(*l->program);
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
  passes::PassManager pm;
  core::ProgramSet programs;
  programs.programs.emplace_back("", std::move(l.program));
  if (int rc = runPassPipeline(pipeline, programs, *l.source, "pipeline: ", pm)) return rc;
  PipelineSet set;
  bool haveLayout = false;
  for (const auto& pass : pm.passes())
    if (const passes::RankLayout* layout = pass->rankLayout()) {
      set.layout = *layout;
      haveLayout = true;
    }
  if (!haveLayout) return fail("internal error: split-ranks made no ranks.yaml"), 2;
  for (core::NamedProgram& np : programs.programs) {
    auto compiled = compilePlan(*np.program);
    if (!compiled)
      return fail(render(*l.source, compiled.status(), "rank " + std::to_string(np.rank) + " " + np.job + ": "));
    PipelineRank* pr = &set.rankOf(np.rank, np.stage);
    pr->jobs.push_back({np.job, std::move(compiled.value()), l.source.get()});
  }
  stagesFromLayout(set.layout, set.ranks);
  if (Status s = makeSchedule(opts, mode, stageCount(set.ranks), int(opts.vpp), opts.splitBw, set.schedule); !s)
    return fail(s.message());
  if (serial)
    set.check = [&](const TensorMap& feeds, const TensorMap& results, const std::string&) {
      return checkPipelineSerial(opts, *l.source, *serial, set.schedule.microBatches, feeds, results);
    };
  int rc = runPipelineSet(opts, set);
  set.ranks.clear();  // the plans point into the programs
  return rc;
}

}  // namespace pir::app
