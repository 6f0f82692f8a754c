//===- session.h - the one run model: ranks, jobs, micro-batches -*- C++ -*-===//
//
// A run is a session: every rank runs its stage's job list in order for
// each step, as Paddle's StandaloneExecutor does, and a plain run is the
// session of one job and one micro-batch. Each job program is compiled once
// and run per micro-batch. The scope rules, one set for every run:
//
//   - a job reads each input by name from its micro-batch's scope (what the
//     rank's earlier jobs of that micro-batch made), then the micro-batch's
//     feeds, then the rank's shared scope (parameters, state, merge
//     buffers);
//   - what it writes goes to the shared scope when the name is there
//     (builtin.set_parameter), else to its micro-batch's scope.
//
// Feeds: a pipelined session's data shapes are one micro-batch's; a
// non-persistable feed holds the whole batch (N micro-batches on dim 0:
// drawn at N times the program's dim 0; a file's dim 0 must divide by N)
// and is cut into N. Persistable data is state and is not cut. Fetched
// outputs are stacked per micro-batch (a 0-D loss becomes [N]), as Paddle's
// fetch merge does; a plain run's are its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "passes/rank_layout.h"
#include "passes/schedule/job.h"
#include "passes/schedule/simulator.h"
#include "runtime/executor.h"
#include "runtime/runner/compare.h"
#include "runtime/runner/inputs.h"
#include "runtime/runner/progress.h"
#include "runtime/runner/trace.h"
#include "runtime/runner/world.h"

namespace pir::runtime::runner {

/// One job type's plan on a rank.
struct JobPlan {
  std::string type;  // a pipeline job type ("forward1"); a plain run's one job: "forward"
  std::unique_ptr<Executor> executor;
  const core::SourceFile* source = nullptr;  // where its errors are located
};

/// Measured time of one job type on a rank: compute only (the job's time
/// less its waits in communication).
struct JobCost {
  double seconds = 0;
  int64_t runs = 0;
  uint64_t bytesSent = 0;  // over all runs, every ring
};

/// One rank of a session: its job plans, scopes and measurements.
struct RankSession {
  int64_t rank = 0;
  int stage = -1;
  std::vector<JobPlan> jobs;
  TensorMap shared;                           // parameters, state, merge buffers
  std::vector<TensorMap> feeds;               // per micro-batch: the cut feeds
  std::vector<TensorMap> scopes;              // per micro-batch: the last step's values
  std::vector<Tensor> lossPieces;             // per step and micro-batch
  const core::SourceFile* current = nullptr;  // the running job's program (errors, deadlock reports)
  std::map<std::string, JobCost> costs;
  int64_t firstNs = INT64_MAX, lastNs = 0;           // the first job's start, the last one's end
  std::vector<passes::schedule::TimedJob> lastStep;  // the last step's jobs, start and end in ns
  double busySeconds = 0;                            // compute time of every job
  double kernelSeconds = 0;                          // in kernels
  TraceTrack track;
  double seconds = 0, commSeconds = 0;
  std::vector<double> stepSeconds;  // a plain run's: each step's
  int64_t peakBytes = 0;
  std::map<int64_t, uint64_t> bytesSent, bytesReceived;  // by ring, as the communicator counted them
  // With SessionOptions::record, per step: the shared scope as the step
  // began, and the gradients the optimizers received (exported by
  // `export-gradients{feed=false}` as `<param>@GRAD@CHECK`).
  std::vector<TensorMap> stepBefore, stepGradients;

  JobPlan* job(std::string_view type);
};

/// Everything a run needs.
struct Session {
  std::vector<RankSession> ranks;
  passes::schedule::Schedule schedule;  // a plain run: one stage, `forward:0`
  /// Whether this is a pipeline run: feeds cut and fetches stacked by
  /// micro-batch, job names in errors and trace spans.
  bool pipelined = false;
  /// Where each value's pieces are; none for a dense program on one rank.
  std::optional<passes::RankLayout> layout;
  int64_t worldSize = 1;
  CompileOptions compile;  // for every plan addPlan makes

  int64_t microBatches() const { return schedule.microBatches; }
  /// The entry of `rank`, made (on `stage`) at its first job.
  RankSession& rankOf(int64_t rank, int stage);
  RankSession* find(int64_t rank);
};

/// Compiles `np` and adds its plan to its rank of `session` (rank 0 for a
/// program with none): as job `np.job` on `np.stage` when pipelined, else
/// as the rank's one program. A failure is located in `source`, after
/// `where`.
core::Status addPlan(Session& session, const core::NamedProgram& np, const core::SourceFile* source,
                     const std::string& where);

/// A plain run's schedule: one stage running `forward:0`.
passes::schedule::Schedule plainSchedule();

/// Each rank's stage where the programs record none: the layout's stages
/// (passes::rankStages); one stage's programs are stage 0. Returns the
/// number of stages.
int assignStages(Session& session);

/// The global feeds and state into `global`, then each rank's pieces:
/// feeds cut into micro-batches first (pipelined), each then sliced as the
/// layout says. Every input is found: a later job's kwarg that an earlier
/// job of the rank makes comes from the scope when the session runs.
core::Status loadSessionInputs(Session& session, const InputOptions& opts, TensorMap& global);

struct SessionOptions {
  int64_t steps = 1;
  std::string lossName;
  bool trace = false;
  std::chrono::milliseconds timeout{60000};
  /// While the ranks run, on the process that runs rank 0: shows progress
  /// (the token it returns lives until the ranks are joined). May be empty.
  std::function<std::shared_ptr<void>(const RunProgress&)> showProgress;
  /// In process: each step's loss (the mean over micro-batches; step from
  /// 0), in step order, as soon as every rank finished the step, on the
  /// thread of the step's last rank. Under MPI it is not called (a step's
  /// loss may need other processes' pieces). May be empty.
  std::function<void(int64_t step, double loss)> stepLoss;
  bool checkFinite = false;  // RunStats::checkFinite for every job
  bool record = false;       // keep each step's RankSession::stepBefore and stepGradients (--check)
  /// A one-job, one-rank session: what its top block made in the last step
  /// (RunStats::madeValues). May be null.
  std::vector<std::pair<const core::Value*, Tensor>>* madeValues = nullptr;
  uint64_t maxLoopIterations = 0;  // RunStats::maxLoopIterations for every job
};

/// Runs every rank's job list `steps` times on `world`; then, under MPI,
/// brings every rank's results to rank 0. A failure is located in the
/// failing rank's program (Failed), or is the report of what every rank
/// waits on (a Timeout whose notes are the ranks' waits).
core::Status runSession(Session& session, World& world, const SessionOptions& opts);

/// What a session's run leaves, assembled across ranks: every output
/// (stacked over micro-batches when pipelined), parameter and piece of
/// state; the loss of each step (the mean over micro-batches) and the last
/// step's micro-batch losses.
struct SessionResults {
  TensorMap values;
  std::vector<double> stepLosses, microBatchLosses;
};
core::Result<SessionResults> assembleResults(const Session& session, int64_t steps, const std::string& lossName);

/// With SessionOptions::record, each step's record assembled across ranks:
/// the parameters and state as the step began, and each optimizer's
/// gradient (by parameter name, through the parameter's layout value).
core::Result<std::vector<StepValues>> assembleSteps(const Session& session);

/// The loss output: `wanted` if it is a 0-D shadow output of the layout
/// (else an error listing those), or without `wanted` the only one (or
/// none: no loss lines).
core::Result<std::string> pickLoss(const passes::RankLayout& layout, const std::string& wanted);
/// The same for a dense program.
core::Result<std::string> pickLoss(const core::Program& program, const std::string& wanted);

/// Rows [j*s, (j+1)*s) of `t` (s = dim 0 / n): micro-batch j of n.
Tensor microBatch(const Tensor& t, int64_t j, int64_t n);

/// The micro-batches' values concatenated on dim 0 (0-D values become [N]),
/// as Paddle's fetch merge does.
Tensor stackMicroBatches(const std::vector<Tensor>& parts);

/// The value of a one-element float tensor.
std::optional<double> scalarOf(const Tensor& t);

TensorMap cloneAll(const TensorMap& m);

}  // namespace pir::runtime::runner
