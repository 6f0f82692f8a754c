//===- runner.cpp - run programs with real tensors, check them ------------===//
#include "runtime/runner/runner.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/clone.h"
#include "parser/program_file.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "passes/schedule/comm_check.h"
#include "passes/schedule/comm_ops.h"
#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"
#include "passes/schedule/list_check.h"
#include "runtime/runner/made_from.h"
#include "runtime/runner/output_names.h"
#include "runtime/runner/phase_timer.h"
#include "runtime/runner/run_passes.h"
#include "runtime/runner/serial_check.h"
#include "runtime/runner/session.h"
#include "runtime/runner/summary.h"

namespace pir::runtime::runner {

using core::Status;
namespace sched = passes::schedule;

namespace {

/// What --check adds to the programs it runs: a copy of each optimizer's
/// gradient exported (`<param>@GRAD@CHECK`), the optimizer unchanged, so
/// the gradient each optimizer receives is compared with the serial one.
constexpr const char* kExportGradients = "export-gradients{feed=false}";

/// A program read from a file, with the source its errors are located in.
using Loaded = parser::ProgramFile;

Status loadProgram(const std::string& path, Loaded& l) {
  PhaseTimer timer("read");
  return parser::loadProgramFile(path, l);
}

/// --schedule FILE, checked as `pir-opt schedule --check` checks it (the
/// same code: a list that would crash or compute wrong numbers stops here).
Status readSchedule(const std::string& path, const std::string& mode, sched::Schedule& out) {
  auto s = sched::loadCheckedSchedule(path, mode);
  if (!s) return s.status();
  out = std::move(s.value());
  return Status::ok();
}

/// The schedule: the config's file, else generated for `mode`.
Status makeSchedule(const RunConfig& cfg, const std::string& mode, int stages, int vpp, bool splitBw,
                    sched::Schedule& out) {
  if (!cfg.schedule.empty()) {
    if (Status s = readSchedule(cfg.schedule, cfg.mode, out); !s) return s;
    if (out.stages != stages)
      return Status::error(cfg.schedule + " has " + std::to_string(out.stages) + " stages, the programs " +
                           std::to_string(stages));
    if (cfg.microBatches > 0 && out.microBatches != cfg.microBatches)
      return Status::error(cfg.schedule + " has " + std::to_string(out.microBatches) +
                           " micro-batches, --micro-batches says " + std::to_string(cfg.microBatches));
    return Status::ok();
  }
  if (mode.empty()) return Status::error("give --mode or --schedule: the programs name no schedule mode");
  sched::ScheduleOptions o;
  o.mode = mode;
  o.stages = stages;
  o.microBatches = int(cfg.microBatches > 0 ? cfg.microBatches : 1);
  o.vpp = vpp;
  o.splitBw = splitBw;
  auto s = sched::generateSchedule(o);
  if (!s) return s.status().prefixed("--mode " + mode + ": ");
  out = std::move(s.value());
  return Status::ok();
}

/// `s` with its located notes (a compile's further ops without a kernel)
/// in `source` too, as `s` is.
Status locatedIn(const Status& s, const core::SourceFile* source) {
  std::vector<Status> notes;
  for (const Status& n : s.notes()) notes.push_back(n.offset() >= 0 ? n.in(source) : n);
  return s.in(source).withNotes(std::move(notes));
}

/// Every failure of `failures` as one: the first, then the others (and
/// their notes) as its notes, so that all are listed at once.
Status joinFailures(std::vector<Status> failures) {
  if (failures.empty()) return Status::ok();
  std::vector<Status> notes = failures.front().notes();
  for (size_t i = 1; i < failures.size(); ++i) {
    notes.push_back(failures[i].withNotes({}));
    for (const Status& n : failures[i].notes()) notes.push_back(n);
  }
  return failures.front().withNotes(std::move(notes));
}

/// Every ring a communication op of the programs names is in the ring table
/// (ranks.yaml's, with the world ring) and holds the op's rank and peer as
/// the ring plan orders them: checked before anything is computed, each
/// problem located at its op.
Status checkRings(const std::vector<sched::CommProgram>& programs, const Session& session) {
  core::RingTable rings = session.layout ? session.layout->rings : core::RingTable{};
  rings.addWorld(session.worldSize);
  sched::CommCheckReport report;
  for (const sched::CommProgram& p : programs) sched::checkCommRings(p, rings, report.errors);
  if (report.errors.empty()) return Status::ok();
  if (size_t n = report.errors.size(); n > sched::kMaxCommErrors) {
    report.errors.resize(sched::kMaxCommErrors);
    report.errors.push_back(
        {core::Severity::Error, -1, "and " + std::to_string(n - sched::kMaxCommErrors) + " more ring problems", {}});
  }
  return Status::rendered(core::ErrorKind::User, sched::renderCommErrors(report));
}

}  // namespace

struct Runner::State {
  std::vector<std::unique_ptr<Loaded>> loaded;  // the programs read
  core::ProgramSet made;                        // the programs the passes made (the plans point into them)
  core::Context serialCtx;
  std::unique_ptr<core::Program> serial;  // check: the original, for its serial meaning
  const core::SourceFile* serialSource = nullptr;
  std::unique_ptr<World> world;
  Session session;
  std::string lossName;
  std::vector<sched::CommProgram> comm;  // every program run, for checkRings
  std::string sourceHash;                // --programs: programs.yaml's source_hash (empty: not recorded)

  /// PROGRAM: a dense one as it is, a distributed one through the passes.
  Status fromProgram(const RunConfig& cfg);
  /// --programs DIR --check PROGRAM: PROGRAM's serial meaning, once it is
  /// known to be the program DIR was made from.
  Status checkAgainst(const RunConfig& cfg);
  /// The loss and the world size, from the layout.
  Status sizeWorld(const RunConfig& cfg);
  /// The world the ranks run on: under MPI it is joined only now, after
  /// every check that all processes meet alike (rank 0 reports those).
  Status openWorld(const RunConfig& cfg);
  /// After the run, on the root: results, losses, the checks, the summary.
  Status report(const RunConfig& cfg, const TensorMap& original, RunReport& out);
};

namespace {

/// What a pipelined run's stage plan needs: rank stages, the schedule, and
/// every job of a rank's stage with a program.
Status planPipeline(const RunConfig& cfg, Session& session, const std::string& mode, int vpp, bool splitBw) {
  int stages = assignStages(session);
  if (Status s = makeSchedule(cfg, mode, stages, vpp, splitBw, session.schedule); !s) return s;
  session.schedule = sched::withBackwardHalves(std::move(session.schedule), [&](int stage, const std::string& type) {
    return std::any_of(session.ranks.begin(), session.ranks.end(),
                       [&](RankSession& r) { return r.stage == stage && r.job(type); });
  });
  for (RankSession& r : session.ranks) {
    if (r.stage < 0 || r.stage >= session.schedule.stages)
      return Status::error("rank " + std::to_string(r.rank) + " is on stage " + std::to_string(r.stage) +
                           ", the schedule has " + std::to_string(session.schedule.stages));
    for (const sched::Job& job : session.schedule.stageJobs[size_t(r.stage)])
      if (!r.job(job.type()))
        return Status::error("the schedule's job " + job.name() + " (stage " + std::to_string(r.stage) +
                             ") has no program on rank " + std::to_string(r.rank));
  }
  return Status::ok();
}

}  // namespace

Runner::Runner() : state_(std::make_unique<State>()) {}
Runner::~Runner() {
  // The plans point into the programs: they go first.
  state_->session.ranks.clear();
}

World* Runner::world() const { return state_->world.get(); }

namespace {

/// --programs DIR: the rank (or job) programs of programs.yaml with ranks.yaml.
/// Whether a folder's programs are what the run asks for: job programs for a
/// pipelined run (--mode, --schedule, --micro-batches), whole steps for a
/// plain one; and whole steps that merge no gradients, since a plain run
/// gives each step one batch (a merge of k would give the optimizer 1/k of
/// its gradient, and exit 0).
Status checkFolderKind(const passes::Manifest& manifest, const std::string& manifestPath, bool pipelined) {
  bool jobs = std::any_of(manifest.programs.begin(), manifest.programs.end(),
                          [](const passes::ManifestProgram& mp) { return !mp.job.empty(); });
  if (pipelined && !jobs && !manifest.programs.empty())
    return Status::error(manifestPath +
                         " lists whole-step programs (no pipeline-split made them): --mode, --schedule and "
                         "--micro-batches run a pipeline's job programs; run the folder without them");
  if (!pipelined && !jobs && manifest.gradientMergeK > 1)
    return Status::error(manifestPath + " records gradient_merge_k: " + std::to_string(manifest.gradientMergeK) +
                         ", but its programs are whole steps (no pipeline-split made them): a run of one batch "
                         "would give each optimizer 1/" +
                         std::to_string(manifest.gradientMergeK) +
                         " of its gradient; make them again without gradient-merge, or with pipeline-split "
                         "after it");
  return Status::ok();
}

Status loadFolder(const RunConfig& cfg, std::vector<std::unique_ptr<Loaded>>& loaded, Session& session,
                  std::vector<sched::CommProgram>& comm, std::string& sourceHash) {
  if (cfg.check && cfg.program.empty())
    return Status::error("--check with --programs DIR needs the distributed PROGRAM DIR was made from");
  auto manifest = passes::loadManifest(cfg.programsDir + "/" + std::string(passes::kManifestName));
  // Their failures are rendered diagnostics already (FILE:L:C: error: ..., the line, a caret).
  if (!manifest) return manifest.status();
  sourceHash = manifest->sourceHash;
  {
    PhaseTimer timer("layout");
    auto layout = passes::loadRankLayout(cfg.programsDir + "/" + std::string(passes::kRankLayoutName));
    if (!layout) return layout.status();
    session.layout = std::move(layout.value());
  }
  session.pipelined = cfg.pipelined();
  const std::string manifestPath = cfg.programsDir + "/" + std::string(passes::kManifestName);
  if (Status s = checkFolderKind(*manifest, manifestPath, session.pipelined); !s) return s;
  std::unordered_set<std::string> state;  // every rank's: one tensor per name in the results
  for (const passes::LayoutValue& v : session.layout->values)
    if (v.isState()) state.insert(v.name);
  std::vector<Status> failures;  // of compiling: every program's, at once
  for (const passes::ManifestProgram& mp : manifest->programs) {
    if (session.pipelined && (mp.rank < 0 || mp.job.empty()))
      return Status::error(mp.name + ": a pipeline program needs a rank and a job in programs.yaml");
    if (!session.pipelined && (mp.rank < 0 || !mp.job.empty()))
      return Status::error(mp.name + ": a job program: give --mode, --schedule or --micro-batches");
    auto l = std::make_unique<Loaded>();
    if (Status s = loadProgram(cfg.programsDir + "/" + mp.file, *l); !s) return s;
    if (Status s = checkOutputNames(*l->program, {cfg.namesAreFiles, &state}); !s) return s.in(l->source.get());
    core::NamedProgram np(mp.name, std::move(l->program));
    np.rank = mp.rank;
    np.stage = mp.stage;
    np.job = mp.job;
    Status s = cfg.check ? runPassesOn(kExportGradients, *np.program, *l->source, "--check: ") : Status::ok();
    if (s) s = addPlan(session, np, l->source.get(), "");
    l->program = std::move(np.program);
    comm.push_back({mp.rank < 0 ? 0 : mp.rank, mp.stage, mp.job, l->program.get(), l->source.get()});
    loaded.push_back(std::move(l));
    if (!s) failures.push_back(locatedIn(s, loaded.back()->source.get()));
  }
  if (Status s = joinFailures(std::move(failures)); !s) return s;
  if (session.ranks.empty()) return Status::error(cfg.programsDir + " lists no program");
  if (!session.pipelined) {
    session.schedule = plainSchedule();
    return Status::ok();
  }
  // The options, else what pipeline-split wrote into programs.yaml.
  std::string mode = cfg.mode.empty() ? manifest->mode : cfg.mode;
  int vpp = cfg.vpp > 0 ? int(cfg.vpp) : manifest->vpp > 0 ? manifest->vpp : 0;
  bool splitBw = cfg.splitBw || manifest->splitBw == 1;
  const int k = manifest->gradientMergeK;
  if (k < 1)
    return Status::error(manifestPath +
                         " records no gradient_merge_k: the programs were split without gradient-merge (the "
                         "optimizer would see one micro-batch's gradient, not the merged one) or by an older "
                         "pir-opt; make them again with gradient-merge{k=N avg=true} before pipeline-split");
  RunConfig c = cfg;
  if (c.microBatches == 0 && c.schedule.empty()) c.microBatches = k;  // N defaults to the merge's k
  if (Status s = planPipeline(c, session, mode, vpp, splitBw); !s) return s;
  if (int n = session.schedule.microBatches; n != k)
    return Status::error((cfg.microBatches > 0 ? "--micro-batches " + std::to_string(n)
                                               : cfg.schedule + " has " + std::to_string(n) + " micro-batches") +
                         ", but the programs merge the gradients of k=" + std::to_string(k) + " (" + manifestPath +
                         "): run " + std::to_string(k) +
                         " micro-batches, or make the programs again with "
                         "gradient-merge{k=" +
                         std::to_string(n) + "}");
  return Status::ok();
}

/// `made`'s tensors named by their values' result numbers as the printer
/// gives them: one counter over every op's results in print order.
std::vector<std::pair<std::string, Tensor>> namedByNumber(const core::Program& program,
                                                          std::vector<std::pair<const core::Value*, Tensor>>& made) {
  std::unordered_map<const core::Value*, int64_t> number;
  int64_t next = 0;
  core::walk(program.body(), [&](const core::Operation& op) {
    for (uint32_t i = 0; i < op.numResults(); ++i) number[op.result(i)] = next++;
  });
  std::vector<std::pair<std::string, Tensor>> named;
  for (auto& [value, t] : made) named.emplace_back(std::to_string(number.at(value)), std::move(t));
  return named;
}

/// split-ranks with the run's planner.
std::string splitRanks(const RunConfig& cfg) {
  return cfg.planner == "paddle" ? "split-ranks" : "split-ranks{planner=" + cfg.planner + "}";
}

/// The pass pipeline that makes a pipelined run's job programs, and the
/// schedule mode.
Status pipelinePasses(const RunConfig& cfg, std::string& mode, std::string& pipeline) {
  int64_t n = cfg.microBatches > 0 ? cfg.microBatches : 1, vpp = cfg.vpp;
  bool splitBw = cfg.splitBw;
  mode = sched::canonicalMode(cfg.mode);
  if (mode.empty() && !cfg.mode.empty()) return Status::error("--mode '" + cfg.mode + "' is not a schedule mode");
  if (!cfg.schedule.empty()) {
    // The schedule says which program set to make: its mode (unless --mode
    // names it), its chunks, whether it splits backwards, gradient-merge's k.
    sched::Schedule given;
    if (Status s = readSchedule(cfg.schedule, cfg.mode, given); !s) return s;
    if (mode.empty()) mode = sched::canonicalMode(given.mode);
    if (cfg.microBatches == 0) n = given.microBatches;
    if (vpp == 0 && mode == "VPP") vpp = given.vpp;
    splitBw = splitBw || (mode == "VPP" && sched::hasSplitBackward(given));
  }
  if (mode.empty()) return Status::error("give --mode (or a --schedule naming its mode)");
  if (!cfg.passes.empty()) return Status::ok();  // the caller's pipeline
  pipeline = sched::pipelinePassPipeline(mode, n, vpp, splitBw, splitRanks(cfg));
  return Status::ok();
}

}  // namespace

Status Runner::State::fromProgram(const RunConfig& cfg) {
  auto& l = *loaded.emplace_back(std::make_unique<Loaded>());
  if (Status s = loadProgram(cfg.program, l); !s) return s;
  bool distributed = core::hasDistTypes(*l.program);
  // Every result's name is in the program as written: checked before the
  // passes, located there.
  if (Status s = checkOutputNames(*l.program, {cfg.namesAreFiles, nullptr}); !s) return s.in(l.source.get());
  session.pipelined = cfg.pipelined();
  if (session.pipelined && !distributed && cfg.passes.empty())
    return Status::error("--mode needs a distributed program (its stages on meshes)");
  if (cfg.check && !distributed)
    return Status::error(
        "--check compares a distributed program with its serial meaning; a dense program is its own (use "
        "--check-determinism to run it twice and compare the bits)");
  if (cfg.checkDeterminism && distributed)
    return Status::error("--check-determinism runs a dense program; a distributed one has --check");
  if (!distributed) {
    auto loss = pickLoss(*l.program, cfg.loss);
    if (!loss) return loss.status();
    lossName = *loss;
  }
  if (!distributed && cfg.passes.empty()) {
    if (cfg.ranks > 1)
      return Status::error("--ranks " + std::to_string(cfg.ranks) + ": a dense program runs on one rank");
    core::NamedProgram np("", std::move(l.program));
    Status s = addPlan(session, np, l.source.get(), "");
    l.program = std::move(np.program);
    session.schedule = plainSchedule();
    return locatedIn(s, l.source.get());
  }
  if (cfg.check) {
    serial = core::cloneProgram(*l.program, serialCtx);  // before the split takes the program
    serialSource = l.source.get();
  }
  std::string mode, pipeline = cfg.passes.empty() ? "apply-partition," + splitRanks(cfg) : cfg.passes;
  if (session.pipelined)
    if (Status s = pipelinePasses(cfg, mode, pipeline); !s) return s;
  if (cfg.check) pipeline += std::string(",") + kExportGradients;
  passes::PassManager pm;
  made.programs.emplace_back("", std::move(l.program));
  if (Status s = runPasses(pipeline, made, *l.source, session.pipelined ? "pipeline: " : "split-ranks: ", pm); !s)
    return s;
  if (const passes::RankLayout* layout = pm.results().get<passes::RankLayout>()) session.layout = *layout;
  if (distributed && !session.layout) return Status::internal("split-ranks made no ranks.yaml");
  std::vector<Status> failures;  // of compiling: every program's, at once
  for (core::NamedProgram& np : made.programs) {
    std::string where =
        np.rank < 0 ? "" : "rank " + std::to_string(np.rank) + (session.pipelined ? " " + np.job : "") + ": ";
    if (Status s = addPlan(session, np, l.source.get(), where); !s) failures.push_back(locatedIn(s, l.source.get()));
    comm.push_back({np.rank < 0 ? 0 : np.rank, np.stage, np.job, np.program.get(), l.source.get()});
  }
  if (Status s = joinFailures(std::move(failures)); !s) return s;
  if (!session.pipelined) {
    session.schedule = plainSchedule();
    return Status::ok();
  }
  return planPipeline(cfg, session, mode, int(cfg.vpp), cfg.splitBw);
}

Status Runner::State::checkAgainst(const RunConfig& cfg) {
  auto& l = *loaded.emplace_back(std::make_unique<Loaded>());
  if (Status s = loadProgram(cfg.program, l); !s) return s;
  if (!core::hasDistTypes(*l.program))
    return Status::error("--check compares with a distributed program's serial meaning; " + cfg.program + " is dense");
  if (Status s = checkMadeFrom(*l.program, *l.source, *session.layout, cfg.programsDir); !s) return s;
  // The layout agrees (the specific differences are named above); the bytes
  // must too, or an op's attribute could differ unseen.
  // programs.yaml's hash is XXH64, or FNV-1a from an older pir-opt: taken the same way.
  if (std::string hash = passes::sourceHashLike(sourceHash, l.source->text());
      !sourceHash.empty() && hash != sourceHash)
    return Status::error(cfg.program + " is not the program " + cfg.programsDir + " was made from: its hash is " +
                         hash + ", programs.yaml's source_hash " + sourceHash);
  serial = core::cloneProgram(*l.program, serialCtx);
  serialSource = l.source.get();
  return Status::ok();
}

Status Runner::State::sizeWorld(const RunConfig& cfg) {
  if (!session.layout) return Status::ok();
  auto loss = pickLoss(*session.layout, cfg.loss);
  if (!loss) return loss.status();
  lossName = *loss;
  session.worldSize = session.layout->worldSize;
  if (cfg.ranks > 0 && cfg.ranks < session.worldSize)
    return Status::error("--ranks " + std::to_string(cfg.ranks) + " is smaller than the world size " +
                         std::to_string(session.worldSize));
  session.worldSize = std::max<int64_t>(cfg.ranks, session.worldSize);
  return Status::ok();
}

Status Runner::State::openWorld(const RunConfig& cfg) {
  RingTable rings = session.layout ? session.layout->rings : RingTable{};
  if (!cfg.mpi) {
    world = inProcessWorld(session.worldSize, std::move(rings), cfg.timeout);
    return Status::ok();
  }
  auto w = mpiWorld(session.worldSize, std::move(rings), cfg.timeout);
  if (!w) return w.status();
  world = std::move(w.value());
  return Status::ok();
}

Status Runner::State::report(const RunConfig& cfg, const TensorMap& original, RunReport& out) {
  auto results = assembleResults(session, cfg.steps, lossName);
  if (!results) return results.status();
  out.lossName = lossName;
  out.losses = results->stepLosses;
  if (serial) {
    PhaseTimer timer("check");
    SerialOptions o{session.microBatches(), cfg.steps, session.pipelined};
    auto want = serialResults(*serial, *serialSource, o, original);
    if (!want) return want.status();
    auto steps = assembleSteps(session);
    if (!steps) return steps.status().prefixed("--check: ");
    out.check = compareRun({results->values, std::move(steps.value())}, *want);
  }
  if (cfg.checkDeterminism) {
    PhaseTimer timer("check");
    RunConfig again = cfg;
    again.checkDeterminism = false;
    again.trace = false;
    again.mpi = false;
    again.showProgress = nullptr;
    again.beforeCompute = nullptr;
    again.stepLoss = nullptr;
    Runner second;
    RunReport other;
    if (Status s = second.run(again, other); !s) return s.prefixed("the second run: ");
    out.check = compareBitwise(results->values, other.results);
  }
  out.summary = summaryYaml(session, cfg.steps, *results);
  out.results = std::move(results->values);
  if (cfg.trace)
    for (RankSession& r : session.ranks) {
      r.track.rank = r.rank;
      out.tracks.push_back(std::move(r.track));
    }
  return Status::ok();
}

Status Runner::run(const RunConfig& cfg, RunReport& report) {
  State& st = *state_;
  // Values shown or checked one by one are each op's own.
  st.session.compile.fuseUpdates = st.session.compile.fuseLoss = !cfg.dumpValues && !cfg.checkFinite;
  if (!cfg.programsDir.empty()) {
    if (cfg.checkDeterminism) return Status::error("--check-determinism runs a dense PROGRAM, not --programs");
    if (Status s = loadFolder(cfg, st.loaded, st.session, st.comm, st.sourceHash); !s) return s;
    if (cfg.check)
      if (Status s = st.checkAgainst(cfg); !s) return s;
  } else if (Status s = st.fromProgram(cfg); !s) {
    return s;
  }
  const bool dense = cfg.programsDir.empty() && !st.session.layout && !cfg.pipelined();
  if (cfg.dumpValues && !dense)
    return Status::error(
        "--dump-values runs a dense PROGRAM (one rank, no --mode); a distributed program's "
        "values live on several ranks");
  if (Status s = st.sizeWorld(cfg); !s) return s;
  if (Status s = checkRings(st.comm, st.session); !s) return s;
  TensorMap global;
  if (Status s = loadSessionInputs(st.session, cfg.inputs, global); !s) return s;
  TensorMap original;  // the run changes parameters in place
  if (st.serial) original = cloneAll(global);
  if (Status s = st.openWorld(cfg); !s) return s;
  if (st.world->isRoot() && cfg.beforeCompute)
    if (Status s = cfg.beforeCompute(); !s) return s;
  SessionOptions so;
  so.steps = cfg.steps;
  so.lossName = st.lossName;
  so.trace = cfg.trace;
  so.timeout = cfg.timeout;
  so.showProgress = cfg.showProgress;
  so.record = st.serial != nullptr;
  if (cfg.stepLoss) so.stepLoss = [&](int64_t step, double loss) { cfg.stepLoss(step, st.lossName, loss); };
  so.checkFinite = cfg.checkFinite;
  std::vector<std::pair<const core::Value*, Tensor>> made;
  if (cfg.dumpValues) so.madeValues = &made;
  if (Status s = runSession(st.session, *st.world, so); !s) return s;
  if (cfg.dumpValues) report.values = namedByNumber(*st.loaded.front()->program, made);
  report.root = st.world->isRoot();
  if (!report.root) return Status::ok();
  Status s = st.report(cfg, original, report);
  if (s && cfg.stepLoss && st.world->isMpi())
    for (size_t i = 0; i < report.losses.size(); ++i) cfg.stepLoss(int64_t(i), report.lossName, report.losses[i]);
  return s;
}

}  // namespace pir::runtime::runner
