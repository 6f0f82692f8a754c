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
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "runtime/comm/in_process.h"
#include "runtime/tests/run_helpers.h"

using namespace pir;
using namespace pir::runtime;

namespace {

/// The step (batch dim -1: micro-batches of any size), the input of the
/// golden gradient_merge/01.
std::string stepText() {
  std::ifstream in(PIR_TESTDATA_DIR "/gradient_merge/01_dense_sgd_adamw.pir");
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

/// Rows [from, to) of a 2-D tensor, as a tensor of its own.
Tensor rows(const Tensor& t, int64_t from, int64_t to) {
  int64_t cols = t.dim(1);
  Tensor r = Tensor::allocate(DataType::F32, {to - from, cols});
  std::copy(t.data<float>() + from * cols, t.data<float>() + to * cols, r.data<float>());
  return r;
}

/// The step's inputs: the batch, and the state (parameters, learning rate,
/// adamw's moments and beta powers), which the optimizers update in place.
struct Inputs {
  Tensor x = filled({kBatch, 3}, 1, -1, 1), label = filled({kBatch, 2}, 2, 0.5, 1.5);
  TensorMap state{{"w", filled({3, 2}, 3, -1, 1)},       {"b", filled({2}, 4, 0, 0.5)},
                  {"learning_rate", constant({}, 0.1f)}, {"b_moment1", constant({2}, 0)},
                  {"b_moment2", constant({2}, 0)},       {"b_beta1_pow", constant({1}, 0.9f)},
                  {"b_beta2_pow", constant({1}, 0.999f)}};

  Inputs copy() const {
    Inputs c;
    for (auto& [name, t] : state) c.state[name] = t.clone();
    return c;
  }
};

/// The programs `pipeline` makes of the step, compiled, by job.
struct Jobs {
  std::unique_ptr<testing::TestProgram> step = testing::parse(stepText());
  core::ProgramSet set;
  std::map<std::string, std::unique_ptr<Executor>> byJob;

  explicit Jobs(const std::string& pipeline) {
    REQUIRE(step->program);
    passes::registerAllPasses();
    core::SourceFile src("step.pir", step->text);
    core::DiagnosticEngine diag(&src);
    set.programs.push_back({"", std::move(step->program)});
    std::vector<passes::PassSpec> specs;
    REQUIRE(passes::parsePassPipeline(pipeline, specs, diag));
    passes::PassManager pm;
    REQUIRE(pm.addPipeline(specs, diag));
    core::Status s = pm.run(set, diag);
    INFO(diag.render() << s.message());
    REQUIRE(s.isOk());
    for (core::NamedProgram& p : set.programs) {
      auto ex = Executor::compile(*p.program);
      INFO(p.name << ": " << (ex.isOk() ? "" : ex.status().message()));
      REQUIRE(ex.isOk());
      byJob[p.name] = std::move(ex.value());
    }
  }

  /// Runs `job` on `scope` (state and the micro-batch's values), adding
  /// what it hands over to `scope`.
  void run(const std::string& job, TensorMap& scope) {
    REQUIRE(byJob.count(job));
    TensorMap fetches;
    core::Status s = byJob[job]->run(scope, fetches);
    INFO(job << ": " << s.message());
    REQUIRE(s.isOk());
    for (auto& [name, t] : fetches) scope[name] = t;
  }
};

/// One merged step over `microBatches` micro-batches of `in`; the state
/// (with the merge buffers, zero at the start) is updated in place.
void mergedStep(Jobs& jobs, Inputs& in, int64_t microBatches) {
  for (const char* name : {"w@GRAD@MERGE", "b@GRAD@MERGE"})
    in.state[name] =
        Tensor::zeros(DataType::F32, name[0] == 'w' ? std::vector<int64_t>{3, 2} : std::vector<int64_t>{2});
  TensorMap scope;
  int64_t size = kBatch / microBatches;
  for (int64_t mb = 0; mb < microBatches; ++mb) {
    scope = in.state;  // a new micro-batch scope over the shared state
    scope["x"] = rows(in.x, mb * size, (mb + 1) * size);
    scope["label"] = rows(in.label, mb * size, (mb + 1) * size);
    jobs.run("forward", scope);
    jobs.run("backward", scope);
  }
  jobs.run("optimizer", scope);
}

/// The plain program on the whole batch.
void plainStep(Inputs& in) {
  TensorMap feeds = in.state;
  feeds["x"] = in.x;
  feeds["label"] = in.label;
  std::string error;
  testing::runText(stepText(), feeds, &error);
  REQUIRE(error.empty());
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

}  // namespace

TEST_CASE("k merged micro-batches update the parameters as the plain step on the whole batch", "[gradient-merge]") {
  for (int64_t k : {2, 4}) {
    INFO("k = " << k);
    Jobs jobs("gradient-merge{k=" + std::to_string(k) + " avg=true},pipeline-split{mode=FThenB}");
    Inputs plain, merged = plain.copy();
    Tensor w0 = plain.state["w"].clone();
    plainStep(plain);
    mergedStep(jobs, merged, k);
    REQUIRE(mismatches(plain.state["w"], w0) == w0.numel());  // the step moved every weight
    for (const char* name : {"w", "b", "b_moment1", "b_moment2", "b_beta1_pow", "b_beta2_pow"}) {
      INFO(name);
      CHECK(mismatches(merged.state[name], plain.state[name]) == 0);
    }
    // The optimizer zeroed the buffers for the next step.
    for (float v : testing::values(merged.state["w@GRAD@MERGE"])) CHECK(v == 0.0f);
  }
}

TEST_CASE("a k that is not the number of micro-batches run gives other parameters", "[gradient-merge]") {
  // avg divides by k = 4, but only 2 micro-batches ran: half the gradient.
  Jobs jobs("gradient-merge{k=4 avg=true},pipeline-split{mode=FThenB}");
  Inputs plain, merged = plain.copy();
  plainStep(plain);
  mergedStep(jobs, merged, 2);
  CHECK(mismatches(merged.state["w"], plain.state["w"]) > 0);
  // Without avg the sum of 2 micro-batch means is twice the gradient.
  Jobs summed("gradient-merge{k=2 avg=false},pipeline-split{mode=FThenB}");
  Inputs reference, summedIn = reference.copy();
  plainStep(reference);
  mergedStep(summed, summedIn, 2);
  CHECK(mismatches(summedIn.state["w"], reference.state["w"]) > 0);
}

namespace {

/// gradient_merge/05's 2-stage program (stage 0 on rank 0, stage 1 on rank
/// 1) with a batch of `batch` rows.
std::string twoStageText(int64_t batch) {
  std::ifstream in(PIR_TESTDATA_DIR "/gradient_merge/05_dist_two_stages.pir");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str(), b = std::to_string(batch);
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"<4x8xf32", "<" + b + "x8xf32"}, {"[4,8]", "[" + b + ",8]"}})
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  return s;
}

/// The per-rank FThenB jobs `pipeline` makes of the 2-stage program, run
/// on two in-process ranks (the program's batch `batch`, x cut into
/// `microBatches` blocks of rows): forward for every micro-batch, then
/// backward for every micro-batch, then the optimizer, each micro-batch a
/// scope over the rank's state, which the optimizers update in place.
void runTwoStages(const std::string& pipeline, int64_t batch, int64_t microBatches, const Tensor& x,
                  const std::vector<TensorMap>& state) {
  auto program = testing::parse(twoStageText(batch));
  REQUIRE(program->program);
  passes::registerAllPasses();
  core::DiagnosticEngine diag;
  core::ProgramSet set;
  set.programs.push_back({"", std::move(program->program)});
  std::vector<passes::PassSpec> specs;
  REQUIRE(passes::parsePassPipeline(pipeline, specs, diag));
  passes::PassManager pm;
  REQUIRE(pm.addPipeline(specs, diag));
  core::Status s = pm.run(set, diag);
  INFO(diag.render() << s.message());
  REQUIRE(s.isOk());
  RingTable rings;
  for (const auto& pass : pm.passes())
    for (const auto& [name, text] : pass->outputFiles())
      if (name == "ranks.yaml") {
        auto layout = passes::parseRankLayout(text);
        REQUIRE(layout.isOk());
        for (const core::ProcessGroup& g : layout->rings.rings()) rings[g.ringId] = g.ranks;
      }
  std::map<std::pair<int64_t, std::string>, std::unique_ptr<Executor>> jobs;
  for (core::NamedProgram& p : set.programs) {
    auto ex = Executor::compile(*p.program);
    INFO(p.name << ": " << (ex.isOk() ? "" : ex.status().message()));
    REQUIRE(ex.isOk());
    jobs[{p.rank, p.job}] = std::move(ex.value());
  }
  InProcessWorld world(2, rings, std::chrono::milliseconds(5000));
  WorldOutcome outcome = world.run([&](int64_t rank, Communicator& comm) -> core::Status {
    std::vector<TensorMap> scopes(size_t(microBatches), state[size_t(rank)]);
    int64_t size = x.dim(0) / microBatches;
    for (int64_t mb = 0; mb < microBatches; ++mb) scopes[size_t(mb)]["x"] = rows(x, mb * size, (mb + 1) * size);
    for (const char* job : {"forward", "backward", "optimizer"})
      for (int64_t mb = 0; mb < (std::string(job) == "optimizer" ? 1 : microBatches); ++mb) {
        TensorMap fetches;
        if (core::Status st = jobs.at({rank, job})->run(scopes[size_t(mb)], fetches, &comm); !st) return st;
        for (auto& [name, t] : fetches) scopes[size_t(mb)][name] = t;
      }
    return core::Status::ok();
  });
  std::string why;
  for (const core::Status& st : outcome.perRank) why += st.message() + "\n";
  INFO(why);
  REQUIRE(outcome.kind == WorldOutcome::Kind::Ok);
}

std::vector<TensorMap> twoStageState() {
  std::vector<TensorMap> s(2);
  s[0] = {{"w0", filled({8, 8}, 6, -0.5, 0.5)}, {"learning_rate_0", constant({}, 0.1f)}};
  s[1] = {{"w1", filled({8, 8}, 7, -0.5, 0.5)}, {"learning_rate_1", constant({}, 0.1f)}};
  return s;
}

}  // namespace

TEST_CASE("gradient merge on the ranks of a 2-stage pipeline equals the plain step on the whole batch",
          "[gradient-merge]") {
  // Micro-batches of 2 rows, through send_v2/recv_v2 between the stages.
  Tensor x = filled({4, 8}, 5, -1, 1);
  std::vector<TensorMap> plain = twoStageState(), merged = twoStageState(), wrongK = twoStageState();
  Tensor w0 = plain[0]["w0"].clone(), w1 = plain[1]["w1"].clone();
  for (auto* s : {&merged, &wrongK}) {
    (*s)[0]["w0@GRAD@MERGE"] = Tensor::zeros(DataType::F32, std::vector<int64_t>{8, 8});
    (*s)[1]["w1@GRAD@MERGE"] = Tensor::zeros(DataType::F32, std::vector<int64_t>{8, 8});
  }
  runTwoStages("apply-partition,split-ranks,pipeline-split{mode=FThenB}", 4, 1, x, plain);
  runTwoStages("apply-partition,split-ranks,gradient-merge{k=2 avg=true},pipeline-split{mode=FThenB}", 2, 2, x, merged);
  CHECK(mismatches(plain[0]["w0"], w0) > 0);  // the step moved the weights
  CHECK(mismatches(plain[1]["w1"], w1) > 0);
  CHECK(mismatches(merged[0]["w0"], plain[0]["w0"]) == 0);
  CHECK(mismatches(merged[1]["w1"], plain[1]["w1"]) == 0);
  // k=4 over 2 micro-batches: half the gradient, other weights.
  runTwoStages("apply-partition,split-ranks,gradient-merge{k=4 avg=true},pipeline-split{mode=FThenB}", 2, 2, x, wrongK);
  CHECK(mismatches(wrongK[0]["w0"], plain[0]["w0"]) > 0);
  CHECK(mismatches(wrongK[1]["w1"], plain[1]["w1"]) > 0);
}
