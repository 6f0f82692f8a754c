//===- decimal_counter_test.cpp - a count and its decimal text ------------===//
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "core/decimal_counter.h"

using namespace pir::core;

namespace {
std::string spelled(const DecimalCounter& c) { return std::string(c.text(), c.size()); }
}  // namespace

TEST_CASE("a decimal counter spells every number it counts to", "[core][printer]") {
  DecimalCounter c;
  for (uint32_t n = 0; n <= 1000000; ++n, c.next()) {
    REQUIRE(c.value() == n);
    REQUIRE(spelled(c) == std::to_string(n));
  }
  // Counting on from where it was reset, across the carries of the longest numbers and the wrap to 0.
  for (uint32_t from : {9u, 99999u, 999999990u, 1999999999u, 4294967290u}) {
    c.reset(from);
    for (uint32_t n = from, i = 0; i < 12; ++i, ++n, c.next()) {
      REQUIRE(c.value() == n);
      REQUIRE(spelled(c) == std::to_string(n));
    }
  }
}
