//===- xxh64_test.cpp - XXH64 against Debian's libxxhash --------------------===//
#include "core/xxh64.h"

#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>

using pir::core::xxh64;

TEST_CASE("XXH64 gives the published vectors", "[core][xxh64]") {
  CHECK(xxh64("") == 0xef46db3751d8e999ull);
  CHECK(xxh64("a") == 0xd24ec4f1a98c6e5bull);
  CHECK(xxh64("abc") == 0x44bc2cf5ad770999ull);
}

// The reference is the library apt itself links (libapt-pkg6.0 depends on
// libxxhash0), so every Debian 12 machine that installs our packages has it.
TEST_CASE("XXH64 agrees with libxxhash.so.0 on every length up to 300 and a large input", "[core][xxh64]") {
  void* lib = dlopen("libxxhash.so.0", RTLD_NOW | RTLD_LOCAL);
  INFO("libxxhash.so.0 (Debian's libxxhash0): " << (lib ? "found" : dlerror()));
  REQUIRE(lib);
  using Xxh64 = unsigned long long (*)(const void*, size_t, unsigned long long);
  auto reference = reinterpret_cast<Xxh64>(dlsym(lib, "XXH64"));
  REQUIRE(reference);
  std::mt19937_64 random(7);
  std::string bytes;
  // Every tail (the 32-byte stripes, then 8, 4 and single bytes) and odd
  // starts: a view from offset 1 is unaligned.
  for (size_t n = 0; n <= 300; ++n) {
    bytes.push_back(static_cast<char>(random()));
    for (uint64_t seed : {0ull, 1ull, 0x9e3779b97f4a7c15ull, ~0ull}) {
      CHECK(xxh64(bytes, seed) == reference(bytes.data(), bytes.size(), seed));
      std::string_view odd = std::string_view(bytes).substr(1);
      CHECK(xxh64(odd, seed) == reference(odd.data(), odd.size(), seed));
    }
  }
  std::string big(3 << 20, '\0');
  for (char& c : big) c = static_cast<char>(random());
  CHECK(xxh64(big) == reference(big.data(), big.size(), 0));
  dlclose(lib);
}
