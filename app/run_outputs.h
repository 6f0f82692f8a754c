//===- run_outputs.h - what a pir-run leaves -----------------------*- C++ -*-===//
//
// The losses and the check's verdict on stdout, and the files: the trace
// and the output folder (tensors as .npy and summary.yaml), each all or
// nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "core/status.h"
#include "runtime/runner/runner.h"

namespace pir::app {

/// The loss of each step on stdout (`step 1: loss_0 0.5`), then the check's
/// verdict (`check: N tensors match, and G gradients and U updates at each
/// of S steps (worst: ...)`, or on stderr what differs). False when the
/// check found a difference.
bool printReport(const runtime::runner::RunReport& report);

/// The trace (when `tracePath` is not empty) and the output folder (when
/// `outputDir` is not empty), each all or nothing; then stdout flushed.
core::Status writeRunFiles(const std::string& tracePath, const std::string& outputDir,
                           const runtime::runner::RunReport& report);

}  // namespace pir::app
