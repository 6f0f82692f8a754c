//===- run_layout.h - global tensors to rank pieces and back ------*- C++ -*-===//
//
// With ranks.yaml (passes/rank_layout.h) pir-run slices each global input
// to the piece a rank holds, and assembles each output, parameter and piece
// of state from the ranks' pieces: shards are copied to their global ranges,
// the addends of a partial value are reduced with its reduce type (over the
// ranks that differ only in the partial mesh dims), and replicas (pieces of
// the same ranges) must agree within the --check tolerance.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>

#include "core/status.h"
#include "passes/rank_layout.h"
#include "runtime/tensor.h"

namespace pir::app {

/// Rank `rank`'s piece of `global` (a partial value: the whole value on the
/// ranks at coordinate 0 of every partial mesh dim and zeros elsewhere for
/// SUM, the whole value everywhere for the other reduce types).
core::Result<runtime::Tensor> slicePiece(const passes::LayoutValue& v, const runtime::Tensor& global, int64_t rank);

/// The global value from every rank's piece; an error names the ranks whose
/// replicas differ.
core::Result<runtime::Tensor> assemble(const passes::LayoutValue& v, const std::map<int64_t, runtime::Tensor>& byRank);

/// |a-b| <= 1e-6 + 1e-5|b| (f32, bf16), 1e-12 + 1e-10|b| (f64), exact
/// otherwise: the first index that is not, or -1; `maxRel` grows.
int64_t firstMismatch(const runtime::Tensor& a, const runtime::Tensor& b, double& maxRel, double& va, double& vb);

}  // namespace pir::app
