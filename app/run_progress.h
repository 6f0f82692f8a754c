//===- run_progress.h - pir-run's progress bar on stderr ----------*- C++ -*-===//
//
// Runs that last over a second draw one line on stderr while they run, when
// stderr is a tty (never otherwise, so piped and tested output is unchanged,
// and never on an mpirun process but rank 0's): units (steps, or a
// pipeline's jobs) done of their total, ops done of theirs, elapsed time. The
// line is redrawn in place (`\r`) at most 5 times a second and erased at the
// end, so what remains on the terminal is what a run without it prints (a
// loss line printed meanwhile erases it first: ProgressBar::above).
//
// The ranks count into runtime::runner::RunProgress; one reporter thread
// (ProgressBar) reads the counters.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/runner/progress.h"

namespace pir::app {

using runtime::runner::RunProgress;

/// While it lives, and when `enabled` and stderr is a tty: a thread that
/// draws `progress` on stderr from one second on; it erases its line when it
/// goes.
class ProgressBar {
 public:
  ProgressBar(const RunProgress& progress, bool enabled);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  /// Runs `print` (a line on stdout) with the bar erased first when stdout
  /// is a tty too, so that the line does not run into the bar; the bar is
  /// drawn again below it at its next redraw.
  void above(const std::function<void()>& print);

 private:
  void report();
  void erase();  // with mutex_ held

  const RunProgress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  size_t drawn_ = 0;  // the length of the line on the terminal
  std::thread thread_;
};

}  // namespace pir::app
