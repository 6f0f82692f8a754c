//===- background_faulter.h - fault in tables ahead of their use -*- C++ -*-===//
//
// The first touch of a fresh page costs the kernel zeroing it, and on a VM
// that can cost more than what the program writes there. A table filled
// front to back over a long loop can have its pages faulted in on a helper
// thread meanwhile: the loop reports how far it got, and the helper keeps
// the next `ahead` bytes faulted in (MADV_POPULATE_WRITE, which writes
// nothing), so it never touches much more than the loop will use.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace pir::core {

class BackgroundFaulter {
 public:
  BackgroundFaulter() = default;
  BackgroundFaulter(const BackgroundFaulter&) = delete;
  BackgroundFaulter& operator=(const BackgroundFaulter&) = delete;
  ~BackgroundFaulter() { stop(); }

  /// Starts faulting in the tables [data, data + bytes), each `ahead` bytes
  /// past what advance() last reported for it. Under 16 MB in all, or
  /// without a thread or MADV_POPULATE_WRITE (Linux < 5.14), pages just
  /// fault on first use.
  void start(std::vector<std::pair<const void*, size_t>> tables, size_t ahead);

  /// Table `i` is filled up to `usedBytes`. Cheap; call it every few hundred
  /// entries, not every one.
  void advance(size_t i, size_t usedBytes) {
    if (i >= tables_.size() || !worker_.joinable()) return;
    tables_[i]->used.store(usedBytes, std::memory_order_relaxed);
    epoch_.fetch_add(1, std::memory_order_release);
    epoch_.notify_one();
  }

  /// Stops and waits for the helper; the tables may be freed after.
  void stop();

 private:
  struct Table {
    uintptr_t begin, end;  // page-aligned part of the table
    uintptr_t done;        // faulted in up to here
    std::atomic<size_t> used{0};
  };
  void run();

  std::vector<std::unique_ptr<Table>> tables_;
  size_t ahead_ = 0;
  std::atomic<uint64_t> epoch_{0};
  std::atomic<bool> stopping_{false};
  std::thread worker_;
};

}  // namespace pir::core
