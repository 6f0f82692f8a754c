//===- layout.h - global tensors to rank pieces and back ----------*- C++ -*-===//
//
// With a rank layout (passes/rank_layout.h) the runner slices each global
// input to the piece a rank holds, and assembles each output, parameter and
// piece of state from the ranks' pieces: shards are copied to their global
// ranges, the addends of a partial value are reduced with its reduce type
// (over the ranks that differ only in the partial mesh dims), and replicas
// (pieces of the same ranges) must agree within the compare tolerance.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>

#include "core/status.h"
#include "passes/rank_layout.h"
#include "runtime/executor.h"
#include "runtime/tensor.h"

namespace pir::runtime::runner {

/// Rank `rank`'s piece of `global`. A partial value holds what
/// core::partialShare says: the whole value on the ranks at coordinate 0 of
/// every partial mesh dim, elsewhere the reduction's identity (0 for SUM, 1
/// for PROD) or the whole value (MAX, MIN, AVG).
core::Result<Tensor> slicePiece(const passes::LayoutValue& v, const Tensor& global, int64_t rank);

/// Whether `v` (ranks.yaml's entry) is what rank `rank`'s program reads as
/// `in`: the same dtype, and the rank's piece of the program's shape (a dim
/// the program leaves dynamic takes any size). A failure is located at the
/// op reading it, in `source`.
core::Status checkProgramReads(const passes::LayoutValue& v, const ProgramInput& in, int64_t rank,
                               const core::SourceFile* source);

/// The global value from every rank's piece; an error names the ranks whose
/// replicas differ.
core::Result<Tensor> assemble(const passes::LayoutValue& v, const std::map<int64_t, Tensor>& byRank);

}  // namespace pir::runtime::runner
