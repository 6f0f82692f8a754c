//===- progress.h - what a run's ranks have done so far ----------*- C++ -*-===//
//
// Rank threads count into RunProgress with relaxed atomics (no locks on the
// hot path); a reporter (pir-run's progress bar, app/run_progress.h) reads
// the counters from another thread.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace pir::runtime::runner {

/// What the ranks of this process have to do and have done; each rank adds
/// its share of the totals when it starts.
class RunProgress {
 public:
  explicit RunProgress(const char* unit) : unit_(unit) {}

  void expect(int64_t units, int64_t ops) {
    unitsTotal_.fetch_add(units, std::memory_order_relaxed);
    opsTotal_.fetch_add(ops, std::memory_order_relaxed);
  }
  void done(int64_t units, int64_t ops) {
    unitsDone_.fetch_add(units, std::memory_order_relaxed);
    opsDone_.fetch_add(ops, std::memory_order_relaxed);
  }

  /// The line the bar draws, e.g. "pir-run: steps 3/10, ops 300000/1000000, 2.4 s".
  std::string line(double seconds) const;

 private:
  const char* unit_;
  std::atomic<int64_t> unitsTotal_{0}, unitsDone_{0}, opsTotal_{0}, opsDone_{0};
};

}  // namespace pir::runtime::runner
