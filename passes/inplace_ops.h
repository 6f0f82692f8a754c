//===- inplace_ops.h - which operands an in-place op overwrites -*- C++ -*-===//
//
// One table, taken from the `inplace:` entries of Paddle's op definitions
// (paddle/phi/ops/yaml/ops.yaml). Operand and result indices follow the
// ops' argument and output lists; where Paddle changed a signature (adam_
// and adamw_ gained moment2_max for amsgrad), both layouts are listed and
// told apart by operand count.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <span>
#include <string_view>
#include <utility>

namespace pir::passes {

/// (operand index, result index) pairs an op writes in place.
struct InplacePair {
  unsigned operand;
  unsigned result;
};

/// The in-place pairs of an op with `numOperands` operands, or empty when
/// the op is not in the table. `known` says whether it was.
std::span<const InplacePair> inplacePairs(std::string_view opName, unsigned numOperands, bool& known);

}  // namespace pir::passes
