//===- op_roles.h - op roles and chunks of a training program ---*- C++ -*-===//
#pragma once

#include <cstdint>
#include <vector>

#include "core/program.h"

namespace pir::passes {

inline constexpr int64_t kRoleForward = 0;
inline constexpr int64_t kRoleBackward = 1;
inline constexpr int64_t kRoleOptimize = 2;

/// The op's `op_role` attribute, or -1 when it has none.
int64_t opRole(const core::Operation& op);

/// Paddle's forward_complete_op_role over the program's top-level ops: an
/// op without a role takes the role of the next op to its right that has
/// one; a trailing run takes its left neighbour's. Completed roles are set
/// as `op_role:(Int32)N`. Returns how many ops were completed.
size_t completeOpRoles(core::Program& program);

/// The op's chunk: its separate `chunk_id` attribute if present, else
/// `op_dist_attr`'s chunk_id; -1 when unset.
int64_t opChunk(const core::Operation& op);

/// Paddle's infer_chunk_id for `ops[idx]`, returning the chunk (not
/// Paddle's buggy bool): the neighbours' chunk when they agree, else the
/// next two ops' when they agree, else for builtin.combine/split their first
/// user's chunk; -1 when none applies.
int64_t inferChunk(const std::vector<core::Operation*>& ops, size_t idx);

}  // namespace pir::passes
