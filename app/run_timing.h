//===- run_timing.h - pir-run --timing: where a run's time goes -*- C++ -*-===//
//
// The runner's phases (runtime/runner/phase_timer.h) as pir-run's
// `--timing` prints them on stderr after a run that succeeded, as pir-opt's
// `--timing` does (`timing: NAME X ms`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <string>

namespace pir::app {

/// `timing: NAME X ms` per phase, then the rest of the run since
/// `start` (`other`) and the whole (`total`).
std::string phaseTimesText(std::chrono::steady_clock::time_point start);

}  // namespace pir::app
