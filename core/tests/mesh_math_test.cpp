//===- mesh_math_test.cpp - coordinates, sub-meshes, pieces, statuses -----===//
#include <catch2/catch.hpp>

#include "core/context.h"
#include "core/mesh_math.h"

using namespace pir::core;

namespace {

using Ints = std::vector<int64_t>;
using Coord = std::optional<Ints>;

const ProcessMesh* mesh(Context& ctx, Ints shape, Ints ids, std::vector<std::string_view> names = {}) {
  return ctx.processMesh(shape, ids, names);
}

Placement shard(int64_t axis) { return {Placement::Kind::Shard, ReduceType::Sum, axis, 1}; }
Placement partial(ReduceType r) { return {Placement::Kind::Partial, r, 0, 1}; }

}  // namespace

TEST_CASE("mesh coordinates are row-major by position in process_ids", "[core][mesh]") {
  Context ctx;
  SECTION("[2,3] over 0..5") {
    const ProcessMesh* m = mesh(ctx, {2, 3}, {0, 1, 2, 3, 4, 5});
    const Ints want[] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
    for (int64_t r = 0; r < 6; ++r) REQUIRE(meshCoordinate(*m, r) == Coord(want[r]));
    REQUIRE(meshCoordinate(*m, 6) == std::nullopt);
    REQUIRE(meshCoordinate(*m, -1) == std::nullopt);
    REQUIRE(meshIndexOf(*m, 4) == std::optional<size_t>(4));
  }
  SECTION("[2,2] over the non-contiguous [2,3,6,7]") {
    const ProcessMesh* m = mesh(ctx, {2, 2}, {2, 3, 6, 7});
    REQUIRE(meshCoordinate(*m, 2) == Coord(Ints{0, 0}));
    REQUIRE(meshCoordinate(*m, 3) == Coord(Ints{0, 1}));
    REQUIRE(meshCoordinate(*m, 6) == Coord(Ints{1, 0}));
    REQUIRE(meshCoordinate(*m, 7) == Coord(Ints{1, 1}));
    for (int64_t r : {0, 1, 4, 5, 8}) REQUIRE(meshCoordinate(*m, r) == std::nullopt);
    REQUIRE(meshIndexOf(*m, 6) == std::optional<size_t>(2));
  }
  SECTION("order in process_ids, not the rank's value, decides") {
    const ProcessMesh* m = mesh(ctx, {2, 2}, {3, 2, 1, 0});
    REQUIRE(meshCoordinate(*m, 0) == Coord(Ints{1, 1}));
    REQUIRE(meshCoordinate(*m, 2) == Coord(Ints{0, 1}));
  }
  SECTION("1-D [4,5,6,7]") {
    const ProcessMesh* m = mesh(ctx, {4}, {4, 5, 6, 7});
    REQUIRE(meshCoordinate(*m, 4) == Coord(Ints{0}));
    REQUIRE(meshCoordinate(*m, 7) == Coord(Ints{3}));
    REQUIRE(meshCoordinate(*m, 0) == std::nullopt);
  }
  SECTION("3-D [2,3,2] over 0..11") {
    const ProcessMesh* m = mesh(ctx, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    REQUIRE(meshCoordinate(*m, 9) == Coord(Ints{1, 1, 1}));
    REQUIRE(meshCoordinate(*m, 4) == Coord(Ints{0, 2, 0}));
  }
  SECTION("a malformed mesh holds nobody") {
    const ProcessMesh* m = mesh(ctx, {2, 2}, {0, 1, 2});
    REQUIRE(meshCoordinate(*m, 0) == std::nullopt);
    REQUIRE(subMeshRanks(*m, 0, 0).empty());
    REQUIRE(meshCoordinate(*mesh(ctx, {0}, {}), 0) == std::nullopt);
  }
}

TEST_CASE("1-D sub-meshes follow get_1D_sub_process_mesh", "[core][mesh]") {
  Context ctx;
  SECTION("[2,3] over 0..5, Paddle's docstring table") {
    const ProcessMesh* m = mesh(ctx, {2, 3}, {0, 1, 2, 3, 4, 5});
    const Ints along0[] = {{0, 3}, {1, 4}, {2, 5}, {0, 3}, {1, 4}, {2, 5}};
    const Ints along1[] = {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {3, 4, 5}, {3, 4, 5}, {3, 4, 5}};
    for (int64_t r = 0; r < 6; ++r) {
      REQUIRE(subMeshRanks(*m, 0, r) == along0[r]);
      REQUIRE(subMeshRanks(*m, 1, r) == along1[r]);
    }
    REQUIRE(subMeshRanks(*m, 2, 0).empty());
  }
  SECTION("[2,2] over [2,3,6,7]; a non-member goes through process_ids[0]") {
    const ProcessMesh* m = mesh(ctx, {2, 2}, {2, 3, 6, 7});
    REQUIRE(subMeshRanks(*m, 0, 2) == Ints{2, 6});
    REQUIRE(subMeshRanks(*m, 0, 7) == Ints{3, 7});
    REQUIRE(subMeshRanks(*m, 1, 6) == Ints{6, 7});
    REQUIRE(subMeshRanks(*m, 1, 3) == Ints{2, 3});
    REQUIRE(subMeshRanks(*m, 0, 0) == Ints{2, 6});
    REQUIRE(subMeshRanks(*m, 1, 5) == Ints{2, 3});
  }
  SECTION("3-D [2,3,2] over 0..11 along each dim") {
    const ProcessMesh* m = mesh(ctx, {2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    REQUIRE(subMeshRanks(*m, 0, 9) == Ints{3, 9});
    REQUIRE(subMeshRanks(*m, 1, 9) == Ints{7, 9, 11});
    REQUIRE(subMeshRanks(*m, 2, 9) == Ints{8, 9});
    REQUIRE(subMeshRanks(*m, 0, 4) == Ints{4, 10});
    REQUIRE(subMeshRanks(*m, 1, 4) == Ints{0, 2, 4});
    REQUIRE(subMeshRanks(*m, 2, 4) == Ints{4, 5});
  }
  SECTION("1-D [4,5,6,7]: the whole mesh") {
    const ProcessMesh* m = mesh(ctx, {4}, {4, 5, 6, 7});
    REQUIRE(subMeshRanks(*m, 0, 6) == Ints{4, 5, 6, 7});
    REQUIRE(subMesh1D(ctx, *m, 0, 6) == m);
  }
  SECTION("interned 1-D meshes keep the dim's name when the mesh has names") {
    const ProcessMesh* named = mesh(ctx, {2, 3}, {0, 1, 2, 3, 4, 5}, {"x", "y"});
    const ProcessMesh* sub = subMesh1D(ctx, *named, 1, 4);
    REQUIRE(sub == mesh(ctx, {3}, {3, 4, 5}, {"y"}));
    REQUIRE(sub->dimNames().size() == 1);
    REQUIRE(sub->dimNames()[0] == "y");
    REQUIRE(subMesh1D(ctx, *named, 0, 4) == mesh(ctx, {2}, {1, 4}, {"x"}));
    const ProcessMesh* plain = mesh(ctx, {2, 3}, {0, 1, 2, 3, 4, 5});
    REQUIRE(subMesh1D(ctx, *plain, 0, 5) == mesh(ctx, {2}, {2, 5}));
    REQUIRE(subMesh1D(ctx, *plain, 2, 5) == nullptr);
  }
}

TEST_CASE("shard pieces run from min(r*c, D) to min((r+1)*c, D) with c = ceil(D/n)", "[core][mesh]") {
  using P = std::vector<ShardPiece>;
  REQUIRE(shardPieces(9, 2) == P{{0, 5}, {5, 9}});
  REQUIRE(shardPieces(5, 4) == P{{0, 2}, {2, 4}, {4, 5}, {5, 5}});
  REQUIRE(shardPieces(8, 4) == P{{0, 2}, {2, 4}, {4, 6}, {6, 8}});
  REQUIRE(shardPieces(10, 4) == P{{0, 3}, {3, 6}, {6, 9}, {9, 10}});
  REQUIRE(shardPieces(1, 3) == P{{0, 1}, {1, 1}, {1, 1}});
  REQUIRE(shardPieces(0, 2) == P{{0, 0}, {0, 0}});
  REQUIRE(shardPieces(7, 1) == P{{0, 7}});
  REQUIRE(shardPiece(5, 4, 3).size() == 0);
  REQUIRE(shardPiece(9, 2, 1).size() == 4);
  // Near int64's limit (r+1)*c would overflow: the piece still ends at D.
  constexpr int64_t kMax = INT64_MAX;
  REQUIRE(shardPiece(kMax, 2, 1).end == kMax);
  REQUIRE(shardPiece(kMax, 2, 1).begin == kMax / 2 + 1);
  REQUIRE(shardPiece(kMax, 2, 0).end == kMax / 2 + 1);
  REQUIRE(shardPiece(-1, 2, 0) == ShardPiece{-1, -1});
  REQUIRE(shardPiece(5, 4, 4) == ShardPiece{5, 5});
  REQUIRE(shardPiece(5, 0, 0) == ShardPiece{0, 5});
}

TEST_CASE("local shapes take each rank's own piece", "[core][mesh]") {
  Context ctx;
  const ProcessMesh* m23 = mesh(ctx, {2, 3}, {0, 1, 2, 3, 4, 5});
  Ints global = {9, 5, 7};
  SECTION("2-D mesh, dims_mapping [0,1,-1]") {
    const TensorDistAttr* d = ctx.tensorDistAttr(m23, Ints{0, 1, -1});
    REQUIRE(localShape(global, *d, 0) == Coord(Ints{5, 2, 7}));
    REQUIRE(localShape(global, *d, 2) == Coord(Ints{5, 1, 7}));
    REQUIRE(localShape(global, *d, 4) == Coord(Ints{4, 2, 7}));
    REQUIRE(localShape(global, *d, 5) == Coord(Ints{4, 1, 7}));
    REQUIRE(localShape(global, *d, 6) == std::nullopt);
    REQUIRE(uniformLocalShape(global, *d) == Coord(Ints{5, 2, 7}));
  }
  SECTION("2-D mesh, dims_mapping [-1,0,1]") {
    const TensorDistAttr* d = ctx.tensorDistAttr(m23, Ints{-1, 0, 1});
    REQUIRE(localShape(global, *d, 5) == Coord(Ints{9, 2, 1}));
    REQUIRE(localShape(global, *d, 0) == Coord(Ints{9, 3, 3}));
    REQUIRE(uniformLocalShape(global, *d) == Coord(Ints{9, 3, 3}));
  }
  SECTION("dynamic dims stay -1") {
    const TensorDistAttr* d = ctx.tensorDistAttr(m23, Ints{0, 1});
    REQUIRE(localShape(Ints{-1, 8}, *d, 4) == Coord(Ints{-1, 3}));
    REQUIRE(localShape(Ints{-1, 8}, *d, 5) == Coord(Ints{-1, 2}));
    REQUIRE(uniformLocalShape(Ints{-1, 8}, *d) == Coord(Ints{-1, 3}));
  }
  SECTION("replicated and partial dims keep D") {
    PartialEntry p[] = {{0, ReduceType::Sum}};
    const TensorDistAttr* d = ctx.tensorDistAttr(m23, Ints{-1, -1, 1}, p);
    REQUIRE(localShape(global, *d, 3) == Coord(Ints{9, 5, 3}));
    REQUIRE(localShape(global, *ctx.tensorDistAttr(m23, Ints{-1, -1, -1}), 1) == Coord(global));
  }
  SECTION("1-D [4,5,6,7]: 5 on 4") {
    const TensorDistAttr* d = ctx.tensorDistAttr(mesh(ctx, {4}, {4, 5, 6, 7}), Ints{0, -1});
    REQUIRE(localShape(Ints{5, 3}, *d, 4) == Coord(Ints{2, 3}));
    REQUIRE(localShape(Ints{5, 3}, *d, 5) == Coord(Ints{2, 3}));
    REQUIRE(localShape(Ints{5, 3}, *d, 6) == Coord(Ints{1, 3}));
    REQUIRE(localShape(Ints{5, 3}, *d, 7) == Coord(Ints{0, 3}));
    REQUIRE(localShape(Ints{5, 3}, *d, 0) == std::nullopt);
  }
  SECTION("9 on 2 over [2,3,6,7] along mesh dim 1") {
    const TensorDistAttr* d = ctx.tensorDistAttr(mesh(ctx, {2, 2}, {2, 3, 6, 7}), Ints{1});
    REQUIRE(localShape(Ints{9}, *d, 6) == Coord(Ints{5}));
    REQUIRE(localShape(Ints{9}, *d, 7) == Coord(Ints{4}));
    REQUIRE(localShape(Ints{9}, *d, 3) == Coord(Ints{4}));
  }
  SECTION("a dims_mapping that does not fit gives nothing") {
    const TensorDistAttr* d = ctx.tensorDistAttr(m23, Ints{0, 1});
    REQUIRE(localShape(global, *d, 0) == std::nullopt);
    REQUIRE(uniformLocalShape(global, *d) == std::nullopt);
    REQUIRE(localShape(Ints{4}, *ctx.tensorDistAttr(m23, Ints{2}), 0) == std::nullopt);
  }
}

TEST_CASE("per-mesh-dim statuses are Paddle's placements view", "[core][mesh]") {
  Context ctx;
  const ProcessMesh* m23 = mesh(ctx, {2, 3}, {0, 1, 2, 3, 4, 5});
  const ProcessMesh* m222 = mesh(ctx, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  using Ps = std::vector<Placement>;
  REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m23, Ints{1, -1, 0})) == Ps{shard(2), shard(0)});
  REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m23, Ints{-1, -1})) == Ps{Placement{}, Placement{}});
  PartialEntry max0[] = {{0, ReduceType::Max}};
  REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m222, Ints{-1, 2}, max0)) ==
          Ps{partial(ReduceType::Max), Placement{}, shard(1)});
  PartialEntry two[] = {{2, ReduceType::Avg}, {1, ReduceType::Sum}};
  REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m222, Ints{0}, two)) ==
          Ps{shard(0), partial(ReduceType::Sum), partial(ReduceType::Avg)});
  SECTION("input the verifier rejects has a defined answer") {
    PartialEntry sum0[] = {{0, ReduceType::Sum}};
    REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m23, Ints{0, -1}, sum0)) == Ps{partial(ReduceType::Sum), Placement{}});
    REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m23, Ints{1, 1})) == Ps{Placement{}, shard(1)});
    REQUIRE(meshDimStatuses(*ctx.tensorDistAttr(m23, Ints{5, 0})) == Ps{shard(1), Placement{}});
  }
}
