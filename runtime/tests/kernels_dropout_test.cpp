//===- kernels_dropout_test.cpp - dropout and dropout_grad ----------------===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

std::string attrs(double p, bool isTest, const std::string& mode, bool fixSeed = false, int seed = 0) {
  return "p:(Float)" + std::to_string(p) + ",is_test:" + (isTest ? "true" : "false") + ",mode:\"" + mode +
         "\",seed:(Int32)" + std::to_string(seed) + ",fix_seed:" + (fixSeed ? "true" : "false");
}
const std::string kUp = "upscale_in_train", kDown = "downgrade_in_infer";

std::vector<double> maskOf(const Tensor& m) {
  REQUIRE(m.dtype() == DataType::U8);
  return values(m);
}

/// The draw docs/pir-run.md describes, written out: SplitMix64 from `seed`,
/// element i dropped when its i-th output's top 53 bits / 2^53 < p.
std::vector<double> expectedMask(uint64_t seed, int64_t n, double p) {
  std::vector<double> keep;
  uint64_t state = seed;
  for (int64_t i = 0; i < n; ++i) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    keep.push_back(std::ldexp(double(z >> 11), -53) < p ? 0 : 1);
  }
  return keep;
}

}  // namespace

TEST_CASE("dropout at test time and with p = 0", "[kernels][dropout]") {
  Tensor x = f64({2, 2}, {1, -2, 3, 4});
  auto up = run("pd_op.dropout", attrs(0.25, true, kUp), {x, {}}, 2);
  REQUIRE(up.status.isOk());
  checkValues(up.out(0), {2, 2}, {1, -2, 3, 4}, 0);
  CHECK(maskOf(up.out(1)) == std::vector<double>{1, 1, 1, 1});
  auto down = run("pd_op.dropout", attrs(0.25, true, kDown), {x, {}}, 2);
  REQUIRE(down.status.isOk());
  checkValues(down.out(0), {2, 2}, {0.75, -1.5, 2.25, 3}, 0);
  // training with p = 0 keeps everything and needs no seed
  auto zero = run("pd_op.dropout", attrs(0, false, kUp), {x, {}}, 2);
  REQUIRE(zero.status.isOk());
  checkValues(zero.out(0), {2, 2}, {1, -2, 3, 4}, 0);
  CHECK(maskOf(zero.out(1)) == std::vector<double>{1, 1, 1, 1});
  // the grads
  Tensor d = f64({2, 2}, {1, 1, 1, 1});
  auto gt = run("pd_op.dropout_grad", attrs(0.25, true, kDown), {up.out(1), d});
  REQUIRE(gt.status.isOk());
  checkValues(gt.out(0), {2, 2}, {0.75, 0.75, 0.75, 0.75}, 0);
  auto gu = run("pd_op.dropout_grad", attrs(0.25, true, kUp), {up.out(1), d});
  checkValues(gu.out(0), {2, 2}, {1, 1, 1, 1}, 0);
}

TEST_CASE("training dropout with p > 0 needs a seed", "[kernels][dropout]") {
  auto r = run("pd_op.dropout", attrs(0.5, false, kUp), {f64({2}, {1, 2}), {}}, 2);
  CHECK(r.status.message().find("training dropout with p > 0 needs a seed") == 0);
  auto mode = run("pd_op.dropout", attrs(0.5, true, "other"), {f64({2}, {1, 2}), {}}, 2);
  CHECK(mode.status.message() == "mode \"other\" is neither upscale_in_train nor downgrade_in_infer");
  auto p = run("pd_op.dropout", attrs(1.5, true, kUp), {f64({2}, {1, 2}), {}}, 2);
  CHECK(p.status.message() == "p 1.500000 is outside [0, 1]");
}

TEST_CASE("a seeded dropout draws the documented mask", "[kernels][dropout]") {
  Tensor x = randomF64({40, 25}, 90);
  auto r = run("pd_op.dropout", attrs(0.3, false, kUp, true, 1234), {x, {}}, 2);
  REQUIRE(r.status.isOk());
  std::vector<double> want = expectedMask(1234, 1000, 0.3);
  CHECK(maskOf(r.out(1)) == want);
  double kept = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    kept += want[i];
    double xi = x.data<double>()[i];
    double got = r.out(0).data<double>()[i];  // p is a (Float): 1/(1 - 0.3f), not 1/0.7
    CHECK(std::abs(got - (want[i] ? xi / 0.7 : 0.0)) <= 1e-7 * std::abs(xi));
  }
  CHECK(std::abs(kept / 1000 - 0.7) < 0.05);  // the draw is uniform enough
  // seed_tensor overrides the attribute; downgrade_in_infer keeps x as is
  auto t = run("pd_op.dropout", attrs(0.3, false, kDown, true, 1), {x, tensorOf(DataType::I32, {1}, {1234})}, 2);
  REQUIRE(t.status.isOk());
  CHECK(maskOf(t.out(1)) == want);
  for (size_t i = 0; i < want.size(); ++i) CHECK(t.out(0).data<double>()[i] == want[i] * x.data<double>()[i]);
  // another seed, another mask
  auto o = run("pd_op.dropout", attrs(0.3, false, kUp, true, 1235), {x, {}}, 2);
  CHECK(maskOf(o.out(1)) != want);
  // p = 1 drops all
  auto all = run("pd_op.dropout", attrs(1, false, kUp, true, 7), {x, {}}, 2);
  REQUIRE(all.status.isOk());
  CHECK(values(all.out(0)) == std::vector<double>(1000, 0.0));
}

// Training grads: out_grad·mask/(1 - p) and out_grad·mask; with the mask
// fixed dropout is linear, its grad the same map (checked by differences).
TEST_CASE("dropout_grad in training matches finite differences", "[kernels][dropout]") {
  for (const std::string& mode : {kUp, kDown}) {
    INFO(mode);
    std::string a = attrs(0.4, false, mode, true, 99);
    Tensor x = randomF64({6, 5}, 91), w = randomF64({6, 5}, 92);
    auto fwd = run("pd_op.dropout", a, {x, {}}, 2);
    REQUIRE(fwd.status.isOk());
    auto g = run("pd_op.dropout_grad", a, {fwd.out(1), w});
    REQUIRE(g.status.isOk());
    auto out = [&](const std::vector<Tensor>& v) {
      auto r = run("pd_op.dropout", a, v, 2);
      REQUIRE(r.status.isOk());
      return r.out(0);
    };
    checkClose(g.out(0), numericGrad(out, {x, {}}, 0, w), 1e-8);
  }
  auto noMask = run("pd_op.dropout_grad", attrs(0.4, false, kUp), {{}, f64({2}, {1, 1})});
  CHECK(noMask.status.message() == "a training dropout_grad needs the forward's u8 mask of out_grad's shape, not none");
}
