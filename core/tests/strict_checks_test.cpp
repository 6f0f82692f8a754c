//===- strict_checks_test.cpp - type names, meshes and placements Paddle refuses ===//
#include <catch2/catch.hpp>

#include "core/context.h"

using namespace pir::core;

namespace {
using K = TypeNameCheck::Kind;
Placement shard(int64_t dim, int64_t splitFactor = 1) {
  return {Placement::Kind::Shard, ReduceType::Sum, dim, splitFactor};
}
Placement partialOf(ReduceType r) { return {Placement::Kind::Partial, r, 0, 1}; }
constexpr Placement kReplicate{};

std::string placementMessage(size_t rank, std::vector<int64_t> dims, std::vector<PartialEntry> partial,
                             std::vector<Placement> placements, size_t* index = nullptr) {
  auto f = placementsFault(rank, dims, partial, placements);
  if (!f) return "";
  if (index) *index = f->index;
  return f->message;
}
}  // namespace

TEST_CASE("type names Paddle registers are known, near ones are typos", "[core][strict]") {
  for (std::string_view n : {"builtin.tensor", "pd_op.tensor", "pd_op.selectedrows", "pd_op.tensor_array",
                             "pd_op.sparsecootensor", "pd_dist.tensor"})
    REQUIRE(checkTypeName(n).kind == K::Registered);
  auto typo = [](std::string_view n) { return checkTypeName(n); };
  REQUIRE(typo("builtin.tenosr").kind == K::Misspelled);  // a swap of neighbours is one edit
  REQUIRE(typo("builtin.tenosr").likely == "builtin.tensor");
  REQUIRE(typo("buitlin.tensor").likely == "builtin.tensor");
  REQUIRE(typo("pd_dist.tensr").likely == "pd_dist.tensor");
  REQUIRE(typo("pd_op.tensorarray").likely == "pd_op.tensor_array");
  REQUIRE(typo("pd_op.selectedrow").likely == "pd_op.selectedrows");
  REQUIRE(typo("pd_op.tnsr").kind == K::Misspelled);  // two deletions
  REQUIRE(typo("pd_op.tnsr").likely == "pd_op.tensor");
  SECTION("three edits away is no typo") {
    REQUIRE(typo("pd_op.tsr").kind == K::Unknown);
    REQUIRE(typo("builtin.tXXXor").kind == K::Unknown);
  }
  SECTION("pd_dist has one type") {
    REQUIRE(typo("pd_dist.dense_tensor_array").kind == K::NotInDialect);
    REQUIRE(typo("pd_dist.dense_tensor_array").likely == "pd_dist.tensor");
  }
  SECTION("other dialects and the bare spellings are of no concern") {
    for (std::string_view n : {"tensor", "gpu_tensor", "undefined_tensor", "cf.stack", "cf.inlet", "f32", "vec",
                               "pd_op.sparse_tensor", "a_very_long_dialect_name.with_a_long_type_name"})
      REQUIRE(checkTypeName(n).kind == K::Unknown);
  }
}

TEST_CASE("meshes Paddle's ProcessMesh refuses", "[core][strict]") {
  auto fault = [](std::vector<int64_t> shape, std::vector<int64_t> ids) { return meshFault(shape, ids); };
  REQUIRE_FALSE(fault({2, 2}, {0, 1, 2, 3}));
  REQUIRE_FALSE(fault({2, 2}, {3, 1, 0, 2}));  // any order, unique
  REQUIRE_FALSE(fault({4}, {}));               // a count mismatch is the verifier's
  SECTION("a dim of size 0 or below, named by its index in the shape") {
    auto f = fault({2, 0}, {0, 1});
    REQUIRE(f);
    REQUIRE(f->inShape);
    REQUIRE(f->index == 1);
    REQUIRE(f->message == "mesh dimension 1 has size 0; a mesh dimension holds at least one process");
    REQUIRE(fault({-3}, {0})->index == 0);
  }
  SECTION("a negative id") {
    auto f = fault({3}, {0, -1, 2});
    REQUIRE(f);
    REQUIRE_FALSE(f->inShape);
    REQUIRE(f->index == 1);
    REQUIRE(f->message == "process id -1 is negative");
  }
  SECTION("a repeated id, at its first repeat") {
    auto f = fault({4}, {3, 1, 1, 3});
    REQUIRE(f);
    REQUIRE(f->index == 2);  // the 1 at 2 repeats before the 3 at 3
    REQUIRE(f->message == "process id 1 appears twice in the mesh; its ids must be unique");
    REQUIRE(fault({2}, {0, 0})->index == 1);
  }
}

TEST_CASE("placements must agree with dims_mapping and partial", "[core][strict]") {
  using R = ReduceType;
  SECTION("the derived placements agree") {
    REQUIRE(placementMessage(2, {0, -1}, {}, {shard(0), kReplicate}).empty());
    REQUIRE(placementMessage(2, {-1, 0}, {{1, R::Avg}}, {shard(1), partialOf(R::Avg)}).empty());
    REQUIRE(placementMessage(1, {-1}, {}, {kReplicate}).empty());
  }
  SECTION("what dims_mapping cannot express stays legal") {
    REQUIRE(placementMessage(2, {0, -1}, {}, {shard(0), shard(0)}).empty());  // co-shard
    REQUIRE(placementMessage(2, {-1, 1}, {}, {kReplicate, shard(1, 3)}).empty());
  }
  SECTION("the count is the mesh's rank") {
    size_t at = 0;
    REQUIRE(placementMessage(2, {0, -1}, {}, {shard(0)}, &at) ==
            "1 placement for a mesh of rank 2; there is one per mesh dim");
    REQUIRE(at == PlacementFault::kWholeList);
  }
  SECTION("a sharded mesh dim needs its Shard") {
    size_t at = 9;
    REQUIRE(placementMessage(2, {0, -1}, {}, {kReplicate, kReplicate}, &at) ==
            "Replicate() on mesh dim 0, but dims_mapping shards tensor dim 0 on it (Shard(dim=0) expected)");
    REQUIRE(at == 0);
    REQUIRE(placementMessage(2, {-1, 0}, {}, {shard(0), kReplicate}, &at) ==
            "Shard(dim=0) on mesh dim 0, but dims_mapping shards tensor dim 1 on it (Shard(dim=1) expected)");
  }
  SECTION("partial mesh dims and Partial placements match") {
    size_t at = 9;
    REQUIRE(placementMessage(2, {0, -1}, {}, {shard(0), partialOf(R::Sum)}, &at) ==
            "Partial(reduce_type=SUM) on mesh dim 1, which is not partial");
    REQUIRE(at == 1);
    REQUIRE(placementMessage(1, {-1}, {{0, R::Max}}, {partialOf(R::Sum)}) ==
            "Partial(reduce_type=SUM) on mesh dim 0, but the mesh dim is partial(0,MAX)");
    REQUIRE(placementMessage(1, {-1}, {{0, R::Max}}, {kReplicate}) ==
            "Replicate() on mesh dim 0, but the mesh dim is partial(0,MAX)");
  }
  SECTION("a Shard of a tensor dim dims_mapping leaves whole") {
    REQUIRE(placementMessage(2, {0, -1}, {}, {shard(0), shard(1)}) ==
            "Shard(dim=1) on mesh dim 1, but dims_mapping does not shard tensor dim 1");
    REQUIRE(placementMessage(2, {0, -1}, {}, {shard(0), shard(2)}) ==
            "Shard(dim=2) on mesh dim 1, but the tensor has 2 dim(s)");
  }
  SECTION("a broken dims_mapping is left to the verifier") {
    REQUIRE(placementMessage(1, {0, 0}, {}, {kReplicate}).empty());
    REQUIRE(placementMessage(1, {3}, {}, {kReplicate}).empty());
    REQUIRE(placementMessage(1, {0}, {{0, R::Sum}}, {kReplicate}).empty());
  }
}

TEST_CASE("placements take part in tensor dist attr equality", "[core][strict]") {
  Context ctx;
  int64_t shape[] = {2, 2};
  int64_t ids[] = {0, 1, 2, 3};
  const ProcessMesh* mesh = ctx.processMesh(shape, ids);
  int64_t dims[] = {0, -1};
  Placement derived[] = {shard(0), kReplicate};
  Placement coShard[] = {shard(0), shard(0)};
  Placement split[] = {shard(0, 2), kReplicate};
  auto with = [&](std::span<const Placement> p, std::span<const PartialEntry> partial = {}) {
    return ctx.tensorDistAttr(mesh, dims, partial, ctx.placementsAttr(p));
  };
  REQUIRE(sameDistAttr(with(derived), with(derived)));
  REQUIRE_FALSE(sameDistAttr(with(derived), with(coShard)));
  REQUIRE_FALSE(sameDistAttr(with(derived), with(split)));
  SECTION("the partial order is still free with placements") {
    int64_t none[] = {-1, -1};
    Placement both[] = {partialOf(ReduceType::Sum), partialOf(ReduceType::Max)};
    PartialEntry p01[] = {{0, ReduceType::Sum}, {1, ReduceType::Max}};
    PartialEntry p10[] = {{1, ReduceType::Max}, {0, ReduceType::Sum}};
    const PlacementsAttr* pl = ctx.placementsAttr(both);
    REQUIRE(sameDistAttr(ctx.tensorDistAttr(mesh, none, p01, pl), ctx.tensorDistAttr(mesh, none, p10, pl)));
    REQUIRE_FALSE(sameDistAttr(ctx.tensorDistAttr(mesh, none, p01, pl), ctx.tensorDistAttr(mesh, none, p10)));
  }
}
