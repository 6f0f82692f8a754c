//===- kernels_reduce_test.cpp - mean, sum, softmax, layer_norm -----------===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

TEST_CASE("mean over everything, over an axis, with keepdim", "[kernels]") {
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto all = run("pd_op.mean", "axis:(pd_op.IntArray)[],keepdim:false", {x});
  REQUIRE(all.status.isOk());
  checkValues(all.out(0), {}, {3.5});
  checkValues(run("pd_op.mean", "axis:(pd_op.IntArray)[1],keepdim:false", {x}).out(0), {2}, {2, 5});
  checkValues(run("pd_op.mean", "axis:(pd_op.IntArray)[-2],keepdim:true", {x}).out(0), {1, 3}, {2.5, 3.5, 4.5});
  auto bad = run("pd_op.mean", "axis:(pd_op.IntArray)[2],keepdim:false", {x});
  CHECK(bad.status.message() == "axis 2 is out of range for [2x3]");
}

TEST_CASE("sum with its axis as an operand, ints summing to int64", "[kernels]") {
  Tensor x = f64({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor axes = tensorOf(DataType::I64, {2}, {0, 2});
  checkValues(run("pd_op.sum", "dtype:(pd_op.DataType)undefined,keepdim:false", {x, axes}).out(0), {2}, {14, 22});
  KernelRun ints("pd_op.sum", "dtype:(pd_op.DataType)undefined,keepdim:false",
                 {tensorOf(DataType::I32, {3}, {1, 2, 3}), tensorOf(DataType::I64, {0}, {})}, {"builtin.tensor<i64>"});
  REQUIRE(ints.status.isOk());
  CHECK(ints.out(0).dtype() == DataType::I64);
  CHECK(values(ints.out(0)) == std::vector<double>{6});
}

TEST_CASE("long rows sum in f64 whatever their length, against a sequential sum", "[kernels]") {
  // rowSum's eight running sums and tail: lengths around multiples of 8;
  // every value at least 1, so a value lost is far outside the tolerance
  for (int64_t n : {1, 7, 8, 9, 63, 1001}) {
    std::vector<double> v(size_t(2 * n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = 1.0 + double(i % 5) + (i % 2 ? -0.5 : 0.5) / double(i + 1);
    std::vector<double> rows(2, 0.0), total(1, 0.0);
    for (size_t i = 0; i < v.size(); ++i) rows[i / size_t(n)] += double(float(v[i])), total[0] += double(float(v[i]));
    INFO("n " << n);
    checkClose(run("pd_op.sum", "dtype:(pd_op.DataType)undefined,keepdim:false",
                   {f32({2, n}, v), tensorOf(DataType::I64, {1}, {1})})
                   .out(0),
               f64({2}, rows), 1e-6, 1e-6);
    checkClose(run("pd_op.sum", "dtype:(pd_op.DataType)undefined,keepdim:false",
                   {f32({2, n}, v), tensorOf(DataType::I64, {0}, {})})
                   .out(0),
               f64({}, total), 1e-6, 1e-6);
  }
}

TEST_CASE("mean_grad divides by the local count, sum_grad broadcasts", "[kernels]") {
  auto m = run("pd_op.mean_grad", "axis:(pd_op.IntArray)[],keepdim:false,reduce_all:false",
               {f32({2, 2}, {0, 0, 0, 0}), f32({}, {2})});
  checkValues(m.out(0), {2, 2}, {0.5, 0.5, 0.5, 0.5});
  auto s = run("pd_op.sum_grad", "keepdim:false,reduce_all:false",
               {f32({2, 3}, std::vector<double>(6, 0)), f32({2}, {1, 2}), tensorOf(DataType::I64, {1}, {1})});
  checkValues(s.out(0), {2, 3}, {1, 1, 1, 2, 2, 2});
}

namespace {

Tensor forward(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in, size_t result = 0,
               size_t numResults = 1) {
  auto r = run(op, attrs, in, numResults);
  REQUIRE(r.status.isOk());
  return r.out(result);
}

}  // namespace

// Finite differences: f64, central, step 1e-6, tolerance 1e-7 absolute.
TEST_CASE("mean_grad and sum_grad match finite differences", "[kernels]") {
  Tensor x = randomF64({2, 3, 4}, 11);
  for (const char* axis : {"[]", "[1]", "[0,2]"}) {
    INFO(axis);
    std::string attrs = std::string("axis:(pd_op.IntArray)") + axis + ",keepdim:false";
    Tensor out = forward("pd_op.mean", attrs, {x});
    Tensor w = randomF64(shapeOf(out), 12);
    auto g = run("pd_op.mean_grad", attrs + ",reduce_all:false", {x, w});
    checkClose(g.out(0), numericGrad([&](auto& in) { return forward("pd_op.mean", attrs, in); }, {x}, 0, w), 1e-7);
    auto sg = run("pd_op.sum_grad", attrs + ",reduce_all:false", {x, w});
    checkClose(sg.out(0), numericGrad([&](auto& in) { return forward("pd_op.sum", attrs, in); }, {x}, 0, w), 1e-7);
  }
}

TEST_CASE("softmax by hand, on the last axis and on axis 0", "[kernels]") {
  double e = std::exp(1.0), s = 1 + e + e * e;
  auto r = run("pd_op.softmax", "axis:(Int32)-1", {f64({1, 3}, {0, 1, 2})});
  checkValues(r.out(0), {1, 3}, {1 / s, e / s, e * e / s}, 1e-12);
  // A large value does not overflow: exp(x - max).
  auto big = run("pd_op.softmax", "axis:(Int32)0", {f32({2, 1}, {1000, 1000})});
  checkValues(big.out(0), {2, 1}, {0.5, 0.5});
  auto bf = run("pd_op.softmax", "axis:(Int32)-1", {tensorOf(DataType::BF16, {2}, {3, 3})});
  CHECK(values(bf.out(0)) == std::vector<double>{0.5, 0.5});
}

TEST_CASE("softmax_grad matches finite differences", "[kernels]") {
  Tensor x = randomF64({3, 4, 5}, 21);
  for (const char* attrs : {"axis:(Int32)-1", "axis:(Int32)1", "axis:(Int32)0"}) {
    INFO(attrs);
    Tensor out = forward("pd_op.softmax", attrs, {x});
    Tensor w = randomF64(shapeOf(out), 22);
    auto g = run("pd_op.softmax_grad", attrs, {out, w});
    checkClose(g.out(0), numericGrad([&](auto& in) { return forward("pd_op.softmax", attrs, in); }, {x}, 0, w), 1e-7);
  }
}

TEST_CASE("layer_norm by hand: out, mean and variance", "[kernels]") {
  // Row [1, 3]: mean 2, variance 1; row [0, 4]: mean 2, variance 4;
  // out = (x - mean)/sqrt(variance + eps)·scale + bias.
  auto r = run("pd_op.layer_norm", "begin_norm_axis:(Int32)1,epsilon:(Float)0",
               {f64({2, 2}, {1, 3, 0, 4}), f64({2}, {2, 1}), f64({2}, {0, 10})}, 3);
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 2}, {-2, 11, -2, 11}, 1e-12);
  checkValues(r.out(1), {2}, {2, 2});
  checkValues(r.out(2), {2}, {1, 4});
  auto noAffine = run("pd_op.layer_norm", "begin_norm_axis:(Int32)1,epsilon:(Float)1e-05",
                      {tensorOf(DataType::BF16, {1, 2}, {0, 2}), Tensor(), Tensor()}, 3);
  REQUIRE(noAffine.status.isOk());
  CHECK(noAffine.out(0).dtype() == DataType::BF16);
  CHECK(noAffine.out(1).dtype() == DataType::F32);
  checkValues(noAffine.out(0), {1, 2}, {-1, 1}, 1e-2);
}

TEST_CASE("layer_norm_grad matches finite differences in x, scale and bias", "[kernels]") {
  Tensor x = randomF64({2, 3, 4}, 31), scale = randomF64({12}, 32), bias = randomF64({12}, 33);
  std::string attrs = "begin_norm_axis:(Int32)1,epsilon:(Float)1e-05";
  auto fwd = run("pd_op.layer_norm", attrs, {x, scale, bias}, 3);
  Tensor w = randomF64({2, 3, 4}, 34);
  auto g = run("pd_op.layer_norm_grad", attrs, {x, scale, bias, fwd.out(1), fwd.out(2), w}, 3);
  REQUIRE(g.status.isOk());
  auto f = [&](const std::vector<Tensor>& in) { return forward("pd_op.layer_norm", attrs, in, 0, 3); };
  checkClose(g.out(0), numericGrad(f, {x, scale, bias}, 0, w), 1e-7);
  checkClose(g.out(1), numericGrad(f, {x, scale, bias}, 1, w), 1e-7);
  checkClose(g.out(2), numericGrad(f, {x, scale, bias}, 2, w), 1e-7);
}
