//===- kernels_bench.cpp - the runner's math kernels against baselines ----===//
//
// pir-kernels-bench (scripts/bench-run.sh, section bench_matmul):
//   - the matmul kernel against a direct cblas_sgemm call on the same shapes
//     (a transformer layer's: 1024^3, 4096x1024x1024, batched 8x512x64x512;
//     transposed operands too), both on one OpenBLAS thread, GFLOP/s;
//   - elementwise add (1M f32) and a 1024x1024 row softmax: the kernels
//     against a plain loop and Eigen's Tensor module doing the same (whole
//     tensor), which is how the kernels' implementation was chosen.
//
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <cmath>

#include <memory>
#include <random>
#include <string>
#include <unsupported/Eigen/CXX11/Tensor>
#include <vector>

#include "core/context.h"
#include "core/diagnostics.h"
#include "core/program.h"
#include "parser/parser.h"
#include "runtime/kernel.h"
#include "runtime/kernels/matmul.h"

namespace {

using namespace pir;
using runtime::Tensor;

Tensor randomTensor(std::vector<int64_t> shape, uint32_t seed) {
  Tensor t = Tensor::allocate(core::DataType::F32, shape);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(gen);
  return t;
}

/// One parsed op whose kernel the benchmark calls.
struct OneOp {
  core::Context ctx;
  std::string text;
  std::unique_ptr<core::SourceFile> src;
  std::unique_ptr<core::DiagnosticEngine> diag;
  std::unique_ptr<core::Program> program;
  const core::Operation* op = nullptr;
  runtime::KernelFn fn = nullptr;

  OneOp(const std::string& name, const std::string& attrs, int operands) {
    text = "{\n";
    std::string list;
    for (int i = 0; i < operands; ++i) {
      text += "    (%" + std::to_string(i) + ") = \"pd_op.data\" () {} : () -> builtin.tensor<1xf32>\n";
      list += (i ? ", %" : "%") + std::to_string(i);
    }
    std::string types;
    for (int i = 0; i < operands; ++i) types += i ? ", builtin.tensor<1xf32>" : "builtin.tensor<1xf32>";
    text +=
        "    (%r) = \"" + name + "\" (" + list + ") {" + attrs + "} : (" + types + ") -> builtin.tensor<1xf32>\n}\n";
    src = std::make_unique<core::SourceFile>("bench.pir", text);
    diag = std::make_unique<core::DiagnosticEngine>(src.get());
    auto p = parser::parseProgram(ctx, *src, *diag);
    if (!p.isOk()) std::abort();
    program = std::move(p.value());
    op = program->body().back();
    fn = runtime::kernelRegistry().find(core::lookupOp(*op));
    if (!fn) std::abort();
  }

  Tensor run(const std::vector<Tensor>& inputs) {
    std::vector<runtime::RuntimeValue> values(inputs.size());
    std::vector<const runtime::RuntimeValue*> ptrs;
    for (size_t i = 0; i < inputs.size(); ++i) values[i].tensor = inputs[i], ptrs.push_back(&values[i]);
    runtime::RuntimeValue result;
    runtime::KernelContext kc{*op, ptrs, std::span(&result, 1)};
    if (!fn(kc).isOk()) std::abort();
    return result.tensor;
  }
};

// Shapes: batch, M, K, N, transpose_x, transpose_y.
void matmulArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"batch", "M", "K", "N", "tx", "ty"});
  b->Args({1, 1024, 1024, 1024, 0, 0});
  b->Args({1, 1024, 1024, 1024, 1, 0});
  b->Args({1, 1024, 1024, 1024, 0, 1});
  b->Args({1, 1024, 1024, 1024, 1, 1});
  b->Args({1, 4096, 1024, 1024, 0, 0});
  b->Args({1, 4096, 1024, 1024, 0, 1});
  b->Args({8, 512, 64, 512, 0, 0});
  b->Args({8, 512, 64, 512, 0, 1});
  b->Unit(benchmark::kMillisecond);
}

struct MatmulShape {
  int64_t batch, m, k, n;
  bool tx, ty;
  explicit MatmulShape(const benchmark::State& s)
      : batch(s.range(0)), m(s.range(1)), k(s.range(2)), n(s.range(3)), tx(s.range(4)), ty(s.range(5)) {}
  std::vector<int64_t> xShape() const { return withBatch(tx ? std::vector{k, m} : std::vector{m, k}); }
  std::vector<int64_t> yShape() const { return withBatch(ty ? std::vector{n, k} : std::vector{k, n}); }
  std::vector<int64_t> withBatch(std::vector<int64_t> mat) const {
    if (batch > 1) mat.insert(mat.begin(), batch);
    return mat;
  }
  double flops() const { return 2.0 * double(batch) * double(m) * double(n) * double(k); }
};

void setGflops(benchmark::State& state, double flopsPerIteration) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flopsPerIteration * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

void BM_SgemmDirect(benchmark::State& state) {
  runtime::setBlasThreads(1);
  MatmulShape s(state);
  Tensor x = randomTensor(s.xShape(), 1), y = randomTensor(s.yShape(), 2);
  Tensor c = Tensor::allocate(core::DataType::F32, s.withBatch({s.m, s.n}));
  for (auto _ : state) {
    for (int64_t b = 0; b < s.batch; ++b)
      cblas_sgemm(CblasRowMajor, s.tx ? CblasTrans : CblasNoTrans, s.ty ? CblasTrans : CblasNoTrans, int(s.m), int(s.n),
                  int(s.k), 1.0f, x.data<float>() + b * s.m * s.k, int(s.tx ? s.m : s.k),
                  y.data<float>() + b * s.k * s.n, int(s.ty ? s.k : s.n), 0.0f, c.data<float>() + b * s.m * s.n,
                  int(s.n));
    benchmark::DoNotOptimize(c.data<float>());
  }
  setGflops(state, s.flops());
}
BENCHMARK(BM_SgemmDirect)->Apply(matmulArgs);

void BM_MatmulKernel(benchmark::State& state) {
  runtime::setBlasThreads(1);
  MatmulShape s(state);
  OneOp op("pd_op.matmul",
           std::string("transpose_x:") + (s.tx ? "true" : "false") + ",transpose_y:" + (s.ty ? "true" : "false"), 2);
  Tensor x = randomTensor(s.xShape(), 1), y = randomTensor(s.yShape(), 2);
  for (auto _ : state) {
    Tensor c = op.run({x, y});
    benchmark::DoNotOptimize(c.raw());
  }
  setGflops(state, s.flops());
}
BENCHMARK(BM_MatmulKernel)->Apply(matmulArgs);

constexpr int64_t kAddN = 1 << 20;

void BM_AddKernel(benchmark::State& state) {
  OneOp op("pd_op.add", "", 2);
  Tensor a = randomTensor({kAddN}, 1), b = randomTensor({kAddN}, 2);
  for (auto _ : state) {
    Tensor c = op.run({a, b});
    benchmark::DoNotOptimize(c.raw());
  }
  state.SetBytesProcessed(state.iterations() * kAddN * 12);
}
BENCHMARK(BM_AddKernel)->Unit(benchmark::kMicrosecond);

void BM_AddLoop(benchmark::State& state) {  // the plain-loop alternative
  Tensor a = randomTensor({kAddN}, 1), b = randomTensor({kAddN}, 2);
  for (auto _ : state) {
    Tensor c = Tensor::allocate(core::DataType::F32, {kAddN});
    const float *pa = a.data<float>(), *pb = b.data<float>();
    float* pc = c.data<float>();
    for (int64_t i = 0; i < kAddN; ++i) pc[i] = pa[i] + pb[i];
    benchmark::DoNotOptimize(c.raw());
  }
  state.SetBytesProcessed(state.iterations() * kAddN * 12);
}
BENCHMARK(BM_AddLoop)->Unit(benchmark::kMicrosecond);

void BM_AddEigen(benchmark::State& state) {
  Tensor a = randomTensor({kAddN}, 1), b = randomTensor({kAddN}, 2);
  for (auto _ : state) {
    Tensor c = Tensor::allocate(core::DataType::F32, {kAddN});
    Eigen::TensorMap<Eigen::Tensor<const float, 1, Eigen::RowMajor>> ea(a.data<float>(), kAddN),
        eb(b.data<float>(), kAddN);
    Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>> ec(c.data<float>(), kAddN);
    ec = ea + eb;
    benchmark::DoNotOptimize(c.raw());
  }
  state.SetBytesProcessed(state.iterations() * kAddN * 12);
}
BENCHMARK(BM_AddEigen)->Unit(benchmark::kMicrosecond);

constexpr int64_t kRows = 1024, kCols = 1024;

void BM_SoftmaxKernel(benchmark::State& state) {
  OneOp op("pd_op.softmax", "axis:(Int32)-1", 1);
  Tensor x = randomTensor({kRows, kCols}, 3);
  for (auto _ : state) {
    Tensor c = op.run({x});
    benchmark::DoNotOptimize(c.raw());
  }
  state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_SoftmaxKernel)->Unit(benchmark::kMicrosecond);

void BM_SoftmaxLoop(benchmark::State& state) {  // the plain-loop alternative
  Tensor x = randomTensor({kRows, kCols}, 3);
  for (auto _ : state) {
    Tensor c = Tensor::allocate(core::DataType::F32, {kRows, kCols});
    for (int64_t r = 0; r < kRows; ++r) {
      const float* row = x.data<float>() + r * kCols;
      float* out = c.data<float>() + r * kCols;
      float m = row[0];
      for (int64_t j = 1; j < kCols; ++j) m = std::max(m, row[j]);
      float sum = 0;
      for (int64_t j = 0; j < kCols; ++j) sum += (out[j] = std::exp(row[j] - m));
      for (int64_t j = 0; j < kCols; ++j) out[j] /= sum;
    }
    benchmark::DoNotOptimize(c.raw());
  }
  state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_SoftmaxLoop)->Unit(benchmark::kMicrosecond);

void BM_SoftmaxEigen(benchmark::State& state) {
  Tensor x = randomTensor({kRows, kCols}, 3);
  Eigen::array<Eigen::Index, 1> axis{1};
  Eigen::array<Eigen::Index, 2> col{kRows, 1}, bcast{1, kCols};
  for (auto _ : state) {
    Tensor c = Tensor::allocate(core::DataType::F32, {kRows, kCols});
    Eigen::TensorMap<Eigen::Tensor<const float, 2, Eigen::RowMajor>> ex(x.data<float>(), kRows, kCols);
    Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>> ec(c.data<float>(), kRows, kCols);
    // The reductions are evaluated once (eval), not per broadcast element.
    Eigen::Tensor<float, 2, Eigen::RowMajor> mx = ex.maximum(axis).reshape(col).eval();
    ec = (ex - mx.broadcast(bcast)).exp();
    Eigen::Tensor<float, 2, Eigen::RowMajor> sum = ec.sum(axis).reshape(col).eval();
    ec = ec / sum.broadcast(bcast);
    benchmark::DoNotOptimize(c.raw());
  }
  state.SetItemsProcessed(state.iterations() * kRows * kCols);
}
BENCHMARK(BM_SoftmaxEigen)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
