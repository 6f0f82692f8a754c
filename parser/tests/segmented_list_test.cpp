//===- segmented_list_test.cpp --------------------------------------------===//
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>

#include "parser/segmented_list.h"

using pir::parser::SegmentedList;

namespace {
struct Item {
  uint64_t a;
  uint32_t b;
};

/// Whether `list` holds Item{i, i * 3} for i in [0, n), in order.
bool holdsCount(const SegmentedList<Item>& list, uint64_t n) {
  uint64_t i = 0;
  for (const auto& segment : list.segments())
    for (const Item& item : segment) {
      if (item.a != i || item.b != static_cast<uint32_t>(i * 3)) return false;
      ++i;
    }
  return i == n && list.size() == n;
}
}  // namespace

TEST_CASE("a segmented list keeps its items in order across a small first segment and huge-page ones",
          "[parser][segmented_list]") {
  SegmentedList<Item> list;
  CHECK(list.empty());
  CHECK(list.segments().empty());
  const uint64_t n = 1024 + 2 * SegmentedList<Item>::kMappedSegment + 7;
  const Item* first = nullptr;
  for (uint64_t i = 0; i < n; ++i) {
    list.push_back(Item{i, static_cast<uint32_t>(i * 3)});
    if (i == 0) first = &*list.segments()[0].begin();
  }
  CHECK(holdsCount(list, n));
  REQUIRE(list.segments().size() == 4);
  CHECK(list.segments()[0].size() == 1024);
  CHECK(list.segments()[1].size() == SegmentedList<Item>::kMappedSegment);
  CHECK(list.segments()[2].size() == SegmentedList<Item>::kMappedSegment);
  CHECK(list.segments()[3].size() == 7);
  // Items never move, and the mapped segments start on a huge page.
  CHECK(&*list.segments()[0].begin() == first);
  for (size_t s = 1; s < list.segments().size(); ++s)
    CHECK(reinterpret_cast<uintptr_t>(&*list.segments()[s].begin()) % pir::core::kHugePage == 0);
}

TEST_CASE("a segmented list moves its segments and frees what it held when assigned over", "[parser][segmented_list]") {
  const uint64_t n = 1024 + SegmentedList<Item>::kMappedSegment + 1;
  SegmentedList<Item> a;
  for (uint64_t i = 0; i < n; ++i) a.push_back(Item{i, static_cast<uint32_t>(i * 3)});
  SegmentedList<Item> b(std::move(a));
  CHECK(a.empty());
  CHECK(a.segments().empty());
  CHECK(holdsCount(b, n));

  SegmentedList<Item> c;
  for (uint64_t i = 0; i < 5; ++i) c.push_back(Item{i, static_cast<uint32_t>(i * 3)});
  c = std::move(b);  // c's own segment is freed (ASan reports it if not)
  CHECK(holdsCount(c, n));
  CHECK(b.empty());
  // A list moved from takes items again.
  b.push_back(Item{0, 0});
  CHECK(holdsCount(b, 1));
}
