//===- ring_plan.h - every ring a program's lowering needs -------*- C++ -*-===//
//
// The ring ids `lower-reshard` puts on the ops it emits, allocated over all
// ranks of the program at once, so that lowering for one rank alone and for
// every rank give the same ids (Paddle allocates them as each rank's
// lowering asks, and for N-D meshes its order differs per rank).
//
// Canonical order: the program's `dist_op.reshard` ops in program order
// (blocks in order, an op before the ops of its regions); for each, the steps
// of its plan (lowering/plan.h: decompose_reshard_pass's SameStatus first,
// then NdMesh's shards, partials, R->P and slices); for each step, its rings
// in lowering::forEachRing's order. One id per ordered rank list, as
// Paddle's new_process_group: [s,d] and the collective over the same sorted
// ranks are one ring, [d,s] another. New ids start above the highest
// `ring_id` already in the input (and at 12, Paddle's first, at least).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/process_group.h"
#include "core/program.h"
#include "core/status.h"
#include "passes/lowering/plan.h"

namespace pir::passes {

/// The rings lowering every reshard of `program` needs, over all ranks. An
/// error when a reshard cannot be planned (dist attrs missing or of
/// different tensor ranks).
core::Result<core::ProcessGroupTable> planRings(const core::Program& program,
                                                const lowering::PlanRequest& request = {});

/// The highest `ring_id` attribute of any op in `program`, or -1 for none.
int64_t maxRingId(const core::Program& program);

}  // namespace pir::passes
