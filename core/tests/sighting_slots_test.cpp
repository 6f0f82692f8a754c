//===- sighting_slots_test.cpp - second-sighting memos' key table ---------===//
//
// core/sighting_slots.h through SignatureMemo (core/op_signature.h), whose
// keys are spans of pointers: kept from the second sighting, kept values
// surviving the forgetting of one-off keys, everything dropped (and nothing
// stale returned) once kept values fill the table.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "core/op_signature.h"

using pir::core::SignatureMemo;
using Found = pir::core::SightingSlots::Found;

namespace {

struct Key {
  std::vector<const void*> words;
  uint64_t hash;
};

/// A key of `n` words that differs from every other `id`'s.
Key keyOf(uintptr_t id, size_t n = 3) {
  Key k;
  for (size_t i = 0; i < n; ++i) k.words.push_back(reinterpret_cast<const void*>(id * 16 + i));
  k.hash = (id + 1) * 0x9e3779b97f4a7c15ull;
  k.hash ^= k.hash >> 31;
  return k;
}

Found lookup(SignatureMemo<int>& memo, const Key& k, int*& v) { return memo.find(k.words, k.hash, v); }

}  // namespace

TEST_CASE("a signature's value is kept from its second sighting", "[core]") {
  SignatureMemo<int> memo;
  Key a = keyOf(1), b = keyOf(2);
  int* v = nullptr;
  REQUIRE(lookup(memo, a, v) == Found::Miss);
  REQUIRE(lookup(memo, a, v) == Found::Admit);
  memo.keep(a.words, a.hash, 7);
  REQUIRE(lookup(memo, a, v) == Found::Hit);
  REQUIRE(*v == 7);
  REQUIRE(lookup(memo, b, v) == Found::Miss);
  // The same hash, another key: not the kept one's value.
  Key c = keyOf(3);
  c.hash = a.hash;
  REQUIRE(lookup(memo, c, v) == Found::Miss);
  REQUIRE(lookup(memo, c, v) == Found::Admit);
  memo.keep(c.words, c.hash, 9);
  REQUIRE(lookup(memo, a, v) == Found::Hit);
  REQUIRE(*v == 7);
  REQUIRE(lookup(memo, c, v) == Found::Hit);
  REQUIRE(*v == 9);
}

TEST_CASE("one-off signatures are forgotten as the table fills; kept ones stay", "[core]") {
  SignatureMemo<int> memo;
  int* v = nullptr;
  std::vector<Key> kept;
  for (uintptr_t id = 0; id < 100; ++id) {
    Key k = keyOf(id, 1 + id % 5);
    lookup(memo, k, v);
    REQUIRE(lookup(memo, k, v) == Found::Admit);
    memo.keep(k.words, k.hash, static_cast<int>(id));
    kept.push_back(k);
  }
  for (uintptr_t id = 1000; id < 400000; ++id) REQUIRE(lookup(memo, keyOf(id), v) == Found::Miss);
  Key late = keyOf(7777777);
  lookup(memo, late, v);
  REQUIRE(lookup(memo, late, v) == Found::Admit);  // still noted, late in a long stream
  for (size_t i = 0; i < kept.size(); ++i) {
    REQUIRE(lookup(memo, kept[i], v) == Found::Hit);
    REQUIRE(*v == static_cast<int>(i));
  }
}

TEST_CASE("once kept signatures fill half the table it starts over, returning nothing stale", "[core]") {
  SignatureMemo<int> memo;
  int* v = nullptr;
  for (uintptr_t id = 0; id < 200000; ++id) {
    Key k = keyOf(id);
    if (lookup(memo, k, v) == Found::Hit) {
      REQUIRE(*v == static_cast<int>(id));
      continue;
    }
    if (lookup(memo, k, v) == Found::Admit) memo.keep(k.words, k.hash, static_cast<int>(id));
  }
  // Every key whose value is still there has its own; some were dropped.
  size_t hits = 0;
  for (uintptr_t id = 0; id < 200000; ++id) {
    Found f = lookup(memo, keyOf(id), v);
    if (f != Found::Hit) continue;
    REQUIRE(*v == static_cast<int>(id));
    ++hits;
  }
  REQUIRE(hits > 0);
  REQUIRE(hits < 200000);
}
