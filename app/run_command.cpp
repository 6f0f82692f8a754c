//===- run_command.cpp - pir-run: execute programs with real tensors ------===//
//
// pir-run's CLI over the runner library (runtime/runner/runner.h): flags to
// a RunConfig, the report to stdout and the output files, a failure
// rendered once (core::renderStatus) and turned into the exit code.
//
//===----------------------------------------------------------------------===//
#include "app/run_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app/cli_checks.h"
#include "app/run_outputs.h"
#include "app/run_process.h"
#include "app/run_progress.h"
#include "app/timing_text.h"
#include "core/op_table.h"
#include "core/threads.h"
#include "passes/pass_registry.h"
#include "runtime/kernel.h"
#include "runtime/kernels/matmul.h"
#include "runtime/runner/runner.h"

namespace pir::app {
namespace {

namespace runner = runtime::runner;
using core::Status;

/// pir-run's flags beside the run's configuration.
struct RunOptions {
  runner::RunConfig config;
  std::string outputDir, trace, valuesDir;
  double timeout = 60;
  int64_t blasThreads = 0;  // 0: not given
  unsigned threads = 0;     // --threads: input draws (0: the cores present)
  bool timing = false;
  bool listKernels = false;
};

/// `(a, b)`: names of an op table layout's operands or results, `...` after a
/// repeated last one.
std::string nameList(std::span<const std::string_view> names, bool variadic) {
  std::string s = "(";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + std::string(names[i]);
  return s + (variadic ? "...)" : ")");
}

/// `{strides, paddings}`: an op's attribute names, as PIR prints them after
/// the operands; empty for an op without any.
std::string attributeList(std::span<const std::string_view> names) {
  if (names.empty()) return "";
  std::string s = " {";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + std::string(names[i]);
  return s + "}";
}

/// pir-run --list-kernels: every op the runner runs, with its operands,
/// attributes and results as the op table names them (a kernel's line ends
/// with the dtypes it accepts), and the ops it refuses and why.
void printKernels() {
  const runtime::KernelRegistry& registry = runtime::kernelRegistry();
  std::string kernels, itself, refused;
  for (const core::OpInfo& info : core::opTable()) {
    std::string line = std::string(info.name) + " " + nameList(info.layout.operands, info.layout.variadicOperands) +
                       attributeList(info.attributes) + " -> " +
                       nameList(info.layout.results, info.layout.variadicResults);
    if (!info.refusal.empty())
      refused += std::string(info.name) + ": " + std::string(info.refusal) + "\n";
    else if (registry.find(&info))
      kernels += line + " [" + runtime::dtypeSetText(registry.dtypesOf(&info)) + "]\n";
    else if (info.scope != core::ScopeAccess::None || info.regionRun != core::RegionRun::None ||
             info.name == "cf.yield")
      itself += line + "\n";
  }
  std::printf(
      "# kernels, each with the dtypes it accepts (per family: docs/pir-run.md, \"Kernels\")\n%s"
      "# run by the executor itself (scope reads and writes, regions)\n%s# refused\n%s"
      "# kernel-dialect ops (\"NAME(phi_kernel)\") run as the op their op_name names\n",
      kernels.c_str(), itself.c_str(), refused.c_str());
}

/// The exit code for a failed run: 2 for an internal error, else 1.
int exitCodeOf(const Status& s) { return s.isInternal() ? 2 : 1; }

/// Renders `s` once; under MPI, a rank's own failure after MPI was joined
/// goes to its own stderr and ends the job (a deadlock's report, with every
/// rank's wait, comes from rank 0: the runner gathered them there).
int fail(const Status& s, runner::Runner* r) {
  std::string text = core::renderStatus(s);
  runner::World* world = r ? r->world() : nullptr;
  if (world && world->isMpi()) {
    speak(text);
    std::fflush(stdout);
    world->abort(exitCodeOf(s));
  }
  std::fputs(text.c_str(), stderr);
  return exitCodeOf(s);
}

int execute(RunOptions& opts) {
  runner::RunConfig& cfg = opts.config;
  // inf (no limit) is the largest duration; the comm layer saturates deadlines.
  cfg.timeout = std::isinf(opts.timeout) ? std::chrono::milliseconds::max()
                                         : std::chrono::milliseconds(int64_t(std::llround(opts.timeout * 1000)));
  cfg.trace = !opts.trace.empty();
  cfg.mpi = runner::launchedByMpirun();
  if (opts.blasThreads > 0) runtime::setBlasThreads(int(opts.blasThreads));
  if (opts.threads > 0) core::setWorkerThreads(opts.threads);
  // The bar lives while the ranks run; a step's loss, printed then (not
  // after the run), goes above it.
  std::weak_ptr<ProgressBar> bar;
  cfg.showProgress = [&bar](const runner::RunProgress& p) -> std::shared_ptr<void> {
    auto b = std::make_shared<ProgressBar>(p, true);
    bar = b;
    return b;
  };
  cfg.stepLoss = [&bar](int64_t step, const std::string& name, double loss) {
    if (auto b = bar.lock())
      b->above([&] { printStepLoss(step, name, loss); });
    else
      printStepLoss(step, name, loss);
  };
  RunFiles files;
  cfg.namesAreFiles = !opts.outputDir.empty();
  cfg.dumpValues = !opts.valuesDir.empty();
  cfg.beforeCompute = [&] { return files.open(opts.trace, opts.outputDir, opts.valuesDir); };
  runner::RunReport report;
  int rc = 0;
  {
    runner::Runner r;
    if (Status s = r.run(cfg, report); !s) return fail(s, &r);
    if (report.root) {
      bool matched = printReport(report);
      if (Status s = files.write(report); !s) return fail(s, nullptr);
      rc = matched ? 0 : 1;
    }
  }
  if (!report.root) runner::leaveMpi();  // rank 0 prints and writes for the job
  return rc;
}

}  // namespace

int runRun(int argc, char** argv) {
  auto start = std::chrono::steady_clock::now();
  passes::registerAllPasses();  // before any thread creates a pass
  quietUnlessRank0();           // under mpirun, rank 0 speaks for the job
  CLI::App app{"pir-run: execute PIR programs with real tensors on CPU ranks"};
  RunOptions opts;
  runner::RunConfig& cfg = opts.config;
  const CLI::Validator path = nonEmptyPath();
  app.add_option("program", cfg.program, "The program (.pir); - reads stdin")->check(path);
  app.add_option("--programs", cfg.programsDir, "A folder of per-rank programs (programs.yaml, ranks.yaml)")
      ->check(path);
  app.add_option("--inputs", cfg.inputs.dir, "Read every feed and parameter from DIR/NAME.npy")->check(path);
  app.add_option("--output-dir", opts.outputDir, "Write outputs, parameters, state and summary.yaml here (all or none)")
      ->check(path);
  app.add_option("--dump-values", opts.valuesDir,
                 "A dense program: write each value its top block's ops make as DIR/N.npy (N: its number, %N)")
      ->check(path);
  app.add_option("--ranks", cfg.ranks, "Ranks to run (default: the world size)")->check(atLeast(1));
  app.add_option("--steps", cfg.steps, "Steps to run, reusing the feeds (default 1)")->check(atLeast(1));
  app.add_option("--seed", cfg.inputs.seed, "Seed of the input generator (default 0)");
  app.add_option("--loss", cfg.loss, "The shadow_output printed per step (default: the only 0-D one)");
  app.add_flag("--check", cfg.check,
               "Also run the distributed program's serial meaning on the same inputs and compare each step's "
               "gradients and updates (within their own size) and every output, parameter and state (1e-6 + "
               "1e-5|b| for f32); with --programs DIR, PROGRAM is the program DIR was made from");
  app.add_flag("--check-determinism", cfg.checkDeterminism,
               "Run a dense program a second time from the same inputs and compare every output, parameter and "
               "state bit for bit");
  app.add_flag("--check-finite", cfg.checkFinite,
               "Fail at the first op that makes a NaN or an infinity from finite operands, or at the feed or "
               "parameter that holds one, on every rank and job (exit 1)");
  app.add_option("--blas-threads", opts.blasThreads, "OpenBLAS threads for every matmul (default 1)")
      ->check(CLI::Range(1, 256));
  app.add_option("--threads", opts.threads,
                 "threads to draw inputs and make split-ranks' programs on (default: the cores present)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--trace", opts.trace, "Write a Chrome trace (one track per rank) to FILE")->check(path);
  app.add_option("--timeout", opts.timeout, "Seconds a rank may wait on a peer (default 60; inf: no limit)")
      ->check(timeoutSeconds());
  app.add_option("--planner", cfg.planner,
                 "How reshards are lowered: paddle (Paddle's functions, the default) or cost (the fewest bytes)")
      ->check(CLI::IsMember({"paddle", "cost"}));
  app.add_option("--mode", cfg.mode,
                 "Run the pipeline schedule MODE (FThenB, 1F1B, VPP, ZBH1, ZB1P, ZBVPP, ZBV, DualPipeV; as pir-opt "
                 "schedule): PROGRAM goes through apply-partition, split-ranks, gradient-merge and pipeline-split in "
                 "process; with "
                 "--programs, the job lists of MODE");
  app.add_option("--schedule", cfg.schedule,
                 "Run the job lists of FILE.yaml (pir-opt schedule's output) or of torch's FILE.csv (its program set: "
                 "--mode, else inferred)")
      ->check(path);
  app.add_option("--micro-batches", cfg.microBatches,
                 "Micro-batches N: the program's data shapes are one micro-batch's, each feed holds N on dim 0; "
                 "--check runs the serial program per micro-batch for its outputs and gradients, then every optimizer "
                 "once on the gradients' mean (gradient merge's averaged step, for any optimizer)")
      ->check(atLeast(1));
  app.add_flag("--timing", opts.timing,
               "Print on stderr the time of each phase: reading, each pass, the layout, compiling, inputs, the run, "
               "assembling, the check, writing");
  app.add_option("--vpp", cfg.vpp, "Virtual pipeline chunks per stage (VPP, ZBVPP; with --mode)")->check(atLeast(1));
  app.add_flag("--split-bw", cfg.splitBw, "VPP with backward split into backward_b and backward_w (with --mode)");
  app.add_flag("--list-kernels", opts.listKernels,
               "Print every op the runner runs (with its operands and results), "
               "the ops it refuses and why, and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return processExitCode(exitAfterParse("pir-run", app, e));
  }
  if (opts.listKernels) {
    printKernels();
    return processExitCode(0);
  }
  // --programs DIR --check PROGRAM: PROGRAM is what DIR's programs are checked against.
  bool both = !cfg.program.empty() && !cfg.programsDir.empty();
  if ((cfg.program.empty() && cfg.programsDir.empty()) || (both && !cfg.check)) {
    return processExitCode(cliError("pir-run", "give a PROGRAM or --programs DIR (one of them; both with --check)"));
  }
  // A chunk count or a split backward says how to make a schedule: without
  // a mode there is none to make (a --schedule file or programs.yaml fixes both).
  if ((cfg.vpp > 0 || cfg.splitBw) && cfg.mode.empty())
    return processExitCode(cliError("pir-run", std::string(cfg.vpp > 0 ? "--vpp" : "--split-bw") +
                                                   " shapes the schedule --mode makes: give --mode too"));
  int rc = execute(opts);
  if (rc == 0 && opts.timing) std::fputs(phaseTimesText(start).c_str(), stderr);
  return processExitCode(rc);
}

}  // namespace pir::app
