//===- lower_reshard_test.cpp - every rank's lowering agrees on its rings -===//
//
// Lowers one reshard for every rank of its meshes and checks what a runner
// would deadlock or corrupt on: each lowered program verifies; a collective
// runs on a ring of its op mesh's sorted ranks, and every member of a ring
// runs the same collectives on it in the same order with the same shapes;
// send_v2 on ring [s,d] is rank s's (peer 1) and recv_v2 rank d's (peer 0),
// the sends' real local shapes matching the receives' out_shape in order.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/mesh_math.h"
#include "core/operation.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_registry.h"
#include "passes/ring_plan.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes;

namespace {

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

struct Layout {
  std::vector<int64_t> shape, ids, mapping;
  std::string partial;  // "partial(0,SUM)" or empty
};

std::string typeOf(const std::vector<int64_t>& dims, const Layout& l) {
  std::string d;
  for (size_t i = 0; i < dims.size(); ++i) d += (i ? "x" : "") + std::to_string(dims[i]);
  return "pd_dist.tensor<" + d + "xf32, mesh_shape:[" + join(l.shape) + "],process_ids:[" + join(l.ids) +
         "],dims_mappings:[" + join(l.mapping) + "]" + (l.partial.empty() ? "" : ", " + l.partial) + ">";
}

std::string programText(const std::vector<int64_t>& dims, const Layout& src, const Layout& dst) {
  std::string ts = typeOf(dims, src), td = typeOf(dims, dst);
  return "{\n    (%0) = \"pd_op.data\" () {stop_gradient:[false]} : () -> " + ts +
         "\n    (%1) = \"dist_op.reshard\" (%0) {} : (" + ts + ") -> " + td +
         "\n    () = \"builtin.shadow_output\" (%1) {output_name:\"out\"} : (" + td + ") -> \n}\n";
}

bool meshHolds(const Operation& op, int64_t rank) {
  const OpDistAttr* od = op.distAttr();
  return od && od->mesh() && meshIndexOf(*od->mesh(), rank).has_value();
}

/// The shape `rank` really holds of `v` (a padded piece's global dims
/// differ between ranks; the pieces' real sizes must not).
std::string localText(const Value* v, int64_t rank) {
  auto s = tensorShape(v->type());
  const TensorDistAttr* d = distAttrOf(v->type());
  auto local = s && d ? localShape(s->dims, *d, rank) : std::nullopt;
  return local ? join(*local) : "?";
}

/// Lowers the reshard for each rank (with `planner`) and checks the rings' traffic.
void checkAllRanks(const std::vector<int64_t>& dims, const Layout& src, const Layout& dst,
                   lowering::Planner planner = lowering::Planner::Paddle) {
  registerAllPasses();
  std::string text = programText(dims, src, dst);
  INFO(text);
  std::set<int64_t> world(src.ids.begin(), src.ids.end());
  world.insert(dst.ids.begin(), dst.ids.end());
  // ring -> rank -> what the rank runs on it.
  std::map<int64_t, std::map<int64_t, std::vector<std::string>>> collectives;
  std::map<int64_t, std::vector<std::string>> sends, recvs;
  std::vector<std::pair<int64_t, std::vector<int64_t>>> table;
  for (int64_t rank : world) {
    Context ctx;
    SourceFile file("t.pir", text);
    DiagnosticEngine diag(&file);
    auto parsed = parser::parseProgram(ctx, file, diag);
    REQUIRE(parsed.isOk());
    Result<ProcessGroupTable> rings = planRings(*parsed.value(), {planner});
    REQUIRE(rings.isOk());
    if (table.empty())
      for (const ProcessGroup& g : rings->groups()) table.emplace_back(g.ringId, g.ranks);
    NamedProgram named("", std::move(parsed.value()));
    named.rank = static_cast<int>(rank);
    auto pass = PassRegistry::instance().create("lower-reshard");
    REQUIRE(pass);
    PassOptionValues options;
    if (planner == lowering::Planner::Cost) options.values["planner"] = "cost";
    REQUIRE(pass->setOptions(options).isOk());
    REQUIRE(static_cast<ProgramPass&>(*pass).runOnProgram(named, diag).isOk());
    CHECK(verifyProgram(*named.program, diag) == 0);
    walk(named.program->body(), [&](const Operation& op) {
      // A fake reshard is left only where the rank does not hold its result.
      if (op.name() == "dist_op.reshard") CHECK(!meshIndexOf(*distAttrOf(op.result(0)->type())->mesh(), rank));
      if (!meshHolds(op, rank)) return;
      std::optional<int64_t> ring = getInt64(op.attr("ring_id"));
      if (!ring) return;
      std::span<const int64_t> ranks = rings->ranksOf(*ring);
      REQUIRE(!ranks.empty());
      std::optional<int64_t> peer = getInt64(op.attr("peer"));
      if (op.name() == "pd_op.send_v2") {
        CHECK(ranks[0] == rank);
        CHECK(peer == 1);
        auto local =
            localShape(tensorShape(op.operandValue(0)->type())->dims, *distAttrOf(op.operandValue(0)->type()), rank);
        REQUIRE(local);
        sends[*ring].push_back(join(*local));
      } else if (op.name() == "pd_op.recv_v2") {
        CHECK(ranks[1] == rank);
        CHECK(peer == 0);
        recvs[*ring].push_back(join(*getInt64Array(op.attr("out_shape"))));
      } else {
        // all_reduce on the sorted ranks (Paddle's new_process_group); the
        // collectives that place pieces by position on the mesh's order.
        std::vector<int64_t> expected(op.distAttr()->mesh()->processIds().begin(),
                                      op.distAttr()->mesh()->processIds().end());
        if (op.name() == "pd_op.all_reduce") std::sort(expected.begin(), expected.end());
        CHECK(std::vector<int64_t>(ranks.begin(), ranks.end()) == expected);
        collectives[*ring][rank].push_back(std::string(op.name()) + " " + localText(op.operandValue(0), rank));
      }
    });
  }
  for (const auto& [ring, byRank] : collectives) {
    for (const auto& row : table)
      if (row.first == ring) CHECK(byRank.size() == row.second.size());
    for (const auto& [rank, ops] : byRank) CHECK(ops == byRank.begin()->second);
  }
  for (const auto& [ring, shapes] : sends) CHECK(recvs[ring] == shapes);
  for (const auto& [ring, shapes] : recvs) CHECK(sends[ring] == shapes);
}

const Layout kR2{{2}, {0, 1}, {-1, -1}, ""};

}  // namespace

TEST_CASE("lower-reshard rings agree across ranks on one 1-D mesh", "[lower_reshard]") {
  checkAllRanks({9, 9}, {{2}, {0, 1}, {0, -1}, ""}, kR2);
  checkAllRanks({9, 9}, {{2}, {0, 1}, {-1, 0}, ""}, kR2);
  checkAllRanks({5, 4}, {{4}, {0, 1, 2, 3}, {0, -1}, ""}, {{4}, {0, 1, 2, 3}, {-1, -1}, ""});
  checkAllRanks({3, 7}, {{2}, {0, 1}, {-1, -1}, "partial(0,SUM)"}, {{2}, {0, 1}, {-1, 0}, ""});
  checkAllRanks({8, 8}, {{2}, {0, 1}, {0, -1}, ""}, {{2}, {0, 1}, {-1, 0}, ""});
}

TEST_CASE("lower-reshard rings agree across ranks between meshes", "[lower_reshard]") {
  // A rank in both meshes sends and receives (Paddle's W1).
  checkAllRanks({8, 8}, {{2}, {0, 1}, {-1, 0}, ""}, {{2}, {1, 0}, {-1, -1}, ""});
  checkAllRanks({8, 8}, {{2}, {0, 1}, {-1, -1}, "partial(0,SUM)"}, {{2}, {1, 0}, {-1, -1}, ""});
  checkAllRanks({9, 8}, {{2}, {0, 1}, {-1, 0}, ""}, {{3}, {2, 3, 4}, {0, -1}, ""});
  checkAllRanks({7, 4}, {{2}, {0, 1}, {0, -1}, ""}, {{2}, {2, 3}, {0, -1}, ""});
  // GlobalToSubMesh and SubToGlobalMesh (broadcast on the destination).
  checkAllRanks({8, 8}, {{2}, {0, 1}, {0, -1}, ""}, {{1}, {0}, {-1, -1}, ""});
  checkAllRanks({4, 4}, {{1}, {2}, {-1, -1}, ""}, {{2}, {1, 2}, {-1, -1}, ""});
  checkAllRanks({4, 4}, {{2}, {0, 1}, {-1, -1}, ""}, {{2, 2}, {0, 1, 2, 3}, {-1, -1}, ""});
  checkAllRanks({4, 4}, {{2, 2}, {0, 1, 2, 3}, {1, -1}, ""}, {{2}, {2, 3}, {-1, -1}, ""});
}

TEST_CASE("lower-reshard rings agree across ranks on 2-D meshes", "[lower_reshard]") {
  Layout m{{2, 2}, {0, 1, 2, 3}, {}, ""};
  auto on = [&](std::vector<int64_t> map, std::string partial = "") {
    Layout l = m;
    l.mapping = std::move(map);
    l.partial = std::move(partial);
    return l;
  };
  checkAllRanks({2, 4, 8}, on({-1, -1, -1}, "partial(0,SUM),partial(1,SUM)"), on({-1, -1, -1}));
  checkAllRanks({2, 4, 8}, on({0, 1, -1}), on({1, 0, -1}));
  checkAllRanks({2, 4, 8}, on({1, -1, -1}, "partial(0,SUM)"), on({-1, 1, -1}));
  checkAllRanks({2, 4, 8}, on({-1, -1, -1}, "partial(0,SUM)"), on({0, 1, -1}));
  checkAllRanks({3, 5, 8}, on({0, 1, -1}), on({-1, -1, 1}));
  Layout far{{2, 2}, {4, 5, 6, 7}, {-1, -1, -1}, ""};
  checkAllRanks({2, 4, 8}, on({-1, -1, -1}, "partial(0,SUM),partial(1,SUM)"), far);
}

namespace {

/// Every layout of a 2-D tensor on `shape`/`ids`: each tensor axis on a
/// distinct mesh dim or none, and the free mesh dims partial (SUM) or not,
/// plus one MAX partial.
std::vector<Layout> layoutsOn(std::vector<int64_t> shape, std::vector<int64_t> ids) {
  std::vector<Layout> out;
  int64_t nd = static_cast<int64_t>(shape.size());
  for (int64_t a = -1; a < nd; ++a)
    for (int64_t b = -1; b < nd; ++b) {
      if (a >= 0 && a == b) continue;
      std::vector<int64_t> free;
      for (int64_t m = 0; m < nd; ++m)
        if (m != a && m != b) free.push_back(m);
      for (uint32_t mask = 0; mask < (1u << free.size()); ++mask) {
        std::string partial;
        for (size_t i = 0; i < free.size(); ++i)
          if (mask & (1u << i))
            partial += (partial.empty() ? "" : ",") + std::string("partial(") + std::to_string(free[i]) + ",SUM)";
        out.push_back({shape, ids, {a, b}, partial});
        if (mask && free.size() == 1)
          out.push_back({shape, ids, {a, b}, "partial(" + std::to_string(free[0]) + ",MAX)"});
      }
    }
  return out;
}

}  // namespace

TEST_CASE("lower-reshard rings agree across ranks over a grid of layouts", "[lower_reshard]") {
  std::vector<Layout> all;
  for (auto [shape, ids] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{2}, {0, 1}}, {{2}, {1, 0}}, {{3}, {0, 1, 2}}, {{2, 2}, {0, 1, 2, 3}}, {{2, 2}, {4, 5, 6, 7}}}) {
    std::vector<Layout> l = layoutsOn(shape, ids);
    all.insert(all.end(), l.begin(), l.end());
  }
  // Every other pair of the grid (about 1500 reshards, each on every rank).
  size_t n = 0;
  for (const Layout& src : all)
    for (const Layout& dst : all)
      if (n++ % 2 == 0) checkAllRanks({5, 6}, src, dst);
}

TEST_CASE("lower-reshard{planner=cost} rings agree across ranks over a grid of layouts", "[lower_reshard][cost]") {
  std::vector<Layout> all;
  for (auto [shape, ids] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{2}, {0, 1}}, {{2}, {1, 0}}, {{3}, {0, 1, 2}}, {{2, 2}, {0, 1, 2, 3}}, {{2, 2}, {2, 3, 4, 5}}}) {
    std::vector<Layout> l = layoutsOn(shape, ids);
    all.insert(all.end(), l.begin(), l.end());
  }
  // Every third pair (its AllToAll, Move and flattened all_reduce steps too),
  // uneven: 5 rows and 7 columns on 2 and 3 ranks.
  size_t n = 0;
  for (const Layout& src : all)
    for (const Layout& dst : all)
      if (n++ % 3 == 0) checkAllRanks({5, 7}, src, dst, lowering::Planner::Cost);
}

namespace {

/// The op names lower-reshard{rank=0} leaves in `text`, one a line, in order.
std::vector<std::string> loweredOpNames(const std::string& text) {
  registerAllPasses();
  Context ctx;
  SourceFile file("t.pir", text);
  DiagnosticEngine diag(&file);
  auto parsed = parser::parseProgram(ctx, file, diag);
  REQUIRE(parsed.isOk());
  NamedProgram named("", std::move(parsed.value()));
  named.rank = 0;
  auto pass = PassRegistry::instance().create("lower-reshard");
  REQUIRE(pass);
  REQUIRE(static_cast<ProgramPass&>(*pass).runOnProgram(named, diag).isOk());
  CHECK(verifyProgram(*named.program, diag) == 0);
  std::vector<std::string> names;
  walk(named.program->body(), [&](const Operation& op) { names.emplace_back(op.name()); });
  return names;
}

}  // namespace

TEST_CASE("lower-reshard plans each reshard of one operand type by its own result type", "[lower_reshard]") {
  // One value resharded to three layouts, and the same three reshards each
  // alone: the plans are found by the reshards' types, so a plan kept for
  // the operand's type alone would lower all three as the first.
  std::vector<int64_t> dims{4, 8};
  Layout src{{2}, {0, 1}, {0, -1}, ""};
  std::vector<Layout> dsts{{{2}, {0, 1}, {-1, -1}, ""}, {{2}, {0, 1}, {-1, 0}, ""}, {{2}, {0, 1}, {0, -1}, ""}};
  std::string ts = typeOf(dims, src);
  std::string text = "{\n    (%0) = \"pd_op.data\" () {stop_gradient:[false]} : () -> " + ts + "\n";
  std::vector<std::string> alone;
  for (size_t i = 0; i < dsts.size(); ++i) {
    std::string td = typeOf(dims, dsts[i]), r = "%" + std::to_string(i + 1);
    text += "    (" + r + ") = \"dist_op.reshard\" (%0) {} : (" + ts + ") -> " + td + "\n";
    std::vector<std::string> one = loweredOpNames(programText(dims, src, dsts[i]));
    one.erase(one.begin());  // pd_op.data
    one.pop_back();          // builtin.shadow_output
    alone.insert(alone.end(), one.begin(), one.end());
  }
  for (size_t i = 0; i < dsts.size(); ++i) {
    std::string td = typeOf(dims, dsts[i]), r = "%" + std::to_string(i + 1);
    text += "    () = \"builtin.shadow_output\" (" + r + ") {output_name:\"out" + std::to_string(i) + "\"} : (" + td +
            ") -> \n";
  }
  text += "}\n";
  INFO(text);
  std::vector<std::string> together = loweredOpNames(text);
  REQUIRE(together.size() == 1 + alone.size() + dsts.size());
  CHECK(std::vector<std::string>(together.begin() + 1, together.end() - static_cast<long>(dsts.size())) == alone);
  CHECK(std::count(together.begin(), together.end(), "pd_op.all_gather") == 1);
}
