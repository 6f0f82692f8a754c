//===- serial_check.h - what a run must give: the serial meaning -*- C++ -*-===//
//
// --check, computed without the job machinery: drop-dist's program of the
// distributed original (one micro-batch's shapes) runs once per micro-batch
// from the step's parameters and state, which gives its outputs (stacked
// over micro-batches for a pipeline) and, through export-gradients, every
// optimizer's gradient; the same program then runs once with each optimizer
// fed the gradients' mean (summed in f64), which gives the updated
// parameters and state: gradient merge's averaged step, for any optimizer.
// A plain run is the case of one micro-batch. Each step's record keeps the
// gradients' mean (what each optimizer received) and the state the step
// began from, so --check compares what every step changed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/diagnostics.h"
#include "core/program.h"
#include "runtime/executor.h"
#include "runtime/runner/compare.h"

namespace pir::runtime::runner {

struct SerialOptions {
  int64_t microBatches = 1;
  int64_t steps = 1;
  bool stacked = false;  // outputs stacked over micro-batches (a pipeline run)
};

/// The serial meaning of `program` (the distributed original, rewritten
/// here) on `global` (whole-batch feeds, the original parameters and
/// state): every output, parameter and piece of state after `steps` steps,
/// and each step's record.
core::Result<RunValues> serialResults(core::Program& program, const core::SourceFile& source, const SerialOptions& opts,
                                      const TensorMap& global);

}  // namespace pir::runtime::runner
