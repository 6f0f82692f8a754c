//===- phase_timer.cpp - where a run's time goes ---------------------===//
#include "runtime/runner/phase_timer.h"

#include <mutex>
#include <utility>
#include <vector>

namespace pir::runtime::runner {
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

std::vector<std::pair<std::string, double>> phaseTimes() {
  std::lock_guard<std::mutex> lock(gMutex);
  return gPhases;
}

}  // namespace pir::runtime::runner
