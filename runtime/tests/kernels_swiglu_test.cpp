//===- kernels_swiglu_test.cpp - silu, swiglu and their grads -------------===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

double silu(double x) { return x / (1 + std::exp(-x)); }

}  // namespace

TEST_CASE("silu and swiglu by hand", "[kernels][swiglu]") {
  auto s = run("pd_op.silu", "", {f64({3}, {0, 1, -2})});
  REQUIRE(s.status.isOk());
  checkValues(s.out(0), {3}, {0, 1 / (1 + std::exp(-1.0)), -2 / (1 + std::exp(2.0))}, 1e-15);
  // with y: silu(x)·y
  auto w = run("pd_op.swiglu", "", {f64({2}, {1, -2}), f64({2}, {3, 4})});
  REQUIRE(w.status.isOk());
  checkValues(w.out(0), {2}, {3 * silu(1), 4 * silu(-2)}, 1e-15);
  // without y: the last axis in halves, [a, b] -> silu(a)·b
  auto h = run("pd_op.swiglu", "", {f64({2, 4}, {1, -2, 3, 4, 0, 2, 5, 6}), {}});
  REQUIRE(h.status.isOk());
  checkValues(h.out(0), {2, 2}, {3 * silu(1), 4 * silu(-2), 0, 6 * silu(2)}, 1e-15);
  auto f = run("pd_op.swiglu", "", {f32({2}, {1, -2}), f32({2}, {3, 4})});
  REQUIRE(f.status.isOk());
  checkValues(f.out(0), {2}, {3 * silu(1), 4 * silu(-2)}, 1e-6);
  auto odd = run("pd_op.swiglu", "", {f64({3}, {1, 2, 3}), {}});
  CHECK(odd.status.message() == "without y, x's last axis must be even to split in half, not [3]");
  auto diff = run("pd_op.swiglu", "", {f64({2}, {1, 2}), f64({3}, {1, 2, 3})});
  CHECK(diff.status.message() == "y tensor<3xf64> does not match x tensor<2xf64>");
}

TEST_CASE("silu_grad and swiglu_grad match finite differences", "[kernels][swiglu]") {
  Tensor x = randomF64({3, 4}, 80, -3, 3), y = randomF64({3, 4}, 81), w = randomF64({3, 4}, 82);
  auto fwd = run("pd_op.silu", "", {x});
  REQUIRE(fwd.status.isOk());
  auto g = run("pd_op.silu_grad", "", {x, fwd.out(0), w});
  REQUIRE(g.status.isOk());
  auto silu = [](const std::vector<Tensor>& v) {
    auto r = run("pd_op.silu", "", v);
    REQUIRE(r.status.isOk());
    return r.out(0);
  };
  checkClose(g.out(0), numericGrad(silu, {x}, 0, w), 1e-8);

  auto swiglu = [](const std::vector<Tensor>& v) {
    auto r = run("pd_op.swiglu", "", v);
    REQUIRE(r.status.isOk());
    return r.out(0);
  };
  auto gy = run("pd_op.swiglu_grad", "", {x, y, w}, 2);
  REQUIRE(gy.status.isOk());
  checkClose(gy.out(0), numericGrad(swiglu, {x, y}, 0, w), 1e-8);
  checkClose(gy.out(1), numericGrad(swiglu, {x, y}, 1, w), 1e-8);
  // without y: x_grad has both halves
  Tensor wh = randomF64({3, 2}, 83);
  auto gh = run("pd_op.swiglu_grad", "", {x, {}, wh}, 2);
  REQUIRE(gh.status.isOk());
  CHECK_FALSE(gh.out(1).defined());
  checkClose(gh.out(0), numericGrad(swiglu, {x, {}}, 0, wh), 1e-8);
}
