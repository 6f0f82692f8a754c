//===- runner.h - run programs with real tensors, check them -----*- C++ -*-===//
//
// The runner library behind pir-run (app/run_command.cpp is its CLI): reads
// a program or a folder of per-rank programs, makes the per-rank (and
// per-job) programs through the passes, draws or reads the inputs, runs a
// session (session.h) on a world (in process, or this process's rank under
// MPI), assembles the results and, with check, compares them with the
// program's serial meaning (serial_check.h). Nothing here prints or ends
// the process: failures are Statuses located in the programs the Runner
// keeps, and the CLI renders them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "runtime/executor.h"
#include "runtime/runner/compare.h"
#include "runtime/runner/inputs.h"
#include "runtime/runner/progress.h"
#include "runtime/runner/trace.h"
#include "runtime/runner/world.h"

namespace pir::runtime::runner {

/// What to run and how.
struct RunConfig {
  std::string program;      // a .pir file, "-" for stdin; with programsDir and check, what DIR was made from
  std::string programsDir;  // a folder pir-opt wrote (programs.yaml, ranks.yaml)
  InputOptions inputs;      // --inputs DIR and --seed
  std::string loss;         // the output printed per step; empty: the only 0-D one
  int64_t ranks = 0;        // the world size; 0: the program's
  int64_t steps = 1;
  bool check = false;             // compare with the serial meaning
  bool checkDeterminism = false;  // run a dense program twice, compare bitwise
  bool trace = false;             // record every op's run
  bool checkFinite = false;       // fail at the first NaN or infinity fed or made, on every rank and job
  bool dumpValues = false;        // a dense program: RunReport::values has what its top block made
  std::chrono::milliseconds timeout{60000};
  // Pipelines: a schedule mode (as `pir-opt schedule`), or a schedule file.
  std::string mode, schedule;
  int64_t microBatches = 0;  // 0: not given
  int64_t vpp = 0;           // 0: not given
  bool splitBw = false;
  /// The pass pipeline that makes the per-rank (or per-job) programs of
  /// PROGRAM; empty: the one the run needs (apply-partition,split-ranks,
  /// and for a pipeline gradient-merge{k=N avg=true},pipeline-split{mode=M}).
  std::string passes;
  /// lower-reshard's planner for the split (split-ranks{planner=...}):
  /// "paddle" (Paddle's functions) or "cost" (the fewest bytes).
  std::string planner = "paddle";
  bool mpi = false;  // this process runs its own rank over MPI (started by mpirun)
  /// The names of outputs, parameters and state become file names (the CLI
  /// writes NAME.npy): each must be one (output_names.h).
  bool namesAreFiles = false;
  /// On the process of rank 0, once everything the run reads is validated
  /// and before any compute: the CLI opens its output files here, so an
  /// unwritable path fails at once (may be empty).
  std::function<core::Status()> beforeCompute;
  /// While the ranks run, on the process of rank 0 (may be empty).
  std::function<std::shared_ptr<void>(const RunProgress&)> showProgress;
  /// Each step's loss (step from 0), once, in step order, on the process of
  /// rank 0: in process as soon as every rank finished the step; under MPI
  /// after the run (a step's loss may need every process's pieces). May be
  /// empty; RunReport::losses has them all either way.
  std::function<void(int64_t step, const std::string& lossName, double loss)> stepLoss;

  /// Whether this asks for a pipeline run (a mode, a schedule or micro-batches).
  bool pipelined() const { return !mode.empty() || !schedule.empty() || microBatches > 0; }
};

/// What a run gives.
struct RunReport {
  bool root = true;  // false: an MPI rank other than 0, which reports nothing
  std::string lossName;
  std::vector<double> losses;  // per step
  TensorMap results;           // every output, parameter and piece of state
  std::optional<CompareReport> check;
  std::vector<TraceTrack> tracks;  // with trace
  std::string summary;             // summary.yaml
  /// With RunConfig::dumpValues: each tensor the top block's ops made in the
  /// last step, named by its result number as printed (`4` for `%4`).
  std::vector<std::pair<std::string, Tensor>> values;
};

class Runner {
 public:
  Runner();
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  /// Runs `config`; a failure is located in the programs this Runner keeps
  /// (render it before the Runner goes).
  core::Status run(const RunConfig& config, RunReport& report);
  /// The world the ranks ran on (null before they ran): the CLI ends an MPI
  /// job through it.
  World* world() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pir::runtime::runner
