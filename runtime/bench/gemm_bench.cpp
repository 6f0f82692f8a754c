//===- gemm_bench.cpp - a list of GEMMs timed alone through cblas ---------===//
//
//   runtime_gemm_bench REPS M,N,K,TA,TB[,ACC] [M,N,K,TA,TB[,ACC] ...]
//
// scripts/bench-run.sh's bench_mlp runs this with a training step's GEMMs
// (C[M,N] = op(A)·op(B), K contracted, TA/TB 1 for a transposed operand, as
// the matmul kernels call cblas_sgemm; ACC 1: C -= 0.1·op(A)·op(B), beta 1,
// as a weight's gradient GEMM makes its sgd_ update, runtime/update_fusion.h):
// GEMMs of one shape share their f32
// operands (a step's layers' GEMMs touch as much memory as one layer's: the
// GEMMs' fastest, a lower bound of their time inside a step), all run once
// before timing, then the whole list back to back REPS times on one OpenBLAS
// thread. Prints the best and the median of the list's seconds, "best
// median", on one line.
//
//===----------------------------------------------------------------------===//
#include <cblas.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "runtime/bench/bench_timing.h"

namespace {

struct Operands {
  std::vector<float> a, b, c;
};

struct Gemm {
  int m = 0, n = 0, k = 0;
  bool ta = false, tb = false, accumulate = false;
  Operands* x = nullptr;
};

void run(Gemm& g) {
  cblas_sgemm(CblasRowMajor, g.ta ? CblasTrans : CblasNoTrans, g.tb ? CblasTrans : CblasNoTrans, g.m, g.n, g.k,
              g.accumulate ? -0.1f : 1.0f, g.x->a.data(), g.ta ? g.m : g.k, g.x->b.data(), g.tb ? g.k : g.n,
              g.accumulate ? 1.0f : 0.0f, g.x->c.data(), g.n);
}

}  // namespace

int main(int argc, char** argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 0;
  if (argc < 3 || reps < 1) {
    std::fprintf(stderr, "usage: runtime_gemm_bench REPS M,N,K,TA,TB[,ACC] [M,N,K,TA,TB[,ACC] ...]\n");
    return 1;
  }
  openblas_set_num_threads(1);
  std::vector<Gemm> gemms(size_t(argc - 2));
  std::map<std::string, Operands> byShape;
  for (int i = 2; i < argc; ++i) {
    Gemm& g = gemms[size_t(i - 2)];
    int ta = 0, tb = 0, acc = 0;
    int fields = std::sscanf(argv[i], "%d,%d,%d,%d,%d,%d", &g.m, &g.n, &g.k, &ta, &tb, &acc);
    if (fields < 5 || g.m < 1 || g.n < 1 || g.k < 1) {
      std::fprintf(stderr, "runtime_gemm_bench: '%s' is not M,N,K,TA,TB[,ACC]\n", argv[i]);
      return 1;
    }
    g.ta = ta != 0, g.tb = tb != 0, g.accumulate = acc != 0;
    g.x = &byShape[argv[i]];
    if (!g.x->a.empty()) continue;
    // Values of a trained layer's size (no denormals, no zeros).
    g.x->a.assign(size_t(g.m) * size_t(g.k), 0.5f);
    g.x->b.assign(size_t(g.k) * size_t(g.n), 0.25f);
    for (size_t j = 0; j < g.x->a.size(); ++j) g.x->a[j] += float(j % 7) * 0.125f;
    for (size_t j = 0; j < g.x->b.size(); ++j) g.x->b[j] -= float(j % 5) * 0.0625f;
    g.x->c.assign(size_t(g.m) * size_t(g.n), 0.0f);
  }
  std::vector<double> times;
  // On a thread of its own, as pir-run's ranks run (OpenBLAS's calls from the main thread measured slower).
  std::thread worker([&] {
    for (Gemm& g : gemms) run(g);
    for (int r = 0; r < reps; ++r)
      times.push_back(pir::runtime::bench::secondsOf([&] {
        for (Gemm& g : gemms) run(g);
      }));
  });
  worker.join();
  double best = times[0];
  for (double t : times) best = t < best ? t : best;
  std::printf("%.9g %.9g\n", best, pir::runtime::bench::median(times));
  return 0;
}
