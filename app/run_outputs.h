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

#include "core/status.h"
#include "runtime/runner/runner.h"

namespace pir::app {

/// One step's loss on stdout (`step 1: loss_0 0.5`, `step` from 0),
/// flushed: pir-run prints it as the step finishes (RunConfig::stepLoss).
void printStepLoss(int64_t step, const std::string& lossName, double loss);

/// The check's verdict on stdout (`check: N tensors match (max rel err
/// E)`, or on stderr what differs). False when the check found a
/// difference.
bool printReport(const runtime::runner::RunReport& report);

/// The trace (when `tracePath` is not empty) and the output folder (when
/// `outputDir` is not empty), each all or nothing; then stdout flushed.
core::Status writeRunFiles(const std::string& tracePath, const std::string& outputDir,
                           const runtime::runner::RunReport& report);

}  // namespace pir::app
