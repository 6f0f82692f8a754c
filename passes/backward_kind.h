//===- backward_kind.h - backward_b or backward_w ----------------*- C++ -*-===//
//
// Splitting backward into B (gradients of activations, on the critical
// path) and W (gradients of parameters, which only their own B needs).
// Paddle decides by the `grad_merge_add` marks gradient merge leaves; when
// a program has them that rule is used. Otherwise data flow decides: a
// backward op is W when it has results, each used, and every use leads only
// to a parameter gradient: the gradient operand of an op_role 2 op, reached
// through reshape, cast, add and all_reduce ops or other W ops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "core/operation.h"

namespace pir::passes {

enum class BackwardKind { B, W };

/// One kind per op of `ops` (the program's top-level ops, in order; `roles`
/// are their op roles). Only backward ops' kinds are meaningful.
std::vector<BackwardKind> classifyBackward(const std::vector<core::Operation*>& ops, const std::vector<int64_t>& roles);

}  // namespace pir::passes
