//===- compare.h - a run's results against the serial meaning ----*- C++ -*-===//
//
// The tolerance per dtype: |a - b| <= 1e-6 + 1e-5|b| for f32 and bf16,
// 1e-12 + 1e-10|b| for f64, equality otherwise; NaN equals NaN at the same
// place. compareResults returns what it found instead of printing it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

#include "runtime/executor.h"

namespace pir::runtime::runner {

/// The first flat index where `a` and `b` (same dtype and element count)
/// differ beyond the tolerance, or -1; `maxRel` grows with every element's
/// relative difference, `va` and `vb` get the differing values.
int64_t firstMismatch(const Tensor& a, const Tensor& b, double& maxRel, double& va, double& vb);

/// What comparing every tensor of the serial results with a run's found.
struct CompareReport {
  bool match = true;
  size_t compared = 0;   // tensors compared
  double maxRel = 0;     // the largest relative difference seen
  std::string mismatch;  // when !match: `'NAME' differs at flat index I: A, serially B` (or missing, or typed apart)
};

/// Compares `got` with `want` for every name of `want`, in name order,
/// stopping at the first mismatch.
CompareReport compareResults(const TensorMap& got, const TensorMap& want);

/// Whether two runs gave the same bits for every tensor of `want`; the
/// first that differs named in the report (determinism checks).
CompareReport compareBitwise(const TensorMap& got, const TensorMap& want);

}  // namespace pir::runtime::runner
