//===- allreduce_bench.cpp - in-process all_reduce against memcpy ---------===//
//
// scripts/bench-run.sh runs this: the median of 20 in-process all_reduce
// calls of a 64 MiB f32 buffer on 2 ranks, next to the median of 20 memcpy
// of the same buffer (the same run, the same machine). Prints one line each,
// in GB/s of the buffer's bytes. Then the latency: 20000 all_reduce calls of
// one float on 2 ranks, back to back, in microseconds per call.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/bench/bench_timing.h"
#include "runtime/comm/in_process.h"

using namespace pir::runtime;

using pir::runtime::bench::median;
using pir::runtime::bench::secondsOf;

int main() {
  const int64_t n = (64 << 20) / 4;
  const int reps = 20;
  Tensor a = Tensor::zeros(DataType::F32, std::vector<int64_t>{n});
  Tensor b = Tensor::zeros(DataType::F32, std::vector<int64_t>{n});
  std::vector<double> copies;
  for (int i = 0; i < reps; ++i) copies.push_back(secondsOf([&] { std::memcpy(b.raw(), a.raw(), a.bytes()); }));
  InProcessWorld world(2, {{12, {0, 1}}}, std::chrono::milliseconds(60000));
  std::vector<double> times[2];
  auto outcome = world.run([&](int64_t r, Communicator& c) {
    Tensor x = Tensor::zeros(DataType::F32, std::vector<int64_t>{n});
    Tensor out = Tensor::allocate(DataType::F32, std::vector<int64_t>{n});
    for (int i = 0; i < reps; ++i) {
      pir::core::Status s;
      times[r].push_back(secondsOf([&] { s = c.allReduce(12, x, out, ReduceType::Sum); }));
      if (!s) return s;
    }
    return pir::core::Status::ok();
  });
  if (outcome.kind != WorldOutcome::Kind::Ok) return 1;
  double bytes = double(a.bytes());
  double mc = median(copies), ar = std::max(median(times[0]), median(times[1]));
  std::printf("memcpy 64 MiB:                      %8.2f GB/s  (%.2f ms)\n", bytes / mc / 1e9, mc * 1e3);
  std::printf("in-process all_reduce 64 MiB, 2 ranks: %5.2f GB/s  (%.2f ms, %.0f%% of memcpy)\n", bytes / ar / 1e9,
              ar * 1e3, 100 * mc / ar);
  const int calls = 20000;
  double latency[2] = {0, 0};
  outcome = world.run([&](int64_t r, Communicator& c) {
    Tensor x = Tensor::zeros(DataType::F32, std::vector<int64_t>{1});
    Tensor out = Tensor::allocate(DataType::F32, std::vector<int64_t>{1});
    pir::core::Status s;
    latency[r] = secondsOf([&] {
      for (int i = 0; i < calls && s; ++i) s = c.allReduce(12, x, out, ReduceType::Sum);
    });
    return s;
  });
  if (outcome.kind != WorldOutcome::Kind::Ok) return 1;
  std::printf("in-process all_reduce of 1 float, 2 ranks: %.1f us per call (%d calls)\n",
              std::max(latency[0], latency[1]) / calls * 1e6, calls);
  return 0;
}
