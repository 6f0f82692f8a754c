//===- made_from.h - was this folder made from this program? ----*- C++ -*-===//
//
// `pir-run --programs DIR --check PROGRAM` checks the per-rank (or per-job)
// programs pir-opt wrote into DIR against PROGRAM's serial meaning. Numbers
// can only be compared when DIR was made from PROGRAM: a different program
// would show up as a numeric mismatch, or not at all. So PROGRAM's layout
// (split-ranks' ranks.yaml for it) must be DIR's: the same ranks and
// stages, and every named value (data, parameter, output) with the same
// dtype, shape, mesh, dims_mapping, partial dims and persistability. The
// first difference is an error located at the op in PROGRAM that names the
// value (or at its first op, for ranks and stages). Rings are compared by
// their ordered ranks, not their ids (how the passes numbered the groups):
// each of the folder's must be one PROGRAM's lowering plans, so a ring's
// ranks reordered in ranks.yaml are an error. PROGRAM is planned with the
// planner and cost model ranks.yaml records (split-ranks{planner=cost}
// plans other rings than Paddle's planner); a relative cost_model path is
// read from the current directory, as split-ranks read it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"
#include "passes/rank_layout.h"

namespace pir::runtime::runner {

/// Ok when `folder` (DIR's ranks.yaml, read from `folderPath`) is the
/// layout of `program` (read from `source`).
core::Status checkMadeFrom(const core::Program& program, const core::SourceFile& source,
                           const passes::RankLayout& folder, const std::string& folderPath);

}  // namespace pir::runtime::runner
