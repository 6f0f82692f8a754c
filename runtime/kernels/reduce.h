//===- reduce.h - a fused loss's reductions of squares -----------*- C++ -*-===//
//
// The kernels of a loss chain the executor's plan fuses
// (runtime/loss_fusion.h); the op kernels themselves are registered by
// reduce_kernels.cpp. Each computes what the ops it replaces would, bitwise:
// the same roundings in the same order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/status.h"
#include "runtime/kernel.h"

namespace pir::runtime::kernels {

/// pd_op.sum (x, axis?) and pd_op.mean (x) of pd_op.square(x), with operand
/// 0 the square's input x: the squares are summed as made, never stored.
core::Status sumOfSquares(KernelContext& ctx);
core::Status meanOfSquares(KernelContext& ctx);

/// pd_op.sum_grad (x, out_grad, axis?) or pd_op.mean_grad (x, out_grad)
/// followed by the pd_op.square_grad (x, ·) that alone reads its result,
/// with operand 0 the square's input x: 2·x·b for each element b of
/// out_grad broadcast back, which is never stored.
core::Status sumGradSquareGrad(KernelContext& ctx);
core::Status meanGradSquareGrad(KernelContext& ctx);

}  // namespace pir::runtime::kernels
