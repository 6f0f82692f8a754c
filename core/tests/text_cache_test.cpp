//===- text_cache_test.cpp ------------------------------------------------===//
#include <catch2/catch.hpp>

#include "core/text_cache.h"

using pir::core::TextCache;

TEST_CASE("text is kept from a key's second sighting", "[core][printer]") {
  TextCache cache(1024);
  int a = 0, b = 0;
  std::string_view text;
  bool keep = true;
  REQUIRE_FALSE(cache.lookup(&a, text, keep));
  REQUIRE_FALSE(keep);  // first sighting: not worth a copy yet
  REQUIRE_FALSE(cache.lookup(&a, text, keep));
  REQUIRE(keep);
  cache.keep(&a, "alpha");
  REQUIRE(cache.lookup(&a, text, keep));
  REQUIRE(text == "alpha");
  REQUIRE_FALSE(cache.lookup(&b, text, keep));
}

TEST_CASE("past its capacity the cache keeps nothing more, and kept text stays valid", "[core][printer]") {
  TextCache cache(64);
  std::vector<int> keys(2000);
  std::string_view text;
  bool keep = false;
  for (int& k : keys) cache.lookup(&k, text, keep);  // grows the table many times
  size_t kept = 0;
  for (size_t i = 0; i < 100; ++i) {
    REQUIRE_FALSE(cache.lookup(&keys[i], text, keep));
    if (keep) cache.keep(&keys[i], std::to_string(1000000000 + i));  // 10 bytes each
    if (cache.lookup(&keys[i], text, keep)) ++kept;
  }
  REQUIRE(kept >= 1);
  REQUIRE(kept < 100);
  for (size_t i = 0; i < kept; ++i) {
    REQUIRE(cache.lookup(&keys[i], text, keep));
    REQUIRE(text == std::to_string(1000000000 + i));
  }
}

TEST_CASE("keys seen only once are forgotten when the table fills, so late keys are still kept", "[core][printer]") {
  TextCache cache(1 << 20);
  std::vector<int> early(2), oneOff(300000), late(2);
  std::string_view text;
  bool keep = false;
  for (int& k : early) {
    cache.lookup(&k, text, keep);
    cache.lookup(&k, text, keep);
    REQUIRE(keep);
    cache.keep(&k, "early");
  }
  for (int& k : oneOff) REQUIRE_FALSE(cache.lookup(&k, text, keep));
  for (int& k : late) {
    REQUIRE_FALSE(cache.lookup(&k, text, keep));
    REQUIRE_FALSE(cache.lookup(&k, text, keep));
    REQUIRE(keep);
    cache.keep(&k, "late");
    REQUIRE(cache.lookup(&k, text, keep));
    REQUIRE(text == "late");
  }
  for (int& k : early) {
    REQUIRE(cache.lookup(&k, text, keep));  // kept texts survive forgetting
    REQUIRE(text == "early");
  }
}

TEST_CASE("a key forgotten between lookup and keep is added back by keep", "[core][printer]") {
  TextCache cache(1 << 20);
  std::vector<int> keys(300000);
  std::string_view text;
  bool keep = false;
  int outer = 0;
  cache.lookup(&outer, text, keep);
  REQUIRE_FALSE(cache.lookup(&outer, text, keep));
  REQUIRE(keep);
  for (int& k : keys) cache.lookup(&k, text, keep);  // as if printing its text looked up many more
  cache.keep(&outer, "outer");
  REQUIRE(cache.lookup(&outer, text, keep));
  REQUIRE(text == "outer");
}
