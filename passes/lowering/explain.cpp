//===- explain.cpp - a reshard's plans, their steps, bytes and time -------===//
#include "passes/lowering/explain.h"

#include <algorithm>
#include <cstdio>

#include "core/mesh_math.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

std::string join(std::span<const int64_t> v, const char* sep = ",") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

/// Placements per mesh dim: S(axis) >= 0, R -1, P(type) -2 - type.
std::vector<int64_t> placesOf(const TensorDistAttr* a) {
  std::vector<int64_t> p(a->mesh()->ndim(), -1);
  auto map = a->dimsMapping();
  for (size_t axis = 0; axis < map.size(); ++axis)
    if (map[axis] >= 0 && size_t(map[axis]) < p.size()) p[size_t(map[axis])] = int64_t(axis);
  for (const PartialEntry& e : a->partial())
    if (e.meshDim >= 0 && size_t(e.meshDim) < p.size()) p[size_t(e.meshDim)] = -2 - int64_t(e.reduce);
  return p;
}

const TensorDistAttr* attrOf(Context& ctx, const ProcessMesh* mesh, std::span<const int64_t> place, size_t rank) {
  std::vector<int64_t> map(rank, -1);
  std::vector<PartialEntry> partial;
  for (size_t m = 0; m < place.size(); ++m) {
    if (place[m] >= 0) map[size_t(place[m])] = int64_t(m);
    if (place[m] <= -2) partial.push_back({int64_t(m), ReduceType(-2 - place[m])});
  }
  return ctx.tensorDistAttr(mesh, map, partial);
}

std::string stepText(const Step& s) {
  std::string t(stepName(s.kind));
  if (s.kind == StepKind::AllReduceFlat) {
    t += " mesh dims";
    for (size_t m = 0; m < 32; ++m)
      if (s.meshDims >> m & 1u) t += " " + std::to_string(m);
  } else if (s.kind != StepKind::Move && s.kind != StepKind::SameStatus && s.kind != StepKind::Broadcast &&
             s.kind != StepKind::SubToGlobal && s.kind != StepKind::GlobalToSub) {
    t += " mesh dim " + std::to_string(s.meshDim);
  }
  return t;
}

}  // namespace

Result<const TensorDistAttr*> parseLayout(Context& ctx, std::string_view text, const ProcessMesh* mesh, size_t rank) {
  std::vector<int64_t> place;
  size_t at = 0;
  auto bad = [&](const std::string& why) { return Status::error("layout '" + std::string(text) + "': " + why); };
  while (at <= text.size()) {
    size_t end = at;
    int depth = 0;
    for (; end < text.size() && (text[end] != ',' || depth); ++end) {
      if (text[end] == '(') ++depth;
      if (text[end] == ')') --depth;
    }
    std::string_view item = text.substr(at, end - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "R") {
      place.push_back(-1);
    } else if (item == "P") {
      place.push_back(-2);
    } else if (item.size() > 3 && (item[0] == 'S' || item[0] == 'P') && item[1] == '(' && item.back() == ')') {
      std::string_view arg = item.substr(2, item.size() - 3);
      if (item[0] == 'P') {
        std::string upper(arg);
        std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
        std::optional<ReduceType> t = parseReduceType(upper == "PROD" ? "PRODUCT" : upper);
        if (!t || int(*t) > int(ReduceType::Avg))
          return bad("'" + std::string(arg) + "' is none of SUM, AVG, MAX, MIN, PROD");
        place.push_back(-2 - int64_t(*t));
      } else {
        int64_t axis = -1;
        for (char c : arg) axis = c >= '0' && c <= '9' ? (axis < 0 ? 0 : axis) * 10 + (c - '0') : -2;
        if (axis < 0 || size_t(axis) >= rank) return bad("'" + std::string(item) + "' names no axis of the tensor");
        if (std::find(place.begin(), place.end(), axis) != place.end())
          return bad("axis " + std::to_string(axis) + " on two mesh dims (co-shard is not modelled)");
        place.push_back(axis);
      }
    } else {
      return bad("'" + std::string(item) + "' is none of R, S(i), P, P(TYPE)");
    }
    at = end + 1;
  }
  if (place.size() != mesh->ndim())
    return bad(std::to_string(place.size()) + " placements for a mesh of " + std::to_string(mesh->ndim()) + " dims");
  return attrOf(ctx, mesh, place, rank);
}

std::string layoutText(const TensorDistAttr* attr) {
  std::string s;
  for (int64_t p : placesOf(attr)) {
    if (!s.empty()) s += ",";
    if (p >= 0)
      s += "S(" + std::to_string(p) + ")";
    else if (p == -1)
      s += "R";
    else
      s += "P(" + std::string(reduceTypeName(ReduceType(-2 - p))) + ")";
  }
  return s;
}

std::string meshText(const ProcessMesh* mesh) {
  std::string s = "[" + join(mesh->shape()) + "]";
  auto ids = mesh->processIds();
  bool plain = true;
  for (size_t i = 0; i < ids.size(); ++i) plain = plain && ids[i] == int64_t(i);
  return plain ? s : s + " ids [" + join(ids) + "]";
}

namespace {

Result<Explained> costed(Explained e, std::span<const int64_t> dims, uint64_t elementBytes, const CostModel& model) {
  for (const Step& s : e.steps) {
    Result<StepCost> c = stepCost(s, dims, elementBytes, model);
    if (!c) return c.takeStatus();
    e.stepCosts.push_back(std::move(*c));
  }
  Result<PlanCost> total = planCost(e.steps, dims, elementBytes, model);
  if (!total) return total.takeStatus();
  e.cost = std::move(*total);
  return e;
}

}  // namespace

Result<Explained> explainPlan(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst,
                              std::span<const int64_t> dims, const PlanRequest& request) {
  Result<ReshardPlan> plan = planReshard(ctx, src, dst, dims, request);
  if (!plan) return plan.takeStatus();
  CostModel defaults;
  Explained e{std::string(plannerName(request.planner)), plan->function, plan->steps, {}, {}};
  return costed(std::move(e), dims, request.elementBytes, request.model ? *request.model : defaults);
}

Result<Explained> explainPath(Context& ctx, std::span<const TensorDistAttr* const> layouts,
                              std::span<const int64_t> dims, uint64_t elementBytes, const CostModel& model) {
  Explained e{"path", "path", {}, {}, {}};
  for (size_t i = 1; i < layouts.size(); ++i) {
    const TensorDistAttr* from = layouts[i - 1];
    const TensorDistAttr* to = layouts[i];
    if (from->mesh() != to->mesh()) {
      e.steps.push_back(Step{StepKind::Move, from, to});
      continue;
    }
    std::vector<int64_t> cur = placesOf(from), want = placesOf(to);
    auto step = [&](StepKind kind, size_t m, int64_t next, int64_t axis, ReduceType reduce, int64_t toAxis = -1) {
      const TensorDistAttr* a = attrOf(ctx, from->mesh(), cur, dims.size());
      cur[m] = next;
      const TensorDistAttr* b = attrOf(ctx, from->mesh(), cur, dims.size());
      e.steps.push_back(Step{kind, a, b, int64_t(m), axis, reduce, toAxis});
    };
    auto holds = [&](int64_t axis) { return std::find(cur.begin(), cur.end(), axis) != cur.end(); };
    // Mesh dims in order; a dim whose new axis another dim still holds waits
    // for it, and a cycle of such (S(0),S(1) -> S(1),S(0)) frees its first
    // dim through R.
    while (cur != want) {
      bool moved = false;
      for (size_t m = 0; m < cur.size(); ++m) {
        int64_t p = cur[m], q = want[m];
        if (p == q || (q >= 0 && holds(q))) continue;
        moved = true;
        if (p >= 0 && q >= 0) {
          step(StepKind::AllToAll, m, q, p, ReduceType::Sum, q);
        } else if (p == -2 && q >= 0) {
          step(StepKind::PToS, m, q, q, ReduceType::Sum);
        } else {
          if (p >= 0) step(StepKind::SToR, m, -1, p, ReduceType::Sum);
          if (p <= -2) step(StepKind::PToR, m, -1, -1, ReduceType(-2 - p));
          if (q >= 0) step(StepKind::RToS, m, q, q, ReduceType::Sum);
          if (q <= -2) step(StepKind::RToP, m, q, -1, ReduceType(-2 - q));
        }
      }
      if (moved) continue;
      for (size_t m = 0; m < cur.size(); ++m) {
        if (cur[m] == want[m]) continue;
        if (cur[m] >= 0) step(StepKind::SToR, m, -1, cur[m], ReduceType::Sum);
        if (cur[m] <= -2) step(StepKind::PToR, m, -1, -1, ReduceType(-2 - cur[m]));
        break;
      }
    }
  }
  return costed(std::move(e), dims, elementBytes, model);
}

std::string explainText(std::span<const Explained> plans, std::span<const int64_t> dims) {
  std::string out;
  for (const Explained& e : plans) {
    out += e.planner + " plan (" + e.function + "): " + std::to_string(e.steps.size()) + " steps, " +
           std::to_string(e.cost.maxBytes) + " bytes at most per rank (sent + received), " + number(e.cost.micros) +
           " us\n";
    for (size_t i = 0; i < e.steps.size(); ++i) {
      const Step& s = e.steps[i];
      uint64_t most = 0;
      for (const auto& [r, b] : e.stepCosts[i].bytes) most = std::max(most, b.total());
      out += "  " + std::to_string(i + 1) + ". " + stepText(s) + ": " + layoutText(s.from) + " -> " + layoutText(s.to) +
             (s.from->mesh() != s.to->mesh() ? " on " + meshText(s.to->mesh()) : "") + ", " + std::to_string(most) +
             " bytes, " + number(e.stepCosts[i].micros) + " us\n";
    }
    out += "  bytes per rank (sent/received):";
    for (const auto& [r, b] : e.cost.bytes)
      out += " " + std::to_string(r) + ": " + std::to_string(b.sent) + "/" + std::to_string(b.received);
    out += "\n";
  }
  (void)dims;
  return out;
}

std::string explainYaml(std::span<const Explained> plans, std::span<const int64_t> dims) {
  std::string out = "shape: [" + join(dims, ", ") + "]\nplans:\n";
  for (const Explained& e : plans) {
    out += "  - planner: " + e.planner + "\n    function: \"" + e.function +
           "\"\n    max_bytes: " + std::to_string(e.cost.maxBytes) + "\n    micros: " + number(e.cost.micros) +
           "\n    steps:\n";
    for (size_t i = 0; i < e.steps.size(); ++i) {
      const Step& s = e.steps[i];
      out += "      - {kind: " + std::string(stepName(s.kind)) + ", from: \"" + layoutText(s.from) + "\", to: \"" +
             layoutText(s.to) + "\", micros: " + number(e.stepCosts[i].micros) + "}\n";
    }
    if (e.steps.empty()) out.insert(out.size() - 1, " []");
    out += "    bytes:\n";
    for (const auto& [r, b] : e.cost.bytes)
      out += "      " + std::to_string(r) + ": {sent: " + std::to_string(b.sent) +
             ", received: " + std::to_string(b.received) + "}\n";
    if (e.cost.bytes.empty()) out.insert(out.size() - 1, " {}");
  }
  return out;
}

}  // namespace pir::passes::lowering
