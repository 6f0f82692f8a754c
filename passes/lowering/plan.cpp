//===- plan.cpp - how a reshard decomposes, the same on every rank --------===//
#include "passes/lowering/plan.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/hash.h"
#include "core/mesh_math.h"
#include "passes/lowering/cost_model.h"
#include "passes/lowering/cost_planner.h"
#include "passes/lowering/move.h"

namespace pir::passes::lowering {

namespace {

using namespace pir::core;

std::vector<PartialEntry> sortedPartial(const TensorDistAttr* a) {
  std::vector<PartialEntry> p(a->partial().begin(), a->partial().end());
  std::sort(p.begin(), p.end(), [](const PartialEntry& x, const PartialEntry& y) { return x.meshDim < y.meshDim; });
  return p;
}

/// Whether two attrs lay the tensor out alike (mesh, dims_mapping, partial
/// dims with their types): placements spelled or not do not move data.
bool sameLayout(const TensorDistAttr* a, const TensorDistAttr* b) {
  if (a->mesh() != b->mesh()) return false;
  if (!std::equal(a->dimsMapping().begin(), a->dimsMapping().end(), b->dimsMapping().begin(), b->dimsMapping().end()))
    return false;
  return sortedPartial(a) == sortedPartial(b);
}

const PartialEntry* findPartial(std::span<const PartialEntry> p, int64_t meshDim) {
  for (const PartialEntry& e : p)
    if (e.meshDim == meshDim) return &e;
  return nullptr;
}

/// Builds the steps of a reshard within one mesh, Paddle's NdMesh order
/// (nd_mesh_reshard_func.py): shards to replicated from the highest
/// differing axis down, pending partials (P->S where the destination shards
/// a tensor axis on that mesh dim and the type is SUM), R->P, then slices
/// from the highest axis down. On a 1-D mesh this is the one function the
/// registry picks (PToR, PToS, RToS, RToP, SToR). Returns whether it had to
/// leave Paddle's functions (a partial changing its reduce type, P->S with
/// another type: through replicated).
bool planOneMesh(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst, std::vector<Step>& steps) {
  const ProcessMesh* mesh = src->mesh();
  std::vector<int64_t> map(src->dimsMapping().begin(), src->dimsMapping().end());
  std::vector<PartialEntry> partial = sortedPartial(src);
  std::span<const int64_t> want = dst->dimsMapping();
  const TensorDistAttr* cur = src;
  bool general = false;
  auto advance = [&](StepKind kind, int64_t meshDim, int64_t axis, ReduceType reduce) {
    const TensorDistAttr* next = ctx.tensorDistAttr(mesh, map, partial);
    steps.push_back(Step{kind, cur, next, meshDim, axis, reduce});
    cur = next;
  };
  int64_t first = -1;  // the highest axis whose mapping differs
  for (int64_t i = static_cast<int64_t>(map.size()) - 1; i >= 0; --i)
    if (i < static_cast<int64_t>(want.size()) && map[i] != want[i]) {
      first = i;
      break;
    }
  for (int64_t i = first; i >= 0; --i) {
    int64_t in = map[i];
    if (in == -1 || in == want[i]) continue;
    map[i] = -1;
    advance(StepKind::SToR, in, i, ReduceType::Sum);
  }
  std::vector<PartialEntry> dstPartial = sortedPartial(dst);
  for (const PartialEntry& p : std::vector<PartialEntry>(partial)) {
    const PartialEntry* kept = findPartial(dstPartial, p.meshDim);
    if (kept && kept->reduce == p.reduce) continue;
    general = general || kept;
    auto pos = std::find(want.begin(), want.end(), p.meshDim);
    partial.erase(std::find(partial.begin(), partial.end(), p));
    if (!kept && pos != want.end() && p.reduce == ReduceType::Sum && map[pos - want.begin()] == -1) {
      map[pos - want.begin()] = p.meshDim;
      advance(StepKind::PToS, p.meshDim, pos - want.begin(), p.reduce);
    } else {
      general = general || pos != want.end();
      advance(StepKind::PToR, p.meshDim, -1, p.reduce);
    }
  }
  for (const PartialEntry& p : dstPartial) {
    if (findPartial(partial, p.meshDim)) continue;
    partial.push_back(p);
    std::sort(partial.begin(), partial.end(),
              [](const PartialEntry& x, const PartialEntry& y) { return x.meshDim < y.meshDim; });
    advance(StepKind::RToP, p.meshDim, -1, p.reduce);
  }
  for (int64_t i = static_cast<int64_t>(map.size()) - 1; i >= 0; --i) {
    if (i >= static_cast<int64_t>(want.size()) || map[i] == want[i]) continue;
    map[i] = want[i];
    advance(StepKind::RToS, want[i], i, ReduceType::Sum);
  }
  return general;
}

/// The registry's name for a plan within one mesh.
std::string oneMeshName(const ProcessMesh* mesh, const std::vector<Step>& steps, size_t from, bool general) {
  if (general) return "general";
  if (mesh->ndim() > 1) return "NdMesh";
  if (steps.size() - from == 1) return std::string(stepName(steps[from].kind));
  return "general";  // S->S, S->P: no 1-D function of Paddle's
}

/// The ranks of `mesh` as a set, sorted.
std::vector<int64_t> idSet(const ProcessMesh* mesh) {
  std::vector<int64_t> ids(mesh->processIds().begin(), mesh->processIds().end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

/// set(a) < set(b), a proper subset.
bool properSubset(const ProcessMesh* a, const ProcessMesh* b) {
  std::vector<int64_t> x = idSet(a), y = idSet(b);
  return x.size() < y.size() && std::includes(y.begin(), y.end(), x.begin(), x.end());
}

/// Whether `sub` is one of `mesh`'s sub-meshes along dim 0 (Paddle's
/// get_sub_meshes: mesh[i], of shape shape[1:]); dim names are not compared.
bool isSubMesh(const ProcessMesh* sub, const ProcessMesh* mesh) {
  if (mesh->ndim() != sub->ndim() + 1 || mesh->shape().empty() || mesh->shape()[0] < 1) return false;
  if (!std::equal(sub->shape().begin(), sub->shape().end(), mesh->shape().begin() + 1, mesh->shape().end()))
    return false;
  auto ids = mesh->processIds();
  size_t n = ids.size() / static_cast<size_t>(mesh->shape()[0]);
  if (n == 0 || sub->processIds().size() != n) return false;
  for (size_t start = 0; start + n <= ids.size(); start += n)
    if (std::equal(ids.begin() + start, ids.begin() + start + n, sub->processIds().begin())) return true;
  return false;
}

/// GlobaleToSubMeshFunction.is_suitable: a replicated destination on a
/// sub-mesh of the source (a proper subset of its ranks at equal ndim).
bool globalToSubSuitable(const ProcessMesh* sm, const ProcessMesh* dm, const TensorDistAttr* dst) {
  if (!dst->isReplicated() || sm->ndim() > dm->ndim() + 1) return false;
  if (sm->ndim() == dm->ndim()) return properSubset(dm, sm);
  return isSubMesh(dm, sm);
}

/// SubToGlobalMeshFunction.is_suitable, with its else-branch the right way
/// round (Paddle tests the destination among the source's sub-meshes, W6),
/// and for replicated values only, the only ones a broadcast serves (Paddle
/// checks mesh dim 0 alone).
bool subToGlobalSuitable(const ProcessMesh* sm, const ProcessMesh* dm, const TensorDistAttr* src,
                         const TensorDistAttr* dst) {
  if (!src->isReplicated() || !dst->isReplicated() || dm->ndim() > sm->ndim() + 1) return false;
  if (dm->ndim() == sm->ndim()) return properSubset(sm, dm);
  return isSubMesh(sm, dm);
}

const TensorDistAttr* replicatedOn(Context& ctx, const ProcessMesh* mesh, size_t rank) {
  std::vector<int64_t> map(rank, -1);
  return ctx.tensorDistAttr(mesh, map);
}

}  // namespace

std::string_view stepName(StepKind k) {
  switch (k) {
    case StepKind::PToR:
      return "PToR";
    case StepKind::PToS:
      return "PToS";
    case StepKind::SToR:
      return "SToR";
    case StepKind::RToS:
      return "RToS";
    case StepKind::RToP:
      return "RToP";
    case StepKind::SToS:
      return "SToS";
    case StepKind::SameStatus:
      return "SameStatus";
    case StepKind::Broadcast:
      return "general";
    case StepKind::GlobalToSub:
      return "GlobalToSubMesh";
    case StepKind::SubToGlobal:
      return "SubToGlobalMesh";
    case StepKind::AllToAll:
      return "AllToAll";
    case StepKind::AllReduceFlat:
      return "AllReduceFlat";
    case StepKind::Move:
      return "Move";
  }
  return "";
}

/// SToSReshardFunction on one 1-D mesh (registered last: suitable only when
/// no earlier function is): S(a) -> S(b), which Paddle's reshapes get right
/// only when one of a, b is 0 and both dims split evenly; other S->S take
/// the general path. The step, or nothing when it does not apply.
std::optional<Step> sToS(const TensorDistAttr* src, const TensorDistAttr* dst, std::span<const int64_t> dims) {
  const ProcessMesh* mesh = src->mesh();
  if (mesh != dst->mesh() || mesh->ndim() != 1 || src->isPartial() || dst->isPartial()) return std::nullopt;
  auto sm = src->dimsMapping(), dm = dst->dimsMapping();
  auto a = std::find(sm.begin(), sm.end(), 0), b = std::find(dm.begin(), dm.end(), 0);
  if (a == sm.end() || b == dm.end() || dims.size() != sm.size()) return std::nullopt;
  int64_t ia = a - sm.begin(), ib = b - dm.begin();
  int64_t n = mesh->shape()[0];
  if (ia == ib || (ia != 0 && ib != 0) || n < 1) return std::nullopt;
  if (dims[ia] < 0 || dims[ib] < 0 || dims[ia] % n != 0 || dims[ib] % n != 0) return std::nullopt;
  return Step{StepKind::SToS, src, dst, 0, ia, ReduceType::Sum, ib};
}

std::string_view plannerName(Planner planner) {
  for (const auto& [name, p] : kPlannerNames)
    if (p == planner) return name;
  return "?";
}

PlanRequest requestFor(PlanRequest base, const Type* valueType) {
  auto shape = valueType ? tensorShape(valueType) : std::nullopt;
  size_t bytes = shape ? dataTypeBytes(shape->dtype) : 0;
  base.elementBytes = bytes ? bytes : 4;
  return base;
}

Result<ReshardPlan> planReshard(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst,
                                std::span<const int64_t> dims, const PlanRequest& request) {
  Result<ReshardPlan> paddle = planPaddle(ctx, src, dst, dims);
  if (request.planner == Planner::Paddle || !paddle || paddle->steps.empty()) return paddle;
  CostModel defaults;
  const CostModel& model = request.model ? *request.model : defaults;
  Result<ReshardPlan> found = planByCost(ctx, src, dst, dims, request.elementBytes, model);
  Result<PlanCost> theirs = planCost(paddle->steps, dims, request.elementBytes, model);
  if (!found) {
    paddle->function = "cost fallback: " + paddle->function;
    return paddle;
  }
  // Paddle's plan where it is no dearer (a step the search lacks, such as
  // SubToGlobalMesh's broadcast); the search's otherwise.
  Result<PlanCost> ours = planCost(found->steps, dims, request.elementBytes, model);
  if (theirs && ours && std::tie(theirs->maxBytes, theirs->micros) < std::tie(ours->maxBytes, ours->micros)) {
    paddle->function = "cost";
    return paddle;
  }
  return found;
}

const Result<ReshardPlan>& PlanMemo::plan(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst,
                                          std::span<const int64_t> dims, const PlanRequest& request) {
  uint64_t h = core::hashSpan(dims, core::hashMix(reinterpret_cast<uintptr_t>(src), reinterpret_cast<uintptr_t>(dst)));
  h = core::hashMix(h, request.elementBytes * 8 + static_cast<uint64_t>(request.planner));
  h = core::hashMix(h, reinterpret_cast<uintptr_t>(request.model));
  for (auto [at, end] = byHash_.equal_range(h); at != end; ++at) {
    const Entry& e = at->second;
    if (e.src == src && e.dst == dst && std::equal(e.dims.begin(), e.dims.end(), dims.begin(), dims.end()) &&
        e.request.elementBytes == request.elementBytes && e.request.planner == request.planner &&
        e.request.model == request.model)
      return e.plan;
  }
  auto made = byHash_.emplace(h, Entry{src, dst, std::vector<int64_t>(dims.begin(), dims.end()), request,
                                       planReshard(ctx, src, dst, dims, request)});
  return made->second.plan;
}

const Result<ReshardPlan>& PlanMemo::planFor(Context& ctx, const Type* in, const Type* out, const PlanRequest& base) {
  ByTypes& slot = byTypes_[core::fibonacciSlot(
      core::hashMix(reinterpret_cast<uintptr_t>(in), reinterpret_cast<uintptr_t>(out)), kByTypesBits)];
  if (slot.plan && slot.in == in && slot.out == out && slot.base.planner == base.planner &&
      slot.base.elementBytes == base.elementBytes && slot.base.model == base.model)
    return *slot.plan;
  const Result<ReshardPlan>& made =
      plan(ctx, distAttrOf(in), distAttrOf(out), tensorShape(in)->dims, requestFor(base, in));
  slot = ByTypes{in, out, base, &made};
  return made;
}

Result<ReshardPlan> planPaddle(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst,
                               std::span<const int64_t> dims) {
  if (!src || !dst || !src->mesh() || !dst->mesh()) return Status::error("reshard without dist attrs");
  if (src->dimsMapping().size() != dst->dimsMapping().size())
    return Status::error("reshard between dims_mappings of different lengths");
  ReshardPlan plan;
  if (sameLayout(src, dst)) {
    plan.function = "identity";
    return plan;
  }
  const ProcessMesh* sm = src->mesh();
  const ProcessMesh* dm = dst->mesh();
  if (sm == dm) {
    if (std::optional<Step> s = sToS(src, dst, dims)) {
      plan.steps.push_back(*s);
      plan.function = "SToS";
      return plan;
    }
    bool general = planOneMesh(ctx, src, dst, plan.steps);
    plan.function = oneMeshName(sm, plan.steps, 0, general);
    return plan;
  }
  bool sameShape = std::equal(sm->shape().begin(), sm->shape().end(), dm->shape().begin(), dm->shape().end());
  if (sameShape) {
    // decompose_reshard_pass: SameStatus to the destination mesh, then the
    // reshard within it.
    const TensorDistAttr* mid = ctx.tensorDistAttr(dm, src->dimsMapping(), src->partial());
    plan.steps.push_back(Step{StepKind::SameStatus, src, mid});
    plan.function = "SameStatus";
    if (!sameLayout(mid, dst)) {
      bool general = planOneMesh(ctx, mid, dst, plan.steps);
      plan.function += "+" + oneMeshName(dm, plan.steps, 1, general);
    }
    return plan;
  }
  size_t rank = src->dimsMapping().size();
  const TensorDistAttr* rs = replicatedOn(ctx, sm, rank);
  const TensorDistAttr* rd = replicatedOn(ctx, dm, rank);
  if (globalToSubSuitable(sm, dm, dst)) {
    // global_to_sub_mesh_func.py: replicated first (NdMesh), then onto the
    // sub-mesh.
    if (!sameLayout(src, rs)) planOneMesh(ctx, src, rs, plan.steps);
    plan.steps.push_back(Step{StepKind::GlobalToSub, plan.steps.empty() ? src : rs, dst});
    plan.function = "GlobalToSubMesh";
    return plan;
  }
  if (subToGlobalSuitable(sm, dm, src, dst)) {
    plan.steps.push_back(Step{StepKind::SubToGlobal, src, dst});
    plan.function = "SubToGlobalMesh";
    return plan;
  }
  // Anything else: replicated on the source mesh, a copy to each
  // destination rank lacking it, then the destination's layout.
  if (!sameLayout(src, rs)) planOneMesh(ctx, src, rs, plan.steps);
  plan.steps.push_back(Step{StepKind::Broadcast, rs, rd});
  if (!sameLayout(rd, dst)) planOneMesh(ctx, rd, dst, plan.steps);
  plan.function = "general";
  return plan;
}

std::vector<int64_t> broadcastReceivers(const ProcessMesh& src, const ProcessMesh& dst) {
  std::vector<int64_t> out;
  for (int64_t d : dst.processIds())
    if (!meshIndexOf(src, d)) out.push_back(d);
  return out;
}

int64_t broadcastSender(const ProcessMesh& src, size_t index) {
  auto ids = src.processIds();
  return ids.empty() ? -1 : ids[index % ids.size()];
}

void forEachRing(const Step& step, const std::function<void(std::span<const int64_t>)>& visit,
                 std::span<const int64_t> dims) {
  switch (step.kind) {
    case StepKind::AllToAll:
      for (const AllToAllPair& p : allToAllPairs(step, dims)) {
        int64_t pair[] = {p.from, p.to};
        visit(pair);
      }
      return;
    case StepKind::Move:
      for (const Transfer& t : moveTransfers(*step.from, *step.to, dims)) {
        if (t.from == t.to) continue;
        int64_t pair[] = {t.from, t.to};
        visit(pair);
      }
      return;
    case StepKind::AllReduceFlat: {
      std::vector<std::vector<int64_t>> seen;
      for (int64_t r : step.from->mesh()->processIds()) {
        std::vector<int64_t> g = flatSubMeshRanks(*step.from->mesh(), step.meshDims, r);
        std::sort(g.begin(), g.end());
        if (g.size() < 2 || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
        seen.push_back(g);
        visit(g);
      }
      return;
    }
    case StepKind::RToS:
    case StepKind::RToP:
    case StepKind::GlobalToSub:
      return;
    case StepKind::SubToGlobal: {
      std::vector<int64_t> ids = idSet(step.to->mesh());
      visit(ids);
      return;
    }
    case StepKind::SameStatus: {
      auto s = step.from->mesh()->processIds();
      auto d = step.to->mesh()->processIds();
      for (size_t i = 0; i < s.size() && i < d.size(); ++i) {
        if (s[i] == d[i]) continue;
        int64_t fwd[] = {s[i], d[i]}, back[] = {d[i], s[i]};
        visit(fwd);
        visit(back);
      }
      return;
    }
    case StepKind::Broadcast: {
      std::vector<int64_t> receivers = broadcastReceivers(*step.from->mesh(), *step.to->mesh());
      for (size_t i = 0; i < receivers.size(); ++i) {
        int64_t pair[] = {broadcastSender(*step.from->mesh(), i), receivers[i]};
        visit(pair);
      }
      return;
    }
    default:
      break;
  }
  // A collective along mesh dim m: every 1-D sub-mesh along it, by where
  // its first rank appears in the process ids; sorted for all_reduce (as
  // Paddle's new_process_group), in mesh order for the collectives that
  // place pieces by position (Emitter::meshRing).
  const ProcessMesh& mesh = *step.from->mesh();
  auto ids = mesh.processIds();
  std::vector<std::vector<int64_t>> seen;
  for (int64_t r : ids) {
    std::vector<int64_t> sub = subMeshRanks(mesh, static_cast<size_t>(step.meshDim), r);
    if (sub.empty()) continue;
    if (step.kind == StepKind::PToR) std::sort(sub.begin(), sub.end());
    if (std::find(seen.begin(), seen.end(), sub) != seen.end()) continue;
    // SToR on a one-rank mesh is share_data_: no ring (Paddle returns
    // before asking for its group).
    if (step.kind == StepKind::SToR && sub.size() == 1) continue;
    seen.push_back(sub);
    visit(sub);
  }
}

}  // namespace pir::passes::lowering
