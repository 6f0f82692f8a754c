//===- loss_fusion.h - a squared loss reduced without its squares -*- C++ -*-===//
//
// Private to the executor's plan. A squared-error loss, sum or mean of
// square(d) (Paddle's mse_loss is mean(square(input - label))), and its
// backward, square_grad(d, sum_grad(square(d), g)), store two tensors of
// d's size that only the next op reads: the squares, and g broadcast back to
// d's shape. Fused, the reduction sums d's squares as it makes them
// (kernels::sumOfSquares) and the reduction grad makes 2·d·g itself
// (kernels::sumGradSquareGrad): the square and square_grad make no step.
//
// The fused kernels round as the ops do, in the same order, so the results
// are bitwise the op-by-op ones. They read d where the square (forward) or
// the square_grad (backward) would: the rule (the .cpp) takes only chains
// with nothing between that could write d. Runs that show or check every
// value (--dump-values, --check-finite, --check's serial reference) compile
// without it, since the squares and the broadcast are never made
// (CompileOptions::fuseLoss).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <unordered_map>
#include <unordered_set>

#include "core/operation.h"

namespace pir::runtime {

struct LossFusions {
  /// The steps whose operand 0 reads a fused square's input instead of its
  /// result: the reduction that sums the squares itself, and every
  /// reduction grad of the squares (which reads them for their shape, the
  /// input's; a fused one also as the square_grad's x).
  std::unordered_map<const core::Operation*, const core::Value*> readsSquareInput;
  /// The pd_op.sum or mean ops that square what they sum.
  std::unordered_set<const core::Operation*> sumsSquares;
  /// pd_op.sum_grad or mean_grad -> the pd_op.square_grad that alone reads
  /// its result: its step makes the square_grad's result.
  std::unordered_map<const core::Operation*, const core::Operation*> squareGradMade;
  /// The squares and square_grads above: no step runs them.
  std::unordered_set<const core::Operation*> unrun;
};

/// The loss chains of `body`'s top level the plan may fuse.
LossFusions findLossFusions(const core::Block& body);

}  // namespace pir::runtime
