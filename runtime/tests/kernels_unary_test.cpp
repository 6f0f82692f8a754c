//===- kernels_unary_test.cpp - activations, scale, cast and grads --------===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

TEST_CASE("relu, square, abs, exp, sqrt, tanh and sigmoid by hand", "[kernels]") {
  Tensor x = f64({4}, {-2, -0.5, 0, 3});
  checkValues(run("pd_op.relu", "", {x}).out(0), {4}, {0, 0, 0, 3});
  checkValues(run("pd_op.square", "", {x}).out(0), {4}, {4, 0.25, 0, 9});
  checkValues(run("pd_op.abs", "", {x}).out(0), {4}, {2, 0.5, 0, 3});
  checkValues(run("pd_op.exp", "", {f64({2}, {0, 1})}).out(0), {2}, {1, 2.718281828459045}, 1e-12);
  checkValues(run("pd_op.sqrt", "", {f64({2}, {4, 2})}).out(0), {2}, {2, 1.4142135623730951}, 1e-12);
  checkValues(run("pd_op.tanh", "", {f64({2}, {0, 1})}).out(0), {2}, {0, 0.7615941559557649}, 1e-12);
  checkValues(run("pd_op.sigmoid", "", {f64({2}, {0, 2})}).out(0), {2}, {0.5, 0.8807970779778823}, 1e-12);
}

TEST_CASE("gelu in its erf and tanh forms", "[kernels]") {
  Tensor x = f64({3}, {-1, 0, 1});
  // 0.5·x·(1 + erf(x/√2)): Φ(1) = 0.8413447460685429.
  checkValues(run("pd_op.gelu", "approximate:false", {x}).out(0), {3}, {-0.15865525393145707, 0, 0.8413447460685429},
              1e-12);
  // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715x³))), tanh(0.7978845608·1.044715) = 0.6823...
  double t = std::tanh(0.7978845608028654 * 1.044715);
  checkValues(run("pd_op.gelu", "approximate:true", {x}).out(0), {3}, {-0.5 * (1 - t), 0, 0.5 * (1 + t)}, 1e-12);
  CHECK(std::abs(0.5 * (1 + t) - 0.8411919906) < 1e-9);
}

TEST_CASE("scale with bias after or before, from an attribute or an operand", "[kernels]") {
  Tensor x = f32({2}, {1, 2});
  checkValues(run("pd_op.scale", "bias:(Float)1,bias_after_scale:true,scale:(Float)3", {x}).out(0), {2}, {4, 7});
  checkValues(run("pd_op.scale", "bias:(Float)1,bias_after_scale:false", {x, f32({1}, {3})}).out(0), {2}, {6, 9});
  auto ints =
      run("pd_op.scale", "bias:(Float)0,bias_after_scale:true", {tensorOf(DataType::I64, {1}, {5}), f32({1}, {2})});
  CHECK(values(ints.out(0)) == std::vector<double>{10});
}

TEST_CASE("cast converts and cast_grad casts back", "[kernels]") {
  auto c = run("pd_op.cast", "dtype:(pd_op.DataType)int32", {f32({3}, {1.75, -2.5, 3})});
  REQUIRE(c.status.isOk());
  CHECK(c.out(0).dtype() == DataType::I32);
  CHECK(values(c.out(0)) == std::vector<double>{1, -2, 3});
  auto b = run("pd_op.cast", "dtype:(pd_op.DataType)bfloat16", {f32({1}, {1.00390625})});
  CHECK(b.out(0).dtype() == DataType::BF16);
  CHECK(values(b.out(0)) == std::vector<double>{1});
  auto g = run("pd_op.cast_grad", "", {f64({2}, {0, 0}), f32({2}, {0.5, 2})});
  CHECK(g.out(0).dtype() == DataType::F64);
  CHECK(values(g.out(0)) == std::vector<double>{0.5, 2});
}

TEST_CASE("bf16 relu and a dtype without a kernel", "[kernels]") {
  auto r = run("pd_op.relu", "", {tensorOf(DataType::BF16, {3}, {-1, 0.5, 2})});
  CHECK(r.out(0).dtype() == DataType::BF16);
  CHECK(values(r.out(0)) == std::vector<double>{0, 0.5, 2});
  auto bad = run("pd_op.relu", "", {tensorOf(DataType::I32, {1}, {1})});
  CHECK(bad.status.message() == "no kernel for dtype i32");
}

namespace {

Tensor forward(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in) {
  auto r = run(op, attrs, in);
  REQUIRE(r.status.isOk());
  return r.out(0);
}

}  // namespace

// Central differences in f64, step 1e-6; tolerance 1e-7 absolute (the
// truncation error is O(h²·f''') ~ 1e-12, rounding ~ 1e-10). Points avoid
// relu's kink at 0.
TEST_CASE("relu_grad, gelu_grad and square_grad match finite differences", "[kernels]") {
  Tensor x = randomF64({3, 5}, 7);
  for (int64_t i = 0; i < x.numel(); ++i)
    if (std::abs(x.data<double>()[i]) < 1e-3) x.data<double>()[i] = 0.5;
  Tensor w = randomF64({3, 5}, 8);
  for (const char* attrs : {"approximate:false", "approximate:true"}) {
    INFO(attrs);
    auto g = run("pd_op.gelu_grad", attrs, {x, w});
    auto f = [&](const std::vector<Tensor>& in) { return forward("pd_op.gelu", attrs, in); };
    checkClose(g.out(0), numericGrad(f, {x}, 0, w), 1e-7);
  }
  auto sq = run("pd_op.square_grad", "", {x, w});
  checkClose(sq.out(0), numericGrad([&](auto& in) { return forward("pd_op.square", "", in); }, {x}, 0, w), 1e-7);
  // relu_grad takes out, not x.
  Tensor out = forward("pd_op.relu", "", {x});
  auto rg = run("pd_op.relu_grad", "", {out, w});
  checkClose(rg.out(0), numericGrad([&](auto& in) { return forward("pd_op.relu", "", in); }, {x}, 0, w), 1e-7);
}

TEST_CASE("reshape_grad gives out_grad x's shape, also from an old xshape", "[kernels]") {
  auto r = run("pd_op.reshape_grad", "", {f32({2, 3}, std::vector<double>(6, 0)), f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  REQUIRE(r.status.isOk());
  CHECK(shapeOf(r.out(0)) == Shape{2, 3});
  CHECK(values(r.out(0)) == std::vector<double>{1, 2, 3, 4, 5, 6});
  auto old = run("pd_op.reshape_grad", "", {f32({0, 6}, {}), f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  REQUIRE(old.status.isOk());
  CHECK(shapeOf(old.out(0)) == Shape{6});
  auto bad = run("pd_op.reshape_grad", "", {f32({4}, {0, 0, 0, 0}), f32({3}, {1, 2, 3})});
  CHECK(bad.status.message() == "out_grad [3] does not have the elements of [4]");
}

// exp, sqrt, tanh and sigmoid grads take (out, out_grad) as Paddle's
// backward.yaml gives them; sqrt at positive points only.
TEST_CASE("exp_grad, sqrt_grad, tanh_grad and sigmoid_grad match finite differences of the forward op", "[kernels]") {
  Tensor x = randomF64({2, 4}, 11);
  Tensor w = randomF64({2, 4}, 12);
  Tensor positive = randomF64({2, 4}, 13, 0.2, 3.0);
  for (auto [op, at] : std::vector<std::pair<std::string, Tensor>>{
           {"pd_op.exp", x}, {"pd_op.sqrt", positive}, {"pd_op.tanh", x}, {"pd_op.sigmoid", x}}) {
    INFO(op);
    Tensor out = forward(op, "", {at});
    auto g = run(op + "_grad", "", {out, w});
    REQUIRE(g.status.isOk());
    // clang 14 cannot capture a structured binding: through a named reference.
    auto fwd = [&, &opName = op](auto& in) { return forward(opName, "", in); };
    checkClose(g.out(0), numericGrad(fwd, {at}, 0, w), 1e-7);
  }
  // By hand at one point: exp'(1) = e, sqrt'(4) = 1/4, tanh'(0) = 1, sigmoid'(0) = 1/4 (times out_grad 2).
  Tensor two = f64({1}, {2});
  checkValues(run("pd_op.exp_grad", "", {f64({1}, {2.718281828459045}), two}).out(0), {1}, {5.43656365691809}, 1e-12);
  checkValues(run("pd_op.sqrt_grad", "", {f64({1}, {2}), two}).out(0), {1}, {0.5}, 1e-12);
  checkValues(run("pd_op.tanh_grad", "", {f64({1}, {0}), two}).out(0), {1}, {2}, 1e-12);
  checkValues(run("pd_op.sigmoid_grad", "", {f64({1}, {0.5}), two}).out(0), {1}, {0.5}, 1e-12);
  auto bad = run("pd_op.tanh_grad", "", {f64({2}, {0, 0}), f64({3}, {1, 1, 1})});
  CHECK(bad.status.message() == "out_grad [3] does not match [2]");
}

TEST_CASE("abs_grad is out_grad·sign(x): by hand and against finite differences", "[kernels]") {
  // np.sign([-2, 0, 3, nan]) * [1, 2, 3, 4]: 0 at 0, NaN at NaN (Paddle's x/|x| for finite x)
  Tensor x = f64({5}, {-2, 0, 3, NAN, -INFINITY});
  checkIeee(forward("pd_op.abs_grad", "", {x, f64({5}, {1, 2, 3, 4, 5})}), {5}, {-1, 0, 3, NAN, -5});
  checkIeee(forward("pd_op.abs_grad", "", {f64({2}, {0, 1}), f64({2}, {NAN, NAN})}), {2}, {NAN, NAN});
  Tensor f = forward("pd_op.abs_grad", "", {f32({2}, {-1, 1}), f32({2}, {2, 2})});
  CHECK(f.dtype() == DataType::F32);
  checkValues(f, {2}, {-2, 2});
  Tensor at = randomF64({3, 4}, 21);  // away from the kink at 0
  for (int64_t i = 0; i < at.numel(); ++i)
    if (std::abs(at.data<double>()[i]) < 1e-3) at.data<double>()[i] = 0.25;
  Tensor w = randomF64({3, 4}, 22);
  checkClose(run("pd_op.abs_grad", "", {at, w}).out(0),
             numericGrad([&](auto& in) { return forward("pd_op.abs", "", in); }, {at}, 0, w), 1e-7);
}
