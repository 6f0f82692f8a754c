//===- mpi_allreduce_bench.cpp - MpiWorld's all_reduce against MPI_Allreduce ===//
//
// scripts/bench-run.sh runs this under `mpirun -np 2`: all_reduce of a 64 MiB
// f32 buffer through MpiWorld's communicator against raw MPI_Allreduce
// (MPI_SUM, MPI_FLOAT) on the same buffer, 20 calls each, interleaved (one of
// each per round, so that load drifts hit both alike). Each call starts after
// an MPI_Barrier; rank 0 prints both medians and their ratio. The two results
// must agree bit for bit (two addends: the order cannot matter), or it fails.
//
//===----------------------------------------------------------------------===//
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "runtime/bench/bench_timing.h"
#include "runtime/comm/mpi_world.h"

using namespace pir::runtime;

namespace {

using pir::runtime::bench::median;

/// f's time, from an MPI_Barrier on: both processes start together.
double secondsOf(auto&& f) {
  MPI_Barrier(MPI_COMM_WORLD);
  return pir::runtime::bench::secondsOf(f);
}

}  // namespace

int main() {
  if (pir::core::Status s = mpiInit(); !s) return std::fprintf(stderr, "%s\n", s.message().c_str()), 1;
  const int64_t n = (64 << 20) / 4;
  const int reps = 20;
  MpiWorld world({{0, {0, 1}}}, std::chrono::milliseconds(60000));
  if (world.size() != 2) return std::fprintf(stderr, "run under mpirun -np 2\n"), 1;
  std::vector<double> ours, raw;
  auto outcome = world.run([&](int64_t, Communicator& c) {
    Tensor x = Tensor::allocate(DataType::F32, std::vector<int64_t>{n});
    for (int64_t i = 0; i < n; ++i) x.data<float>()[i] = float(i % 1013) * (world.rank() ? 0.37f : -1.13f);
    Tensor out = Tensor::allocate(DataType::F32, std::vector<int64_t>{n});
    Tensor want = Tensor::allocate(DataType::F32, std::vector<int64_t>{n});
    for (int i = 0; i < reps; ++i) {
      pir::core::Status s;
      ours.push_back(secondsOf([&] { s = c.allReduce(0, x, out, ReduceType::Sum); }));
      if (!s) return s;
      raw.push_back(secondsOf([&] { MPI_Allreduce(x.raw(), want.raw(), int(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); }));
    }
    if (std::memcmp(out.raw(), want.raw(), out.bytes()) != 0)
      return pir::core::Status::error("MpiWorld's all_reduce differs from MPI_Allreduce's");
    return pir::core::Status::ok();
  });
  if (outcome.kind != WorldOutcome::Kind::Ok) {
    std::fprintf(stderr, "%s\n", outcome.perRank[size_t(world.rank())].message().c_str());
    return 1;
  }
  if (world.rank() == 0) {
    double bytes = double(n) * 4, o = median(ours), r = median(raw);
    std::printf("raw MPI_Allreduce 64 MiB, 2 processes:  %6.2f GB/s  (%.2f ms)\n", bytes / r / 1e9, r * 1e3);
    std::printf("MpiWorld all_reduce 64 MiB, 2 processes: %5.2f GB/s  (%.2f ms, %.2fx raw MPI time)\n", bytes / o / 1e9,
                o * 1e3, o / r);
  }
  return 0;
}
