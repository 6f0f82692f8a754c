//===- split_ranks_property_test.cpp - split-ranks over random layouts -----===//
//
// A seeded generator writes programs of reshards between random layouts
// (1-D and 2-D meshes, same and across meshes, shards even and uneven,
// partials); after split-ranks every rank's program must verify, hold no
// dist type, and every ring must carry, on each of its ranks, the same
// collectives in the same order with the same shapes, and each send a
// receive of its shape at the peer, in order (a mismatch would deadlock or
// corrupt the runner).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes;

namespace {

struct Mesh {
  std::vector<int64_t> shape, ids;
};

const std::vector<Mesh>& meshes() {
  static const std::vector<Mesh> list = {{{2}, {0, 1}},          {{2}, {1, 0}},    {{3}, {0, 1, 2}},
                                         {{4}, {0, 1, 2, 3}},    {{2}, {2, 3}},    {{2, 2}, {0, 1, 2, 3}},
                                         {{2, 2}, {4, 5, 6, 7}}, {{1, 2}, {0, 1}}, {{2, 3}, {0, 1, 2, 3, 4, 5}}};
  return list;
}

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

struct Layout {
  Mesh mesh;
  std::vector<int64_t> dims;
  std::string partial;  // `, partial(0,SUM)` ...

  std::string attr() const {
    return "{mesh_shape:" + list(mesh.shape) + ",process_ids:" + list(mesh.ids) + ",dims_mappings:" + list(dims) +
           partial + "}";
  }
  std::string type(const std::vector<int64_t>& shape) const {
    std::string s = "pd_dist.tensor<";
    for (int64_t d : shape) s += std::to_string(d) + "x";
    return s + "f32, mesh_shape:" + list(mesh.shape) + ",process_ids:" + list(mesh.ids) +
           ",dims_mappings:" + list(dims) + partial + ">";
  }
  std::string meshAttr() const { return "{shape:" + list(mesh.shape) + ",process_ids:" + list(mesh.ids) + "}"; }
};

/// A random layout of a tensor of `ndim` dims on `mesh`: each mesh dim
/// shards a free tensor dim, is partial, or replicates.
Layout randomLayout(std::mt19937& rng, const Mesh& mesh, size_t ndim) {
  Layout l{mesh, std::vector<int64_t>(ndim, -1), ""};
  const char* reduces[] = {"SUM", "SUM", "SUM", "AVG", "MAX"};
  for (size_t m = 0; m < mesh.shape.size(); ++m) {
    int choice = static_cast<int>(rng() % 5);
    if (choice <= 1) {
      size_t axis = rng() % ndim;
      if (l.dims[axis] < 0) l.dims[axis] = static_cast<int64_t>(m);
    } else if (choice == 2) {
      l.partial += ", partial(" + std::to_string(m) + "," + reduces[rng() % 5] + ")";
    }
  }
  return l;
}

/// A program of `count` reshards: data (src layout) -> reshard -> shadow_output.
std::string randomProgram(std::mt19937& rng, int count) {
  std::ostringstream out;
  out << "{\n";
  int v = 0;
  for (int i = 0; i < count; ++i) {
    const Mesh& src = meshes()[rng() % meshes().size()];
    const Mesh& dst = rng() % 3 ? src : meshes()[rng() % meshes().size()];
    std::vector<int64_t> shape(1 + rng() % 3);
    for (int64_t& d : shape) d = 1 + static_cast<int64_t>(rng() % 9);
    Layout a = randomLayout(rng, src, shape.size()), b = randomLayout(rng, dst, shape.size());
    std::vector<int64_t> unionIds = src.ids;
    unionIds.insert(unionIds.end(), dst.ids.begin(), dst.ids.end());
    std::sort(unionIds.begin(), unionIds.end());
    unionIds.erase(std::unique(unionIds.begin(), unionIds.end()), unionIds.end());
    std::string opMesh = src.ids == dst.ids && src.shape == dst.shape
                             ? a.meshAttr()
                             : "{shape:[" + std::to_string(unionIds.size()) + "],process_ids:" + list(unionIds) + "}";
    out << "    (%" << v << ") = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x" << i
        << "\",op_dist_attr:{mesh:" << a.meshAttr() << ",result(0):" << a.attr()
        << "},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)" << list(shape)
        << ",stop_gradient:[true]} : () -> " << a.type(shape) << "\n";
    out << "    (%" << v + 1 << ") = \"dist_op.reshard\" (%" << v << ") {op_dist_attr:{mesh:" << opMesh
        << ",operand(0):" << a.attr() << ",result(0):" << b.attr() << "}} : (" << a.type(shape) << ") -> "
        << b.type(shape) << "\n";
    out << "    () = \"builtin.shadow_output\" (%" << v + 1 << ") {op_dist_attr:{mesh:" << b.meshAttr()
        << ",operand(0):" << b.attr() << "},output_name:\"y" << i << "\"} : (" << b.type(shape) << ") -> \n";
    v += 2;
  }
  out << "}\n";
  return out.str();
}

bool holdsDist(const Type* t) {
  if (!t) return false;
  if (t->isa<DistTensorType>()) return true;
  if (auto* vec = t->dynCast<VectorType>())
    for (const Type* e : vec->elements())
      if (holdsDist(e)) return true;
  return false;
}

std::string dimsOf(const Value* v) {
  auto shape = v ? tensorShape(v->type()) : std::nullopt;
  return shape ? list(std::vector<int64_t>(shape->dims.begin(), shape->dims.end())) : "?";
}

/// What one rank does on its rings: collectives by ring, in order; sends
/// and receives by (ring, from, to), in order.
struct Traffic {
  std::map<int64_t, std::vector<std::string>> collectives;
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<std::string>> sends, receives;
};

/// Fills `traffic` from rank `rank`'s program; a problem is returned as text.
std::string recordTraffic(const Program& program, int64_t rank, const RingTable& rings, Traffic& traffic) {
  std::string problem;
  walk(program.body(), [&](const Operation& op) {
    std::optional<int64_t> ring = getInt64(op, "ring_id");
    if (!ring || !problem.empty()) return;
    const ProcessGroup* group = rings.find(*ring);
    if (!group) return void(problem = "ring " + std::to_string(*ring) + " is not in the ring table");
    std::optional<int64_t> me = group->localRank(rank);
    if (!me)
      return void(problem = std::string(op.name()) + " on ring " + std::to_string(*ring) + " runs on a non-member");
    if (op.name() == "pd_op.send_v2" || op.name() == "pd_op.recv_v2") {
      std::optional<int64_t> peer = getInt64(op, "peer");
      if (!peer || *peer < 0 || *peer >= static_cast<int64_t>(group->ranks.size()))
        return void(problem = std::string(op.name()) + " has no peer in ring " + std::to_string(*ring));
      int64_t other = group->ranks[*peer];
      if (op.name() == "pd_op.send_v2")
        traffic.sends[{*ring, rank, other}].push_back(dimsOf(op.operandValue(0)));
      else
        traffic.receives[{*ring, other, rank}].push_back(dimsOf(op.result(0)));
      return;
    }
    std::string event = std::string(op.name());
    for (uint32_t i = 0; i < op.numOperands(); ++i) event += " " + dimsOf(op.operandValue(i));
    for (uint32_t i = 0; i < op.numResults(); ++i) event += " -> " + dimsOf(op.result(i));
    for (std::string_view key : {"nranks", "reduce_type", "root"})
      if (auto n = getInt64(op, key)) event += " " + std::string(key) + "=" + std::to_string(*n);
    traffic.collectives[*ring].push_back(event);
  });
  return problem;
}

/// The mismatches between the ranks' traffic, as text (empty: none).
std::string compareTraffic(const std::map<int64_t, Traffic>& byRank, const RingTable& rings) {
  std::string out;
  for (const ProcessGroup& g : rings.rings()) {
    const std::vector<std::string>* first = nullptr;
    static const std::vector<std::string> kNone;
    for (int64_t r : g.ranks) {
      auto it = byRank.find(r);
      const std::vector<std::string>* seq = &kNone;
      if (it != byRank.end())
        if (auto c = it->second.collectives.find(g.ringId); c != it->second.collectives.end()) seq = &c->second;
      if (!first) first = seq;
      if (*seq != *first)
        out += "ring " + std::to_string(g.ringId) + ": rank " + std::to_string(r) + "'s collectives differ from rank " +
               std::to_string(g.ranks[0]) + "'s\n";
    }
  }
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<std::string>> sends, receives;
  for (const auto& [rank, t] : byRank) {
    for (const auto& [k, v] : t.sends) sends[k] = v;
    for (const auto& [k, v] : t.receives) receives[k] = v;
  }
  if (sends != receives) out += "the sends and receives do not pair up\n";
  return out;
}

}  // namespace

TEST_CASE("split-ranks over random layouts: valid, dense, and every ring agrees on every rank") {
  registerAllPasses();
  std::mt19937 rng(20261201);
  int refused = 0, lowered = 0;
  size_t collectives = 0, sends = 0;  // the properties were put to the test
  for (int trial = 0; trial < 150; ++trial) {
    std::string text = randomProgram(rng, 1 + static_cast<int>(rng() % 3));
    Context ctx;
    SourceFile src("random.pir", text);
    DiagnosticEngine diag(&src);
    auto parsed = parser::parseProgram(ctx, src, diag);
    INFO(text);
    REQUIRE(parsed.isOk());
    if (verifyProgram(**parsed, diag) != 0) continue;  // a layout the verifier rejects (none expected)
    // The ring table is the one split-ranks writes into ranks.yaml, which the runner reads.
    ProgramSet set;
    set.programs.emplace_back("", std::move(*parsed));
    std::vector<PassSpec> specs;
    REQUIRE(parsePassPipeline("split-ranks", specs, diag));
    PassManager pm;
    REQUIRE(pm.addPipeline(specs, diag));
    Status s = pm.run(set, diag);
    INFO(diag.render() + s.message());
    REQUIRE(!s.isInternal());
    if (!s) {
      ++refused;
      WARN("split-ranks refused a layout: " + diag.render() + s.message() + "\n" + text);
      continue;
    }
    ++lowered;
    const RankLayout* made = pm.results().get<RankLayout>();
    REQUIRE(made);
    Result<RankLayout> layout = parseRankLayout(writeRankLayout(*made));  // ranks.yaml reads back as it is
    REQUIRE(layout.isOk());
    REQUIRE(*layout == *made);
    std::map<int64_t, Traffic> byRank;
    for (const NamedProgram& p : set.programs) {
      INFO(p.name + ":\n" + printProgram(*p.program));
      DiagnosticEngine after(&src);
      CHECK(verifyProgram(*p.program, after) == 0);
      bool dist = false;
      walk(p.program->body(), [&](const Operation& op) {
        for (uint32_t i = 0; i < op.numResults(); ++i) dist = dist || holdsDist(op.result(i)->type());
        dist = dist || op.attr("op_dist_attr");
      });
      CHECK(!dist);
      CHECK(recordTraffic(*p.program, p.rank, layout->rings, byRank[p.rank]) == "");
    }
    CHECK(compareTraffic(byRank, layout->rings) == "");
    for (const auto& [rank, t] : byRank) {
      for (const auto& [ring, events] : t.collectives) collectives += events.size();
      for (const auto& [key, events] : t.sends) sends += events.size();
    }
  }
  CHECK(lowered > 100);
  CHECK(collectives > 200);
  CHECK(sends > 50);
  CHECK(refused == 0);
}
