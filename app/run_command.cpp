//===- run_command.cpp - pir-run: execute programs with real tensors ------===//
//
// Reads a program, compiles it (runtime/executor.h), takes its inputs
// (app/run_inputs.h), runs it for --steps steps on in-process ranks
// (runtime/comm/in_process.h) or, under mpirun, this process's rank
// (app/run_world.h), prints the loss per step and writes the
// outputs, parameters, state and summary.yaml (all or none). --check runs
// the program's serial meaning on the same inputs and compares.
//
//===----------------------------------------------------------------------===//
#include "app/run_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "app/cli_checks.h"
#include "app/run_common.h"
#include "app/run_inputs.h"
#include "app/run_layout.h"
#include "app/run_outputs.h"
#include "app/run_pipeline.h"
#include "app/run_ranks.h"
#include "app/run_timing.h"
#include "app/run_world.h"
#include "core/clone.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"

namespace pir::app {
namespace {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;

int executeRanks(const RunOptions& opts);
int executeDistributed(const RunOptions& opts, Loaded& l);

int execute(const RunOptions& opts) {
  if (!opts.programsDir.empty()) return wantsPipeline(opts) ? executePipelineDir(opts) : executeRanks(opts);
  Loaded l;
  if (Status s = loadProgram(opts.program, l); !s) return std::fprintf(stderr, "%s", s.message().c_str()), 1;
  if (wantsPipeline(opts)) {
    if (!core::hasDistTypes(*l.program))
      return std::fprintf(stderr, "error: --mode needs a distributed program (its stages on meshes)\n"), 1;
    return executePipelineProgram(opts, l);
  }
  if (core::hasDistTypes(*l.program)) return executeDistributed(opts, l);
  if (opts.ranks > 1) {
    std::fprintf(stderr, "error: --ranks %lld: a dense program runs on one rank\n", (long long)opts.ranks);
    return 1;
  }
  auto compiled = compilePlan(*l.program);
  if (!compiled) return std::fprintf(stderr, "%s", render(*l.source, compiled.status()).c_str()), 1;
  std::vector<RankRun> runs(1);
  runs[0].executor = std::move(compiled.value());
  TensorMap initial;
  if (Status s = loadInputs(runs[0].executor->inputs(), {opts.inputsDir, opts.seed}, *l.source, initial); !s) {
    std::fprintf(stderr, "%s%s", s.message().c_str(), s.message().ends_with("\n") ? "" : "\n");
    return 1;
  }
  runs[0].state = cloneAll(initial);
  std::string lossName = pickLoss(opts, *l.program);
  if (Status s = runRanks(runs, opts, lossName, {l.source.get()}, {}, 1); !s)
    return std::fprintf(stderr, "%s", s.message().c_str()), 1;
  const std::vector<double>& losses = runs[0].losses;
  printLosses(lossName, losses);
  TensorMap results = resultsOf(runs[0]);
  if (opts.check) {
    PhaseTimer timer("check");
    // The serial meaning of a dense program is the program: a second run
    // from the same inputs.
    std::vector<RankRun> serial(1);
    auto again = compilePlan(*l.program);
    if (!again) return 2;
    serial[0].executor = std::move(again.value());
    serial[0].state = cloneAll(initial);
    if (Status s = runRanks(serial, opts, lossName, {l.source.get()}, {}, 1); !s)
      return std::fprintf(stderr, "serial run: %s", s.message().c_str()), 1;
    if (!compareRuns(results, resultsOf(serial[0]))) return 1;
  }
  return finishRun(opts, tracksOf(runs), results, summaryYaml(runs, opts, losses));
}

/// Rank programs to run: compiled plans, each with the source its errors
/// are located in, and the layout of their values.
struct RankSet {
  std::vector<std::unique_ptr<Loaded>> loaded;  // --programs: each rank's file
  std::vector<RankRun> runs;
  std::vector<const core::SourceFile*> sources;
  passes::RankLayout layout;
  /// --check: given the global inputs and the assembled results, 0 when
  /// the serial meaning agrees.
  std::function<int(const TensorMap& inputs, const TensorMap& results)> check;
};

int runRankSet(const RunOptions& opts, RankSet& set);

/// --programs DIR: the rank programs of programs.yaml with ranks.yaml.
int executeRanks(const RunOptions& opts) {
  if (opts.check) {
    std::fprintf(stderr, "error: --check needs the distributed PROGRAM (its serial meaning), not --programs\n");
    return 1;
  }
  auto manifest = passes::loadManifest(opts.programsDir + "/" + std::string(passes::kManifestName));
  if (!manifest) return std::fprintf(stderr, "%s\n", manifest.status().message().c_str()), 1;
  auto layout = loadLayout(opts.programsDir);
  if (!layout) return std::fprintf(stderr, "%s\n", layout.status().message().c_str()), 1;
  RankSet set;
  set.layout = std::move(layout.value());
  std::vector<std::unique_ptr<Loaded>>& loaded = set.loaded;
  std::vector<RankRun>& runs = set.runs;
  for (const passes::ManifestProgram& mp : manifest->programs) {
    if (mp.rank < 0 || !mp.job.empty()) {
      std::fprintf(stderr, "error: %s: a job program: give --mode, --schedule or --micro-batches\n", mp.name.c_str());
      return 1;
    }
    for (auto& r : runs)
      if (r.rank == mp.rank) return std::fprintf(stderr, "error: two programs for rank %d\n", mp.rank), 1;
    auto l = std::make_unique<Loaded>();
    if (Status s = loadProgram(opts.programsDir + "/" + mp.file, *l); !s)
      return std::fprintf(stderr, "%s", s.message().c_str()), 1;
    auto compiled = compilePlan(*l->program);
    if (!compiled) return std::fprintf(stderr, "%s", render(*l->source, compiled.status()).c_str()), 1;
    runs.emplace_back();
    runs.back().rank = mp.rank;
    runs.back().executor = std::move(compiled.value());
    set.sources.push_back(l->source.get());
    loaded.push_back(std::move(l));
  }
  if (runs.empty()) return std::fprintf(stderr, "error: %s lists no program\n", opts.programsDir.c_str()), 1;
  return runRankSet(opts, set);
}

int runRankSet(const RunOptions& opts, RankSet& set) {
  std::vector<RankRun>& runs = set.runs;
  const passes::RankLayout* layout = &set.layout;
  if (opts.ranks > 0 && opts.ranks < layout->worldSize) {
    std::fprintf(stderr, "error: --ranks %lld is smaller than the world size %lld\n", (long long)opts.ranks,
                 (long long)layout->worldSize);
    return 1;
  }
  int64_t world = std::max<int64_t>(opts.ranks, layout->worldSize);
  // Global inputs, drawn or read once at the global shape, then sliced.
  const passes::LayoutIndex index(*layout);
  TensorMap global;
  std::optional<PhaseTimer> inputsTimer(std::in_place, "inputs");
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<runtime::ProgramInput> inputs;
    for (runtime::ProgramInput in : runs[i].executor->inputs()) {
      auto kind = in.kind == runtime::ProgramInput::Kind::Parameter ? passes::LayoutValueKind::Parameter
                                                                    : passes::LayoutValueKind::Data;
      const passes::LayoutValue* v = index.find(in.name, kind);
      if (!v) {
        std::fprintf(stderr, "error: '%s' (rank %lld) is not in ranks.yaml\n", in.name.c_str(),
                     (long long)runs[i].rank);
        return 1;
      }
      in.shape = v->shape;
      inputs.push_back(std::move(in));
    }
    if (Status s = loadInputs(inputs, {opts.inputsDir, opts.seed}, *set.sources[i], global); !s)
      return std::fprintf(stderr, "%s%s", s.message().c_str(), s.message().ends_with("\n") ? "" : "\n"), 1;
    for (const auto& in : runs[i].executor->inputs()) {
      auto kind = in.kind == runtime::ProgramInput::Kind::Parameter ? passes::LayoutValueKind::Parameter
                                                                    : passes::LayoutValueKind::Data;
      auto piece = slicePiece(*index.find(in.name, kind), global.at(in.name), runs[i].rank);
      if (!piece) return std::fprintf(stderr, "error: %s\n", piece.status().message().c_str()), 1;
      runs[i].state[in.name] = *piece;
    }
  }
  inputsTimer.reset();
  runtime::RingTable rings;
  for (const core::ProcessGroup& g : layout->rings.rings()) rings[g.ringId] = g.ranks;
  std::string lossName = pickLoss(opts, *layout);
  if (Status s = runRanks(runs, opts, lossName, set.sources, rings, world); !s)
    return std::fprintf(stderr, "%s", s.message().c_str()), 1;
  // Assemble every output, parameter and piece of state.
  TensorMap results;
  std::vector<double> losses;
  std::optional<PhaseTimer> assembleTimer(std::in_place, "assemble");
  for (const passes::LayoutValue& v : layout->values) {
    bool out = v.kind == passes::LayoutValueKind::ShadowOutput;
    if (!out && v.kind != passes::LayoutValueKind::Parameter && !v.persistable) continue;
    std::map<int64_t, Tensor> byRank;
    for (auto& r : runs) {
      const TensorMap& from = out ? r.fetches : r.state;
      if (auto it = from.find(v.name); it != from.end()) byRank[r.rank] = it->second;
    }
    auto value = assemble(v, byRank);
    if (!value) return std::fprintf(stderr, "error: %s\n", value.status().message().c_str()), 1;
    results[v.name] = *value;
    if (out && v.name == lossName)
      for (int64_t step = 0; step < opts.steps; ++step) {
        std::map<int64_t, Tensor> stepPieces;
        for (auto& r : runs)
          if (size_t(step) < r.lossPieces.size()) stepPieces[r.rank] = r.lossPieces[step];
        auto l = assemble(v, stepPieces);
        if (l)
          if (auto x = scalarOf(*l)) losses.push_back(*x);
      }
  }
  assembleTimer.reset();
  printLosses(lossName, losses);
  if (set.check) {
    PhaseTimer timer("check");
    if (int rc = set.check(global, results); rc != 0) return rc;
  }
  return finishRun(opts, tracksOf(runs), results, summaryYaml(runs, opts, losses));
}

/// Runs drop-dist's meaning of the program on one rank from the same global
/// inputs and compares every output, parameter and state with `results`.
int checkSerial(const RunOptions& opts, Loaded& l, core::Program& serial, const TensorMap& inputs,
                const TensorMap& results) {
  if (int rc = dropDist(serial, *l.source)) return rc;
  auto compiled = compilePlan(serial);
  if (!compiled) return std::fprintf(stderr, "%s", render(*l.source, compiled.status(), "serial run: ").c_str()), 1;
  std::vector<RankRun> one(1);
  one[0].executor = std::move(compiled.value());
  for (const auto& in : one[0].executor->inputs()) {
    auto it = inputs.find(in.name);
    if (it == inputs.end()) return std::fprintf(stderr, "serial run: no input '%s'\n", in.name.c_str()), 1;
    one[0].state[in.name] = it->second.clone();
  }
  RunOptions serialOpts = opts;
  serialOpts.trace.clear();
  if (Status r = runRanks(one, serialOpts, "", {l.source.get()}, {}, 1); !r)
    return std::fprintf(stderr, "serial run: %s", r.message().c_str()), 1;
  return compareRuns(results, resultsOf(one[0])) ? 0 : 1;
}

/// A distributed PROGRAM: apply-partition,split-ranks through the pass
/// manager, then the rank programs as --programs runs them.
int executeDistributed(const RunOptions& opts, Loaded& l) {
  // The serial meaning, made before the split takes the program.
  core::Context serialCtx;
  std::unique_ptr<core::Program> serial;
  if (opts.check) serial = core::cloneProgram(*l.program, serialCtx);
  passes::PassManager pm;
  core::ProgramSet programs;
  programs.programs.emplace_back("", std::move(l.program));
  if (int rc = runPassPipeline("apply-partition,split-ranks", programs, *l.source, "split-ranks: ", pm)) return rc;
  RankSet set;
  bool haveLayout = false;
  if (const passes::RankLayout* layout = pm.passes().back()->rankLayout()) {
    set.layout = *layout;
    haveLayout = true;
  }
  if (!haveLayout) return std::fprintf(stderr, "internal error: split-ranks made no ranks.yaml\n"), 2;
  for (core::NamedProgram& np : programs.programs) {
    auto compiled = compilePlan(*np.program);
    if (!compiled)
      return std::fprintf(stderr, "%s",
                          render(*l.source, compiled.status(), "rank " + std::to_string(np.rank) + ": ").c_str()),
             1;
    set.runs.emplace_back();
    set.runs.back().rank = np.rank;
    set.runs.back().executor = std::move(compiled.value());
    set.sources.push_back(l.source.get());
  }
  if (serial)
    set.check = [&](const TensorMap& inputs, const TensorMap& results) {
      return checkSerial(opts, l, *serial, inputs, results);
    };
  int rc = runRankSet(opts, set);
  set.runs.clear();  // the plans point into the programs
  return rc;
}

}  // namespace

int runRun(int argc, char** argv) {
  auto start = std::chrono::steady_clock::now();
  passes::registerAllPasses();  // before any thread creates a pass
  quietUnlessRank0();           // under mpirun, rank 0 speaks for the job
  CLI::App app{"pir-run: execute PIR programs with real tensors on CPU ranks"};
  RunOptions opts;
  const CLI::Validator path = nonEmptyPath();
  app.add_option("program", opts.program, "The program (.pir); - reads stdin")->check(path);
  app.add_option("--programs", opts.programsDir, "A folder of per-rank programs (programs.yaml, ranks.yaml)")
      ->check(path);
  app.add_option("--inputs", opts.inputsDir, "Read every feed and parameter from DIR/NAME.npy")->check(path);
  app.add_option("--output-dir", opts.outputDir, "Write outputs, parameters, state and summary.yaml here (all or none)")
      ->check(path);
  app.add_option("--ranks", opts.ranks, "Ranks to run (default: the world size)")->check(CLI::PositiveNumber);
  app.add_option("--steps", opts.steps, "Steps to run, reusing the feeds (default 1)")->check(CLI::PositiveNumber);
  app.add_option("--seed", opts.seed, "Seed of the input generator (default 0)");
  app.add_option("--loss", opts.loss, "The shadow_output printed per step (default: the only 0-D one)");
  app.add_flag("--check", opts.check, "Also run the serial meaning and compare every output, parameter and state");
  app.add_option("--trace", opts.trace, "Write a Chrome trace (one track per rank) to FILE")->check(path);
  app.add_option("--timeout", opts.timeout, "Seconds a rank may wait on a peer (default 60)")
      ->check(CLI::PositiveNumber);
  app.add_option("--mode", opts.mode,
                 "Run the pipeline schedule MODE (FThenB, 1F1B, VPP, ZBH1, ZB1P, ZBVPP; as pir-opt schedule): PROGRAM "
                 "goes through apply-partition, split-ranks, gradient-merge and pipeline-split in process; with "
                 "--programs, the job lists of MODE");
  app.add_option("--schedule", opts.schedule, "Run the job lists of FILE.yaml (pir-opt schedule's output)")
      ->check(path);
  app.add_option("--micro-batches", opts.microBatches,
                 "Micro-batches N: the program's data shapes are one micro-batch's, each feed holds N on dim 0; "
                 "--check compares with the serial program run per micro-batch, parameters with the mean of its "
                 "updates (the merged, averaged gradient: exact for sgd_, as the loss is a mean)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--timing", opts.timing,
               "Print on stderr the time of each phase: reading, each pass, the layout, compiling, inputs, the run, "
               "assembling, the check, writing");
  app.add_option("--vpp", opts.vpp, "Virtual pipeline chunks per stage (VPP, ZBVPP)")->check(CLI::PositiveNumber);
  app.add_flag("--split-bw", opts.splitBw, "VPP with backward split into backward_b and backward_w");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return processExitCode(exitAfterParse(app, e));
  }
  if (opts.program.empty() == opts.programsDir.empty()) {
    std::fprintf(stderr, "error: give a PROGRAM or --programs DIR (one of them)\n");
    return processExitCode(1);
  }
  int rc = execute(opts);
  if (rc == 0 && opts.timing) std::fputs(phaseTimesText(start).c_str(), stderr);
  return processExitCode(rc);
}

}  // namespace pir::app
