//===- cost_model.cpp - what a reshard step moves and how long it takes ---===//
#include "passes/lowering/cost_model.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "core/mesh_math.h"
#include "passes/lowering/move.h"
#include "passes/schedule/yaml_strict.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

uint64_t product(std::span<const int64_t> v) {
  uint64_t n = 1;
  for (int64_t d : v) n *= uint64_t(std::max<int64_t>(d, 0));
  return n;
}

/// The distinct groups of ranks through every rank of `mesh`, each in mesh
/// order: along one mesh dim (`mask` one bit) or several.
std::vector<std::vector<int64_t>> groupsOf(const ProcessMesh& mesh, uint32_t mask) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t r : mesh.processIds()) {
    std::vector<int64_t> g = flatSubMeshRanks(mesh, mask, r);
    if (!g.empty() && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(std::move(g));
  }
  return out;
}

/// What a member at position `p` of an all_reduce over `n` ranks of a
/// local tensor of `numel` elements sends (and receives): the others'
/// chunks, then its reduced chunk to each other member.
uint64_t allReduceBytes(uint64_t numel, uint64_t n, uint64_t p) {
  uint64_t mine = numel * (p + 1) / n - numel * p / n;
  return numel - mine + (n - 1) * mine;
}

struct Counter {
  BytesByRank& bytes;
  uint64_t e;
  void send(int64_t r, uint64_t elements) { bytes[r].sent += elements * e; }
  void recv(int64_t r, uint64_t elements) { bytes[r].received += elements * e; }
};

/// The local shape `rank` holds under `attr`, or an error.
Result<std::vector<int64_t>> local(std::span<const int64_t> dims, const TensorDistAttr* attr, int64_t rank) {
  std::optional<std::vector<int64_t>> l = localShape(dims, *attr, rank);
  if (!l) return Status::error("a layout that does not fit the tensor");
  return *l;
}

/// The bytes of a collective step along `mask` (kind-specific, per member).
Status collectiveBytes(const Step& step, std::span<const int64_t> dims, uint32_t mask, Counter& c, int64_t& widest) {
  const ProcessMesh& mesh = *step.from->mesh();
  for (std::vector<int64_t> g : groupsOf(mesh, mask)) {
    uint64_t n = g.size();
    widest = std::max<int64_t>(widest, int64_t(n));
    if (n <= 1) continue;
    if (step.kind == StepKind::PToR || step.kind == StepKind::AllReduceFlat) std::sort(g.begin(), g.end());
    for (uint64_t p = 0; p < n; ++p) {
      Result<std::vector<int64_t>> l = local(dims, step.from, g[p]);
      if (!l) return l.takeStatus();
      uint64_t numel = product(*l);
      uint64_t out = 0, in = 0;
      switch (step.kind) {
        case StepKind::PToR:
        case StepKind::AllReduceFlat:
          out = in = allReduceBytes(numel, n, p);
          break;
        case StepKind::PToS: {
          // Padded with zero rows to ceil(d / n) * n when uneven.
          int64_t d = dims[size_t(step.axis)];
          uint64_t rest = d > 0 ? numel / uint64_t(d) : 0;
          uint64_t chunk = d % int64_t(n) == 0 ? numel / n : rest * uint64_t((d + int64_t(n) - 1) / int64_t(n));
          out = in = (n - 1) * chunk;
          break;
        }
        case StepKind::SToR: {
          // Every member's piece padded to ceil(d / n) rows when uneven.
          int64_t d = dims[size_t(step.axis)];
          std::vector<int64_t> others = *l;
          others[size_t(step.axis)] = 1;
          uint64_t x = d % int64_t(n) == 0 ? numel : product(others) * uint64_t((d + int64_t(n) - 1) / int64_t(n));
          out = in = (n - 1) * x;
          break;
        }
        case StepKind::SToS:
          out = in = (n - 1) * (numel / n);
          break;
        case StepKind::AllToAll: {
          size_t a = size_t(step.axis), b = size_t(step.toAxis);
          std::vector<int64_t> others = *l;
          others[a] = others[b] = 1;
          uint64_t rest = product(others);
          std::vector<ShardPiece> pa = shardPieces(dims[a], int64_t(n)), pb = shardPieces(dims[b], int64_t(n));
          for (uint64_t j = 0; j < n; ++j) {
            if (j == p) continue;
            out += rest * uint64_t((*l)[a]) * uint64_t(pb[j].size());
            in += rest * uint64_t(pa[j].size()) * uint64_t(pb[p].size());
          }
          break;
        }
        default:
          break;
      }
      c.send(g[p], out);
      c.recv(g[p], in);
    }
  }
  return Status::ok();
}

/// The time of a step: base + alpha * hops + most bytes one rank moves / beta.
double micros(const BytesByRank& bytes, LinkCost link, int64_t hops, double baseUs) {
  uint64_t most = 0;
  for (const auto& [r, b] : bytes) most = std::max({most, b.sent, b.received});
  if (hops <= 0 && most == 0) return 0;
  return baseUs + link.alphaUs * double(hops) + double(most) / (link.betaGBps * 1e3);
}

}  // namespace

Result<StepCost> stepCost(const Step& step, std::span<const int64_t> dims, uint64_t elementBytes,
                          const CostModel& model) {
  if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; }))
    return Status::error("a dynamic dim has no byte count");
  StepCost cost;
  Counter c{cost.bytes, elementBytes};
  uint64_t whole = product(dims);
  int64_t widest = 0, hops = 0;
  LinkCost link = model.crossMesh;
  switch (step.kind) {
    case StepKind::RToS:
    case StepKind::RToP:
    case StepKind::GlobalToSub:
      return cost;
    case StepKind::PToR:
    case StepKind::PToS:
    case StepKind::SToR:
    case StepKind::SToS:
    case StepKind::AllToAll: {
      uint32_t mask = step.from->mesh()->ndim() <= 1 ? 1u : 1u << step.meshDim;
      if (Status s = collectiveBytes(step, dims, mask, c, widest); !s) return s;
      link = model.link(size_t(step.from->mesh()->ndim() <= 1 ? 0 : step.meshDim));
      hops = (step.kind == StepKind::PToR ? 2 : 1) * (widest - 1);
      break;
    }
    case StepKind::AllReduceFlat: {
      if (Status s = collectiveBytes(step, dims, step.meshDims, c, widest); !s) return s;
      link = {0, 1e300};
      for (size_t m = 0; m < 32; ++m)
        if (step.meshDims >> m & 1u) {
          link.alphaUs = std::max(link.alphaUs, model.link(m).alphaUs);
          link.betaGBps = std::min(link.betaGBps, model.link(m).betaGBps);
        }
      hops = 2 * (widest - 1);
      break;
    }
    case StepKind::SameStatus: {
      auto s = step.from->mesh()->processIds(), d = step.to->mesh()->processIds();
      for (size_t i = 0; i < s.size() && i < d.size(); ++i) {
        if (s[i] == d[i]) continue;
        Result<std::vector<int64_t>> ls = local(dims, step.from, s[i]), ld = local(dims, step.to, d[i]);
        if (!ls || !ld) return Status::error("a layout that does not fit the tensor");
        c.send(s[i], product(*ls));
        c.recv(d[i], product(*ld));
        hops = 1;
      }
      break;
    }
    case StepKind::Broadcast: {
      std::vector<int64_t> receivers = broadcastReceivers(*step.from->mesh(), *step.to->mesh());
      std::map<int64_t, int64_t> sends;
      for (size_t i = 0; i < receivers.size(); ++i) {
        int64_t s = broadcastSender(*step.from->mesh(), i);
        c.send(s, whole);
        c.recv(receivers[i], whole);
        hops = std::max(hops, ++sends[s]);
      }
      break;
    }
    case StepKind::SubToGlobal: {
      std::set<int64_t> ring(step.to->mesh()->processIds().begin(), step.to->mesh()->processIds().end());
      int64_t root = step.from->mesh()->processIds().empty() ? -1 : step.from->mesh()->processIds()[0];
      for (int64_t r : ring)
        if (r != root) c.recv(r, whole);
      c.send(root, whole * uint64_t(ring.size() - 1));
      link = model.link(0);
      hops = int64_t(ring.size()) - 1;
      break;
    }
    case StepKind::Move: {
      std::vector<Transfer> moves = moveTransfers(*step.from, *step.to, dims);
      std::map<int64_t, int64_t> out, in;
      for (const Transfer& t : moves) {
        if (t.from == t.to) continue;
        c.send(t.from, boxElements(t.box));
        c.recv(t.to, boxElements(t.box));
        hops = std::max({hops, ++out[t.from], ++in[t.to]});
      }
      break;
    }
  }
  cost.micros = micros(cost.bytes, link, hops, model.baseUs);
  return cost;
}

Result<PlanCost> planCost(std::span<const Step> steps, std::span<const int64_t> dims, uint64_t elementBytes,
                          const CostModel& model) {
  PlanCost total;
  for (const Step& step : steps) {
    Result<StepCost> c = stepCost(step, dims, elementBytes, model);
    if (!c) return c.takeStatus();
    for (const auto& [r, b] : c->bytes) {
      total.bytes[r].sent += b.sent;
      total.bytes[r].received += b.received;
    }
    total.micros += c->micros;
  }
  for (const auto& [r, b] : total.bytes) total.maxBytes = std::max(total.maxBytes, b.total());
  return total;
}

namespace {

LinkCost linkOf(const YAML::Node& n, LinkCost base) {
  if (!n) return base;
  if (!n.IsMap()) throw YAML::Exception(n.Mark(), "a link is a map {alpha_us, beta_gbps}");
  for (const auto& kv : n) {
    std::string key = kv.first.as<std::string>();
    if (key == "alpha_us")
      base.alphaUs = kv.second.as<double>();
    else if (key == "beta_gbps")
      base.betaGBps = kv.second.as<double>();
    else
      throw YAML::Exception(kv.first.Mark(), "unknown key '" + key + "' (alpha_us, beta_gbps)");
  }
  if (!(base.alphaUs >= 0) || !(base.betaGBps > 0))
    throw YAML::Exception(n.Mark(), "alpha_us must be >= 0 and beta_gbps > 0");
  return base;
}

}  // namespace

Result<CostModel> parseCostModel(const std::string& text) {
  return schedule::readYamlStrict(text, [](const YAML::Node& root) -> Result<CostModel> {
    CostModel m;
    if (!root || root.IsNull()) return m;
    if (!root.IsMap()) return Status::error("a cost model is a map (base_us, mesh_dims, other, cross_mesh)");
    for (const auto& kv : root) {
      std::string key = kv.first.as<std::string>();
      if (key == "base_us") {
        m.baseUs = kv.second.as<double>();
        if (!(m.baseUs >= 0)) return Status::error("base_us must be >= 0", kv.second.Mark().pos);
      } else if (key == "mesh_dims") {
        if (!kv.second.IsSequence()) return Status::error("mesh_dims is a list", kv.second.Mark().pos);
        for (const auto& d : kv.second) m.meshDims.push_back(linkOf(d, LinkCost{}));
      } else if (key == "other") {
        m.other = linkOf(kv.second, m.other);
      } else if (key == "cross_mesh") {
        m.crossMesh = linkOf(kv.second, m.crossMesh);
      } else {
        return Status::error("unknown key '" + key + "' (base_us, mesh_dims, other, cross_mesh)", kv.first.Mark().pos);
      }
    }
    return m;
  });
}

Result<PlanRequest> planRequestOf(Planner planner, const std::string& path, std::shared_ptr<CostModel>& keep) {
  PlanRequest r;
  r.planner = planner;
  if (path.empty()) return r;
  Result<CostModel> m = loadCostModel(path);
  if (!m) return m.takeStatus();
  keep = std::make_shared<CostModel>(std::move(*m));
  r.model = keep.get();
  return r;
}

Result<CostModel> loadCostModel(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::error("cannot read cost model '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  Result<CostModel> m = parseCostModel(buffer.str());
  if (!m) return m.status().prefixed(path + ": ");
  return m;
}

}  // namespace pir::passes::lowering
