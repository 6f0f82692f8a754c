//===- kernels_reduce_ops_test.cpp - prod, logsumexp, arg*, cumsum, grads ===//
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
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.out(0);
}

Tensor i64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }

Tensor sampleX() { return f64({2, 3}, {1, -2, 3, 0.5, 4, -1}); }

}  // namespace

TEST_CASE("prod over an axis operand, everything, and ints", "[kernels][reduce_ops]") {
  Tensor x = sampleX();
  // np.prod(x, axis=1), np.prod(x, axis=0, keepdims=True), np.prod(x)
  checkValues(forward("pd_op.prod", "keepdim:false,reduce_all:false", {x, i64({1}, {1})}), {2}, {-6, -2});
  checkValues(forward("pd_op.prod", "keepdim:true,reduce_all:false", {x, i64({1}, {0})}), {1, 3}, {0.5, -8, -3});
  checkValues(forward("pd_op.prod", "keepdim:false,reduce_all:true", {x, i64({1}, {0})}), {}, {12});
  Tensor ints = forward("pd_op.prod", "keepdim:false,reduce_all:false", {i64({3}, {2, 3, 4}), i64({0}, {})});
  CHECK(ints.dtype() == DataType::I64);
  CHECK(values(ints) == std::vector<double>{24});
  auto bad = run("pd_op.prod", "keepdim:false,reduce_all:false", {x, i64({1}, {2})});
  CHECK(bad.status.message() == "axis 2 is out of range for [2x3]");
}

TEST_CASE("logsumexp is stable and keeps IEEE specials", "[kernels][reduce_ops]") {
  Tensor x = sampleX();
  // np.log(np.sum(np.exp(x), axis=1)), np.log(np.sum(np.exp(x)))
  checkValues(forward("pd_op.logsumexp", "axis:[1],keepdim:false,reduce_all:false", {x}), {2}, {3.13284523, 4.03626957},
              1e-8);
  checkValues(forward("pd_op.logsumexp", "axis:[],keepdim:true,reduce_all:false", {x}), {1, 1}, {4.37643484}, 1e-8);
  // 1000 + log(2) without overflow; all -inf rows give -inf; NaN stays.
  checkIeee(forward("pd_op.logsumexp", "axis:[1],keepdim:false,reduce_all:false",
                    {f64({3, 2}, {1000, 1000, -kInf, -kInf, kNaN, 1})}),
            {3}, {1000.69314718, -kInf, kNaN}, 1e-8);
}

TEST_CASE("argmax and argmin: the first extreme, the first NaN", "[kernels][reduce_ops]") {
  Tensor y = f64({2, 4}, {3, 7, 7, 1, 2, kNaN, 9, 9});
  std::string attrs = "keepdims:false,flatten:false,dtype:(pd_op.DataType)int64";
  // np.argmax(y, axis=1), np.argmin(y, axis=1), np.argmax(y, axis=0)
  Tensor mx = forward("pd_op.argmax", attrs, {y, i64({1}, {1})});
  CHECK(mx.dtype() == DataType::I64);
  CHECK(values(mx) == std::vector<double>{1, 1});
  CHECK(values(forward("pd_op.argmin", attrs, {y, i64({1}, {-1})})) == std::vector<double>{3, 1});
  CHECK(values(forward("pd_op.argmax", attrs, {y, i64({1}, {0})})) == std::vector<double>{0, 1, 1, 1});
  // np.argmax([[3, 7, 7, 1], [2, 0, 9, 9]]) over the flattened array: 6
  Tensor flat = forward("pd_op.argmax", "keepdims:true,flatten:true,dtype:(pd_op.DataType)int32",
                        {f64({2, 4}, {3, 7, 7, 1, 2, 0, 9, 9}), i64({1}, {0})});
  CHECK(flat.dtype() == DataType::I32);
  CHECK(shapeOf(flat) == Shape{1, 1});
  CHECK(values(flat) == std::vector<double>{6});
  auto bad = run("pd_op.argmax", attrs, {y, i64({1}, {2})});
  CHECK(bad.status.message() == "axis 2 is out of range for [2x4]");
  auto empty = run("pd_op.argmin", attrs, {f64({2, 0}, {}), i64({1}, {1})});
  CHECK(!empty.status.isOk());
}

TEST_CASE("cumsum: axis, flatten, exclusive and reverse", "[kernels][reduce_ops]") {
  Tensor x = sampleX();
  std::string plain = "flatten:false,exclusive:false,reverse:false";
  // np.cumsum(x, axis=1), np.cumsum(x, axis=0), np.cumsum(x)
  checkValues(forward("pd_op.cumsum", plain, {x, i64({1}, {1})}), {2, 3}, {1, -1, 2, 0.5, 4.5, 3.5});
  checkValues(forward("pd_op.cumsum", plain, {x, i64({1}, {-2})}), {2, 3}, {1, -2, 3, 1.5, 2, 2});
  checkValues(forward("pd_op.cumsum", "flatten:true,exclusive:false,reverse:false", {x, i64({1}, {0})}), {6},
              {1, -1, 2, 2.5, 6.5, 5.5});
  // np.flip(np.cumsum(np.flip(x, 1), 1), 1) - x
  checkValues(forward("pd_op.cumsum", "flatten:false,exclusive:true,reverse:true", {x, i64({1}, {1})}), {2, 3},
              {1, 3, 0, 3, -1, 0});
  auto bad = run("pd_op.cumsum", plain, {x, i64({1}, {3})});
  CHECK(bad.status.message() == "axis 3 is out of range for [2x3]");
}

// Finite differences: f64, central, step 1e-6, tolerance 1e-7 absolute.
TEST_CASE("prod, logsumexp, max, min and cumsum grads match finite differences", "[kernels][reduce_ops]") {
  Tensor x = randomF64({2, 3, 4}, 41);
  for (int64_t axis : {0, 2, -2}) {
    INFO("axis " << axis);
    Tensor ax = i64({1}, {double(axis)});
    std::string red = "keepdim:false,reduce_all:false";
    for (const char* op : {"pd_op.prod", "pd_op.max", "pd_op.min"}) {
      INFO(op);
      Tensor out = forward(op, red, {x, ax});
      Tensor w = randomF64(shapeOf(out), 42);
      auto g = run(std::string(op) + "_grad", red, {x, out, w, ax});
      REQUIRE(g.status.isOk());
      checkClose(g.out(0), numericGrad([&](auto& in) { return forward(op, red, in); }, {x, ax}, 0, w), 1e-7);
    }
    std::string lse = "axis:[" + std::to_string(axis) + "],keepdim:true,reduce_all:false";
    Tensor out = forward("pd_op.logsumexp", lse, {x});
    Tensor w = randomF64(shapeOf(out), 43);
    auto g = run("pd_op.logsumexp_grad", lse, {x, out, w});
    checkClose(g.out(0), numericGrad([&](auto& in) { return forward("pd_op.logsumexp", lse, in); }, {x}, 0, w), 1e-7);
    for (const char* cs : {"flatten:false,exclusive:false,reverse:false", "flatten:false,exclusive:true,reverse:true",
                           "flatten:true,exclusive:false,reverse:true"}) {
      INFO(cs);
      Tensor co = forward("pd_op.cumsum", cs, {x, ax});
      Tensor cw = randomF64(shapeOf(co), 44);
      auto cg = run("pd_op.cumsum_grad", cs, {x, cw, ax});
      REQUIRE(cg.status.isOk());
      checkClose(cg.out(0), numericGrad([&](auto& in) { return forward("pd_op.cumsum", cs, in); }, {x, ax}, 0, cw),
                 1e-7);
    }
  }
}

TEST_CASE("prod_grad is exact at zeros; max_grad gives ties all of it", "[kernels][reduce_ops]") {
  std::string red = "keepdim:false,reduce_all:false";
  Tensor ax = i64({1}, {1});
  // d/dx prod([2, 0, 3]) = [0, 6, 0]; of [0, 0, 5]: all 0.
  Tensor z = f64({2, 3}, {2, 0, 3, 0, 0, 5});
  auto g = run("pd_op.prod_grad", red, {z, forward("pd_op.prod", red, {z, ax}), f64({2}, {1, 1}), ax});
  checkValues(g.out(0), {2, 3}, {0, 6, 0, 0, 0, 0}, 0);
  Tensor t = f64({1, 3}, {5, 1, 5});
  auto m = run("pd_op.max_grad", red, {t, forward("pd_op.max", red, {t, ax}), f64({1}, {2}), ax});
  checkValues(m.out(0), {1, 3}, {2, 0, 2}, 0);
  auto bad = run("pd_op.max_grad", red, {t, f64({2}, {5, 5}), f64({1}, {2}), ax});
  CHECK(bad.status.message() == "operand 1 [2] is not x [1x3] reduced");
}
