//===- bench_timing.h - what the runtime's benchmarks time with --*- C++ -*-===//
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace pir::runtime::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// The wall time of `f()`, in seconds.
template <class F>
double secondsOf(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace pir::runtime::bench
