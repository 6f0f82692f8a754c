//===- kernels_math_test.cpp - sin, cos, log, rsqrt, pow, clip, floor, sign ===//
#include <cmath>
#include <limits>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor forward(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in) {
  auto r = run(op, attrs, in);
  REQUIRE(r.status.isOk());
  return r.out(0);
}

/// The grad kernel `grad` (operands: `first`, then out_grad, then `tail`)
/// against central differences of `op` in x.
void checkGrad(const std::string& op, const std::string& grad, const std::string& attrs, Tensor x, bool fromOut,
               const std::vector<Tensor>& tail = {}) {
  INFO(grad);
  std::vector<Tensor> fwdIn{x};
  fwdIn.insert(fwdIn.end(), tail.begin(), tail.end());
  Tensor out = forward(op, attrs, fwdIn);
  Tensor w = randomF64(shapeOf(out), 77);
  std::vector<Tensor> in{fromOut ? out : x, w};
  in.insert(in.end(), tail.begin(), tail.end());
  auto g = run(grad, attrs, in);
  REQUIRE(g.status.isOk());
  checkClose(g.out(0), numericGrad([&](auto& v) { return forward(op, attrs, v); }, fwdIn, 0, w), 1e-7);
}

}  // namespace

TEST_CASE("sin, cos, floor match numpy", "[kernels][math]") {
  Tensor x = f64({5}, {-2.5, -0.5, 0.0, 0.75, 3.0});
  // np.sin(x), np.cos(x), np.floor(x)
  checkValues(forward("pd_op.sin", "", {x}), {5}, {-0.59847214, -0.47942554, 0., 0.68163876, 0.14112001}, 1e-8);
  checkValues(forward("pd_op.cos", "", {x}), {5}, {-0.80114362, 0.87758256, 1., 0.73168887, -0.9899925}, 1e-8);
  checkValues(forward("pd_op.floor", "", {x}), {5}, {-3, -1, 0, 0, 3}, 0);
  auto bf = run("pd_op.sin", "", {tensorOf(DataType::BF16, {2}, {0, 0.75})});
  CHECK(bf.out(0).dtype() == DataType::BF16);
  checkValues(bf.out(0), {2}, {0, 0.68163876}, 1e-2);
}

TEST_CASE("log and rsqrt match numpy, with IEEE specials", "[kernels][math]") {
  Tensor p = f64({4}, {0.25, 1.0, 2.0, 10.0});
  // np.log(p), 1/np.sqrt(p)
  checkValues(forward("pd_op.log", "", {p}), {4}, {-1.38629436, 0., 0.69314718, 2.30258509}, 1e-8);
  checkValues(forward("pd_op.rsqrt", "", {p}), {4}, {2., 1., 0.70710678, 0.31622777}, 1e-8);
  // np.log([0, -1]) = [-inf, nan]; 1/np.sqrt([0, -1]) = [inf, nan]
  checkIeee(forward("pd_op.log", "", {f32({2}, {0, -1})}), {2}, {-kInf, kNaN});
  checkIeee(forward("pd_op.rsqrt", "", {f32({2}, {0, -1})}), {2}, {kInf, kNaN});
}

TEST_CASE("pow with its exponent an attribute", "[kernels][math]") {
  Tensor x = f64({5}, {-2.5, -0.5, 0.0, 0.75, 3.0});
  // np.power(x, 3.0)
  checkValues(forward("pd_op.pow", "y:(Float)3", {x}), {5}, {-15.625, -0.125, 0., 0.421875, 27.});
  // np.power([0.25, 1, 2, 10], 0.5)
  checkValues(forward("pd_op.pow", "y:(Float)0.5", {f64({4}, {0.25, 1, 2, 10})}), {4},
              {0.5, 1., 1.41421356, 3.16227766}, 1e-8);
}

TEST_CASE("clip takes its bounds as operands (full's) or attributes", "[kernels][math]") {
  Tensor x = f64({5}, {-2.5, -0.5, 0.0, 0.75, 3.0});
  // np.clip(x, -1.0, 2.0)
  checkValues(forward("pd_op.clip", "", {x, f32({1}, {-1}), f32({1}, {2})}), {5}, {-1., -0.5, 0., 0.75, 2.});
  checkValues(forward("pd_op.clip", "min:(Float)-1,max:(Float)2", {x}), {5}, {-1., -0.5, 0., 0.75, 2.});
  // np.clip(nan, -1, 2) is nan
  checkIeee(forward("pd_op.clip", "", {f32({1}, {kNaN}), f32({1}, {-1}), f32({1}, {2})}), {1}, {kNaN});
  auto bad = run("pd_op.clip", "", {x, f32({2}, {0, 1}), f32({1}, {2})});
  CHECK(bad.status.message() == "min must hold one value, not tensor<2xf32>");
  auto none = run("pd_op.clip", "", {x});
  CHECK(none.status.message() == "min is neither an operand nor an attribute");
}

TEST_CASE("sign is numpy's: 0 and NaN stay, ints too", "[kernels][math]") {
  // np.sign([-3.0, 0.0, 2.0, nan])
  checkIeee(forward("pd_op.sign", "", {f32({4}, {-3, 0, 2, kNaN})}), {4}, {-1, 0, 1, kNaN});
  auto ints = forward("pd_op.sign", "", {tensorOf(DataType::I64, {3}, {-7, 0, 9})});
  CHECK(ints.dtype() == DataType::I64);
  CHECK(values(ints) == std::vector<double>{-1, 0, 1});
  CHECK(!run("pd_op.sign", "", {tensorOf(DataType::Bool, {1}, {1})}).status.isOk());
}

// Finite differences: f64, central, step 1e-6, tolerance 1e-7 absolute.
TEST_CASE("math grads match finite differences", "[kernels][math]") {
  Tensor x = randomF64({3, 4}, 5);
  Tensor positive = randomF64({3, 4}, 6, 0.3, 2.5);
  checkGrad("pd_op.sin", "pd_op.sin_grad", "", x, false);
  checkGrad("pd_op.cos", "pd_op.cos_grad", "", x, false);
  checkGrad("pd_op.log", "pd_op.log_grad", "", positive, false);
  checkGrad("pd_op.rsqrt", "pd_op.rsqrt_grad", "", positive, true);
  checkGrad("pd_op.pow", "pd_op.pow_grad", "y:(Float)3", x, false);
  checkGrad("pd_op.pow", "pd_op.pow_grad", "y:(Float)1.5", positive, false);
  // Bounds away from every x, so the derivative exists everywhere.
  Tensor spread = f64({6}, {-1.4, -0.9, -0.2, 0.3, 0.8, 1.3});
  checkGrad("pd_op.clip", "pd_op.clip_grad", "", spread, false, {f32({1}, {-0.5}), f32({1}, {1})});
}

TEST_CASE("floor_grad is zero, of out_grad's shape", "[kernels][math]") {
  auto g = run("pd_op.floor_grad", "", {f64({2, 2}, {1, 2, 3, 4})});
  REQUIRE(g.status.isOk());
  checkValues(g.out(0), {2, 2}, {0, 0, 0, 0}, 0);
  auto sg = run("pd_op.sign_grad", "", {f32({3}, {1, -2, 5})});  // backward.yaml: scale(out_grad, 0)
  REQUIRE(sg.status.isOk());
  CHECK(sg.out(0).dtype() == DataType::F32);
  checkValues(sg.out(0), {3}, {0, 0, 0}, 0);
  auto bad = run("pd_op.sin_grad", "", {f64({3}, {1, 2, 3}), f64({2}, {1, 1})});
  CHECK(bad.status.message() == "out_grad [2] does not match [3]");
}
