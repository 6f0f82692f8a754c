//===- threads.h - how many threads parallel work may use -------*- C++ -*-===//
//
// `--threads N` (pir-opt and pir-run) sets it for the process: reading,
// verifying and printing a big program, split-ranks' ranks and pir-run's
// input draws each use up to that many threads. Unset, it is the cores
// present.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <atomic>
#include <thread>

namespace pir::core {

namespace detail {
inline std::atomic<unsigned> workerThreads{0};
}  // namespace detail

/// The threads parallel work may use: what setWorkerThreads gave, or the cores present.
inline unsigned workerThreads() {
  unsigned n = detail::workerThreads.load(std::memory_order_relaxed);
  return n ? n : std::max(1u, std::thread::hardware_concurrency());
}

/// Sets it for the process (0: the cores present again).
inline void setWorkerThreads(unsigned n) { detail::workerThreads.store(n, std::memory_order_relaxed); }

/// One step of a spin-wait: tells the core it waits (x86 `pause`), so the
/// loop yields the pipeline and leaves the cache line alone a moment.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace pir::core
