//===- run_pipeline.h - pir-run over pipeline job lists ----------*- C++ -*-===//
//
// Runs per-rank job programs (`rankR.JOB`, pipeline-split's output) as
// Paddle's StandaloneExecutor does: each rank runs its stage's job list in
// order, one scope per micro-batch (parameters, state and merge buffers in
// the rank's shared scope), a job reading its kwargs and inputs by name
// from its micro-batch's scope, then the shared one, and putting its
// shadow outputs in its micro-batch's scope. Each job program is compiled
// once and run per micro-batch.
//
// Feeds: the program's data shapes are one micro-batch's; a non-persistable
// feed holds the whole batch (N micro-batches on dim 0: drawn at N times the
// program's dim 0, a file's dim 0 must divide by N) and is cut into N.
// Persistable data is state and is not cut. Fetched outputs are stacked per
// micro-batch (a 0-D loss becomes [N]), as Paddle's fetch merge does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "app/run_common.h"

namespace pir::app {

/// Whether `opts` asks for a pipeline run (--mode, --schedule or
/// --micro-batches).
bool wantsPipeline(const RunOptions& opts);

/// `--programs DIR` whose programs.yaml lists jobs: the exit code.
int executePipelineDir(const RunOptions& opts);

/// `PROGRAM --mode M`: apply-partition, split-ranks, gradient-merge and
/// pipeline-split in process, then the job lists; the exit code.
int executePipelineProgram(const RunOptions& opts, Loaded& l);

}  // namespace pir::app
