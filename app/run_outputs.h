//===- run_outputs.h - what a pir-run leaves -----------------------*- C++ -*-===//
//
// The losses and the check's verdict on stdout, and the files: the trace
// and the output folder (tensors as .npy and summary.yaml), each all or
// nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

#include "app/output_file.h"
#include "app/staged_directory.h"
#include "core/status.h"
#include "runtime/runner/runner.h"

namespace pir::app {

/// One step's loss on stdout (`step 1: loss_0 0.5`, `step` from 0),
/// flushed: pir-run prints it as the step finishes (RunConfig::stepLoss).
void printStepLoss(int64_t step, const std::string& lossName, double loss);

/// The check's verdict on stdout (`check: N tensors match, and G
/// gradients and U updates at each of S steps (worst: ...)`, or on stderr
/// what differs). False when the check found a difference.
bool printReport(const runtime::runner::RunReport& report);

/// The trace (when `tracePath` is not empty) and the output folder (when
/// `outputDir` is not empty), each all or nothing. open() runs before the
/// compute, so an unwritable path fails in a moment, not after the run; the
/// folder replaces an existing one as a whole (StagedDirectory::Replace,
/// marked by summary.yaml), never merges with a last run's files.
class RunFiles {
 public:
  /// `valuesDir`: --dump-values' folder (empty: none).
  core::Status open(const std::string& tracePath, const std::string& outputDir, const std::string& valuesDir = "");
  /// Writes and commits both; then stdout flushed.
  core::Status write(const runtime::runner::RunReport& report);

 private:
  std::string tracePath_;
  OutputFile trace_;
  StagedDirectory dir_;
  StagedDirectory values_;
};

}  // namespace pir::app
