//===- dist_attr_test.cpp - equality rules of distributed attributes -----===//
#include <catch2/catch.hpp>

#include "core/context.h"

using namespace pir::core;

TEST_CASE("meshes compare shape, ids in order and dim names", "[core][dist]") {
  Context ctx;
  int64_t shape[] = {2};
  int64_t ids01[] = {0, 1}, ids10[] = {1, 0};
  std::string_view x[] = {"x"};
  REQUIRE(ctx.processMesh(shape, ids01) == ctx.processMesh(shape, ids01));
  REQUIRE(ctx.processMesh(shape, ids01) != ctx.processMesh(shape, ids10));
  REQUIRE(ctx.processMesh(shape, ids01) != ctx.processMesh(shape, ids01, x));
}

TEST_CASE("tensor dist attrs: partial is a set, placements count", "[core][dist]") {
  Context ctx;
  int64_t shape[] = {2, 2};
  int64_t ids[] = {0, 1, 2, 3};
  const ProcessMesh* mesh = ctx.processMesh(shape, ids);
  int64_t dims[] = {-1, -1};
  PartialEntry p01[] = {{0, ReduceType::Sum}, {1, ReduceType::Max}};
  PartialEntry p10[] = {{1, ReduceType::Max}, {0, ReduceType::Sum}};
  PartialEntry p01avg[] = {{0, ReduceType::Sum}, {1, ReduceType::Avg}};
  const TensorDistAttr* a = ctx.tensorDistAttr(mesh, dims, p01);
  const TensorDistAttr* b = ctx.tensorDistAttr(mesh, dims, p10);

  SECTION("the read order is kept for printing but not for equality") {
    REQUIRE(a != b);
    REQUIRE(b->partial()[0].meshDim == 1);
    REQUIRE(sameDistAttr(a, b));
    REQUIRE(a->canonical() == b->canonical());
  }
  SECTION("reduce types are part of the identity") {
    REQUIRE_FALSE(sameDistAttr(a, ctx.tensorDistAttr(mesh, dims, p01avg)));
  }
  SECTION("partial keys are part of the identity") {
    PartialEntry only0[] = {{0, ReduceType::Sum}};
    REQUIRE_FALSE(sameDistAttr(a, ctx.tensorDistAttr(mesh, dims, only0)));
  }
  SECTION("absent placements differ from the derived ones, as in Paddle's storage") {
    int64_t shard0[] = {0, -1};
    const TensorDistAttr* plain = ctx.tensorDistAttr(mesh, shard0);
    Placement derived[] = {{Placement::Kind::Shard, ReduceType::Sum, 0, 1}, {}};
    const TensorDistAttr* withPlacements = ctx.tensorDistAttr(mesh, shard0, {}, ctx.placementsAttr(derived));
    REQUIRE_FALSE(sameDistAttr(plain, withPlacements));
    REQUIRE(sameDistAttr(withPlacements, ctx.tensorDistAttr(mesh, shard0, {}, ctx.placementsAttr(derived))));
  }
  SECTION("dims_mapping and mesh are part of the identity") {
    int64_t other[] = {-1, 0};
    REQUIRE_FALSE(sameDistAttr(ctx.tensorDistAttr(mesh, dims), ctx.tensorDistAttr(mesh, other)));
    int64_t ids2[] = {4, 5, 6, 7};
    REQUIRE_FALSE(sameDistAttr(ctx.tensorDistAttr(mesh, dims), ctx.tensorDistAttr(ctx.processMesh(shape, ids2), dims)));
  }
}

TEST_CASE("shard, partial and replicated helpers follow Paddle's", "[core][dist]") {
  Context ctx;
  int64_t shape[] = {2};
  int64_t ids[] = {0, 1};
  const ProcessMesh* mesh = ctx.processMesh(shape, ids);
  int64_t rep[] = {-1, -1}, shard[] = {-1, 0};
  PartialEntry p[] = {{0, ReduceType::Sum}};
  REQUIRE(ctx.tensorDistAttr(mesh, rep)->isReplicated());
  REQUIRE(ctx.tensorDistAttr(mesh, {})->isReplicated());
  REQUIRE(ctx.tensorDistAttr(mesh, shard)->isShard());
  REQUIRE(ctx.tensorDistAttr(mesh, rep, p)->isPartial());
  REQUIRE_FALSE(ctx.tensorDistAttr(mesh, rep, p)->isReplicated());
}

TEST_CASE("op dist attrs compare operands, results and chunk id", "[core][dist]") {
  Context ctx;
  int64_t shape[] = {2};
  int64_t ids[] = {0, 1};
  const ProcessMesh* mesh = ctx.processMesh(shape, ids);
  int64_t rep[] = {-1};
  const Attribute* operands[] = {ctx.tensorDistAttr(mesh, rep), ctx.nullAttr()};
  const Attribute* results[] = {ctx.tensorDistAttr(mesh, rep)};
  const OpDistAttr* a = ctx.opDistAttr(mesh, operands, results, 0, true);
  REQUIRE(a == ctx.opDistAttr(mesh, operands, results, 0, true));
  REQUIRE(a != ctx.opDistAttr(mesh, operands, results, 1, true));
  REQUIRE(a->operandDist(0) == ctx.tensorDistAttr(mesh, rep));
  REQUIRE(a->operandDist(1) == nullptr);
  REQUIRE(a->operandDist(7) == nullptr);
}
