//===- run_pipeline_check.h - a pipeline's serial meaning --------*- C++ -*-===//
//
// --check of a pipeline, computed without the job machinery: drop-dist's
// program of the original (one micro-batch's shapes) runs once per
// micro-batch from the original parameters and state; its outputs, stacked
// over micro-batches, are what the pipeline must fetch, and the mean over
// micro-batches of its updated parameters is what gradient merge (averaged
// gradients, the optimizer applied once) must give. That mean is exact for
// an optimizer linear in the gradient (sgd_: p - lr*mean(g) is the mean of
// p - lr*g); for another (adamw_) only the outputs are compared.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "app/run_common.h"

namespace pir::app {

/// Rows [j*s, (j+1)*s) of `t` (s = dim 0 / n): micro-batch j of n.
runtime::Tensor microBatch(const runtime::Tensor& t, int64_t j, int64_t n);

/// The micro-batches' values concatenated on dim 0 (0-D values become [N]),
/// as Paddle's fetch merge does.
runtime::Tensor stackMicroBatches(const std::vector<runtime::Tensor>& parts);

/// Runs the serial meaning of `serial` (the distributed original; drop-dist
/// is applied here, and each optimizer's gradient rewired) on `global`
/// (whole-batch feeds, original parameters and state): per micro-batch the
/// outputs and gradients, then the optimizers once on the gradients' mean;
/// compares with `results`; 0 when they agree.
int checkPipelineSerial(const RunOptions& opts, const core::SourceFile& source, core::Program& serial, int64_t n,
                        const runtime::TensorMap& global, const runtime::TensorMap& results);

}  // namespace pir::app
