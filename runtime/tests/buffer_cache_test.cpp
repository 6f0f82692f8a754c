//===- buffer_cache_test.cpp - large buffers kept for reuse ---------------===//
#include "runtime/buffer_cache.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/tensor.h"

using namespace pir::runtime;

namespace {
constexpr size_t kBlock = BufferCache::kMinBytes;
}

TEST_CASE("a released large block comes back for the same size, aligned", "[tensor]") {
  BufferCache cache(4 * kBlock);
  void* a = cache.allocate(kBlock);
  REQUIRE(a);
  CHECK(reinterpret_cast<uintptr_t>(a) % 64 == 0);
  std::memset(a, 7, kBlock);
  cache.release(a, kBlock);
  if (!BufferCache::enabled()) {  // a sanitizer build frees at once
    CHECK(cache.keptBytes() == 0);
    return;
  }
  CHECK(cache.keptBytes() == kBlock);
  void* other = cache.allocate(2 * kBlock);  // another size: not the kept block
  CHECK(other != a);
  CHECK(cache.keptBytes() == kBlock);
  void* again = cache.allocate(kBlock);
  CHECK(again == a);
  CHECK(cache.keptBytes() == 0);
  cache.release(again, kBlock);
  cache.release(other, 2 * kBlock);
  CHECK(cache.keptBytes() == 3 * kBlock);
  cache.clear();
  CHECK(cache.keptBytes() == 0);
}

TEST_CASE("small blocks are not kept, and the bound evicts the least recently kept", "[tensor]") {
  BufferCache cache(3 * kBlock);
  cache.release(cache.allocate(kBlock - 64), kBlock - 64);
  CHECK(cache.keptBytes() == 0);
  if (!BufferCache::enabled()) return;
  void* first = cache.allocate(kBlock);
  void* second = cache.allocate(2 * kBlock);
  void* third = cache.allocate(kBlock);
  cache.release(first, kBlock);
  cache.release(second, 2 * kBlock);
  CHECK(cache.keptBytes() == 3 * kBlock);
  cache.release(third, kBlock);  // 4 blocks: `first` goes
  CHECK(cache.keptBytes() == 3 * kBlock);
  void* back = cache.allocate(kBlock);
  CHECK(back == third);
  void* fresh = cache.allocate(kBlock);  // `first` is gone: a new block, `second` still kept
  CHECK(cache.keptBytes() == 2 * kBlock);
  cache.release(fresh, kBlock);
  cache.release(back, kBlock);
  cache.clear();
  // larger than the whole bound: freed at once
  void* huge = cache.allocate(4 * kBlock);
  cache.release(huge, 4 * kBlock);
  CHECK(cache.keptBytes() == 0);
}

TEST_CASE("tensors reuse a freed large buffer of their size", "[tensor]") {
  const int64_t n = int64_t(BufferCache::kMinBytes / 4);
  const void* before = nullptr;
  {
    Tensor t = Tensor::allocate(DataType::F32, {n});
    before = t.raw();
  }
  Tensor u = Tensor::allocate(DataType::F32, {n});
  if (BufferCache::enabled()) CHECK(u.raw() == before);
  Tensor z = Tensor::zeros(DataType::F32, std::vector<int64_t>{n});  // zeros are zeros whatever the block held
  for (int64_t i = 0; i < n; ++i) REQUIRE(z.data<float>()[i] == 0.0f);
}
