//===- cost_planner_test.cpp - the byte model and the cost planner ---------===//
//
// The byte model (lowering/cost_model.h) against hand-computed counts of
// each step kind, the planner's choices where the best plan is known, its
// fallback, and over a grid of 2-D layouts that no plan of Paddle's moves
// fewer bytes. That the counts are what the runtime moves is the table's
// check (scripts/reshard-table, ctest reshard-table/slice).
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/context.h"
#include "passes/lowering/cost_model.h"
#include "passes/lowering/cost_planner.h"
#include "passes/lowering/explain.h"
#include "passes/lowering/move.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes::lowering;

namespace {

struct Fixture {
  Context ctx;
  const ProcessMesh* mesh(std::vector<int64_t> shape, std::vector<int64_t> ids) { return ctx.processMesh(shape, ids); }
  const TensorDistAttr* at(const ProcessMesh* m, const std::string& layout, size_t rank) {
    auto a = parseLayout(ctx, layout, m, rank);
    REQUIRE(a.isOk());
    return *a;
  }
  BytesByRank bytes(const Step& s, std::vector<int64_t> dims) {
    auto c = stepCost(s, dims, 4, CostModel{});
    REQUIRE(c.isOk());
    return c->bytes;
  }
  ReshardPlan plan(const TensorDistAttr* src, const TensorDistAttr* dst, std::vector<int64_t> dims) {
    auto p = planReshard(ctx, src, dst, dims, {Planner::Cost});
    REQUIRE(p.isOk());
    return *p;
  }
  uint64_t most(const ReshardPlan& p, std::vector<int64_t> dims) {
    auto c = planCost(p.steps, dims, 4, CostModel{});
    REQUIRE(c.isOk());
    return c->maxBytes;
  }
};

}  // namespace

TEST_CASE("the byte model counts what each step moves, by hand", "[cost]") {
  Fixture f;
  const ProcessMesh* m4 = f.mesh({4}, {0, 1, 2, 3});
  const ProcessMesh* m2 = f.mesh({2}, {0, 1});
  SECTION("all_reduce, chunked by elements") {
    // 10 floats in chunks [0,2) [2,5) [5,7) [7,10): a member sends the others'
    // chunks and its reduced one to each: 10 + 2 * its chunk elements.
    BytesByRank b = f.bytes({StepKind::PToR, f.at(m4, "P", 1), f.at(m4, "R", 1)}, {10});
    CHECK(b[0] == RankBytes{56, 56});
    CHECK(b[1] == RankBytes{64, 64});
    CHECK(b[2] == RankBytes{56, 56});
    CHECK(b[3] == RankBytes{64, 64});
  }
  SECTION("all_gather of an uneven dim moves the padding") {
    // 5 rows on 2: pieces 3 and 2, each padded to 3 rows of 3: 36 bytes each way.
    BytesByRank b = f.bytes({StepKind::SToR, f.at(m2, "S(0)", 2), f.at(m2, "R", 2), 0, 0}, {5, 3});
    CHECK(b[0] == RankBytes{36, 36});
    CHECK(b[1] == RankBytes{36, 36});
  }
  SECTION("the all-to-all moves exact blocks") {
    // 5x3, S(0) -> S(1) on 2: rank 0 holds rows [0,3) and sends columns [2,3)
    // (3 floats), receives rows [3,5) of columns [0,2) (4 floats).
    Step s{StepKind::AllToAll, f.at(m2, "S(0)", 2), f.at(m2, "S(1)", 2), 0, 0, ReduceType::Sum, 1};
    BytesByRank b = f.bytes(s, {5, 3});
    CHECK(b[0] == RankBytes{12, 16});
    CHECK(b[1] == RankBytes{16, 12});
  }
  SECTION("a move between meshes sends each piece once, from balanced replicas") {
    const ProcessMesh* to = f.mesh({2}, {2, 3});
    BytesByRank b = f.bytes({StepKind::Move, f.at(m2, "S(0)", 2), f.at(to, "S(1)", 2)}, {4, 4});
    CHECK(b[0] == RankBytes{32, 0});  // a 2x2 block to each of ranks 2 and 3
    CHECK(b[2] == RankBytes{0, 32});
    const ProcessMesh* four = f.mesh({4}, {2, 3, 4, 5});
    std::vector<Transfer> t = moveTransfers(*f.at(m2, "R", 2), *f.at(four, "S(0)", 2), std::vector<int64_t>{8, 2});
    REQUIRE(t.size() == 4);
    CHECK(t[0].from == 0);
    CHECK(t[1].from == 1);
    CHECK(t[2].from == 0);
    CHECK(t[3].from == 1);
    BytesByRank r = f.bytes({StepKind::Move, f.at(m2, "R", 2), f.at(four, "S(0)", 2)}, {8, 2});
    CHECK(r[0] == RankBytes{32, 0});
    CHECK(r[1] == RankBytes{32, 0});
  }
  SECTION("local steps move nothing") {
    CHECK(f.bytes({StepKind::RToS, f.at(m4, "R", 2), f.at(m4, "S(1)", 2), 0, 1}, {4, 4}).empty());
    CHECK(f.bytes({StepKind::RToP, f.at(m4, "R", 2), f.at(m4, "P", 2)}, {4, 4}).empty());
  }
}

TEST_CASE("the cost planner takes the known best plans", "[cost]") {
  Fixture f;
  const ProcessMesh* m4 = f.mesh({4}, {0, 1, 2, 3});
  const ProcessMesh* m22 = f.mesh({2, 2}, {0, 1, 2, 3});
  SECTION("S->S is one all-to-all") {
    ReshardPlan p = f.plan(f.at(m4, "S(0)", 2), f.at(m4, "S(1)", 2), {8, 8});
    REQUIRE(p.steps.size() == 1);
    CHECK(p.steps[0].kind == StepKind::AllToAll);
    CHECK(p.function == "cost");
  }
  SECTION("two partial dims reduce in one all_reduce over the 2x2 sub-mesh") {
    ReshardPlan p = f.plan(f.at(m22, "P,P", 2), f.at(m22, "R,R", 2), {8, 6});
    REQUIRE(p.steps.size() == 1);
    CHECK(p.steps[0].kind == StepKind::AllReduceFlat);
    CHECK(f.most(p, {8, 6}) == 576);  // 3/4 of 192 bytes out and back, both ways
  }
  SECTION("a MAX partial has no reduce_scatter: all_reduce, then a slice") {
    ReshardPlan p = f.plan(f.at(m4, "P(MAX)", 2), f.at(m4, "S(0)", 2), {8, 8});
    REQUIRE(p.steps.size() == 2);
    CHECK(p.steps[0].kind == StepKind::PToR);
    CHECK(p.steps[0].reduce == ReduceType::Max);
    CHECK(p.steps[1].kind == StepKind::RToS);
  }
  SECTION("moving both shards: a gather and an all-to-all, 2/3 of Paddle's bytes") {
    ReshardPlan p = f.plan(f.at(m22, "S(0),S(1)", 2), f.at(m22, "S(1),S(0)", 2), {8, 6});
    CHECK(f.most(p, {8, 6}) == 192);
    auto paddle = planPaddle(f.ctx, f.at(m22, "S(0),S(1)", 2), f.at(m22, "S(1),S(0)", 2), std::vector<int64_t>{8, 6});
    REQUIRE(paddle.isOk());
    CHECK(f.most(*paddle, {8, 6}) == 288);
  }
  SECTION("a dynamic dim has no byte count: Paddle's plan, named a fallback") {
    auto p = planReshard(f.ctx, f.at(m4, "S(0)", 2), f.at(m4, "R", 2), std::vector<int64_t>{-1, 8}, {Planner::Cost});
    REQUIRE(p.isOk());
    CHECK(p->function == "cost fallback: SToR");
  }
}

TEST_CASE("no plan of Paddle's moves fewer bytes than the cost planner's", "[cost]") {
  Fixture f;
  const ProcessMesh* m22 = f.mesh({2, 2}, {0, 1, 2, 3});
  std::vector<std::string> all;
  for (std::string a : {"R", "P", "P(MAX)", "S(0)", "S(1)"})
    for (std::string b : {"R", "P", "P(MAX)", "S(0)", "S(1)"})
      if (a != b || a[0] != 'S') all.push_back(a + "," + b);
  for (std::vector<int64_t> dims : {std::vector<int64_t>{8, 6}, std::vector<int64_t>{5, 3}})
    for (const std::string& s : all)
      for (const std::string& d : all) {
        // (Mixed reduce types in one layout: the planner falls back to Paddle's plan.)
        CAPTURE(s, d, dims);
        auto src = f.at(m22, s, 2), dst = f.at(m22, d, 2);
        auto paddle = planPaddle(f.ctx, src, dst, dims);
        REQUIRE(paddle.isOk());
        CHECK(f.most(f.plan(src, dst, dims), dims) <= f.most(*paddle, dims));
      }
}

TEST_CASE("a cost model reads from YAML, defaults kept, errors located", "[cost]") {
  auto m = parseCostModel("base_us: 1\nmesh_dims:\n  - {alpha_us: 2, beta_gbps: 10}\ncross_mesh: {beta_gbps: 5}\n");
  REQUIRE(m.isOk());
  CHECK(m->baseUs == 1);
  CHECK(m->link(0).alphaUs == 2);
  CHECK(m->link(0).betaGBps == 10);
  CHECK(m->link(1).betaGBps == 87.7);
  CHECK(m->crossMesh.alphaUs == 2.7);
  CHECK(m->crossMesh.betaGBps == 5);
  auto bad = parseCostModel("mesh_dims:\n  - {alpha_us: 1, gbps: 3}\n");
  REQUIRE(!bad.isOk());
  CHECK(bad.status().message().find("unknown key 'gbps'") != std::string::npos);
  CHECK(!parseCostModel("base_us: -1\n").isOk());
  CHECK(!parseCostModel("other: {beta_gbps: 0}\n").isOk());
}

TEST_CASE("the plan memo answers each set of arguments once, as planReshard does", "[cost]") {
  Fixture f;
  const ProcessMesh* m4 = f.mesh({4}, {0, 1, 2, 3});
  PlanMemo memo;
  const TensorDistAttr* s0 = f.at(m4, "S(0)", 2);
  const TensorDistAttr* r = f.at(m4, "R", 2);
  const TensorDistAttr* p = f.at(m4, "P", 2);
  std::vector<int64_t> dims{8, 4}, other{8, 6}, longer{8, 4, 1};
  const auto& first = memo.plan(f.ctx, s0, r, dims, {});
  REQUIRE(first.isOk());
  CHECK(first->function == planReshard(f.ctx, s0, r, dims, {})->function);
  // The same arguments: the same answer, where it was.
  CHECK(&memo.plan(f.ctx, s0, r, std::vector<int64_t>{8, 4}, {}) == &first);
  // Any argument changed: an answer of its own.
  const auto& otherDims = memo.plan(f.ctx, s0, r, other, {});
  const auto& moreDims = memo.plan(f.ctx, s0, r, longer, {});
  const auto& otherDst = memo.plan(f.ctx, p, r, dims, {});
  const auto& cost = memo.plan(f.ctx, s0, r, dims, {Planner::Cost});
  const auto& wider = memo.plan(f.ctx, s0, r, dims, {Planner::Paddle, 8});
  std::vector<const void*> answers{&first, &otherDims, &moreDims, &otherDst, &cost, &wider};
  for (size_t i = 0; i < answers.size(); ++i)
    for (size_t j = 0; j < i; ++j) CHECK(answers[i] != answers[j]);
  REQUIRE(otherDst.isOk());
  CHECK(otherDst->function == planReshard(f.ctx, p, r, dims, {})->function);
  REQUIRE(cost.isOk());
  CHECK(cost->function == "cost");
  // Asked again in another order, each is found, not made again.
  CHECK(&memo.plan(f.ctx, s0, r, dims, {Planner::Cost}) == &cost);
  CHECK(&memo.plan(f.ctx, s0, r, other, {}) == &otherDims);
  CHECK(&memo.plan(f.ctx, s0, r, dims, {}) == &first);
}
