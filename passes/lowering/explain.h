//===- explain.h - a reshard's plans, their steps, bytes and time -*- C++ -*-===//
//
// What `pir-opt explain-reshard` prints: for one reshard, the plan of each
// planner (plan.h) with its steps and what each costs (cost_model.h), or
// the cost of a plan given as a path of layouts (a plan another planner
// chose: scripts/reshard-table prices DTensor's and OneFlow's this way).
// Layouts are written per mesh dim, comma-separated: `R`, `S(i)` (tensor
// axis i), `P` or `P(TYPE)` (TYPE one of SUM, AVG, MAX, MIN, PROD).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/status.h"
#include "passes/lowering/cost_model.h"
#include "passes/lowering/plan.h"

namespace pir::passes::lowering {

/// The layout `text` describes on `mesh` for a tensor of `rank` dims.
core::Result<const core::TensorDistAttr*> parseLayout(core::Context& ctx, std::string_view text,
                                                      const core::ProcessMesh* mesh, size_t rank);

/// A layout as parseLayout reads it: `S(0),R`.
std::string layoutText(const core::TensorDistAttr* attr);

/// A mesh's text: `[2,2]` and, when its ids are not 0..n-1, `ids [4,5,6,7]`.
std::string meshText(const core::ProcessMesh* mesh);

/// One plan and what it costs.
struct Explained {
  std::string planner;  // "cost", "paddle", "path"
  std::string function;
  std::vector<Step> steps;
  std::vector<StepCost> stepCosts;
  PlanCost cost;
};

/// The plan `request`'s planner makes, costed.
core::Result<Explained> explainPlan(core::Context& ctx, const core::TensorDistAttr* src,
                                    const core::TensorDistAttr* dst, std::span<const int64_t> dims,
                                    const PlanRequest& request);

/// The plan that passes through `layouts` in order (the first the source,
/// the last the destination), costed. Consecutive layouts on one mesh
/// become one step per mesh dim that changes, outer dim first (a dim whose
/// new axis another still holds after it; a cycle through R): S->R
/// all_gather, S(a)->S(b) all-to-all, P->R all_reduce, P(SUM)->S
/// reduce_scatter, R->S slice, R->P local (a change these do not cover, such
/// as S->P, goes through R). Layouts on two meshes become one Move.
core::Result<Explained> explainPath(core::Context& ctx, std::span<const core::TensorDistAttr* const> layouts,
                                    std::span<const int64_t> dims, uint64_t elementBytes, const CostModel& model);

/// The text explain-reshard prints for `plans` of a tensor of `dims`:
/// each plan's summary, steps and per-rank bytes.
std::string explainText(std::span<const Explained> plans, std::span<const int64_t> dims);
/// The same as YAML (what scripts read).
std::string explainYaml(std::span<const Explained> plans, std::span<const int64_t> dims);

}  // namespace pir::passes::lowering
