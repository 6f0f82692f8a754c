//===- timing_text.cpp - the `timing:` lines of both CLIs ------------------===//
#include "app/timing_text.h"

#include <algorithm>
#include <cstdio>

#include "runtime/runner/phase_timer.h"

namespace pir::app {

std::string timingLine(std::string_view name, double seconds) {
  char ms[32];
  std::snprintf(ms, sizeof ms, " %.3f ms\n", seconds * 1e3);
  return "timing: " + std::string(name) + ms;
}

std::string phaseTimesText(std::chrono::steady_clock::time_point start) {
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), timed = 0;
  std::string text;
  for (const auto& [name, seconds] : runtime::runner::phaseTimes()) {
    text += timingLine(name, seconds);
    timed += seconds;
  }
  return text + timingLine("other", std::max(0.0, total - timed)) + timingLine("total", total);
}

}  // namespace pir::app
