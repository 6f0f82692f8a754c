//===- compare.h - a run's results against the serial meaning ----*- C++ -*-===//
//
// What --check compares, and within what. A value where the step ended
// (every output, parameter and piece of state): |a - b| <= 1e-6 + 1e-5|b|
// for f32 and bf16, 1e-12 + 1e-10|b| for f64, equality otherwise. What a
// step changed (each optimizer's gradient, each update after - before):
// within 1e-5|b| plus 1e-4 of the tensor's largest |b| for a gradient,
// 3e-3 for an update (f64: 1e-10 plus 1e-11, 1e-10), so the tolerance
// follows the change's own size and a gradient of 1e-8 is not "equal" to
// twice itself; an update also gets the rounding of its parameter (2 ulps
// of |after|), which no run can avoid; where a parameter's gradient is
// within the gradient's tolerance of zero (its sign undecided), its update
// may be any up to twice the update's largest (adam's step turns such a
// gradient's rounding into a full step). A piece of state's final value may
// also be off by the sum of its updates' tolerances. Everywhere inf
// equals inf of the same sign and NaN equals NaN at the same place.
// compareRun returns what it found instead of printing it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/executor.h"

namespace pir::runtime::runner {

/// One step's record for the check: the gradient each optimizer received
/// (named `<param>@GRAD@CHECK`, passes/value_naming.h) and every parameter
/// and piece of state as the step began.
struct StepValues {
  TensorMap gradients;
  TensorMap before;
};

/// What a run (or the serial meaning) gives for the check.
struct RunValues {
  TensorMap final;                // every output, parameter and state after the last step
  std::vector<StepValues> steps;  // one a step
};

/// An element compared: where, both values, and its difference over its
/// tolerance (0 when equal; > 1 beyond it; inf for inf against a number).
struct Element {
  std::string what;  // `'w' gradient at step 2, flat index 5` or `'out' at flat index 0`
  double got = 0, want = 0, ratio = 0;
};

/// What comparing a run with the serial meaning found.
struct CompareReport {
  bool match = true;
  size_t compared = 0;   // final tensors compared
  size_t gradients = 0;  // gradients compared a step
  size_t updates = 0;    // updates compared a step
  size_t steps = 0;      // steps whose gradients and updates were compared
  bool bitwise = false;  // compared bit for bit (determinism)
  Element worst;         // the element nearest its tolerance (or furthest beyond it)
  std::string mismatch;  // when !match: `'NAME' differs at flat index I: A, serially B (...)`, missing, typed apart
};

/// Whether every element of `a` is within the value tolerance of `b`'s
/// (same dtype and element count): replicas of one value agree.
bool withinTolerance(const Tensor& a, const Tensor& b);

/// Compares `got` with `want`: first each step's gradients and updates in
/// step order, then the final values, every name of `want` in name order;
/// stops at the first tensor beyond its tolerance (the earliest step's, so
/// a wrong backward is named before the parameters it moved).
CompareReport compareRun(const RunValues& got, const RunValues& want);

/// Compares only the final values (`want`'s names) with the value tolerance.
CompareReport compareResults(const TensorMap& got, const TensorMap& want);

/// Whether two runs gave the same bits for every tensor of `want`; the
/// first that differs named in the report (determinism checks).
CompareReport compareBitwise(const TensorMap& got, const TensorMap& want);

}  // namespace pir::runtime::runner
