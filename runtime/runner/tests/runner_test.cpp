//===- runner_test.cpp - layout, compare, blob, inputs, scope rules -------===//
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "passes/pass_registry.h"
#include "runtime/npy.h"
#include "runtime/runner/blob.h"
#include "runtime/runner/compare.h"
#include "runtime/runner/inputs.h"
#include "runtime/runner/layout.h"
#include "runtime/runner/runner.h"

using namespace pir;
using namespace pir::runtime;
using namespace pir::runtime::runner;

namespace {

Tensor f32(std::vector<int64_t> shape, std::vector<float> v) {
  Tensor t = Tensor::allocate(DataType::F32, shape);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

std::vector<float> values(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

/// A [4] value on a mesh of 2 ranks: replicated and partial with `reduce`.
passes::LayoutValue partialOnTwo(core::ReduceType reduce) {
  passes::LayoutValue v;
  v.name = "x";
  v.shape = {4};
  v.meshShape = {2};
  v.processIds = {0, 1};
  v.dimsMapping = {-1};
  v.partial = {{0, reduce}};
  v.pieces = {{0, {4}, {{0, 4}}}, {1, {4}, {{0, 4}}}};
  return v;
}

/// A [4] value sharded over 2 ranks on dim 0.
passes::LayoutValue shardedOnTwo() {
  passes::LayoutValue v;
  v.name = "y";
  v.shape = {4};
  v.meshShape = {2};
  v.processIds = {0, 1};
  v.dimsMapping = {0};
  v.pieces = {{0, {2}, {{0, 2}}}, {1, {2}, {{2, 4}}}};
  return v;
}

}  // namespace

TEST_CASE("a partial input is sliced so that reducing the pieces gives it back", "[runner][layout]") {
  const Tensor global = f32({4}, {1.5f, -2, 3, 0.25f});
  struct Case {
    core::ReduceType reduce;
    std::vector<float> other;  // what rank 1 holds
  };
  for (const Case& c : {Case{core::ReduceType::Sum, {0, 0, 0, 0}}, Case{core::ReduceType::Product, {1, 1, 1, 1}},
                        Case{core::ReduceType::Max, {1.5f, -2, 3, 0.25f}}}) {
    INFO(core::reduceTypeName(c.reduce));
    passes::LayoutValue v = partialOnTwo(c.reduce);
    auto p0 = slicePiece(v, global, 0), p1 = slicePiece(v, global, 1);
    REQUIRE(p0.isOk());
    REQUIRE(p1.isOk());
    CHECK(values(*p0) == values(global));
    CHECK(values(*p1) == c.other);
    // Assembled, the reduce type's reduction of the pieces is the value.
    auto back = assemble(v, {{0, *p0}, {1, *p1}});
    REQUIRE(back.isOk());
    CHECK(values(*back) == values(global));
  }
}

TEST_CASE("a partial(PROD) value multiplies its addends; SUM adds them", "[runner][layout]") {
  auto prod = assemble(partialOnTwo(core::ReduceType::Product),
                       {{0, f32({4}, {2, 3, -1, 0.5f})}, {1, f32({4}, {4, 0.5f, 5, 8})}});
  REQUIRE(prod.isOk());
  CHECK(values(*prod) == std::vector<float>{8, 1.5f, -5, 4});
  auto sum =
      assemble(partialOnTwo(core::ReduceType::Sum), {{0, f32({4}, {2, 3, -1, 0.5f})}, {1, f32({4}, {4, 0.5f, 5, 8})}});
  REQUIRE(sum.isOk());
  CHECK(values(*sum) == std::vector<float>{6, 3.5f, 4, 8.5f});
}

TEST_CASE("shards go to their ranges; a missing rank or a bad piece is an error", "[runner][layout]") {
  passes::LayoutValue v = shardedOnTwo();
  const Tensor global = f32({4}, {1, 2, 3, 4});
  auto p1 = slicePiece(v, global, 1);
  REQUIRE(p1.isOk());
  CHECK(values(*p1) == std::vector<float>{3, 4});
  auto back = assemble(v, {{0, f32({2}, {1, 2})}, {1, *p1}});
  REQUIRE(back.isOk());
  CHECK(values(*back) == values(global));
  CHECK_FALSE(slicePiece(v, global, 5).isOk());
  CHECK_FALSE(assemble(v, {}).isOk());
}

TEST_CASE("replicas that differ beyond the tolerance name both ranks", "[runner][layout]") {
  passes::LayoutValue v = shardedOnTwo();
  v.dimsMapping = {-1};
  v.pieces = {{0, {4}, {{0, 4}}}, {1, {4}, {{0, 4}}}};
  auto ok = assemble(v, {{0, f32({4}, {1, 2, 3, 4})}, {1, f32({4}, {1, 2, 3, 4.00001f})}});
  CHECK(ok.isOk());
  auto bad = assemble(v, {{0, f32({4}, {1, 2, 3, 4})}, {1, f32({4}, {1, 2, 3, 4.1f})}});
  REQUIRE_FALSE(bad.isOk());
  CHECK(bad.status().message() == "the replicas of 'y' on ranks 0 and 1 differ");
}

TEST_CASE("compare: f32 within 1e-6 + 1e-5|b|, NaN equals NaN, integers exactly", "[runner][compare]") {
  TensorMap want{{"a", f32({3}, {1, 100, NAN})}};
  CompareReport r = compareResults({{"a", f32({3}, {1.000001f, 100.001f, NAN})}}, want);
  CHECK(r.match);
  CHECK(r.compared == 1);
  // The worst element, relative to its tolerance: 100.001 is 0.001 of 1e-6 + 1e-3.
  CHECK(r.worst.what == "'a', flat index 1");
  CHECK(r.worst.ratio == Approx(0.001 / 0.001001).epsilon(1e-3));
  r = compareResults({{"a", f32({3}, {1, 100.01f, NAN})}}, want);
  CHECK_FALSE(r.match);
  CHECK(r.mismatch ==
        "'a' differs at flat index 1: 100.010002, serially 100 (9.99 times the tolerance; 1 of 3 elements beyond it)");
  r = compareResults({{"a", f32({3}, {1, 100, 0})}}, want);
  CHECK_FALSE(r.match);  // a NaN is no number
  r = compareResults({}, want);
  CHECK(r.mismatch == "'a' is missing from the run");
  r = compareResults({{"a", f32({1, 3}, {1, 100, NAN})}}, want);
  CHECK(r.mismatch == "'a' is tensor<1x3xf32>, serially tensor<3xf32>");
  Tensor i = Tensor::zeros(DataType::I64, std::vector<int64_t>{2}), j = i.clone();
  j.data<int64_t>()[1] = 1;
  CHECK_FALSE(compareResults({{"i", j}}, {{"i", i}}).match);
}

TEST_CASE("compare: inf equals inf of its sign, NaN only NaN", "[runner][compare]") {
  TensorMap want{{"a", f32({3}, {INFINITY, -INFINITY, NAN})}};
  CompareReport r = compareResults({{"a", f32({3}, {INFINITY, -INFINITY, NAN})}}, want);
  CHECK(r.match);
  CHECK(r.worst.ratio == 0);
  r = compareResults({{"a", f32({3}, {INFINITY, INFINITY, NAN})}}, want);
  CHECK_FALSE(r.match);
  CHECK(r.mismatch == "'a' differs at flat index 1: inf, serially -inf (1 of 3 elements beyond it)");
  CHECK_FALSE(compareResults({{"a", f32({3}, {INFINITY, -INFINITY, 1})}}, want).match);
}

namespace {

/// A one-step record: parameter `w` from `before` to `after`, its gradient `g`.
RunValues oneStep(std::vector<float> before, std::vector<float> after, std::vector<float> g) {
  RunValues v;
  auto n = int64_t(before.size());
  v.final = {{"w", f32({n}, after)}};
  v.steps.push_back({{{"w", f32({n}, g)}}, {{"w", f32({n}, before)}}});
  return v;
}

}  // namespace

TEST_CASE("compare: a gradient twice the serial one fails however small it is", "[runner][compare]") {
  // Gradients of ~1e-8 are within 1e-6 of anything as values; relative to
  // their own size, twice them is far off. The parameters end equal.
  RunValues want = oneStep({1, 2}, {1, 2}, {1e-8f, -2e-8f});
  CompareReport r = compareRun(oneStep({1, 2}, {1, 2}, {1.00001e-8f, -2e-8f}), want);
  CHECK(r.match);
  CHECK(r.gradients == 1);
  CHECK(r.updates == 1);
  CHECK(r.steps == 1);
  r = compareRun(oneStep({1, 2}, {1, 2}, {2e-8f, -4e-8f}), want);
  REQUIRE_FALSE(r.match);
  INFO(r.mismatch);
  // 2e-8 off, against a tolerance of 1e-5 * 2e-8 + 1e-4 * 2e-8.
  CHECK(r.mismatch ==
        "'w' gradient at step 1 differs at flat index 1: -3.99999998e-08, serially -1.99999999e-08 (9.09e+03 times the "
        "tolerance; 2 of 2 elements beyond it)");
}

TEST_CASE("compare: an update is checked against its own size, less its parameter's rounding", "[runner][compare]") {
  // Updates of 1e-3 on parameters of 1: 1% more fails, although the
  // parameters are within 1e-6 + 1e-5|b| of each other...
  RunValues want = oneStep({1, 1}, {1.001f, 0.999f}, {1, 1});
  CHECK(compareRun(oneStep({1, 1}, {1.001f, 0.999f}, {1, 1}), want).match);
  CompareReport r = compareRun(oneStep({1, 1}, {1.00101f, 0.999f}, {1, 1}), want);
  REQUIRE_FALSE(r.match);
  CHECK(r.mismatch.rfind("'w' update at step 1 differs at flat index 0: ", 0) == 0);
  // ...and an update below the parameter's resolution is not held to more
  // than the rounding: one ulp of 1 more is still within it.
  RunValues tiny = oneStep({1, 1}, {1, 1}, {1, 1});
  CHECK(compareRun(oneStep({1, 1}, {std::nextafter(1.0f, 2.0f), 1}, {1, 1}), tiny).match);
  CHECK_FALSE(compareRun(oneStep({1, 1}, {1.000002f, 1}, {1, 1}), tiny).match);
}

TEST_CASE("compare: an update whose gradient's sign the check cannot tell may take any step of the update's size",
          "[runner][compare]") {
  // Gradient element 1 is 1e-6 against a largest of 0.1: within the
  // gradient's tolerance (1e-4 of 0.1) of zero. adam's step, lr g / (|g| +
  // 1e-6), moves it by 0.05 serially and by 0.03 when the run's gradient is
  // 0.43e-6 (as f32 rounding of a cancelling sum gives): allowed, up to
  // twice the largest update. Element 0's gradient is decided: its update is
  // held to its own tolerance, and element 1 to 0.2 (0.3 off fails).
  RunValues want = oneStep({1, 1}, {0.9f, 1.05f}, {0.1f, 1e-6f});
  CompareReport r = compareRun(oneStep({1, 1}, {0.9f, 1.03f}, {0.1f, 0.43e-6f}), want);
  CHECK(r.match);
  CHECK(r.worst.ratio < 1);
  CHECK_FALSE(compareRun(oneStep({1, 1}, {0.9f, 1.35f}, {0.1f, 0.43e-6f}), want).match);
  CHECK_FALSE(compareRun(oneStep({1, 1}, {0.901f, 1.05f}, {0.1f, 1e-6f}), want).match);
  // A gradient of 1e-3 against 0.1 is decided: the same 0.02 off fails.
  want = oneStep({1, 1}, {0.9f, 1.05f}, {0.1f, 1e-3f});
  CHECK_FALSE(compareRun(oneStep({1, 1}, {0.9f, 1.03f}, {0.1f, 1e-3f}), want).match);
}

TEST_CASE("compare: the earliest step's gradient is named first; a missing gradient too", "[runner][compare]") {
  RunValues want = oneStep({1}, {1}, {1});
  want.steps.push_back(want.steps[0]);
  RunValues got = want;
  got.steps[1].gradients["w"] = f32({1}, {2});
  got.final["w"] = f32({1}, {5});
  CompareReport r = compareRun(got, want);
  REQUIRE_FALSE(r.match);
  CHECK(r.mismatch.rfind("'w' gradient at step 2 differs", 0) == 0);
  got = want;
  got.steps[0].gradients.clear();
  CHECK(compareRun(got, want).mismatch == "'w' gradient at step 1 is missing from the run");
}

TEST_CASE("the determinism check compares bits", "[runner][compare]") {
  TensorMap want{{"a", f32({2}, {1, 0.0f})}};
  CHECK(compareBitwise({{"a", f32({2}, {1, 0.0f})}}, want).match);
  CompareReport r = compareBitwise({{"a", f32({2}, {1, -0.0f})}}, want);
  CHECK_FALSE(r.match);  // -0 == 0 as numbers, not as bits
  CHECK(r.mismatch == "'a' differs at flat index 1: -0, in the second run 0");
}

TEST_CASE("a blob reads back what was written, and a cut one is not ok", "[runner][blob]") {
  BlobWriter w;
  TensorMap m{{"x", f32({2, 2}, {1, 2, 3, 4})}, {"empty", Tensor()}};
  std::map<int64_t, uint64_t> bytes{{0, 64}, {3, 8}};
  w.put(int64_t(-7)), w.put(std::string("name")), w.put(m), w.put(std::vector<double>{0.5, 2}), w.put(bytes);
  std::string blob = w.take();
  BlobReader r(blob);
  int64_t i = 0;
  std::string s;
  TensorMap back;
  std::vector<double> d;
  std::map<int64_t, uint64_t> bytesBack;
  r.get(i), r.get(s), r.get(back), r.get(d), r.get(bytesBack);
  REQUIRE(r.ok());
  CHECK(i == -7);
  CHECK(s == "name");
  CHECK(values(back.at("x")) == std::vector<float>{1, 2, 3, 4});
  CHECK_FALSE(back.at("empty").defined());
  CHECK(d == std::vector<double>{0.5, 2});
  CHECK(bytesBack == bytes);
  for (size_t cut : {size_t(0), size_t(3), blob.size() / 2, blob.size() - 1}) {
    BlobReader c(std::string_view(blob).substr(0, cut));
    c.get(i), c.get(s), c.get(back), c.get(d), c.get(bytesBack);
    CHECK_FALSE(c.ok());
  }
}

TEST_CASE("the input draw follows the documented formula", "[runner][inputs]") {
  // docs/pir-run.md "Inputs": mt19937_64 seeded with seed ^ FNV-1a(name),
  // u = (next >> 11) * 2^-53; Box-Muller in pairs. The hash is pinned by
  // FNV-1a's published 64-bit test vectors, not by a second copy of the loop.
  CHECK(fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a64("foobar") == 0x85944171f73967e8ull);
  auto hash = [](const std::string& s) { return fnv1a64(s); };
  const std::string name = "linear_0.w_0";
  const uint64_t seed = 42;
  std::mt19937_64 gen(seed ^ hash(name));
  std::vector<double> want;
  for (int k = 0; k < 3; ++k) {
    double u1 = double(gen() >> 11) * 0x1p-53, u2 = double(gen() >> 11) * 0x1p-53;
    double r = std::sqrt(-2.0 * std::log(1.0 - u1));
    want.push_back(0.25 * r * std::cos(2 * M_PI * u2));
    want.push_back(0.25 * r * std::sin(2 * M_PI * u2));
  }
  const int64_t shape[] = {2, 3};
  Tensor got = drawNormal(name, seed, DataType::F64, shape, 0.25);
  for (int64_t i = 0; i < 6; ++i) CHECK(got.data<double>()[i] == want[size_t(i)]);
  // f32 rounds the same values; another seed or name draws others.
  Tensor f = drawNormal(name, seed, DataType::F32, shape, 0.25);
  for (int64_t i = 0; i < 6; ++i) CHECK(f.data<float>()[i] == float(want[size_t(i)]));
  CHECK(drawNormal(name, seed + 1, DataType::F64, shape, 0.25).data<double>()[0] != want[0]);
}

namespace {

/// Writes `text` to a fresh file in a fresh folder; the path.
std::string writeProgram(const std::string& dir, const std::string& text) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/p.pir") << text;
  return dir + "/p.pir";
}

}  // namespace

TEST_CASE("scope rules: a plain run's state carries over steps; set_parameter writes the shared scope",
          "[runner][scope]") {
  passes::registerAllPasses();
  // w is a parameter; each step sets it to w * 2 through set_parameter, and
  // fetches what it read. After 3 steps from w: the fetch is 4w, w is 8w.
  std::string text =
      "{\n"
      "    (%0) = \"builtin.parameter\" () {is_distributed:false,is_parameter:true,need_clip:true,"
      "parameter_name:\"w\",persistable:true,stop_gradient:false,trainable:true} : () -> builtin.tensor<2xf32>\n"
      "    (%1) = \"pd_op.scale\" (%0) {bias:(Float)0,bias_after_scale:true,scale:(Float)2,stop_gradient:false} : "
      "(builtin.tensor<2xf32>) -> builtin.tensor<2xf32>\n"
      "    () = \"builtin.shadow_output\" (%0) {output_name:\"seen\"} : (builtin.tensor<2xf32>) -> \n"
      "    () = \"builtin.set_parameter\" (%1) {parameter_name:\"w\"} : (builtin.tensor<2xf32>) -> \n"
      "}\n";
  std::string dir = std::filesystem::temp_directory_path() / "pir_runner_scope_test";
  RunConfig cfg;
  cfg.program = writeProgram(dir, text);
  std::filesystem::create_directories(dir + "/in");
  std::ofstream(dir + "/in/w.npy", std::ios::binary) << encodeNpy(f32({2}, {1.5f, -3}));
  cfg.inputs.dir = dir + "/in";
  cfg.steps = 3;
  Runner r;
  RunReport report;
  core::Status s = r.run(cfg, report);
  INFO(core::renderStatus(s));
  REQUIRE(s.isOk());
  CHECK(values(report.results.at("seen")) == std::vector<float>{6, -12});
  CHECK(values(report.results.at("w")) == std::vector<float>{12, -24});
  std::filesystem::remove_all(dir);
}

TEST_CASE("a failure is a located status, rendered once by the caller", "[runner][errors]") {
  passes::registerAllPasses();
  std::string dir = std::filesystem::temp_directory_path() / "pir_runner_error_test";
  RunConfig cfg;
  cfg.program = writeProgram(dir,
                             "{\n"
                             "    (%0) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",place:"
                             "(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[-1,2],stop_gradient:[true]} : () -> "
                             "builtin.tensor<-1x2xf32>\n"
                             "}\n");
  Runner r;
  RunReport report;
  core::Status s = r.run(cfg, report);
  REQUIRE_FALSE(s.isOk());
  CHECK(s.source() != nullptr);
  CHECK(s.message().find("error: ") == std::string::npos);
  CHECK_FALSE(s.message().ends_with("\n"));
  std::string text = core::renderStatus(s);
  INFO(text);
  CHECK(text.starts_with(cfg.program + ":2:5: error: 'x' has a dynamic shape tensor<?x2xf32>"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("each step's loss is handed over in order as the step finishes, and before a later step fails",
          "[runner][steps]") {
  passes::registerAllPasses();
  // loss = mean(w); each step sets w to w * 2: from w = [1, 3] the losses are 2, 4, 8.
  std::string body =
      "    (%0) = \"builtin.parameter\" () {is_parameter:true,parameter_name:\"w\",persistable:true,"
      "stop_gradient:false,trainable:true} : () -> builtin.tensor<2xf32>\n"
      "    (%1) = \"pd_op.mean\" (%0) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[false]} : "
      "(builtin.tensor<2xf32>) -> builtin.tensor<f32>\n"
      "    () = \"builtin.shadow_output\" (%1) {output_name:\"loss\"} : (builtin.tensor<f32>) -> \n";
  std::string dir = std::filesystem::temp_directory_path() / "pir_runner_step_loss_test";
  auto run = [&](const std::string& update, int64_t steps, std::vector<std::pair<int64_t, double>>& seen,
                 RunReport& report) {
    RunConfig cfg;
    cfg.program = writeProgram(dir, "{\n" + body + update + "}\n");
    std::filesystem::create_directories(dir + "/in");
    std::ofstream(dir + "/in/w.npy", std::ios::binary) << encodeNpy(f32({2}, {1, 3}));
    cfg.inputs.dir = dir + "/in";
    cfg.steps = steps;
    cfg.stepLoss = [&](int64_t step, const std::string& name, double loss) {
      CHECK(name == "loss");
      seen.push_back({step, loss});
    };
    Runner r;
    return r.run(cfg, report);
  };
  std::vector<std::pair<int64_t, double>> seen;
  RunReport report;
  core::Status s =
      run("    (%2) = \"pd_op.scale\" (%0) {bias:(Float)0,bias_after_scale:true,scale:(Float)2,stop_gradient:false} : "
          "(builtin.tensor<2xf32>) -> builtin.tensor<2xf32>\n"
          "    () = \"builtin.set_parameter\" (%2) {parameter_name:\"w\"} : (builtin.tensor<2xf32>) -> \n",
          3, seen, report);
  INFO(core::renderStatus(s));
  REQUIRE(s.isOk());
  CHECK(seen == std::vector<std::pair<int64_t, double>>{{0, 2.0}, {1, 4.0}, {2, 8.0}});
  CHECK(report.losses == std::vector<double>{2, 4, 8});
  // Step 2 reads a w of another shape (step 1 set a [3]): step 1's loss was handed over before the failure.
  seen.clear();
  RunReport failed;
  s =
      run("    (%2) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),"
          "shape:(pd_op.IntArray)[3],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<3xf32>\n"
          "    () = \"builtin.set_parameter\" (%2) {parameter_name:\"w\"} : (builtin.tensor<3xf32>) -> \n",
          3, seen, failed);
  CHECK_FALSE(s.isOk());
  CHECK(seen == std::vector<std::pair<int64_t, double>>{{0, 2.0}});
  std::filesystem::remove_all(dir);
}

TEST_CASE("ranks.yaml's entry must be what the rank's program reads: dtype and piece shape", "[runner][layout]") {
  passes::LayoutValue v = shardedOnTwo();
  ProgramInput in;
  in.name = "y";
  in.dtype = DataType::F32;
  in.shape = {2};
  CHECK(checkProgramReads(v, in, 1, nullptr).isOk());
  ProgramInput any = in;
  any.shape = {-1};  // a dynamic dim takes any size
  CHECK(checkProgramReads(v, any, 0, nullptr).isOk());
  ProgramInput whole = in;
  whole.shape = {4};
  core::Status shape = checkProgramReads(v, whole, 0, nullptr);
  REQUIRE_FALSE(shape.isOk());
  CHECK(shape.message() == "rank 0 reads 'y' as f32[4], but ranks.yaml gives its piece the shape [2]");
  v.dtype = DataType::F64;
  core::Status dtype = checkProgramReads(v, in, 0, nullptr);
  REQUIRE_FALSE(dtype.isOk());
  CHECK(dtype.message() == "rank 0 reads 'y' as f32[2], but ranks.yaml gives dtype float64");
}

TEST_CASE("every op without a kernel is listed at once, each located", "[runner][errors]") {
  passes::registerAllPasses();
  std::string dir = std::filesystem::temp_directory_path() / "pir_runner_kernel_test";
  RunConfig cfg;
  const std::string data =
      "    (%0) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",place:(pd_op.Place)Place(cpu),shape:"
      "(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>\n";
  cfg.program = writeProgram(dir, "{\n" + data +
                                      "    (%1) = \"pd_op.nokernel_a\" (%0) {} : (builtin.tensor<2xf32>) -> "
                                      "builtin.tensor<2xf32>\n"
                                      "    (%2) = \"pd_op.relu\" (%1) {} : (builtin.tensor<2xf32>) -> "
                                      "builtin.tensor<2xf32>\n"
                                      "    (%3) = \"pd_op.nokernel_b\" (%2) {} : (builtin.tensor<2xf32>) -> "
                                      "builtin.tensor<2xf32>\n"
                                      "}\n");
  Runner r;
  RunReport report;
  core::Status s = r.run(cfg, report);
  REQUIRE_FALSE(s.isOk());
  std::string text = core::renderStatus(s);
  INFO(text);
  CHECK(text.starts_with(cfg.program + ":3:5: error: pd_op.nokernel_a: no kernel for this op\n"));
  CHECK(text.find(cfg.program + ":5:5: error: pd_op.nokernel_b: no kernel for this op\n") != std::string::npos);
  std::filesystem::remove_all(dir);
}
