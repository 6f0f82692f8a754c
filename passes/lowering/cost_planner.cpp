//===- cost_planner.cpp - the reshard plan that moves the fewest bytes ----===//
#include "passes/lowering/cost_planner.h"

#include <algorithm>
#include <bit>
#include <map>
#include <queue>
#include <set>

#include "core/mesh_math.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

// A state's placement of one mesh dim: S(axis) is the axis (>= 0), R is
// kReplicate, P(t) is kPartialBase - t.
constexpr int64_t kReplicate = -1;
constexpr int64_t kPartialBase = -2;
constexpr size_t kMaxLabels = 200000;

bool isShard(int64_t p) { return p >= 0; }
bool isPartial(int64_t p) { return p <= kPartialBase; }
ReduceType typeOf(int64_t p) { return ReduceType(kPartialBase - p); }
int64_t partialOf(ReduceType t) { return kPartialBase - int64_t(t); }

struct Node {
  int side;                    // 0: the source mesh, 1: the destination's
  std::vector<int64_t> place;  // per mesh dim
  bool operator<(const Node& o) const { return std::tie(side, place) < std::tie(o.side, o.place); }
  bool operator==(const Node& o) const = default;
};

/// The placements of `a`; nullopt when a mesh dim is both sharded and partial.
std::optional<std::vector<int64_t>> placesOf(const TensorDistAttr* a) {
  std::vector<int64_t> place(a->mesh()->ndim(), kReplicate);
  auto map = a->dimsMapping();
  for (size_t axis = 0; axis < map.size(); ++axis) {
    if (map[axis] < 0) continue;
    if (size_t(map[axis]) >= place.size() || place[size_t(map[axis])] != kReplicate) return std::nullopt;
    place[size_t(map[axis])] = int64_t(axis);
  }
  for (const PartialEntry& p : a->partial()) {
    if (p.meshDim < 0 || size_t(p.meshDim) >= place.size() || place[size_t(p.meshDim)] != kReplicate)
      return std::nullopt;
    place[size_t(p.meshDim)] = partialOf(p.reduce);
  }
  return place;
}

const TensorDistAttr* attrOf(Context& ctx, const ProcessMesh* mesh, const std::vector<int64_t>& place, size_t rank) {
  std::vector<int64_t> map(rank, -1);
  std::vector<PartialEntry> partial;
  for (size_t m = 0; m < place.size(); ++m) {
    if (isShard(place[m])) map[size_t(place[m])] = int64_t(m);
    if (isPartial(place[m])) partial.push_back({int64_t(m), typeOf(place[m])});
  }
  return ctx.tensorDistAttr(mesh, map, partial);
}

/// One partial type at most in a layout (the order of mixed reductions is
/// not defined).
bool oneReduceType(const TensorDistAttr* a) {
  auto p = a->partial();
  return std::all_of(p.begin(), p.end(), [&](const PartialEntry& e) { return e.reduce == p.front().reduce; });
}

/// Every placement of `ndim` mesh dims without partial, each tensor axis on
/// one mesh dim at most.
void allUnreduced(size_t ndim, size_t rank, std::vector<int64_t>& cur, std::vector<std::vector<int64_t>>& out) {
  if (cur.size() == ndim) {
    out.push_back(cur);
    return;
  }
  for (int64_t p = kReplicate; p < int64_t(rank); ++p) {
    if (isShard(p) && std::find(cur.begin(), cur.end(), p) != cur.end()) continue;
    cur.push_back(p);
    allUnreduced(ndim, rank, cur, out);
    cur.pop_back();
  }
}

struct Edge {
  int to;  // node index
  Step step;
  StepCost cost;
};

struct Label {
  int node;
  int parent;                   // label index, -1 at the start
  int edge;                     // the edge of the parent's node taken, -1 at the start
  std::vector<uint64_t> bytes;  // per rank (index in Search::ranks_)
  uint64_t most = 0;
  double micros = 0;
  int steps = 0;
};

class Search {
 public:
  Search(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst, std::span<const int64_t> dims,
         uint64_t elementBytes, const CostModel& model)
      : ctx_(ctx), src_(src), dst_(dst), dims_(dims), e_(elementBytes), model_(model) {
    meshes_[0] = src->mesh();
    meshes_[1] = dst->mesh();
    for (const ProcessMesh* m : meshes_)
      for (int64_t r : m->processIds()) ranks_.insert(r);
  }

  Result<ReshardPlan> run() {
    std::optional<std::vector<int64_t>> from = placesOf(src_), to = placesOf(dst_);
    if (!from || !to) return Status::error("a mesh dim both sharded and partial");
    if (!oneReduceType(src_) || !oneReduceType(dst_)) return Status::error("partials of different reduce types");
    int goalSide = meshes_[0] == meshes_[1] ? 0 : 1;
    int start = nodeIndex({0, *from});
    int goal = nodeIndex({goalSide, *to});
    auto worse = [&](int a, int b) {  // the queue's order: the cheaper label first
      const Label &x = labels_[size_t(a)], &y = labels_[size_t(b)];
      return std::tie(x.most, x.micros, x.steps, a) > std::tie(y.most, y.micros, y.steps, b);
    };
    std::priority_queue<int, std::vector<int>, decltype(worse)> queue(worse);
    labels_.push_back({start, -1, -1, std::vector<uint64_t>(ranks_.size(), 0)});
    queue.push(0);
    kept_[start].push_back(0);
    while (!queue.empty()) {
      int at = queue.top();
      queue.pop();
      if (labels_[size_t(at)].node == goal) return planOf(at);
      if (labels_.size() > kMaxLabels) return Status::error("the search passed its bound");
      int node = labels_[size_t(at)].node;
      const std::vector<Edge>& edges = edgesOf(node);
      for (size_t i = 0; i < edges.size(); ++i) {
        Label next = extend(labels_[size_t(at)], edges[i]);
        next.parent = at;
        next.edge = int(i);
        if (dominated(next)) continue;
        labels_.push_back(std::move(next));
        int id = int(labels_.size()) - 1;
        kept_[labels_.back().node].push_back(id);
        queue.push(id);
      }
    }
    return Status::error("no plan reaches the destination");
  }

 private:
  int nodeIndex(const Node& n) {
    auto [it, added] = index_.emplace(n, int(nodes_.size()));
    if (added) nodes_.push_back(n);
    return it->second;
  }

  size_t rankIndex(int64_t r) const { return size_t(std::distance(ranks_.begin(), ranks_.find(r))); }

  Label extend(const Label& l, const Edge& e) {
    Label out{e.to, -1, -1, l.bytes, 0, l.micros + e.cost.micros, l.steps + 1};
    for (const auto& [r, b] : e.cost.bytes) out.bytes[rankIndex(r)] += b.total();
    out.most = *std::max_element(out.bytes.begin(), out.bytes.end());
    return out;
  }

  bool dominated(const Label& l) const {
    auto it = kept_.find(l.node);
    if (it == kept_.end()) return false;
    for (int k : it->second) {
      const Label& o = labels_[size_t(k)];
      if (o.micros > l.micros) continue;
      bool le = true;
      for (size_t i = 0; le && i < l.bytes.size(); ++i) le = o.bytes[i] <= l.bytes[i];
      if (le) return true;
    }
    return false;
  }

  ReshardPlan planOf(int label) {
    ReshardPlan plan;
    plan.function = "cost";
    for (int at = label; labels_[size_t(at)].parent >= 0; at = labels_[size_t(at)].parent) {
      const Label& l = labels_[size_t(at)];
      plan.steps.push_back(edges_[labels_[size_t(l.parent)].node][size_t(l.edge)].step);
    }
    std::reverse(plan.steps.begin(), plan.steps.end());
    return plan;
  }

  const std::vector<Edge>& edgesOf(int node) {
    auto it = edges_.find(node);
    if (it != edges_.end()) return it->second;
    std::vector<Edge>& out = edges_[node];
    Node n = nodes_[size_t(node)];
    const ProcessMesh* mesh = meshes_[size_t(n.side)];
    const TensorDistAttr* from = attrOf(ctx_, mesh, n.place, dims_.size());
    auto add = [&](Node to, Step step) {
      Result<StepCost> cost = stepCost(step, dims_, e_, model_);
      if (!cost) return;  // not a step this tensor can take
      step.to = step.to ? step.to : attrOf(ctx_, meshes_[size_t(to.side)], to.place, dims_.size());
      out.push_back({nodeIndex(to), step, std::move(*cost)});
    };
    auto free = [&](int64_t axis) { return std::find(n.place.begin(), n.place.end(), axis) == n.place.end(); };
    // The destination's partial type on each of its mesh dims (R->P targets).
    std::optional<std::vector<int64_t>> want = placesOf(dst_);
    int goalSide = meshes_[0] == meshes_[1] ? 0 : 1;
    for (size_t m = 0; m < n.place.size(); ++m) {
      int64_t p = n.place[m];
      auto moved = [&](int64_t q) {
        Node to = n;
        to.place[m] = q;
        return to;
      };
      auto step = [&](StepKind kind, int64_t q, int64_t axis, ReduceType reduce, int64_t toAxis = -1) {
        Node to = moved(q);
        return std::make_pair(
            to, Step{kind, from, attrOf(ctx_, mesh, to.place, dims_.size()), int64_t(m), axis, reduce, toAxis});
      };
      if (isShard(p)) {
        auto [t, s] = step(StepKind::SToR, kReplicate, p, ReduceType::Sum);
        add(t, s);
        for (int64_t b = 0; b < int64_t(dims_.size()); ++b)
          if (free(b)) {
            auto [t2, s2] = step(StepKind::AllToAll, b, p, ReduceType::Sum, b);
            add(t2, s2);
          }
      } else if (isPartial(p)) {
        auto [t, s] = step(StepKind::PToR, kReplicate, -1, typeOf(p));
        add(t, s);
        if (typeOf(p) == ReduceType::Sum)
          for (int64_t b = 0; b < int64_t(dims_.size()); ++b)
            if (free(b)) {
              auto [t2, s2] = step(StepKind::PToS, b, b, ReduceType::Sum);
              add(t2, s2);
            }
      } else {
        for (int64_t b = 0; b < int64_t(dims_.size()); ++b)
          if (free(b)) {
            auto [t, s] = step(StepKind::RToS, b, b, ReduceType::Sum);
            add(t, s);
          }
        if (n.side == goalSide && want && m < want->size() && isPartial((*want)[m])) {
          auto [t, s] = step(StepKind::RToP, (*want)[m], -1, typeOf((*want)[m]));
          add(t, s);
        }
      }
    }
    // One all_reduce over several mesh dims partial with one type.
    for (uint32_t mask = 1; mask < (1u << n.place.size()); ++mask) {
      if (std::popcount(mask) < 2) continue;
      std::set<int64_t> types;
      for (size_t m = 0; m < n.place.size(); ++m)
        if (mask >> m & 1u) types.insert(n.place[m]);
      if (types.size() != 1 || !isPartial(*types.begin())) continue;
      int64_t type = *types.begin();
      Node to = n;
      for (size_t m = 0; m < n.place.size(); ++m)
        if (mask >> m & 1u) to.place[m] = kReplicate;
      Step s{StepKind::AllReduceFlat, from, attrOf(ctx_, mesh, to.place, dims_.size()), 0, -1, typeOf(type)};
      s.meshDims = mask;
      add(to, s);
    }
    if (n.side == 0 && meshes_[0] != meshes_[1]) crossEdges(n, from, add);
    return out;
  }

  template <class Add>
  void crossEdges(const Node& n, const TensorDistAttr* from, Add& add) {
    const ProcessMesh* dm = meshes_[1];
    if (std::ranges::equal(meshes_[0]->shape(), dm->shape()))
      add(Node{1, n.place}, Step{StepKind::SameStatus, from, attrOf(ctx_, dm, n.place, dims_.size())});
    if (std::any_of(n.place.begin(), n.place.end(), isPartial)) return;
    if (targets_.empty()) {
      std::vector<int64_t> cur;
      allUnreduced(dm->ndim(), dims_.size(), cur, targets_);
    }
    for (const std::vector<int64_t>& t : targets_)
      add(Node{1, t}, Step{StepKind::Move, from, attrOf(ctx_, dm, t, dims_.size())});
  }

  Context& ctx_;
  const TensorDistAttr *src_, *dst_;
  std::span<const int64_t> dims_;
  uint64_t e_;
  const CostModel& model_;
  const ProcessMesh* meshes_[2];
  std::set<int64_t> ranks_;
  std::vector<Node> nodes_;
  std::map<Node, int> index_;
  std::map<int, std::vector<Edge>> edges_;
  std::vector<Label> labels_;
  std::map<int, std::vector<int>> kept_;
  std::vector<std::vector<int64_t>> targets_;  // the destination's placements without partial
};

}  // namespace

Result<ReshardPlan> planByCost(Context& ctx, const TensorDistAttr* src, const TensorDistAttr* dst,
                               std::span<const int64_t> dims, uint64_t elementBytes, const CostModel& model) {
  if (std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; }))
    return Status::error("a dynamic dim has no byte count");
  if (src->dimsMapping().size() != dims.size() || dst->dimsMapping().size() != dims.size())
    return Status::error("dims_mapping does not fit the tensor");
  return Search(ctx, src, dst, dims, elementBytes, model).run();
}

}  // namespace pir::passes::lowering
