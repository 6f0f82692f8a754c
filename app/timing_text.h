//===- timing_text.h - the `timing:` lines of both CLIs -----------*- C++ -*-===//
//
// pir-opt's and pir-run's `--timing` print, on stderr after a run that
// succeeded, one `timing: NAME X ms` line a phase, in the order the phases
// ran (pir-run's come from runtime/runner/phase_timer.h). This is the one
// writer of that format.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pir::app {

/// `timing: NAME X ms` for one phase of `seconds`.
std::string timingLine(std::string_view name, double seconds);

/// pir-run's: a line per runner phase, then the rest of the run since
/// `start` (`other`) and the whole (`total`).
std::string phaseTimesText(std::chrono::steady_clock::time_point start);

}  // namespace pir::app
