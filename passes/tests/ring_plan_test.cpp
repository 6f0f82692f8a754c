//===- ring_plan_test.cpp - the rings a program's lowering needs ----------===//
#include "passes/ring_plan.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/context.h"
#include "parser/parser.h"

using namespace pir;
using namespace pir::core;

namespace {

/// `pd_dist.tensor<DIMSxf32, ...>` on a mesh of `shape` and `ids`.
std::string distType(const std::string& dims, const std::string& shape, const std::string& ids,
                     const std::string& mapping, const std::string& partial = "") {
  return "pd_dist.tensor<" + dims + "xf32, mesh_shape:[" + shape + "],process_ids:[" + ids + "],dims_mappings:[" +
         mapping + "]" + (partial.empty() ? "" : ", partial(" + partial + ")") + ">";
}

struct Reshard {
  std::string from, to;
};

/// A program of one pd_op.data per reshard, each resharded; `extra` ops go
/// first.
std::string program(const std::vector<Reshard>& reshards, const std::string& extra = "") {
  std::string s = "{\n" + extra;
  int v = 0;
  for (const Reshard& r : reshards) {
    s += "    (%" + std::to_string(v) + ") = \"pd_op.data\" () {} : () -> " + r.from + "\n";
    s += "    (%" + std::to_string(v + 1) + ") = \"dist_op.reshard\" (%" + std::to_string(v) + ") {} : (" + r.from +
         ") -> " + r.to + "\n";
    v += 2;
  }
  return s + "}\n";
}

/// The table planRings gives `text`, as (ring id, ranks) rows.
std::vector<std::pair<int64_t, std::vector<int64_t>>> rings(const std::string& text) {
  Context ctx;
  SourceFile src("t.pir", text);
  DiagnosticEngine diag(&src);
  auto p = parser::parseProgram(ctx, src, diag);
  REQUIRE(p.isOk());
  Result<ProcessGroupTable> table = passes::planRings(*p.value());
  REQUIRE(table.isOk());
  std::vector<std::pair<int64_t, std::vector<int64_t>>> out;
  for (const ProcessGroup& g : table->groups()) out.emplace_back(g.ringId, g.ranks);
  return out;
}

using Rows = std::vector<std::pair<int64_t, std::vector<int64_t>>>;

}  // namespace

TEST_CASE("planRings gives S to R on one mesh its mesh in mesh order as ring 12", "[ring_plan]") {
  // The gather concatenates by position in the ring: on [1,0] rank 1 holds
  // piece 0, so the ring is [1,0] (Paddle's sorted [0,1] swaps the pieces).
  std::string t = program({{distType("8x8", "2", "1,0", "0,-1"), distType("8x8", "2", "1,0", "-1,-1")}});
  CHECK(rings(t) == Rows{{12, {1, 0}}});
  // P -> R keeps Paddle's sorted ring: a sum does not depend on positions.
  std::string p = program({{distType("8x8", "2", "1,0", "-1,-1", "0,SUM"), distType("8x8", "2", "1,0", "-1,-1")}});
  CHECK(rings(p) == Rows{{12, {0, 1}}});
}

TEST_CASE("planRings orders the rings of a 2-D P,P to R,R by mesh dim, then sub-mesh", "[ring_plan]") {
  std::string t =
      program({{distType("4x8", "2,2", "0,1,2,3", "-1,-1", "0,SUM"), distType("4x8", "2,2", "0,1,2,3", "-1,-1")}});
  CHECK(rings(t) == Rows{{12, {0, 2}}, {13, {1, 3}}});
  // Two partial dims: mesh dim 0's sub-meshes, then mesh dim 1's.
  std::string both =
      "pd_dist.tensor<4x8xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[-1,-1], "
      "partial(0,SUM),partial(1,SUM)>";
  CHECK(rings(program({{both, distType("4x8", "2,2", "0,1,2,3", "-1,-1")}})) ==
        Rows{{12, {0, 2}}, {13, {1, 3}}, {14, {0, 1}}, {15, {2, 3}}});
}

TEST_CASE("planRings shares the p2p ring [s,d] with the collective over the same sorted ranks", "[ring_plan]") {
  // [0,1] -> [1,0]: SameStatus makes [0,1] and [1,0]; S(0) -> R on [1,0]
  // gathers over sorted [0,1], the first ring again.
  std::string t = program({{distType("8x8", "2", "0,1", "0,-1"), distType("8x8", "2", "1,0", "-1,-1")}});
  CHECK(rings(t) == Rows{{12, {0, 1}}, {13, {1, 0}}});
}

TEST_CASE("planRings starts above the highest ring_id in the input and reuses rings", "[ring_plan]") {
  std::string ar = "    (%9) = \"pd_op.full\" () {ring_id:(Int32)20} : () -> builtin.tensor<1xf32>\n";
  std::string a = distType("8x8", "2", "0,1", "-1,-1", "0,SUM");
  std::string r = distType("8x8", "2", "0,1", "-1,-1");
  std::string s = distType("8x8", "2", "0,1", "-1,0");
  CHECK(rings(program({{a, r}, {r, s}, {s, r}}, ar)) == Rows{{21, {0, 1}}});
  CHECK(rings(program({{a, r}})) == Rows{{12, {0, 1}}});
}

TEST_CASE("planRings gives the general path one ring per receiving rank", "[ring_plan]") {
  // Meshes of different sizes: R on [0,1] is sent round robin from 0, 1 to
  // each rank of [2,3,4]; no collective (both ends replicated).
  std::string t = program({{distType("8x8", "2", "0,1", "-1,-1"), distType("8x8", "3", "2,3,4", "-1,-1")}});
  CHECK(rings(t) == Rows{{12, {0, 2}}, {13, {1, 3}}, {14, {0, 4}}});
  // Identity reshards and R -> S need no ring.
  std::string r = distType("8x8", "2", "0,1", "-1,-1");
  CHECK(rings(program({{r, r}, {r, distType("8x8", "2", "0,1", "0,-1")}})).empty());
}

TEST_CASE("planRings gives SubToGlobalMesh the destination's sorted ranks and GlobalToSubMesh none", "[ring_plan]") {
  std::string t = program({{distType("4x4", "1", "2", "-1,-1"), distType("4x4", "2", "2,1", "-1,-1")}});
  CHECK(rings(t) == Rows{{12, {1, 2}}});
  // S(0) on [1,0] -> R on [0]: the gather to replicated on [1,0] only.
  std::string g = program({{distType("8x8", "2", "1,0", "0,-1"), distType("8x8", "1", "0", "-1,-1")}});
  CHECK(rings(g) == Rows{{12, {1, 0}}});
}
