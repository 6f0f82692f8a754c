//===- run_common.h - what pir-run's pieces share ---------------*- C++ -*-===//
//
// The options, a rank's run (plan, values, measurements), a loaded program
// and the small helpers every part of pir-run uses (rendering a located
// error, a tensor's scalar, number formatting).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/input_file.h"
#include "core/context.h"
#include "core/diagnostics.h"
#include "core/status.h"
#include "passes/pass_manager.h"
#include "passes/rank_layout.h"
#include "runtime/comm/communicator.h"
#include "runtime/executor.h"

namespace pir::app {

struct RunOptions {
  std::string program, programsDir, inputsDir, outputDir, loss, trace;
  int64_t ranks = 0, steps = 1;
  uint64_t seed = 0;
  bool check = false, timing = false;
  double timeout = 60;
  // Pipelines (app/run_pipeline.h).
  std::string mode, schedule;
  int64_t microBatches = 0;  // 0: not given
  int64_t vpp = 0;           // 0: not given
  bool splitBw = false;
};

/// One rank's program, plan and values.
struct RankRun {
  int64_t rank = 0;
  std::unique_ptr<runtime::Executor> executor;
  runtime::TensorMap state;    // feeds, parameters and state: parameters and state change in place
  runtime::TensorMap fetches;  // the last step's shadow outputs
  std::vector<double> losses;
  std::vector<runtime::Tensor> lossPieces;  // this rank's loss tensor per step (--programs: assembled across ranks)
  runtime::RunStats stats;
  std::vector<runtime::OpEvent> events;
  double seconds = 0, commSeconds = 0;
  int64_t peakBytes = 0;
  std::map<int64_t, uint64_t> bytesByRing;
};

/// A program read from a file, with the source its errors are located in.
struct Loaded {
  InputFile file;
  std::unique_ptr<core::SourceFile> source;
  core::Context ctx;
  std::unique_ptr<core::Program> program;
};

/// Reads and parses `path` into `l`; a failure's message is rendered.
core::Status loadProgram(const std::string& path, Loaded& l);

/// `s` rendered as a diagnostic located in `source`, its message prefixed.
std::string render(const core::SourceFile& source, const core::Status& s, const std::string& prefix = "");

/// Runs the pass pipeline `pipeline` over `set` through `pm` (which keeps
/// the passes, for their output files). 0 when it ran; else the failure is
/// printed (the passes' located diagnostics, or `prefix` and the status
/// located in `source`) and the exit code returned.
int runPassPipeline(const std::string& pipeline, core::ProgramSet& set, const core::SourceFile& source,
                    const std::string& prefix, passes::PassManager& pm);

/// drop-dist over `serial` (the caller keeps it): 0, or the exit code after
/// printing the failure.
int dropDist(core::Program& serial, const core::SourceFile& source);

/// The value of a one-element float tensor.
std::optional<double> scalarOf(const runtime::Tensor& t);

runtime::TensorMap cloneAll(const runtime::TensorMap& m);

/// `v` with 9 significant digits (stdout, summary.yaml).
std::string number(double v);

/// summary.yaml's flow map of a rank's bytes sent by ring: `{0: 64, 3: 8}`.
std::string bytesByRingYaml(const std::map<int64_t, uint64_t>& bytesByRing);

/// The loss output: --loss, or the only 0-D shadow output.
std::string pickLoss(const RunOptions& opts, const core::Program& program);
/// ranks.yaml from DIR, timed as the `layout` phase (--timing).
core::Result<passes::RankLayout> loadLayout(const std::string& dir);

/// Executor::compile, timed as the `compile` phase (--timing).
core::Result<std::unique_ptr<runtime::Executor>> compilePlan(const core::Program& program);

/// The same for rank programs: --loss, or the layout's only 0-D shadow output.
std::string pickLoss(const RunOptions& opts, const passes::RankLayout& layout);

}  // namespace pir::app
