//===- background_faulter_test.cpp ----------------------------------------===//
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "core/background_faulter.h"

using pir::core::BackgroundFaulter;

TEST_CASE("tables filled while a helper faults them in ahead keep what is written", "[core][faulter]") {
  std::vector<uint64_t> a, b;
  a.reserve(size_t{6} << 20);  // 48 MB
  b.reserve(size_t{3} << 20);  // 24 MB
  BackgroundFaulter faulter;
  faulter.start({{a.data(), a.capacity() * 8}, {b.data(), b.capacity() * 8}}, size_t{4} << 20);
  for (uint64_t i = 0; i < a.capacity(); ++i) {
    a.push_back(i * 7);
    if (i % 2 == 0) b.push_back(i);
    if (i % 4096 == 0) {
      faulter.advance(0, a.size() * 8);
      faulter.advance(1, b.size() * 8);
    }
  }
  faulter.stop();
  for (uint64_t i = 0; i < a.size(); i += 9973) REQUIRE(a[i] == i * 7);
  for (uint64_t i = 0; i < b.size(); i += 9973) REQUIRE(b[i] == 2 * i);
  REQUIRE(b.size() == a.size() / 2);
}

TEST_CASE("a faulter stops at once however little was used, and restarts", "[core][faulter]") {
  std::vector<char> big;
  big.reserve(size_t{64} << 20);
  BackgroundFaulter faulter;
  for (int round = 0; round < 3; ++round) {
    faulter.start({{big.data(), big.capacity()}}, size_t{1} << 20);
    faulter.advance(0, 100);
    faulter.advance(7, 100);  // no such table: ignored
    faulter.stop();
    faulter.stop();  // twice is fine
  }
  SUCCEED("no hang (CTest's timeout) and no crash or race (the sanitizer build)");
}
