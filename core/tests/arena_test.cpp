//===- arena_test.cpp -----------------------------------------------------===//
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/arena.h"
#include "core/huge_pages.h"

using pir::core::Arena;

namespace {
/// Fills `n` bytes at `p` with a pattern from `seed`.
void fill(char* p, size_t n, size_t seed) {
  for (size_t i = 0; i < n; i += 997) p[i] = static_cast<char>(seed + i);
  p[n - 1] = static_cast<char>(seed);
}
bool holds(const char* p, size_t n, size_t seed) {
  for (size_t i = 0; i < n; i += 997)
    if (p[i] != static_cast<char>(seed + i) && i != n - 1) return false;
  return p[n - 1] == static_cast<char>(seed);
}
}  // namespace

TEST_CASE("arena memory stays distinct and intact across slabs faulted in ahead", "[core][arena]") {
  Arena arena;
  struct Block {
    char* p;
    size_t n;
  };
  std::vector<Block> blocks;
  size_t total = 0;
  // Past several large slabs (each faulted in on a helper thread while the
  // previous one fills), with a request bigger than any slab among them.
  for (size_t i = 0; total < (size_t{80} << 20); ++i) {
    size_t n = i == 3000 ? (size_t{40} << 20) : 1 + (i * 7919) % 65536;
    auto* p = static_cast<char*>(arena.allocate(n, i % 2 ? 8 : 64));
    REQUIRE(reinterpret_cast<uintptr_t>(p) % (i % 2 ? 8 : 64) == 0);
    fill(p, n, i);
    blocks.push_back({p, n});
    total += n;
  }
  REQUIRE(arena.bytesUsed() == total);
  for (size_t i = 0; i < blocks.size(); ++i) REQUIRE(holds(blocks[i].p, blocks[i].n, i));
  // No two blocks overlap.
  std::vector<Block> sorted = blocks;
  std::sort(sorted.begin(), sorted.end(), [](const Block& a, const Block& b) { return a.p < b.p; });
  for (size_t i = 1; i < sorted.size(); ++i) REQUIRE(sorted[i - 1].p + sorted[i - 1].n <= sorted[i].p);
}

TEST_CASE("an arena destroyed while its next slab is being faulted in", "[core][arena]") {
  for (int round = 0; round < 20; ++round) {
    Arena arena;
    // Just past the middle of the first large slab: the helper has started.
    size_t total = 0;
    while (total < (size_t{4} << 20)) {
      std::memset(arena.allocate(4096, 8), 1, 4096);
      total += 4096;
    }
  }
  SUCCEED("no crash, leak or hang (the sanitizer build checks the first two)");
}

namespace {
size_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}
}  // namespace

TEST_CASE("an arena faults in a bounded amount ahead of what it hands out", "[core][arena]") {
  size_t before = residentBytes();
  REQUIRE(before > 0);  // Linux always has /proc/self/statm
  Arena arena;
  // 200 MB used: the helper keeps up to 3 slabs ready (one per 64 MB used).
  constexpr size_t kUsed = size_t{200} << 20;
  for (size_t total = 0; total < kUsed; total += 4096) std::memset(arena.allocate(4096, 8), 1, 4096);
  // However long it has to work ahead, it stops at its bound: 4 slabs of
  // 16 MB (with 16 MB to spare for this test's own allocations).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  size_t grown = residentBytes() - before;
  CHECK(grown >= kUsed);
  CHECK(grown <= kUsed + (size_t{80} << 20));
}

TEST_CASE("tables filled while the arena's helper faults them in ahead keep what is written", "[core][arena]") {
  Arena arena;  // no slab yet: the tables alone start the helper
  std::vector<uint64_t> a, b;
  a.reserve(size_t{6} << 20);  // 48 MB
  b.reserve(size_t{3} << 20);  // 24 MB
  {
    Arena::TableFaulting fa(arena, a.data(), a.capacity() * 8, size_t{4} << 20);
    Arena::TableFaulting fb(arena, b.data(), b.capacity() * 8, size_t{4} << 20);
    for (uint64_t i = 0; i < a.capacity(); ++i) {
      a.push_back(i * 7);
      if (i % 2 == 0) b.push_back(i);
      if (i % 4096 == 0) {
        fa.advance(a.size() * 8);
        fb.advance(b.size() * 8);
        // The arena grows meanwhile, its slabs faulted in by the same helper.
        std::memset(arena.allocate(4096, 8), 1, 4096);
      }
    }
  }
  for (uint64_t i = 0; i < a.size(); i += 9973) REQUIRE(a[i] == i * 7);
  for (uint64_t i = 0; i < b.size(); i += 9973) REQUIRE(b[i] == 2 * i);
  REQUIRE(b.size() == a.size() / 2);
}

TEST_CASE("a table handed to the helper can be dropped at once, and small ones are not", "[core][arena]") {
  std::vector<char> big(size_t{1} << 20), small(size_t{1} << 20);
  big.reserve(size_t{64} << 20);
  for (int round = 0; round < 3; ++round) {
    Arena arena;
    Arena::TableFaulting dropped(arena, big.data(), big.capacity(), size_t{1} << 20);
    dropped.advance(100);
    Arena::TableFaulting ignored(arena, small.data(), small.size(), size_t{1} << 20);  // under 16 MB
    ignored.advance(100);
  }
  // The arena (and its helper) outlives a table handed over after another ended.
  Arena arena;
  { Arena::TableFaulting first(arena, big.data(), big.capacity(), size_t{1} << 20); }
  Arena::TableFaulting second(arena, big.data(), big.capacity(), size_t{1} << 20);
  second.advance(size_t{32} << 20);
  SUCCEED("no hang (CTest's timeout) and no crash or race (the sanitizer build)");
}

TEST_CASE("arenas with a slab pool reuse the large slabs of the arenas gone before them", "[core][arena]") {
  auto pool = std::make_shared<pir::core::SlabPool>();
  constexpr size_t kUsed = size_t{24} << 20;  // past the small slabs and into several large ones
  std::vector<char*> first;
  {
    Arena arena(pool);
    for (size_t total = 0; total < kUsed; total += 4096) {
      auto* p = static_cast<char*>(arena.allocate(4096, 8));
      std::memset(p, 1, 4096);
      if (total % (size_t{1} << 20) == 0) first.push_back(p);
    }
    CHECK(pool->bytesHeld() == 0);
  }
  size_t held = pool->bytesHeld();
  CHECK(held >= kUsed - (size_t{2} << 20));  // every large slab, not the small ones (under 2 MB in all)
  {
    Arena arena(pool);
    std::vector<char*> second;
    for (size_t total = 0; total < kUsed; total += 4096) {
      auto* p = static_cast<char*>(arena.allocate(4096, 8));
      std::memset(p, 2, 4096);
      second.push_back(p);
    }
    CHECK(pool->bytesHeld() < held);  // taken back out
    // Some of the second arena's memory is where the first arena's was.
    std::sort(second.begin(), second.end());
    size_t reused = 0;
    for (char* p : first)
      if (std::binary_search(second.begin(), second.end(), p)) ++reused;
    CHECK(reused > 0);
  }
  CHECK(pool->bytesHeld() >= held);
}

TEST_CASE("mapHugePages gives huge-page-aligned memory and leaves nothing mapped around it", "[core][arena]") {
  auto mappedKb = [] {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("VmSize:", 0) == 0) return std::stoll(line.substr(7));
    return -1LL;
  };
  long long before = mappedKb();
  REQUIRE(before > 0);
  for (int round = 0; round < 64; ++round) {
    size_t n = pir::core::kHugePage * (1 + round % 3) + (round % 2 ? 4096 : 0);
    auto* p = static_cast<char*>(pir::core::mapHugePages(n));
    REQUIRE(p != nullptr);
    CHECK(reinterpret_cast<uintptr_t>(p) % pir::core::kHugePage == 0);
    fill(p, n, static_cast<size_t>(round));
    CHECK(holds(p, n, static_cast<size_t>(round)));
    munmap(p, n);
  }
  // Had each call left its extra huge page (or its head and tail) mapped, 64 calls would leave 128 MiB.
  CHECK(mappedKb() - before < 8 * 1024);
}

TEST_CASE("an arena's large slabs start on a huge page", "[core][arena]") {
  Arena arena;
  for (int i = 0; i < 4; ++i) {
    void* p = arena.allocate(3 * pir::core::kHugePage, 16);  // more than any slab left: a slab of its own
    CHECK(reinterpret_cast<uintptr_t>(p) % pir::core::kHugePage == 0);
  }
}
