//===- run_progress.h - pir-run's progress bar on stderr ----------*- C++ -*-===//
//
// Runs that last over a second draw one line on stderr while they run, when
// stderr is a tty (never otherwise, so piped and tested output is unchanged,
// and never on an mpirun process but rank 0's): units (steps, or a
// pipeline's jobs) done of their total, ops done of theirs, elapsed time. The
// line is redrawn in place (`\r`) at most 5 times a second and erased at the
// end, so what remains on the terminal is what a run without it prints.
//
// Rank threads count into RunProgress with relaxed atomics (no locks on the
// hot path); one reporter thread (ProgressBar) reads the counters.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace pir::app {

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

/// While it lives, and when `enabled` and stderr is a tty: a thread that
/// draws `progress` on stderr from one second on; it erases its line when it
/// goes.
class ProgressBar {
 public:
  ProgressBar(const RunProgress& progress, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void report();

  const RunProgress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace pir::app
