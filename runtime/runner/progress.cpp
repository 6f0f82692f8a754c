//===- progress.cpp - what a run's ranks have done so far -----------------===//
#include "runtime/runner/progress.h"

#include <cstdio>

namespace pir::runtime::runner {

std::string RunProgress::line(double seconds) const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "pir-run: %s %lld/%lld, ops %lld/%lld, %.1f s", unit_,
                (long long)unitsDone_.load(std::memory_order_relaxed),
                (long long)unitsTotal_.load(std::memory_order_relaxed),
                (long long)opsDone_.load(std::memory_order_relaxed),
                (long long)opsTotal_.load(std::memory_order_relaxed), seconds);
  return buf;
}

}  // namespace pir::runtime::runner
