//===- kernels_loss_test.cpp - cross_entropy_with_softmax and its grad ----===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

std::string attrs(bool soft, bool useSoftmax, int axis = -1, int ignore = -100) {
  return std::string("soft_label:") + (soft ? "true" : "false") + ",use_softmax:" + (useSoftmax ? "true" : "false") +
         ",numeric_stable_mode:true,ignore_index:(Int32)" + std::to_string(ignore) + ",axis:(Int32)" +
         std::to_string(axis);
}

Tensor labels(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }

// softmax([1, 2, 3]) = e^(k-3) / (1 + e^-1 + e^-2); -log of its last entry
// is log(1 + e^-1 + e^-2) = 0.40760596444; a row of zeros gives log 3.
constexpr double kP0 = 0.09003057317038046, kP1 = 0.24472847105479764, kP2 = 0.6652409557748219;
constexpr double kLoss2 = 0.40760596444438, kLog3 = 1.0986122886681098;

}  // namespace

TEST_CASE("cross_entropy_with_softmax with hard labels by hand", "[kernels]") {
  Tensor x = f64({2, 3}, {1, 2, 3, 0, 0, 0});
  auto r = run("pd_op.cross_entropy_with_softmax", attrs(false, true), {x, labels({2, 1}, {2, 0})}, 2);
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 3}, {kP0, kP1, kP2, 1 / 3.0, 1 / 3.0, 1 / 3.0}, 1e-12);
  checkValues(r.out(1), {2, 1}, {kLoss2, kLog3}, 1e-12);
  // ignore_index makes a row's loss 0; int32 labels work too.
  auto ig = run("pd_op.cross_entropy_with_softmax", attrs(false, true, -1, 7),
                {x, tensorOf(DataType::I32, {2, 1}, {2, 7})}, 2);
  REQUIRE(ig.status.isOk());
  checkValues(ig.out(1), {2, 1}, {kLoss2, 0}, 1e-12);
  // axis 0: the classes run down the columns.
  auto a0 = run("pd_op.cross_entropy_with_softmax", attrs(false, true, 0),
                {f64({3, 2}, {1, 0, 2, 0, 3, 0}), labels({1, 2}, {2, 0})}, 2);
  REQUIRE(a0.status.isOk());
  checkValues(a0.out(1), {1, 2}, {kLoss2, kLog3}, 1e-12);
  // f32 as well.
  auto f =
      run("pd_op.cross_entropy_with_softmax", attrs(false, true), {f32({1, 3}, {1, 2, 3}), labels({1, 1}, {2})}, 2);
  CHECK(f.out(1).dtype() == DataType::F32);
  checkValues(f.out(1), {1, 1}, {kLoss2}, 1e-6);
}

TEST_CASE("cross_entropy_with_softmax with soft labels and without softmax", "[kernels]") {
  Tensor x = f64({2, 3}, {1, 2, 3, 0, 0, 0});
  // logsumexp(row) - label·row: 3.40760596444 - 2.3.
  auto soft = run("pd_op.cross_entropy_with_softmax", attrs(true, true), {x, f64({2, 3}, {0.2, 0.3, 0.5, 1, 0, 0})}, 2);
  REQUIRE(soft.status.isOk());
  checkValues(soft.out(1), {2, 1}, {1.10760596444438, kLog3}, 1e-12);
  // use_softmax false: the input is the probabilities, copied to softmax.
  Tensor p = f64({2, 2}, {0.25, 0.75, 0.5, 0.5});
  auto no = run("pd_op.cross_entropy_with_softmax", attrs(false, false), {p, labels({2, 1}, {1, 0})}, 2);
  REQUIRE(no.status.isOk());
  checkValues(no.out(0), {2, 2}, {0.25, 0.75, 0.5, 0.5}, 0);
  checkValues(no.out(1), {2, 1}, {0.2876820724517809, 0.6931471805599453}, 1e-12);
  // log(0) is clamped: the loss is 1e20, not inf.
  auto zero =
      run("pd_op.cross_entropy_with_softmax", attrs(false, false), {f64({1, 2}, {0, 1}), labels({1, 1}, {0})}, 2);
  CHECK(values(zero.out(1)) == std::vector<double>{1e20});
}

TEST_CASE("cross_entropy_with_softmax refuses bad labels and shapes with a message", "[kernels]") {
  Tensor x = f64({2, 3}, {1, 2, 3, 0, 0, 0});
  auto out = run("pd_op.cross_entropy_with_softmax", attrs(false, true), {x, labels({2, 1}, {3, 0})}, 2);
  CHECK(out.status.message() == "label 3 at flat index 0 is outside [0, 3) and is not ignore_index -100");
  auto shape = run("pd_op.cross_entropy_with_softmax", attrs(false, true), {x, labels({2, 2}, {0, 0, 0, 0})}, 2);
  CHECK(shape.status.message() == "hard label [2x2] does not fit [2x3] on axis 1");
  auto rank = run("pd_op.cross_entropy_with_softmax", attrs(false, true), {x, labels({2}, {0, 0})}, 2);
  CHECK(rank.status.message() == "label [2] and [2x3] differ in rank");
  auto dtype = run("pd_op.cross_entropy_with_softmax", attrs(false, true), {x, f64({2, 1}, {0, 0})}, 2);
  CHECK(dtype.status.message() == "a hard label must be int32 or int64");
  auto grad = run("pd_op.cross_entropy_with_softmax_grad", attrs(false, true),
                  {labels({2, 1}, {0, 0}), x, f64({3, 1}, {1, 1, 1})});
  CHECK(grad.status.message() == "loss_grad tensor<3x1xf64> does not fit softmax tensor<2x3xf64>");
}

namespace {

/// The loss (result 1) of cross_entropy_with_softmax for `in` = {input, label}.
Tensor lossOf(const std::string& a, const std::vector<Tensor>& in) {
  auto r = run("pd_op.cross_entropy_with_softmax", a, in, 2);
  REQUIRE(r.status.isOk());
  return r.out(1);
}

}  // namespace

// f64 central differences of sum(loss · w) in the input, step 1e-6, to 1e-7.
TEST_CASE("cross_entropy_with_softmax_grad matches finite differences", "[kernels]") {
  struct Case {
    std::string attrs;
    Tensor input, label;
    Shape lossShape;
  };
  std::vector<Case> cases = {
      {attrs(false, true), randomF64({3, 4}, 21), labels({3, 1}, {2, 0, 3}), {3, 1}},
      {attrs(false, true, -1, 1), randomF64({3, 4}, 22), labels({3, 1}, {1, 0, 3}), {3, 1}},  // row 0 ignored
      {attrs(false, true, 1), randomF64({2, 3, 2}, 23), labels({2, 1, 2}, {0, 2, 1, 1}), {2, 1, 2}},
      {attrs(true, true), randomF64({2, 3}, 24), f64({2, 3}, {0.1, 0.6, 0.3, 0.5, 0.5, 0}), {2, 1}},
      {attrs(false, false), randomF64({3, 2}, 25, 0.2, 0.9), labels({3, 1}, {1, 0, 1}), {3, 1}},
      {attrs(true, false), randomF64({2, 3}, 26, 0.2, 0.9), f64({2, 3}, {0.1, 0.6, 0.3, 0.5, 0.5, 0}), {2, 1}},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    Case& k = cases[c];
    INFO("case " << c << ": " << k.attrs);
    Tensor w = randomF64(k.lossShape, uint32_t(30 + c));
    auto fwd = run("pd_op.cross_entropy_with_softmax", k.attrs, {k.input, k.label}, 2);
    REQUIRE(fwd.status.isOk());
    auto g = run("pd_op.cross_entropy_with_softmax_grad", k.attrs, {k.label, fwd.out(0), w});
    REQUIRE(g.status.isOk());
    Tensor want = numericGrad([&](auto& in) { return lossOf(k.attrs, in); }, {k.input, k.label}, 0, w);
    checkClose(g.out(0), want, 1e-7);
  }
}
