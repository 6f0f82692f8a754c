//===- threads.h - how many threads parallel work may use -------*- C++ -*-===//
//
// `--threads N` (pir-opt and pir-run) sets it for the process: reading,
// verifying and printing a big program, split-ranks' ranks and pir-run's
// input draws each use up to that many threads. Unset, it is the cores
// present.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

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

/// Starts `work` on a helper thread that blocks every signal (a thread
/// inherits the mask it is started with), so that handlers run on the main
/// thread, whose mask the app controls. Where no thread can be made the
/// result is not joinable: the caller does the work without one.
template <class Work>
std::thread startHelperThread(Work&& work) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  std::thread t;
  try {
    t = std::thread(std::forward<Work>(work));
  } catch (const std::system_error&) {
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return t;
}

/// One step of a spin-wait: tells the core it waits (x86 `pause`), so the
/// loop yields the pipeline and leaves the cache line alone a moment.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// A lock for work of a few dozen nanoseconds (a Context's table probe;
/// rarely, a table's growth): taking and dropping it is one atomic each,
/// where a std::mutex's calls into libc were 2.5% of a threaded read's
/// samples. A waiter spins a little, then yields.
class SpinLock {
 public:
  bool try_lock() { return !held_.load(std::memory_order_relaxed) && !held_.exchange(true, std::memory_order_acquire); }
  void lock() {
    while (!try_lock()) {
      for (int spins = 0; spins < 64 && held_.load(std::memory_order_relaxed); ++spins) cpuRelax();
      if (held_.load(std::memory_order_relaxed)) std::this_thread::yield();  // a growing table: let it finish
    }
  }
  void unlock() { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

/// Runs `runs` pieces of work (runs of a block's ops, say) on `threads`
/// threads, the caller's among them. Each thread calls `perThread(t)` once
/// (t from 0, the caller's) and then the function it returns on each run it
/// takes; runs are taken in increasing order as threads free up.
template <class PerThread>
void forEachRunOnThreads(unsigned threads, uint32_t runs, PerThread&& perThread) {
  std::atomic<uint32_t> next{0};
  auto work = [&](unsigned t) {
    auto each = perThread(t);
    for (uint32_t r; (r = next.fetch_add(1)) < runs;) each(r);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& t : pool) t.join();
}

}  // namespace pir::core
