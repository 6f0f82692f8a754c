//===- kernels_reuse_test.cpp - results written into dying operands -------===//
//
// An elementwise kernel writes its result into an operand the executor
// marks dying (KernelContext::dying) when nothing else holds it: the same
// values as into a new buffer, checked against the formula written here.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {
const std::vector<std::string> kOne = {"builtin.tensor<1xf32>"};
const std::vector<double> kOut = {1.5, 0, -2, 3, -0.5, 4};
const std::vector<double> kGrad = {0.25, -1, 2, -3, 5, 0.125};

/// The inputs moved into a vector (an initializer list would keep a copy of
/// each alive through the run).
template <class... Ts>
std::vector<Tensor> own(Ts&&... ts) {
  std::vector<Tensor> v;
  (v.push_back(std::move(ts)), ...);
  return v;
}
}  // namespace

TEST_CASE("relu_grad writes into its dying out_grad, or its out, as into a new buffer", "[kernels][reuse]") {
  std::vector<double> want;
  for (size_t i = 0; i < kOut.size(); ++i) want.push_back(kOut[i] > 0 ? kGrad[i] : 0);
  for (uint64_t dying : {0u, 1u, 2u, 3u}) {
    KernelRun r("pd_op.relu_grad", "", own(f32({2, 3}, kOut), f32({2, 3}, kGrad)), kOne, dying);
    REQUIRE(r.status);
    CHECK(values(r.out(0)) == want);
    CHECK(shapeOf(r.out(0)) == Shape{2, 3});
    // out_grad first, then out; neither when nothing dies
    CHECK(r.out(0).sharesStorageWith(r.operandValues[1].tensor) == bool(dying & 2));
    CHECK(r.out(0).sharesStorageWith(r.operandValues[0].tensor) == (dying == 1));
  }
}

TEST_CASE("a reference elsewhere keeps a dying operand's buffer", "[kernels][reuse]") {
  Tensor held = f32({2, 3}, kGrad);
  KernelRun r("pd_op.relu", "", {held}, kOne, 1);  // `held` shares the operand's storage
  REQUIRE(r.status);
  CHECK(!r.out(0).sharesStorageWith(held));
  CHECK(values(held) == kGrad);
  CHECK(values(r.out(0)) == std::vector<double>{0.25, 0, 2, 0, 5, 0.125});
}

TEST_CASE("subtract, subtract_grad and sum_grad reuse dying operands of the result's shape", "[kernels][reuse]") {
  KernelRun s("pd_op.subtract", "", own(f32({2, 3}, kOut), f32({3}, {1, 2, 3})), kOne, 3);
  REQUIRE(s.status);
  CHECK(s.out(0).sharesStorageWith(s.operandValues[0].tensor));  // y is broadcast: not y
  CHECK(values(s.out(0)) == std::vector<double>{0.5, -2, -5, 2, -2.5, 1});
  // x's grad is the dying out_grad itself; y's (summed, negated) a new tensor
  KernelRun g("pd_op.subtract_grad", "axis:(Int32)-1", own(f32({2, 3}, kOut), f32({2, 3}, kOut), f32({2, 3}, kGrad)),
              {"builtin.tensor<2x3xf32>", "builtin.tensor<2x3xf32>"}, 4);
  REQUIRE(g.status);
  CHECK(g.out(0).sharesStorageWith(g.operandValues[2].tensor));
  CHECK(values(g.out(0)) == kGrad);
  std::vector<double> neg;
  for (double v : kGrad) neg.push_back(-v);
  CHECK(values(g.out(1)) == neg);
  CHECK(!g.out(1).sharesStorageWith(g.out(0)));
  // sum_grad: the gradient of a sum over everything broadcast, into x's buffer
  KernelRun sg("pd_op.sum_grad", "axis:(pd_op.IntArray)[],keepdim:false,reduce_all:false",
               own(f32({2, 3}, kOut), f32({}, {0.5})), kOne, 1);
  REQUIRE(sg.status);
  CHECK(sg.out(0).sharesStorageWith(sg.operandValues[0].tensor));
  CHECK(values(sg.out(0)) == std::vector<double>(6, 0.5));
}
