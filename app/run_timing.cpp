//===- run_timing.cpp - pir-run --timing ----------------------------------===//
#include "app/run_timing.h"

#include <cstdio>
#include <mutex>
#include <utility>
#include <vector>

namespace pir::app {
namespace {

std::mutex gMutex;
std::vector<std::pair<std::string, double>> gPhases;  // in first-run order
thread_local int tDepth = 0;                          // PhaseTimers running on this thread

}  // namespace

void addPhaseTime(std::string_view name, double seconds) {
  if (tDepth > 0) return;  // inside a timed phase, which counts it
  std::lock_guard<std::mutex> lock(gMutex);
  for (auto& [n, s] : gPhases)
    if (n == name) return void(s += seconds);
  gPhases.emplace_back(std::string(name), seconds);
}

PhaseTimer::PhaseTimer(std::string_view name)
    : name_(name), outer_(tDepth++ == 0), start_(std::chrono::steady_clock::now()) {}

PhaseTimer::~PhaseTimer() {
  --tDepth;
  if (outer_) addPhaseTime(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
}

std::string phaseTimesText(std::chrono::steady_clock::time_point start) {
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), timed = 0;
  std::string text;
  char line[160];
  std::lock_guard<std::mutex> lock(gMutex);
  for (const auto& [name, seconds] : gPhases) {
    std::snprintf(line, sizeof line, "timing: %s %.3f ms\n", name.c_str(), seconds * 1e3);
    text += line;
    timed += seconds;
  }
  std::snprintf(line, sizeof line, "timing: other %.3f ms\ntiming: total %.3f ms\n", std::max(0.0, total - timed) * 1e3,
                total * 1e3);
  return text + line;
}

}  // namespace pir::app
