//===- kernels_rms_norm_test.cpp - rms_norm and rms_norm_grad -------------===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

std::string attrs(int axis = 1, double eps = 0, double quantScale = -1) {
  return "epsilon:(Float)" + std::to_string(eps) + ",begin_norm_axis:(Int32)" + std::to_string(axis) +
         ",quant_scale:(Float)" + std::to_string(quantScale) +
         ",quant_round_type:(Int32)0,quant_max_bound:(Float)0,quant_min_bound:(Float)0";
}

// Operands (x, bias, residual, norm_weight, norm_bias); an undefined tensor is absent.
std::vector<Tensor> in(Tensor x, Tensor w, Tensor normBias = {}, Tensor bias = {}, Tensor residual = {}) {
  return {std::move(x), std::move(bias), std::move(residual), std::move(w), std::move(normBias)};
}

// Rows (1, 2) and (3, 4): mean squares 2.5 and 12.5.
const double kInv0 = 1 / std::sqrt(2.5), kInv1 = 1 / std::sqrt(12.5);

}  // namespace

TEST_CASE("rms_norm by hand", "[kernels][rms_norm]") {
  Tensor x = f64({2, 2}, {1, 2, 3, 4});
  Tensor w = f64({2}, {1, 2});
  auto r = run("pd_op.rms_norm", attrs(), in(x, w), 3);
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 2}, {kInv0, 4 * kInv0, 3 * kInv1, 8 * kInv1}, 1e-12);
  CHECK(r.out(2).dtype() == DataType::F64);
  checkValues(r.out(2), {2}, {kInv0, kInv1}, 1e-12);
  // residual_out is h (x here): made because its type is not null.
  checkValues(r.out(1), {2, 2}, {1, 2, 3, 4}, 0);
  // epsilon, norm_bias.
  auto e = run("pd_op.rms_norm", attrs(1, 0.5), in(x, w, f64({2}, {10, 20})), 3);
  REQUIRE(e.status.isOk());
  checkValues(e.out(0), {2, 2},
              {10 + 1 / std::sqrt(3.0), 20 + 4 / std::sqrt(3.0), 10 + 3 / std::sqrt(13.0), 20 + 8 / std::sqrt(13.0)},
              1e-12);
  // residual and bias: h = x + residual + bias = (1, 2), (3, 4) from x = 0.
  auto res = run("pd_op.rms_norm", attrs(),
                 in(f64({2, 2}, {0, 0, 0, 0}), w, {}, f64({2}, {1, 1}), f64({2, 2}, {0, 1, 2, 3})), 3);
  REQUIRE(res.status.isOk());
  checkValues(res.out(0), {2, 2}, {kInv0, 4 * kInv0, 3 * kInv1, 8 * kInv1}, 1e-12);
  checkValues(res.out(1), {2, 2}, {1, 2, 3, 4}, 0);
  // begin_norm_axis 2 of [2, 1, 2]: inv_var keeps the dims before it.
  auto ax = run("pd_op.rms_norm", attrs(2), in(f64({2, 1, 2}, {1, 2, 3, 4}), w), 3);
  REQUIRE(ax.status.isOk());
  CHECK(shapeOf(ax.out(2)) == Shape{2, 1});
  // f32 and bf16 keep inv_var in f32.
  auto f = run("pd_op.rms_norm", attrs(), in(f32({2, 2}, {1, 2, 3, 4}), f32({2}, {1, 2})), 3);
  REQUIRE(f.status.isOk());
  CHECK(f.out(2).dtype() == DataType::F32);
  checkValues(f.out(0), {2, 2}, {kInv0, 4 * kInv0, 3 * kInv1, 8 * kInv1}, 1e-6);
  auto b = run("pd_op.rms_norm", attrs(),
               in(tensorOf(DataType::BF16, {2, 2}, {1, 2, 3, 4}), tensorOf(DataType::BF16, {2}, {1, 2})), 3);
  REQUIRE(b.status.isOk());
  CHECK(b.out(0).dtype() == DataType::BF16);
  CHECK(b.out(2).dtype() == DataType::F32);
  checkValues(b.out(0), {2, 2}, {kInv0, 4 * kInv0, 3 * kInv1, 8 * kInv1}, 2e-2);
}

TEST_CASE("rms_norm refuses quantisation and shapes that do not fit", "[kernels][rms_norm]") {
  Tensor x = f64({2, 2}, {1, 2, 3, 4});
  auto q = run("pd_op.rms_norm", attrs(1, 0, 1.5), in(x, f64({2}, {1, 1})), 3);
  CHECK(q.status.message() == "quant_scale > 0 (a quantised output) is not supported");
  auto w = run("pd_op.rms_norm", attrs(), in(x, f64({3}, {1, 1, 1})), 3);
  CHECK(w.status.message() == "norm_weight [3] does not have the normalized size 2");
  auto ax = run("pd_op.rms_norm", attrs(3), in(x, f64({2}, {1, 1})), 3);
  CHECK(ax.status.message() == "begin_norm_axis is out of range for [2x2]");
  Tensor inv = f64({2}, {1, 1});
  auto g = run("pd_op.rms_norm_grad", attrs(), {x, {}, x, f64({2}, {1, 1}), {}, inv, x}, 3);
  CHECK(g.status.message().find("bias and residual are not supported") == 0);
  auto lse = run("pd_op.rms_norm_grad", attrs(), {x, {}, {}, f64({2}, {1, 1}), {}, f32({2}, {1, 1}), x}, 3);
  CHECK(lse.status.message() == "inv_var tensor<2xf32> is not one f64 per row of 2");
}

// f64 central differences of sum(out · w) in x, norm_weight and norm_bias.
TEST_CASE("rms_norm_grad matches finite differences", "[kernels][rms_norm]") {
  for (int axis : {1, 2}) {
    for (bool withNormBias : {false, true}) {
      INFO("begin_norm_axis " << axis << ", norm_bias " << withNormBias);
      Shape xs = {2, 3, 4};
      int64_t cols = axis == 1 ? 12 : 4;
      Tensor x = randomF64(xs, 60 + axis);
      Tensor w = randomF64({cols}, 61);
      Tensor nb = withNormBias ? randomF64({cols}, 62) : Tensor();
      Tensor weights = randomF64(xs, 63);
      std::string a = attrs(axis, 1e-5);
      auto fwd = run("pd_op.rms_norm", a, in(x, w, nb), 3);
      REQUIRE(fwd.status.isOk());
      auto g = run("pd_op.rms_norm_grad", a, {x, {}, {}, w, nb, fwd.out(2), weights}, 3);
      REQUIRE(g.status.isOk());
      auto out = [&](const std::vector<Tensor>& v) {
        auto r = run("pd_op.rms_norm", a, v, 3);
        REQUIRE(r.status.isOk());
        return r.out(0);
      };
      checkClose(g.out(0), numericGrad(out, in(x, w, nb), 0, weights), 1e-7);
      checkClose(g.out(1), numericGrad(out, in(x, w, nb), 3, weights), 1e-7);
      if (withNormBias) checkClose(g.out(2), numericGrad(out, in(x, w, nb), 4, weights), 1e-7);
    }
  }
}
