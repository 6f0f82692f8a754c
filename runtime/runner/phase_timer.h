//===- phase_timer.h - where a run's time goes --------------*- C++ -*-===//
//
// The runner's phases (reading the program, each pass, the layout,
// compiling plans, drawing or reading inputs, running, assembling, the
// serial check, writing) add their wall time to one list of this process,
// in the order they first run; pir-run's `--timing` prints it on stderr
// after a run that succeeded (app/run_timing.h). A phase
// timed inside another (the serial check's own compile and run) counts
// toward the outer one only, so the phases add up to the run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pir::runtime::runner {

/// Adds the wall time from construction to destruction to phase `name`,
/// unless another PhaseTimer of this thread is running.
class PhaseTimer {
 public:
  explicit PhaseTimer(std::string_view name);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  std::string_view name_;
  bool outer_;
  std::chrono::steady_clock::time_point start_;
};

/// Adds `seconds` to phase `name` (a pass manager's timings), unless a
/// PhaseTimer of this thread is running.
void addPhaseTime(std::string_view name, double seconds);

/// Every phase's name and seconds, in the order they first ran.
std::vector<std::pair<std::string, double>> phaseTimes();

}  // namespace pir::runtime::runner
