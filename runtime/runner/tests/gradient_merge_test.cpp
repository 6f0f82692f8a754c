//===- gradient_merge_test.cpp - merged micro-batches equal the whole batch ===//
//
// A dense training step (testdata/gradient_merge/01: matmul, add, relu, a
// mean loss; sgd_ on w, adamw_ on b) after
// `gradient-merge{k=K avg=true},pipeline-split{mode=FThenB}`: forward and
// backward run once per micro-batch (K row blocks of the batch), sharing
// parameters, optimizer state and merge buffers, with the values the jobs
// hand over passed by name; then the optimizer runs once.
// The loss is a mean, so the averaged micro-batch gradients are the whole
// batch's gradient: the parameters must equal those of the plain program
// run once on the whole batch. The same holds for the ranks of a 2-stage
// pipeline (gradient_merge/05) split for FThenB, run on two in-process ranks.
// Every run goes through the runner (runtime/runner/runner.h), from files
// as pir-run reads them.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <filesystem>

#include "passes/pass_registry.h"
#include "runtime/npy.h"
#include "runtime/runner/runner.h"

using namespace pir;
using namespace pir::runtime;

namespace {

namespace runner = pir::runtime::runner;

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE(!text.str().empty());
  return text.str();
}

constexpr int64_t kBatch = 8;

Tensor filled(std::vector<int64_t> shape, uint32_t seed, float lo, float hi) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  Tensor t = Tensor::allocate(DataType::F32, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = d(gen);
  return t;
}

Tensor constant(std::vector<int64_t> shape, float v) {
  Tensor t = Tensor::allocate(DataType::F32, shape);
  std::fill(t.data<float>(), t.data<float>() + t.numel(), v);
  return t;
}

/// Elements of `got` beyond f32 tolerance (1e-6 + 1e-5 relative) of `want`.
int64_t mismatches(const Tensor& got, const Tensor& want) {
  REQUIRE(got.numel() == want.numel());
  int64_t n = 0;
  for (int64_t i = 0; i < got.numel(); ++i) {
    float g = got.data<float>()[i], w = want.data<float>()[i];
    if (std::abs(g - w) > 1e-6f + 1e-5f * std::abs(w)) ++n;
  }
  return n;
}

/// A folder with the program and every input as DIR/in/NAME.npy.
struct Case {
  std::string dir;
  Case(const std::string& name, const std::string& program, const TensorMap& inputs)
      : dir(std::filesystem::temp_directory_path() / ("pir_gm_" + name)) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir + "/in");
    std::ofstream(dir + "/p.pir") << program;
    for (auto& [n, t] : inputs) std::ofstream(dir + "/in/" + n + ".npy", std::ios::binary) << encodeNpy(t);
  }
  ~Case() { std::filesystem::remove_all(dir); }

  /// The runner's results: plain (no passes), or through `passes` on
  /// `microBatches` micro-batches scheduled FThenB.
  TensorMap run(const std::string& passes = "", int64_t microBatches = 0) {
    passes::registerAllPasses();
    runner::RunConfig cfg;
    cfg.program = dir + "/p.pir";
    cfg.inputs.dir = dir + "/in";
    cfg.passes = passes;
    if (!passes.empty()) cfg.mode = "FThenB", cfg.microBatches = microBatches;
    runner::Runner r;
    runner::RunReport report;
    core::Status s = r.run(cfg, report);
    INFO(core::renderStatus(s));
    REQUIRE(s.isOk());
    return report.results;
  }
};

/// The dense step's inputs: the batch, and the state (parameters, learning
/// rate, adamw's moments and beta powers).
TensorMap stepInputs() {
  return {{"x", filled({kBatch, 3}, 1, -1, 1)},  {"label", filled({kBatch, 2}, 2, 0.5, 1.5)},
          {"w", filled({3, 2}, 3, -1, 1)},       {"b", filled({2}, 4, 0, 0.5)},
          {"learning_rate", constant({}, 0.1f)}, {"b_moment1", constant({2}, 0)},
          {"b_moment2", constant({2}, 0)},       {"b_beta1_pow", constant({1}, 0.9f)},
          {"b_beta2_pow", constant({1}, 0.999f)}};
}

std::string merge(int64_t k, bool avg = true) {
  return "gradient-merge{k=" + std::to_string(k) + (avg ? " avg=true" : " avg=false") + "},pipeline-split{mode=FThenB}";
}

}  // namespace

TEST_CASE("k merged micro-batches update the parameters as the plain step on the whole batch", "[gradient-merge]") {
  TensorMap in = stepInputs();
  Case c("dense", readFile(PIR_TESTDATA_DIR "/gradient_merge/01_dense_sgd_adamw.pir"), in);
  TensorMap plain = c.run();
  REQUIRE(mismatches(plain.at("w"), in.at("w")) == in.at("w").numel());  // the step moved every weight
  for (int64_t k : {2, 4}) {
    INFO("k = " << k);
    TensorMap merged = c.run(merge(k), k);
    for (const char* name : {"w", "b", "b_moment1", "b_moment2", "b_beta1_pow", "b_beta2_pow"}) {
      INFO(name);
      CHECK(mismatches(merged.at(name), plain.at(name)) == 0);
    }
    // The optimizer zeroed the buffers for the next step.
    for (const char* name : {"w@GRAD@MERGE", "b@GRAD@MERGE"}) {
      const Tensor& buffer = merged.at(name);
      for (int64_t i = 0; i < buffer.numel(); ++i) CHECK(buffer.data<float>()[i] == 0.0f);
    }
  }
}

TEST_CASE("a k that is not the number of micro-batches run gives other parameters", "[gradient-merge]") {
  Case c("dense_k", readFile(PIR_TESTDATA_DIR "/gradient_merge/01_dense_sgd_adamw.pir"), stepInputs());
  TensorMap plain = c.run();
  // avg divides by k = 4, but only 2 micro-batches ran: half the gradient.
  CHECK(mismatches(c.run(merge(4), 2).at("w"), plain.at("w")) > 0);
  // Without avg the sum of 2 micro-batch means is twice the gradient.
  CHECK(mismatches(c.run(merge(2, false), 2).at("w"), plain.at("w")) > 0);
}

namespace {

/// gradient_merge/05's 2-stage program (stage 0 on rank 0, stage 1 on rank
/// 1) with a batch of `batch` rows.
std::string twoStageText(int64_t batch) {
  std::string s = readFile(PIR_TESTDATA_DIR "/gradient_merge/05_dist_two_stages.pir"), b = std::to_string(batch);
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"<4x8xf32", "<" + b + "x8xf32"}, {"[4,8]", "[" + b + ",8]"}})
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

TensorMap twoStageInputs() {
  return {{"x", filled({4, 8}, 5, -1, 1)},
          {"w0", filled({8, 8}, 6, -0.5, 0.5)},
          {"w1", filled({8, 8}, 7, -0.5, 0.5)},
          {"learning_rate_0", constant({}, 0.1f)},
          {"learning_rate_1", constant({}, 0.1f)}};
}

}  // namespace

TEST_CASE("gradient merge on the ranks of a 2-stage pipeline equals the plain step on the whole batch",
          "[gradient-merge]") {
  // Micro-batches of 2 rows, through send_v2/recv_v2 between the stages.
  TensorMap in = twoStageInputs();
  Case whole("two_stages_4", twoStageText(4), in), half("two_stages_2", twoStageText(2), in);
  TensorMap plain = whole.run("apply-partition,split-ranks,pipeline-split{mode=FThenB}", 1);
  TensorMap merged =
      half.run("apply-partition,split-ranks,gradient-merge{k=2 avg=true},pipeline-split{mode=FThenB}", 2);
  CHECK(mismatches(plain.at("w0"), in.at("w0")) > 0);  // the step moved the weights
  CHECK(mismatches(plain.at("w1"), in.at("w1")) > 0);
  CHECK(mismatches(merged.at("w0"), plain.at("w0")) == 0);
  CHECK(mismatches(merged.at("w1"), plain.at("w1")) == 0);
  // k=4 over 2 micro-batches: half the gradient, other weights.
  TensorMap wrongK =
      half.run("apply-partition,split-ranks,gradient-merge{k=4 avg=true},pipeline-split{mode=FThenB}", 2);
  CHECK(mismatches(wrongK.at("w0"), plain.at("w0")) > 0);
  CHECK(mismatches(wrongK.at("w1"), plain.at("w1")) > 0);
}
