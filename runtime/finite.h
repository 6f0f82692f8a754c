//===- finite.h - the first NaN or infinity of a tensor ----------*- C++ -*-===//
//
// pir-run --check-finite: the executor scans every fed tensor and every
// kernel result for a value that is not finite. Integer and bool tensors are
// always finite; bf16 is read as the f32 it stands for.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/tensor.h"

namespace pir::runtime {

struct NonFinite {
  int64_t index = 0;  // flat
  double value = 0;   // NaN, inf or -inf
};

/// The first element of `t` that is NaN or infinite, or nothing.
std::optional<NonFinite> firstNonFinite(const Tensor& t);

/// "nan at flat index 3" (nan, inf, -inf).
std::string nonFiniteText(const NonFinite& nf);

}  // namespace pir::runtime
