//===- fusion_rules.h - what the plan's fusion rules ask of ops --*- C++ -*-===//
//
// Private to the executor's plan: the questions update_fusion.cpp and
// loss_fusion.cpp both ask of an op, answered from the op table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string_view>

#include "core/operation.h"

namespace pir::runtime {

/// Whether `op` runs as the op table's `name` (a kernel-dialect op as the op
/// its op_name names).
bool runsAs(const core::Operation* op, std::string_view name);

/// Whether `user` writes its operand `index` in place (an in-place pair of
/// the op table).
bool writesInPlace(const core::Operation& user, uint32_t index);

}  // namespace pir::runtime
