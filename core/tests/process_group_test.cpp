//===- process_group_test.cpp - ring ids as new_process_group gives them --===//
#include <catch2/catch.hpp>

#include "core/process_group.h"

using namespace pir::core;

namespace {
using Ints = std::vector<int64_t>;
Ints ranks(std::span<const int64_t> s) { return Ints(s.begin(), s.end()); }
}  // namespace

TEST_CASE("process groups: ids, reuse by ordered rank list", "[core][group]") {
  ProcessGroupTable t;
  REQUIRE(t.baseRingId() == 10);
  REQUIRE(t.getOrCreate(Ints{0, 1}).ringId == 12);
  REQUIRE(t.getOrCreate(Ints{2, 3}).ringId == 13);
  SECTION("the same list is the same ring") {
    const ProcessGroup& again = t.getOrCreate(Ints{0, 1});
    REQUIRE(again.ringId == 12);
    REQUIRE(&again == &t.groups()[0]);
    REQUIRE(t.size() == 2);
  }
  SECTION("order matters: the reversed list is a new ring") {
    REQUIRE(t.getOrCreate(Ints{1, 0}).ringId == 14);
    REQUIRE(t.getOrCreate(Ints{0, 1, 2, 3}).ringId == 15);
    REQUIRE(t.getOrCreate(Ints{1, 0}).ringId == 14);
    REQUIRE(t.size() == 4);
    Ints ids;
    for (const ProcessGroup& g : t.groups()) ids.push_back(g.ringId);
    REQUIRE(ids == Ints{12, 13, 14, 15});
    REQUIRE(ranks(t.ranksOf(14)) == Ints{1, 0});
    REQUIRE(ranks(t.ranksOf(15)) == Ints{0, 1, 2, 3});
  }
  SECTION("lookups by id") {
    REQUIRE(t.find(13) != nullptr);
    REQUIRE(ranks(t.find(13)->ranks) == Ints{2, 3});
    REQUIRE(t.find(11) == nullptr);
    REQUIRE(t.find(14) == nullptr);
    REQUIRE(t.ranksOf(99).empty());
  }
  SECTION("positions inside a group are send/recv peers") {
    t.getOrCreate(Ints{3, 1});  // 14
    REQUIRE(t.localRank(14, 3) == std::optional<int64_t>(0));
    REQUIRE(t.localRank(14, 1) == std::optional<int64_t>(1));
    REQUIRE(t.localRank(14, 0) == std::nullopt);
    REQUIRE(t.localRank(99, 1) == std::nullopt);
    REQUIRE(t.find(13)->localRank(3) == std::optional<int64_t>(1));
  }
}

TEST_CASE("process groups: group 0 is the world and never matched", "[core][group]") {
  ProcessGroupTable t;
  REQUIRE(ranks(t.ranksOf(0)).empty());
  SECTION("an empty list does not find the (empty) world group") { REQUIRE(t.getOrCreate(Ints{}).ringId == 12); }
  SECTION("a list equal to the world's ranks is a new ring") {
    REQUIRE(t.getOrCreate(Ints{1, 0}).ringId == 12);
    REQUIRE(t.getOrCreate(Ints{0, 1}).ringId == 13);
    t.getOrCreate(Ints{5, 2});
    REQUIRE(t.size() == 3);
    REQUIRE(t.find(0) == nullptr);  // the world is the ring table's (RingTable::addWorld)
  }
}

TEST_CASE("ring table: ring 0 is every rank of the world unless listed; a ring is one list of ranks", "[core][group]") {
  RingTable t;
  REQUIRE(t.add(12, {2, 0, 1}).isOk());
  REQUIRE(t.add(12, {2, 0, 1}).isOk());  // the same again
  CHECK(t.add(12, {0, 1, 2}).message() == "ring 12 is given as [0, 1, 2] and as [2, 0, 1]");
  CHECK_FALSE(t.add(13, {1, 1}).isOk());
  CHECK_FALSE(t.add(14, {}).isOk());
  t.addWorld(3);
  REQUIRE(t.find(0));
  CHECK(t.find(0)->ranks == Ints{0, 1, 2});
  CHECK(t.rings().front().ringId == 0);  // ascending by id
  RingTable listed{{0, {1, 0}}};
  listed.addWorld(4);
  CHECK(listed.find(0)->ranks == Ints{1, 0});
}

TEST_CASE("process groups: the base ring id is a parameter", "[core][group]") {
  ProcessGroupTable t(0);
  REQUIRE(t.getOrCreate(Ints{0, 1}).ringId == 2);
  REQUIRE(t.getOrCreate(Ints{1, 2}).ringId == 3);
  REQUIRE(ranks(t.ranksOf(3)) == Ints{1, 2});
  REQUIRE(t.find(1) == nullptr);
}
