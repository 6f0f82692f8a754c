//===- background_faulter.cpp ---------------------------------------------===//
#include "core/background_faulter.h"

#include <sys/mman.h>

#include <algorithm>
#include <system_error>

#include "core/huge_pages.h"

namespace pir::core {

namespace {
constexpr uintptr_t kPage = 4096;
constexpr uintptr_t kChunk = kHugePage;  // one huge page per madvise
constexpr size_t kMinBytes = size_t{16} << 20;
}  // namespace

void BackgroundFaulter::start(std::vector<std::pair<const void*, size_t>> tables, size_t ahead) {
  stop();
  tables_.clear();
  for (const auto& [data, bytes] : tables) {
    auto t = std::make_unique<Table>();
    auto p = reinterpret_cast<uintptr_t>(data);
    t->begin = t->done = (p + kPage - 1) & ~(kPage - 1);
    t->end = std::max(t->begin, (p + bytes) & ~(kPage - 1));
    tables_.push_back(std::move(t));
  }
  ahead_ = ahead;
  stopping_ = false;
  size_t total = 0;
  for (const auto& t : tables_) total += t->end - t->begin;
  if (total < kMinBytes) return;  // small tables: a thread costs more than their faults
  try {
    worker_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
  }
}

void BackgroundFaulter::stop() {
  if (!worker_.joinable()) return;
  stopping_ = true;
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_one();
  worker_.join();
}

void BackgroundFaulter::run() {
  while (true) {
    uint64_t seen = epoch_.load(std::memory_order_acquire);
    if (stopping_) return;
    bool worked = false;
    for (auto& t : tables_) {
      uintptr_t target = std::min(t->end, t->begin + t->used.load(std::memory_order_relaxed) + ahead_);
      if (t->done >= target) continue;
      // Up to the next huge page boundary, so later calls stay aligned.
      uintptr_t to = std::min(target, (t->done + kChunk) & ~(kChunk - 1));
      if (madvise(reinterpret_cast<void*>(t->done), to - t->done, MADV_POPULATE_WRITE) != 0) {
        t->done = t->end;  // unsupported, or the range is gone: leave it to first use
        continue;
      }
      t->done = to;
      worked = true;
    }
    if (!worked) epoch_.wait(seen, std::memory_order_acquire);
  }
}

}  // namespace pir::core
