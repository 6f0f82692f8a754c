//===- run_outputs.h - what a pir-run leaves -----------------------*- C++ -*-===//
//
// The losses on stdout, the --check comparison, summary.yaml, and the end of
// every run: the trace and the output folder, each all or nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "app/run_common.h"
#include "app/run_trace.h"

namespace pir::app {

/// Compares every tensor of `got` with `want` (the serial run's); prints the
/// verdict. False on a mismatch.
bool compareRuns(const runtime::TensorMap& got, const runtime::TensorMap& want);

/// Everything a plain run leaves: shadow outputs, parameters and state.
runtime::TensorMap resultsOf(const RankRun& r);

/// summary.yaml for plain runs (ranks, steps, the losses, per-rank costs);
/// `extra` is appended as it is.
std::string summaryYaml(const std::vector<RankRun>& runs, const RunOptions& opts, const std::vector<double>& losses,
                        const std::string& extra = "");

/// The loss of each step on stdout: `step 1: loss_0 0.5`.
void printLosses(const std::string& lossName, const std::vector<double>& losses);

/// What every run ends with: the trace and the output folder (each all or
/// nothing), then stdout flushed; the exit code.
int finishRun(const RunOptions& opts, const std::vector<TraceTrack>& tracks, const runtime::TensorMap& results,
              const std::string& summary);

}  // namespace pir::app
