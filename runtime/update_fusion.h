//===- update_fusion.h - sgd_ folded into its gradient's GEMM ----*- C++ -*-===//
//
// Private to the executor's plan. A parameter's update p -= lr·dy, where dy
// is matmul_grad's y_grad and sgd_ its only reader, can be made by the
// GEMM that computes dy: alpha = -lr, beta = 1, written into p's buffer
// (matmulGradUpdate, runtime/kernels/matmul.h). dy is then never stored and
// never read back: two passes over the parameter's size fewer, which on a
// large MLP is most of what the step spends outside its GEMMs
// (docs/performance.md).
//
// The update then happens at matmul_grad, earlier than the program says,
// so the rule (fusableMatmulGrad) takes only the case where nothing can
// see the difference: see the .cpp. The result differs from sgd_'s by a
// rounding (the product is not rounded to the gradient's dtype before the
// update; docs/pir-run.md), so runs that show gradients or check every
// value (--dump-values, --check-finite, --check's serial reference) compile
// without it (CompileOptions::fuseUpdates).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <unordered_map>

#include "core/operation.h"

namespace pir::runtime {

/// An sgd_ its matmul_grad makes, and the names its parameter and learning
/// rate are fed by (empty: not fed). Within the program no other value is
/// fed either name; whether the feeds of a run hold one tensor under two
/// names (a builtin.set_parameter of an earlier step can make them so) only
/// the run can tell: the executor then runs the plan without fusions.
struct FusedUpdate {
  const core::Operation* sgd = nullptr;
  std::string paramFeed, lrFeed;
};

/// The sgd_ ops of `body` (its top level) whose update its matmul_grad
/// makes: by matmul_grad.
std::unordered_map<const core::Operation*, FusedUpdate> findUpdateFusions(const core::Block& body);

}  // namespace pir::runtime
