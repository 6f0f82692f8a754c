//===- clone.h - copying operations between blocks and programs -*- C++ -*-===//
#pragma once

#include <functional>
#include <unordered_map>

#include "core/operation.h"

namespace pir::core {

class Context;

/// What a clone maps each source value to.
using ValueMapping = std::unordered_map<const Value*, Value*>;

/// Called for an operand whose value is not in the mapping (a value defined
/// outside what is being cloned); returns what the copy should read.
using MissingValueFn = std::function<Value*(const Value*)>;

/// Creates a detached copy of `op`, its attributes and its regions. Operands
/// are looked up in `map` (then `missing`); the copy's results and block
/// arguments are added to `map`.
Operation* cloneOperation(Context& ctx, const Operation& op, ValueMapping& map, const MissingValueFn& missing);

}  // namespace pir::core
