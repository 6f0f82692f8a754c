//===- run_command.cpp - pir-run: execute programs with real tensors ------===//
//
// Reads a program, compiles it (runtime/executor.h), takes its inputs
// (app/run_inputs.h), runs it for --steps steps on in-process ranks
// (runtime/comm/in_process.h), prints the loss per step and writes the
// outputs, parameters, state and summary.yaml (all or none). --check runs
// the program's serial meaning on the same inputs and compares.
//
//===----------------------------------------------------------------------===//
#include "app/run_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "app/cli_checks.h"
#include "app/input_file.h"
#include "app/output_file.h"
#include "app/run_inputs.h"
#include "app/run_layout.h"
#include "app/staged_directory.h"
#include "core/clone.h"
#include "core/context.h"
#include "core/diagnostics.h"
#include "parser/parser.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "runtime/comm/in_process.h"
#include "runtime/npy.h"

namespace pir::app {
namespace {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;

struct RunOptions {
  std::string program, programsDir, inputsDir, outputDir, loss, trace;
  int64_t ranks = 0, steps = 1;
  uint64_t seed = 0;
  bool check = false;
  double timeout = 60;
};

/// One rank's program, plan and values.
struct RankRun {
  int64_t rank = 0;
  std::unique_ptr<runtime::Executor> executor;
  TensorMap state;    // feeds, parameters and state: parameters and state change in place
  TensorMap fetches;  // the last step's shadow outputs
  std::vector<double> losses;
  std::vector<Tensor> lossPieces;  // this rank's loss tensor per step (--programs: assembled across ranks)
  runtime::RunStats stats;
  std::vector<runtime::OpEvent> events;
  double seconds = 0, commSeconds = 0;
  int64_t peakBytes = 0;
  std::map<int64_t, uint64_t> bytesByRing;
};

bool hasDistTypes(const core::Program& p) {
  bool dist = false;
  core::walk(p.body(), [&](const core::Operation& op) {
    if (op.distAttr()) dist = true;
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (core::distAttrOf(op.result(i)->type())) dist = true;
  });
  return dist;
}

std::string render(const core::SourceFile& source, const Status& s, const std::string& prefix = "") {
  core::Diagnostic d;
  d.offset = s.offset();
  d.message = prefix + s.message();
  return core::renderDiagnostic(&source, d);
}

std::optional<double> scalarOf(const Tensor& t) {
  if (!t.defined() || t.numel() != 1) return std::nullopt;
  switch (t.dtype()) {
    case core::DataType::F32:
      return t.data<float>()[0];
    case core::DataType::F64:
      return t.data<double>()[0];
    case core::DataType::BF16:
      return t.data<runtime::BFloat16>()[0].toFloat();
    default:
      return std::nullopt;
  }
}

TensorMap cloneAll(const TensorMap& m) {
  TensorMap out;
  for (auto& [k, v] : m) out[k] = v.clone();
  return out;
}

/// Runs every rank's steps; the rendered failure, or ok.
Status runRanks(std::vector<RankRun>& runs, const RunOptions& opts, const std::string& lossName,
                const std::vector<const core::SourceFile*>& sources, runtime::RingTable rings, int64_t worldSize) {
  // Each rank's errors are located in its own program.
  auto sourceOf = [&](int64_t rank) -> const core::SourceFile* {
    for (size_t i = 0; i < runs.size(); ++i)
      if (runs[i].rank == rank) return sources[i];
    return nullptr;
  };
  runtime::InProcessWorld world(worldSize, std::move(rings), std::chrono::milliseconds(int64_t(opts.timeout * 1000)));
  auto outcome = world.run([&](int64_t rank, runtime::Communicator& comm) -> Status {
    RankRun* mine = nullptr;
    for (auto& r : runs)
      if (r.rank == rank) mine = &r;
    if (!mine) return Status::ok();  // a rank in no mesh idles
    runtime::threadMemory() = {};
    if (!opts.trace.empty()) mine->stats.events = &mine->events;
    auto start = std::chrono::steady_clock::now();
    for (int64_t step = 0; step < opts.steps; ++step) {
      mine->fetches.clear();
      if (Status s = mine->executor->run(mine->state, mine->fetches, &comm, &mine->stats); !s) return s;
      if (auto it = mine->fetches.find(lossName); it != mine->fetches.end()) {
        if (auto v = scalarOf(it->second)) mine->losses.push_back(*v);
        mine->lossPieces.push_back(it->second.clone());
      }
    }
    mine->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    mine->commSeconds = comm.stats().seconds;
    mine->bytesByRing = comm.stats().bytesByRing;
    mine->peakBytes = runtime::threadMemory().peak;
    return Status::ok();
  });
  using Kind = runtime::WorldOutcome::Kind;
  if (outcome.kind == Kind::Failed) {
    int64_t r = outcome.failedRank;
    return Status::error(render(*sourceOf(r), outcome.perRank[r], "rank " + std::to_string(r) + ": "));
  }
  if (outcome.kind == Kind::Deadlock) {
    std::string msg = "error: deadlock: a rank waited longer than --timeout " + std::to_string(int64_t(opts.timeout)) +
                      " s; what every rank waits on:\n";
    for (size_t r = 0; r < outcome.perRank.size(); ++r) {
      const Status& s = outcome.perRank[r];
      if (s.isOk())
        msg += "rank " + std::to_string(r) + ": finished\n";
      else if (const core::SourceFile* src = sourceOf(int64_t(r)))
        msg += render(*src, s, "");
      else
        msg += "rank " + std::to_string(r) + ": " + s.message() + "\n";
    }
    return Status::error(msg);
  }
  return Status::ok();
}

/// The loss output: --loss, or the only 0-D shadow output.
std::string pickLoss(const RunOptions& opts, const core::Program& program) {
  if (!opts.loss.empty()) return opts.loss;
  std::vector<std::string> zeroD;
  for (const core::Operation& op : program.body()) {
    if (op.name() != "builtin.shadow_output" || op.numOperands() != 1 || !op.operandValue(0)) continue;
    auto shape = core::tensorShape(op.operandValue(0)->type());
    if (shape && shape->dims.empty())
      if (auto* n = op.attrOf<core::StringAttr>("output_name")) zeroD.push_back(n->value());
  }
  return zeroD.size() == 1 ? zeroD[0] : std::string();
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string summaryYaml(const std::vector<RankRun>& runs, const RunOptions& opts, const std::vector<double>& losses) {
  std::string y = "# pir-run summary\nranks: " + std::to_string(runs.size()) +
                  "\nsteps: " + std::to_string(opts.steps) + "\nloss: [";
  for (size_t i = 0; i < losses.size(); ++i) y += (i ? ", " : "") + number(losses[i]);
  y += "]\nper_rank:\n";
  for (const RankRun& r : runs) {
    y += "  - rank: " + std::to_string(r.rank) + "\n    seconds: " + number(r.seconds) +
         "\n    kernel_seconds: " + number(r.stats.kernelSeconds) + "\n    comm_seconds: " + number(r.commSeconds) +
         "\n    peak_tensor_bytes: " + std::to_string(r.peakBytes) + "\n    bytes_sent: {";
    bool first = true;
    for (auto& [ring, bytes] : r.bytesByRing) {
      y += (first ? "" : ", ") + std::to_string(ring) + ": " + std::to_string(bytes);
      first = false;
    }
    y += "}\n";
  }
  return y;
}

std::string traceJson(const std::vector<RankRun>& runs) {
  std::string j = "{\"traceEvents\": [\n";
  int64_t origin = INT64_MAX;
  for (auto& r : runs)
    for (auto& e : r.events) origin = std::min(origin, e.startNs);
  bool first = true;
  for (auto& r : runs) {
    j += std::string(first ? "" : ",\n") +
         "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": " + std::to_string(r.rank) +
         ", \"args\": {\"name\": \"rank " + std::to_string(r.rank) + "\"}}";
    first = false;
    for (auto& e : r.events) {
      char buf[256];
      std::string name(r.executor->stepOp(e.step).name());
      char args[64] = "";
      if (e.ring >= 0)
        std::snprintf(args, sizeof args, ", \"args\": {\"ring\": %lld, \"bytes\": %llu}", (long long)e.ring,
                      (unsigned long long)e.bytes);
      std::snprintf(buf, sizeof buf,
                    ",\n{\"name\": \"%s\", \"ph\": \"X\", \"pid\": 0, \"tid\": %lld, \"ts\": %.3f, \"dur\": %.3f%s}",
                    name.c_str(), (long long)r.rank, double(e.startNs - origin) / 1000.0, double(e.durationNs) / 1000.0,
                    args);
      j += buf;
    }
  }
  return j + "\n]}\n";
}

/// Compares every tensor of `got` with `want` (the serial run's); prints the
/// verdict. False on a mismatch.
bool compareRuns(const TensorMap& got, const TensorMap& want) {
  std::vector<std::string> names;
  for (auto& [k, v] : want) names.push_back(k);
  std::sort(names.begin(), names.end());
  double maxRel = 0;
  for (const std::string& n : names) {
    auto it = got.find(n);
    const Tensor& b = want.at(n);
    if (it == got.end()) {
      std::fprintf(stderr, "check: '%s' is missing from the run\n", n.c_str());
      return false;
    }
    const Tensor& a = it->second;
    if (a.dtype() != b.dtype() || !std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end())) {
      std::fprintf(stderr, "check: '%s' is %s, serially %s\n", n.c_str(), a.typeText().c_str(), b.typeText().c_str());
      return false;
    }
    double va = 0, vb = 0;
    if (int64_t i = firstMismatch(a, b, maxRel, va, vb); i >= 0) {
      std::fprintf(stderr, "check: '%s' differs at flat index %lld: %.9g, serially %.9g\n", n.c_str(), (long long)i, va,
                   vb);
      return false;
    }
  }
  std::printf("check: %zu tensors match (max rel err %.3g)\n", names.size(), maxRel);
  return true;
}

/// Everything a run leaves: shadow outputs, parameters and state.
TensorMap resultsOf(const RankRun& r) {
  TensorMap out = r.fetches;
  for (const auto& in : r.executor->inputs())
    if (in.kind == runtime::ProgramInput::Kind::Parameter || in.persistable) out[in.name] = r.state.at(in.name);
  return out;
}

Status writeOutputs(const RunOptions& opts, const TensorMap& results, const std::string& summary) {
  StagedDirectory dir;
  if (Status s = dir.open(opts.outputDir); !s) return s;
  for (auto& [name, t] : results)
    if (Status s = dir.writeFile(name + ".npy", runtime::encodeNpy(t)); !s) return s;
  if (Status s = dir.writeFile("summary.yaml", summary); !s) return s;
  return dir.commit();
}

/// The loss of each step on stdout: `step 1: loss_0 0.5`.
void printLosses(const std::string& lossName, const std::vector<double>& losses) {
  for (size_t i = 0; i < losses.size(); ++i)
    std::printf("step %zu: %s %s\n", i + 1, lossName.c_str(), number(losses[i]).c_str());
}

/// What every run ends with: the trace and the output folder (each all or
/// nothing), then stdout flushed; the exit code.
int finishRun(const RunOptions& opts, const std::vector<RankRun>& runs, const TensorMap& results,
              const std::vector<double>& losses) {
  if (!opts.trace.empty()) {
    OutputFile trace;
    Status s = trace.open(opts.trace);
    if (s) {
      trace.write(traceJson(runs));  // a write error is reported by commit()
      s = trace.commit();
    }
    if (!s)
      return std::fprintf(stderr, "error: %s: cannot write the trace: %s\n", opts.trace.c_str(), s.message().c_str()),
             1;
  }
  if (!opts.outputDir.empty())
    if (Status s = writeOutputs(opts, results, summaryYaml(runs, opts, losses)); !s)
      return std::fprintf(stderr, "error: %s\n", s.message().c_str()), 1;
  std::fflush(stdout);
  return std::ferror(stdout) ? 1 : 0;
}

struct Loaded {
  InputFile file;
  std::unique_ptr<core::SourceFile> source;
  core::Context ctx;
  std::unique_ptr<core::Program> program;
};

Status loadProgram(const std::string& path, Loaded& l) {
  if (Status s = l.file.open(path); !s) return Status::error("error: " + s.message());
  l.source = std::make_unique<core::SourceFile>(path, l.file.text());
  core::DiagnosticEngine diag(l.source.get());
  auto parsed = parser::parseProgram(l.ctx, *l.source, diag);
  if (!parsed) return Status::error(diag.render());
  l.program = std::move(parsed.value());
  return Status::ok();
}

int executeRanks(const RunOptions& opts);
int executeDistributed(const RunOptions& opts, Loaded& l);

int execute(const RunOptions& opts) {
  if (!opts.programsDir.empty()) return executeRanks(opts);
  Loaded l;
  if (Status s = loadProgram(opts.program, l); !s) return std::fprintf(stderr, "%s", s.message().c_str()), 1;
  if (hasDistTypes(*l.program)) return executeDistributed(opts, l);
  if (opts.ranks > 1) {
    std::fprintf(stderr, "error: --ranks %lld: a dense program runs on one rank\n", (long long)opts.ranks);
    return 1;
  }
  auto compiled = runtime::Executor::compile(*l.program);
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
    // The serial meaning of a dense program is the program: a second run
    // from the same inputs.
    std::vector<RankRun> serial(1);
    auto again = runtime::Executor::compile(*l.program);
    if (!again) return 2;
    serial[0].executor = std::move(again.value());
    serial[0].state = cloneAll(initial);
    if (Status s = runRanks(serial, opts, lossName, {l.source.get()}, {}, 1); !s)
      return std::fprintf(stderr, "serial run: %s", s.message().c_str()), 1;
    if (!compareRuns(results, resultsOf(serial[0]))) return 1;
  }
  return finishRun(opts, runs, results, losses);
}

const passes::LayoutValue* findValue(const passes::RankLayout& layout, const std::string& name,
                                     passes::LayoutValueKind kind) {
  for (auto& v : layout.values)
    if (v.name == name && v.kind == kind) return &v;
  return nullptr;
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
  auto layout = passes::loadRankLayout(opts.programsDir + "/" + std::string(passes::kRankLayoutName));
  if (!layout) return std::fprintf(stderr, "%s\n", layout.status().message().c_str()), 1;
  RankSet set;
  set.layout = std::move(layout.value());
  std::vector<std::unique_ptr<Loaded>>& loaded = set.loaded;
  std::vector<RankRun>& runs = set.runs;
  for (const passes::ManifestProgram& mp : manifest->programs) {
    if (mp.rank < 0 || !mp.job.empty()) {
      std::fprintf(stderr, "error: %s: pir-run runs one program per rank (no pipeline jobs yet)\n", mp.name.c_str());
      return 1;
    }
    for (auto& r : runs)
      if (r.rank == mp.rank) return std::fprintf(stderr, "error: two programs for rank %d\n", mp.rank), 1;
    auto l = std::make_unique<Loaded>();
    if (Status s = loadProgram(opts.programsDir + "/" + mp.file, *l); !s)
      return std::fprintf(stderr, "%s", s.message().c_str()), 1;
    auto compiled = runtime::Executor::compile(*l->program);
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
  TensorMap global;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::vector<runtime::ProgramInput> inputs;
    for (runtime::ProgramInput in : runs[i].executor->inputs()) {
      auto kind = in.kind == runtime::ProgramInput::Kind::Parameter ? passes::LayoutValueKind::Parameter
                                                                    : passes::LayoutValueKind::Data;
      const passes::LayoutValue* v = findValue(*layout, in.name, kind);
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
      auto piece = slicePiece(*findValue(*layout, in.name, kind), global.at(in.name), runs[i].rank);
      if (!piece) return std::fprintf(stderr, "error: %s\n", piece.status().message().c_str()), 1;
      runs[i].state[in.name] = *piece;
    }
  }
  runtime::RingTable rings;
  for (const core::ProcessGroup& g : layout->rings.rings()) rings[g.ringId] = g.ranks;
  std::string lossName = opts.loss;
  if (lossName.empty()) {
    std::vector<std::string> zeroD;
    for (auto& v : layout->values)
      if (v.kind == passes::LayoutValueKind::ShadowOutput && v.shape.empty()) zeroD.push_back(v.name);
    if (zeroD.size() == 1) lossName = zeroD[0];
  }
  if (Status s = runRanks(runs, opts, lossName, set.sources, rings, world); !s)
    return std::fprintf(stderr, "%s", s.message().c_str()), 1;
  // Assemble every output, parameter and piece of state.
  TensorMap results;
  std::vector<double> losses;
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
  printLosses(lossName, losses);
  if (set.check)
    if (int rc = set.check(global, results); rc != 0) return rc;
  return finishRun(opts, runs, results, losses);
}

/// Runs drop-dist's meaning of the program on one rank from the same global
/// inputs and compares every output, parameter and state with `results`.
int checkSerial(const RunOptions& opts, Loaded& l, core::Program& serial, const TensorMap& inputs,
                const TensorMap& results) {
  core::DiagnosticEngine diag(l.source.get());
  std::vector<passes::PassSpec> specs;
  passes::PassManager pm;
  if (!passes::parsePassPipeline("drop-dist", specs, diag) || !pm.addPipeline(specs, diag))
    return std::fprintf(stderr, "%s", diag.render().c_str()), 2;
  core::ProgramSet set;
  set.programs.emplace_back("serial", std::unique_ptr<core::Program>());
  set.programs[0].program.reset(&serial);
  Status s = pm.run(set, diag);
  set.programs[0].program.release();  // owned by the caller
  if (!s) return std::fprintf(stderr, "serial meaning: %s\n", s.message().c_str()), s.isInternal() ? 2 : 1;
  auto compiled = runtime::Executor::compile(serial);
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
  core::DiagnosticEngine diag(l.source.get());
  std::vector<passes::PassSpec> specs;
  passes::PassManager pm;
  if (!passes::parsePassPipeline("apply-partition,split-ranks", specs, diag) || !pm.addPipeline(specs, diag))
    return std::fprintf(stderr, "%s", diag.render().c_str()), 2;
  core::ProgramSet programs;
  programs.programs.emplace_back("", std::move(l.program));
  if (Status s = pm.run(programs, diag); !s) {
    if (diag.hasErrors())
      std::fprintf(stderr, "%s", diag.render().c_str());
    else
      std::fprintf(stderr, "%s", render(*l.source, s, "split-ranks: ").c_str());
    return s.isInternal() ? 2 : 1;
  }
  RankSet set;
  bool haveLayout = false;
  for (const auto& [name, content] : pm.passes().back()->outputFiles())
    if (name == passes::kRankLayoutName) {
      auto layout = passes::parseRankLayout(content);
      if (!layout)
        return std::fprintf(stderr, "internal error: ranks.yaml: %s\n", layout.status().message().c_str()), 2;
      set.layout = std::move(layout.value());
      haveLayout = true;
    }
  if (!haveLayout) return std::fprintf(stderr, "internal error: split-ranks made no ranks.yaml\n"), 2;
  for (core::NamedProgram& np : programs.programs) {
    auto compiled = runtime::Executor::compile(*np.program);
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
  passes::registerAllPasses();  // before any thread creates a pass
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return exitAfterParse(app, e);
  }
  if (opts.program.empty() == opts.programsDir.empty()) {
    std::fprintf(stderr, "error: give a PROGRAM or --programs DIR (one of them)\n");
    return 1;
  }
  return execute(opts);
}

}  // namespace pir::app
