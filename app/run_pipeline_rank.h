//===- run_pipeline_rank.h - a pipeline rank's programs and results -*- C++ -*-===//
//
// What app/run_pipeline.cpp keeps per rank (job programs, scopes,
// measurements) and the parts that read those results: summary.yaml's
// pipeline part, the fetches stacked over micro-batches, and the bytes a
// rank's process sends rank 0 under mpirun.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <climits>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "app/run_common.h"
#include "app/run_trace.h"
#include "passes/rank_layout.h"
#include "passes/schedule/job.h"

namespace pir::app {

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
  runtime::TensorMap shared;                  // parameters, state, merge buffers
  std::vector<runtime::TensorMap> feeds;      // per micro-batch: the cut feeds
  std::vector<runtime::TensorMap> scopes;     // per micro-batch: the last step's values
  std::vector<runtime::Tensor> lossPieces;    // per step and micro-batch
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

/// Everything a pipeline run needs.
struct PipelineSet {
  std::vector<std::unique_ptr<Loaded>> loaded;  // --programs: each job's file
  std::vector<PipelineRank> ranks;
  passes::RankLayout layout;
  passes::schedule::Schedule schedule;
  /// --check: the serial meaning, run on the whole-batch feeds; 0 when it agrees.
  std::function<int(const runtime::TensorMap& feeds, const runtime::TensorMap& results, const std::string& lossName)>
      check;

  /// The entry of `rank`, made (on `stage`) at its first job.
  PipelineRank& rankOf(int64_t rank, int stage) {
    for (auto& r : ranks)
      if (r.rank == rank) return r;
    PipelineRank& r = ranks.emplace_back();
    r.rank = rank;
    r.stage = stage;
    return r;
  }
};

/// summary.yaml's pipeline part: the micro-batch losses, each rank's costs,
/// `costs:` (what `pir-opt schedule --costs` reads) and the measured
/// makespan and bubble.
std::string pipelineSummary(const PipelineSet& set, const std::vector<double>& mbLosses);

/// Stacks every fetched output over micro-batches, assembles it across
/// ranks; adds parameters and state. `stepLosses` gets each step's mean
/// loss, `mbLosses` the last step's micro-batch losses.
core::Status gatherResults(const RunOptions& opts, PipelineSet& set, const std::string& lossName,
                           runtime::TensorMap& results, std::vector<double>& stepLosses, std::vector<double>& mbLosses);

/// Under mpirun, what a rank's process sends rank 0: every result of a
/// PipelineRank (not its plans, which rank 0 has too), and its reading.
std::string packRank(const PipelineRank& r);
core::Status unpackRank(std::string_view bytes, PipelineRank& r);

}  // namespace pir::app
