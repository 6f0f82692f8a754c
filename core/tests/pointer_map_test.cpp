//===- pointer_map_test.cpp - PointerMap against std::unordered_map --------===//
#include "core/pointer_map.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

using pir::core::PointerMap;

namespace {

const void* address(uintptr_t n) { return reinterpret_cast<const void*>(n); }

}  // namespace

TEST_CASE("PointerMap finds what was put, as std::unordered_map does, across growth", "[core][pointer_map]") {
  std::mt19937_64 random(3);
  PointerMap<uint64_t> map;
  std::unordered_map<const void*, uint64_t> reference;
  // Keys as addresses come: 8- and 16-byte aligned, runs of neighbours, and
  // strides of large powers of two (which a hash of the low bits would pile
  // into one slot).
  std::vector<const void*> keys;
  for (uintptr_t i = 1; i <= 3000; ++i) keys.push_back(address(0x7f0000000000 + i * 16));
  for (uintptr_t i = 1; i <= 3000; ++i) keys.push_back(address(i << 21));
  for (int i = 0; i < 3000; ++i) keys.push_back(address((random() | 1) & 0x7ffffffffff8));
  for (int step = 0; step < 40000; ++step) {
    const void* key = keys[random() % keys.size()];
    if (random() % 3) {
      auto [value, fresh] = map.tryEmplace(key);
      CHECK(fresh == !reference.count(key));
      if (fresh) CHECK(*value == 0);  // default-made
      *value = random();
      reference[key] = *value;
    } else {
      uint64_t* found = map.find(key);
      auto it = reference.find(key);
      REQUIRE((found != nullptr) == (it != reference.end()));
      if (found) CHECK(*found == it->second);
    }
  }
  CHECK(map.size() == reference.size());
  for (const auto& [key, value] : reference) {
    REQUIRE(map.find(key));
    CHECK(*map.find(key) == value);
  }
  map.clear();
  CHECK(map.size() == 0);
  CHECK(map.find(keys.front()) == nullptr);
  map[keys.front()] = 7;
  CHECK(*map.find(keys.front()) == 7);
}
