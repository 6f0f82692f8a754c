//===- run_timing.cpp - pir-run --timing ----------------------------------===//
#include "app/run_timing.h"

#include <algorithm>
#include <cstdio>

#include "runtime/runner/phase_timer.h"

namespace pir::app {

std::string phaseTimesText(std::chrono::steady_clock::time_point start) {
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), timed = 0;
  std::string text;
  char line[160];
  for (const auto& [name, seconds] : runtime::runner::phaseTimes()) {
    std::snprintf(line, sizeof line, "timing: %s %.3f ms\n", name.c_str(), seconds * 1e3);
    text += line;
    timed += seconds;
  }
  std::snprintf(line, sizeof line, "timing: other %.3f ms\ntiming: total %.3f ms\n", std::max(0.0, total - timed) * 1e3,
                total * 1e3);
  return text + line;
}

}  // namespace pir::app
