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
#include <cstdio>
#include <thread>

#include "app/cli_checks.h"
#include "app/run_outputs.h"
#include "app/run_process.h"
#include "app/run_progress.h"
#include "app/timing_text.h"
#include "passes/pass_registry.h"
#include "runtime/kernels/matmul.h"
#include "runtime/runner/runner.h"

namespace pir::app {
namespace {

namespace runner = runtime::runner;
using core::Status;

/// pir-run's flags beside the run's configuration.
struct RunOptions {
  runner::RunConfig config;
  std::string outputDir, trace;
  double timeout = 60;
  int64_t blasThreads = 0;  // 0: not given
  bool timing = false;
};

/// The exit code for a failed run: 2 for an internal error, else 1.
int exitCodeOf(const Status& s) { return s.isInternal() ? 2 : 1; }

/// Renders `s` once; under MPI, a rank's own failure after MPI was joined
/// goes to its own stderr and ends the job.
int fail(const Status& s, runner::Runner* r) {
  std::string text = core::renderStatus(s);
  runner::World* world = r ? r->world() : nullptr;
  if (world && world->isMpi()) {
    speak(text);
    std::fflush(stdout);
    // A deadlock times out on every waiting rank at about the same moment:
    // give the others a moment to print their waits before the abort ends
    // them (the first abort kills every process).
    if (s.isTimeout()) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    world->abort(exitCodeOf(s));
  }
  std::fputs(text.c_str(), stderr);
  return exitCodeOf(s);
}

int execute(RunOptions& opts) {
  runner::RunConfig& cfg = opts.config;
  cfg.timeout = std::chrono::milliseconds(int64_t(opts.timeout * 1000));
  cfg.trace = !opts.trace.empty();
  cfg.mpi = runner::launchedByMpirun();
  if (opts.blasThreads > 0) runtime::setBlasThreads(int(opts.blasThreads));
  cfg.showProgress = [](const runner::RunProgress& p) -> std::shared_ptr<void> {
    return std::make_shared<ProgressBar>(p, true);
  };
  runner::RunReport report;
  int rc = 0;
  {
    runner::Runner r;
    if (Status s = r.run(cfg, report); !s) return fail(s, &r);
    if (report.root) {
      bool matched = printReport(report);
      if (Status s = writeRunFiles(opts.trace, opts.outputDir, report); !s) return fail(s, nullptr);
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
  app.add_option("--ranks", cfg.ranks, "Ranks to run (default: the world size)")->check(CLI::PositiveNumber);
  app.add_option("--steps", cfg.steps, "Steps to run, reusing the feeds (default 1)")->check(CLI::PositiveNumber);
  app.add_option("--seed", cfg.inputs.seed, "Seed of the input generator (default 0)");
  app.add_option("--loss", cfg.loss, "The shadow_output printed per step (default: the only 0-D one)");
  app.add_flag("--check", cfg.check,
               "Also run the distributed program's serial meaning on the same inputs and compare each step's "
               "gradients and updates (within their own size) and every output, parameter and state (1e-6 + "
               "1e-5|b| for f32); with --programs DIR, PROGRAM is the program DIR was made from");
  app.add_flag("--check-determinism", cfg.checkDeterminism,
               "Run a dense program a second time from the same inputs and compare every output, parameter and "
               "state bit for bit");
  app.add_option("--blas-threads", opts.blasThreads, "OpenBLAS threads for every matmul (default 1)")
      ->check(CLI::Range(1, 256));
  app.add_option("--trace", opts.trace, "Write a Chrome trace (one track per rank) to FILE")->check(path);
  app.add_option("--timeout", opts.timeout, "Seconds a rank may wait on a peer (default 60)")
      ->check(CLI::PositiveNumber);
  app.add_option("--mode", cfg.mode,
                 "Run the pipeline schedule MODE (FThenB, 1F1B, VPP, ZBH1, ZB1P, ZBVPP; as pir-opt schedule): PROGRAM "
                 "goes through apply-partition, split-ranks, gradient-merge and pipeline-split in process; with "
                 "--programs, the job lists of MODE");
  app.add_option("--schedule", cfg.schedule, "Run the job lists of FILE.yaml (pir-opt schedule's output)")->check(path);
  app.add_option("--micro-batches", cfg.microBatches,
                 "Micro-batches N: the program's data shapes are one micro-batch's, each feed holds N on dim 0; "
                 "--check runs the serial program per micro-batch for its outputs and gradients, then every optimizer "
                 "once on the gradients' mean (gradient merge's averaged step, for any optimizer)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--timing", opts.timing,
               "Print on stderr the time of each phase: reading, each pass, the layout, compiling, inputs, the run, "
               "assembling, the check, writing");
  app.add_option("--vpp", cfg.vpp, "Virtual pipeline chunks per stage (VPP, ZBVPP)")->check(CLI::PositiveNumber);
  app.add_flag("--split-bw", cfg.splitBw, "VPP with backward split into backward_b and backward_w");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return processExitCode(exitAfterParse("pir-run", app, e));
  }
  // --programs DIR --check PROGRAM: PROGRAM is what DIR's programs are checked against.
  bool both = !cfg.program.empty() && !cfg.programsDir.empty();
  if ((cfg.program.empty() && cfg.programsDir.empty()) || (both && !cfg.check)) {
    return processExitCode(cliError("pir-run", "give a PROGRAM or --programs DIR (one of them; both with --check)"));
  }
  int rc = execute(opts);
  if (rc == 0 && opts.timing) std::fputs(phaseTimesText(start).c_str(), stderr);
  return processExitCode(rc);
}

}  // namespace pir::app
