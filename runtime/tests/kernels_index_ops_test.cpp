//===- kernels_index_ops_test.cpp - gather, scatter, one_hot, arange -----===//
#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

Tensor i64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }
Tensor i32(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I32, std::move(shape), v); }

Tensor forward(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in, size_t results = 1) {
  auto r = run(op, attrs, in, results);
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.out(0);
}

std::string error(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in, size_t results = 1) {
  auto r = run(op, attrs, in, results);
  REQUIRE(!r.status.isOk());
  return r.status.message();
}

Tensor iota(Shape shape, double from = 0) {
  std::vector<double> v(size_t(numElements(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = from + double(i);
  return f64(std::move(shape), v);
}

/// The grad of op (forward `fwd` with `attrs`) in operand `which`, checked
/// against central differences of sum(fwd(inputs) · w).
void checkGrad(const std::string& fwd, const std::string& attrs, const std::vector<Tensor>& inputs, size_t which,
               const Tensor& grad, const Tensor& w) {
  checkClose(grad, numericGrad([&](auto& in) { return forward(fwd, attrs, in); }, inputs, which, w), 1e-7);
}

}  // namespace

TEST_CASE("gather is numpy's take along the axis operand", "[kernels][index_ops]") {
  Tensor x = iota({3, 4});  // np.arange(12.).reshape(3, 4)
  // np.take(x, [2, 0, 2], axis=0)
  checkValues(forward("pd_op.gather", "", {x, i64({3}, {2, 0, 2}), i64({1}, {0})}), {3, 4},
              {8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11}, 0);
  // np.take(x, [3, 1], axis=-1), an int32 [n, 1] index and a 0-D axis
  checkValues(forward("pd_op.gather", "", {x, i32({2, 1}, {3, 1}), i64({}, {-1})}), {3, 2}, {3, 1, 7, 5, 11, 9}, 0);
  // np.take(x, 1, axis=1): a 0-D index drops the axis
  checkValues(forward("pd_op.gather", "", {x, i64({}, {1}), i64({1}, {1})}), {3}, {1, 5, 9}, 0);
  // np.take(x, [-1, -3], axis=0): negative indices wrap
  checkValues(forward("pd_op.gather", "", {x, i64({2}, {-1, -3}), i64({1}, {0})}), {2, 4}, {8, 9, 10, 11, 0, 1, 2, 3},
              0);
  // the axis as an attribute (older dumps), on ints
  Tensor xi = tensorOf(DataType::I32, {3, 4}, values(x));
  Tensor g = forward("pd_op.gather", "axis:(Int32)1", {xi, i64({1}, {2})});
  CHECK(g.dtype() == DataType::I32);
  checkValues(g, {3, 1}, {2, 6, 10}, 0);  // np.take(x, [2], axis=1)

  CHECK(error("pd_op.gather", "", {x, i64({2}, {0, 3}), i64({1}, {0})}) ==
        "index 3 is out of range [-3, 3) for axis 0 of [3x4]");
  CHECK(error("pd_op.gather", "", {x, i64({1}, {-5}), i64({1}, {1})}) ==
        "index -5 is out of range [-4, 4) for axis 1 of [3x4]");
  CHECK(error("pd_op.gather", "", {x, i64({1}, {0}), i64({1}, {2})}) == "axis 2 is out of range for [3x4]");
  CHECK(error("pd_op.gather", "", {x, f64({1}, {0}), i64({1}, {0})}) ==
        "index must be an int32 or int64 tensor, not tensor<1xf64>");
  CHECK(error("pd_op.gather", "", {x, i64({2, 2}, {0, 0, 0, 0}), i64({1}, {0})}) ==
        "index [2x2] must be 0-D, 1-D or [n, 1]");
  CHECK(error("pd_op.gather", "", {x, i64({1}, {0}), f64({1}, {0.5})}) == "axis 0.5 is not an integer");
}

TEST_CASE("index_select takes a 1-D index along the axis attribute", "[kernels][index_ops]") {
  Tensor x = iota({3, 4});
  // np.take(x, [3, 0, 3], axis=1)
  checkValues(forward("pd_op.index_select", "axis:(Int32)1", {x, i32({3}, {3, 0, 3})}), {3, 3},
              {3, 0, 3, 7, 4, 7, 11, 8, 11}, 0);
  // np.take(x, [1], axis=-2)
  checkValues(forward("pd_op.index_select", "axis:(Int32)-2", {x, i64({1}, {1})}), {1, 4}, {4, 5, 6, 7}, 0);
  CHECK(error("pd_op.index_select", "axis:(Int32)1", {x, i64({}, {1})}) == "index [] must be 1-D or [n, 1]");
  CHECK(error("pd_op.index_select", "axis:(Int32)-3", {x, i64({1}, {1})}) == "axis -3 is out of range for [3x4]");
  CHECK(error("pd_op.index_select", "axis:(Int32)0", {x, i64({1}, {3})}) ==
        "index 3 is out of range [-3, 3) for axis 0 of [3x4]");
}

TEST_CASE("gather_nd is x[tuple(index.T)]", "[kernels][index_ops]") {
  Tensor x = iota({2, 3, 4});  // np.arange(24.).reshape(2, 3, 4)
  // x[tuple(np.array([[0, 1], [1, 2]]).T)]: rows x[0, 1], x[1, 2]
  checkValues(forward("pd_op.gather_nd", "", {x, i64({2, 2}, {0, 1, 1, 2})}), {2, 4}, {4, 5, 6, 7, 20, 21, 22, 23}, 0);
  // x[tuple(np.array([[1, 0, 3], [0, 2, -1]]).T)] == [x[1, 0, 3], x[0, 2, 3]]
  checkValues(forward("pd_op.gather_nd", "", {x, i32({2, 3}, {1, 0, 3, 0, 2, -1})}), {2}, {15, 11}, 0);
  // x[tuple(np.array([1]).T)] == x[1]
  Tensor one = forward("pd_op.gather_nd", "", {x, i64({1}, {1})});
  CHECK(shapeOf(one) == Shape{3, 4});
  CHECK(values(one)[0] == 12);
  // index [2, 1, 0]: no components, x repeated per position (np.broadcast_to(x, (2, 1, 2, 3, 4)))
  CHECK(shapeOf(forward("pd_op.gather_nd", "", {x, i64({2, 1, 0}, {})})) == Shape{2, 1, 2, 3, 4});
  CHECK(error("pd_op.gather_nd", "", {x, i64({1, 2}, {0, 3})}) ==
        "index 3 is out of range [-3, 3) for axis 1 of [2x3x4]");
  CHECK(error("pd_op.gather_nd", "", {x, i64({1, 4}, {0, 0, 0, 0})}) ==
        "index [1x4] has more components than x [2x3x4] has dims");
  CHECK(error("pd_op.gather_nd", "", {x, i64({}, {0})}) == "index must have at least one dim, not tensor<i64>");
}

TEST_CASE("scatter writes rows of updates; overwrite=false zeroes then adds", "[kernels][index_ops]") {
  Tensor x = iota({3, 2});  // [[0, 1], [2, 3], [4, 5]]
  Tensor u = f64({3, 2}, {10, 11, 20, 21, 30, 31});
  Tensor idx = i64({3}, {2, 0, 2});
  // o = x.copy(); for i, j in enumerate(idx): o[j] = u[i]   (the last repeat wins)
  checkValues(forward("pd_op.scatter", "overwrite:true", {x, idx, u}), {3, 2}, {20, 21, 2, 3, 30, 31}, 0);
  // o = x.copy(); o[idx] = 0; np.add.at(o, idx, u)
  checkValues(forward("pd_op.scatter", "overwrite:false", {x, idx, u}), {3, 2}, {20, 21, 2, 3, 40, 42}, 0);
  // overwrite defaults to true; a 0-D index writes one row: o[1] = [7, 8]
  checkValues(forward("pd_op.scatter", "", {x, i32({}, {1}), f64({2}, {7, 8})}), {3, 2}, {0, 1, 7, 8, 4, 5}, 0);
  // ints, an [n, 1] index
  Tensor xi = tensorOf(DataType::I64, {3, 2}, values(x)), ui = tensorOf(DataType::I64, {3, 2}, values(u));
  Tensor oi = forward("pd_op.scatter", "overwrite:false", {xi, i32({3, 1}, {2, 0, 2}), ui});
  CHECK(oi.dtype() == DataType::I64);
  checkValues(oi, {3, 2}, {20, 21, 2, 3, 40, 42}, 0);
  // Paddle's CPU kernel takes no negative index
  CHECK(error("pd_op.scatter", "overwrite:true", {x, i64({3}, {2, -1, 0}), u}) ==
        "index -1 is out of range [0, 3) for axis 0 of [3x2]");
  CHECK(error("pd_op.scatter", "overwrite:false", {x, i64({3}, {2, 3, 0}), u}) ==
        "index 3 is out of range [0, 3) for axis 0 of [3x2]");
  CHECK(error("pd_op.scatter", "overwrite:true", {x, i64({2}, {2, 0}), u}) ==
        "updates [3x2] are not [2x2] (index's rows of x [3x2])");
  CHECK(error("pd_op.scatter", "", {f64({}, {1}), i64({}, {0}), f64({}, {2})}) == "x [] has no rows to scatter into");
}

TEST_CASE("scatter_grad zeroes out_grad's indexed rows and gathers them", "[kernels][index_ops]") {
  Tensor g = iota({3, 2}, 1);  // [[1, 2], [3, 4], [5, 6]]
  Tensor idx = i64({3}, {2, 0, 2});
  for (const char* attrs : {"overwrite:true", "overwrite:false"}) {
    auto r = run("pd_op.scatter_grad", attrs, {idx, iota({3, 2}), g}, 2);
    REQUIRE(r.status.isOk());
    checkValues(r.out(0), {3, 2}, {0, 0, 3, 4, 0, 0}, 0);  // g with g[idx] = 0
    checkValues(r.out(1), {3, 2}, {5, 6, 1, 2, 5, 6}, 0);  // g[idx]
  }
  // Only updates_grad wanted.
  KernelRun only("pd_op.scatter_grad", "overwrite:true", {idx, iota({3, 2}), g},
                 {"<<NULL TYPE>>", "builtin.tensor<3x2xf64>"});
  REQUIRE(only.status.isOk());
  CHECK(!only.out(0).defined());
  checkValues(only.out(1), {3, 2}, {5, 6, 1, 2, 5, 6}, 0);
  CHECK(error("pd_op.scatter_grad", "overwrite:true", {i64({1}, {5}), iota({1, 2}), g}, 2) ==
        "index 5 is out of range [0, 3) for axis 0 of [3x2]");
}

TEST_CASE("gather, index_select and gather_nd grads add up repeated indices", "[kernels][index_ops]") {
  // np.add.at(z, [1, 1, 0], [1, 2, 3]) on z = np.zeros(3)
  Tensor z = f64({3}, {0, 0, 0}), d = f64({3}, {1, 2, 3});
  checkValues(forward("pd_op.gather_grad", "", {z, i64({3}, {1, 1, 0}), d, i64({1}, {0})}), {3}, {3, 3, 0}, 0);
  checkValues(forward("pd_op.index_select_grad", "axis:(Int32)0", {z, i32({3}, {1, 1, -3}), d}), {3}, {3, 3, 0}, 0);
  // np.add.at(z, tuple(np.array([[1, 0], [1, 0], [0, 1]]).T), [1, 2, 3]) on z = np.zeros((2, 2))
  checkValues(forward("pd_op.gather_nd_grad", "", {f64({2, 2}, {0, 0, 0, 0}), i64({3, 2}, {1, 0, 1, 0, 0, 1}), d}),
              {2, 2}, {0, 3, 3, 0}, 0);
  // ints accumulate too
  Tensor gi = forward("pd_op.gather_grad", "",
                      {z, i64({3}, {1, 1, 0}), tensorOf(DataType::I32, {3}, {1, 2, 3}), i64({1}, {0})});
  CHECK(gi.dtype() == DataType::I32);
  checkValues(gi, {3}, {3, 3, 0}, 0);
  CHECK(error("pd_op.gather_grad", "", {z, i64({3}, {1, 1, 0}), f64({2}, {1, 2}), i64({1}, {0})}) ==
        "out_grad [2] is not the forward's [3]");
}

// Finite differences: f64, central, step 1e-6, tolerance 1e-7 absolute.
TEST_CASE("index op grads match finite differences", "[kernels][index_ops]") {
  Tensor x = randomF64({3, 4, 2}, 71);
  {
    Tensor idx = i64({5}, {3, 0, 3, -1, 1}), axis = i64({1}, {1});
    Tensor w = randomF64({3, 5, 2}, 72);
    Tensor g = forward("pd_op.gather_grad", "", {x, idx, w, axis});
    checkGrad("pd_op.gather", "", {x, idx, axis}, 0, g, w);
    Tensor s = forward("pd_op.index_select_grad", "axis:(Int32)-2", {x, idx, w});
    checkGrad("pd_op.index_select", "axis:(Int32)-2", {x, idx}, 0, s, w);
  }
  {
    Tensor axis = i64({}, {-1});  // a 0-D index: out [3x4]
    Tensor w = randomF64({3, 4}, 73);
    Tensor g = forward("pd_op.gather_grad", "", {x, i64({}, {1}), w, axis});
    checkGrad("pd_op.gather", "", {x, i64({}, {1}), axis}, 0, g, w);
  }
  {
    Tensor idx = i64({2, 2, 2}, {2, 3, 0, 1, 2, 3, -1, -1});  // [2, 2] positions of 2 components, one repeated
    Tensor w = randomF64({2, 2, 2}, 74);
    Tensor g = forward("pd_op.gather_nd_grad", "", {x, idx, w});
    checkGrad("pd_op.gather_nd", "", {x, idx}, 0, g, w);
  }
  // scatter, in x and in updates; with repeats only when the updates add.
  Tensor base = randomF64({4, 3}, 75);
  for (bool overwrite : {true, false}) {
    std::string attrs = overwrite ? "overwrite:true" : "overwrite:false";
    Tensor idx = overwrite ? i64({3}, {3, 0, 2}) : i64({3}, {3, 0, 3});
    Tensor u = randomF64({3, 3}, 76), w = randomF64({4, 3}, 77);
    auto r = run("pd_op.scatter_grad", attrs, {idx, u, w}, 2);
    REQUIRE(r.status.isOk());
    INFO(attrs);
    checkGrad("pd_op.scatter", attrs, {base, idx, u}, 0, r.out(0), w);
    checkGrad("pd_op.scatter", attrs, {base, idx, u}, 2, r.out(1), w);
  }
}

TEST_CASE("one_hot is np.eye(num_classes)[x] in f32", "[kernels][index_ops]") {
  // np.eye(4, dtype=np.float32)[[[1, 0], [3, 1]]]
  Tensor o = forward("pd_op.one_hot", "", {i64({2, 2}, {1, 0, 3, 1}), i64({}, {4})});
  CHECK(o.dtype() == DataType::F32);
  checkValues(o, {2, 2, 4}, {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0}, 0);
  // np.eye(3)[[2]], int32 x, num_classes a [1] int32 full
  checkValues(forward("pd_op.one_hot", "", {i32({1}, {2}), i32({1}, {3})}), {1, 3}, {0, 0, 1}, 0);
  // the attribute of older dumps
  checkValues(forward("pd_op.one_hot", "depth:(Int32)2", {i32({}, {1})}), {2}, {0, 1}, 0);
  CHECK(error("pd_op.one_hot", "", {i64({3}, {0, 4, 1}), i64({}, {4})}) ==
        "x value 4 is out of range [0, 4) for num_classes 4");
  CHECK(error("pd_op.one_hot", "", {i64({1}, {-1}), i64({}, {4})}) ==
        "x value -1 is out of range [0, 4) for num_classes 4");
  CHECK(error("pd_op.one_hot", "", {i64({1}, {0}), i64({}, {0})}) == "num_classes 0 must be positive");
  CHECK(error("pd_op.one_hot", "", {f32({1}, {0}), i64({}, {2})}) ==
        "x must be an int32 or int64 tensor, not tensor<1xf32>");
}

namespace {

/// arange run with a result type of dynamic length, as Paddle types it.
KernelRun arangeRun(const std::string& attrs, const std::vector<Tensor>& in,
                    const std::string& type = "builtin.tensor<-1xf32>") {
  return KernelRun("pd_op.arange", attrs, in, {type});
}
Tensor arange(const std::string& attrs, const std::vector<Tensor>& in) {
  auto r = arangeRun(attrs, in);
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.out(0);
}
std::string arangeError(const std::string& attrs, const std::vector<Tensor>& in) {
  auto r = arangeRun(attrs, in);
  REQUIRE(!r.status.isOk());
  return r.status.message();
}

}  // namespace

TEST_CASE("arange is numpy's, ceil((end - start) / step) long", "[kernels][index_ops]") {
  // np.arange(0, 1, 0.25, dtype=np.float32)
  Tensor a = arange("dtype:(pd_op.DataType)float32", {f32({1}, {0}), f32({1}, {1}), f32({1}, {0.25})});
  CHECK(a.dtype() == DataType::F32);
  checkValues(a, {4}, {0, 0.25, 0.5, 0.75}, 0);
  // np.arange(0, 10, 3), np.arange(10, 1, -3)
  checkValues(arange("dtype:(pd_op.DataType)int64", {i64({}, {0}), i64({}, {10}), i64({}, {3})}), {4}, {0, 3, 6, 9}, 0);
  checkValues(arange("dtype:(pd_op.DataType)int64", {i64({}, {10}), i64({}, {1}), i64({}, {-3})}), {3}, {10, 7, 4}, 0);
  // np.arange(1, 2.05, 0.5): [1, 1.5, 2]
  checkValues(arange("dtype:(pd_op.DataType)float64", {f64({}, {1}), f64({}, {2.05}), f64({}, {0.5})}), {3},
              {1, 1.5, 2}, 0);
  // np.arange(2, 7, 2, dtype=np.int32) from int64 operands
  Tensor i = arange("dtype:(pd_op.DataType)int32", {i64({1}, {2}), i64({1}, {7}), i64({1}, {2})});
  CHECK(i.dtype() == DataType::I32);
  checkValues(i, {3}, {2, 4, 6}, 0);
  // np.arange(3, 3): empty
  CHECK(shapeOf(arange("dtype:(pd_op.DataType)int64", {i64({}, {3}), i64({}, {3}), i64({}, {1})})) == Shape{0});
  // no dtype attribute: start's
  CHECK(arange("", {f64({}, {0}), f64({}, {2}), f64({}, {1})}).dtype() == DataType::F64);

  CHECK(arangeError("dtype:(pd_op.DataType)int64", {i64({}, {0}), i64({}, {5}), i64({}, {0})}) == "step is 0");
  CHECK(arangeError("dtype:(pd_op.DataType)int64", {i64({}, {0}), i64({}, {5}), i64({}, {-1})}) ==
        "step -1 goes away from end 5 (start 0)");
  CHECK(arangeError("dtype:(pd_op.DataType)float32", {f32({}, {0}), f32({}, {INFINITY}), f32({}, {1})}) ==
        "end inf is not finite");
  CHECK(arangeError("dtype:(pd_op.DataType)float32", {f32({2}, {0, 1}), f32({}, {1}), f32({}, {1})}) ==
        "start must be a 0-D or [1] tensor, not tensor<2xf32>");
  CHECK(arangeError("dtype:(pd_op.DataType)int32", {i64({}, {0}), i64({}, {5e9}), i64({}, {1})}) ==
        "5000000000 does not fit i32");
}

TEST_CASE("arange's result type: -1 takes any length, a static one must be the computed one", "[kernels][index_ops]") {
  std::vector<Tensor> in = {i64({}, {0}), i64({}, {10}), i64({}, {3})};  // np.arange(0, 10, 3): 4 elements
  std::string attrs = "dtype:(pd_op.DataType)int64";
  for (const char* type : {"builtin.tensor<-1xi64>", "builtin.tensor<4xi64>"}) {
    auto ok = arangeRun(attrs, in, type);
    INFO(type << ": " << ok.status.message());
    REQUIRE(ok.status.isOk());
    checkValues(ok.out(0), {4}, {0, 3, 6, 9}, 0);
  }
  auto five = arangeRun(attrs, in, "builtin.tensor<5xi64>");
  CHECK(five.status.message() == "start 0, end 10 and step 3 make 4 elements, but its result type declares 5");
  // The kernel's error is located at the op (the executor names it).
  CHECK(five.status.offset() == five.op->location());
  CHECK(five.status.offset() >= 0);
  auto floats = arangeRun("dtype:(pd_op.DataType)float32", {f32({}, {0}), f32({}, {1}), f32({}, {0.25})},
                          "builtin.tensor<3xf32>");
  CHECK(floats.status.message() == "start 0, end 1 and step 0.25 make 4 elements, but its result type declares 3");
  auto empty = arangeRun(attrs, {i64({}, {3}), i64({}, {3}), i64({}, {1})}, "builtin.tensor<1xi64>");
  CHECK(empty.status.message() == "start 3, end 3 and step 1 make 0 elements, but its result type declares 1");
  auto rank2 = arangeRun(attrs, in, "builtin.tensor<2x2xi64>");
  CHECK(rank2.status.message() == "its result type declares rank 2, arange makes a 1-D tensor");
}

TEST_CASE("index ops keep bf16 as bf16", "[kernels][index_ops]") {
  Tensor x = tensorOf(DataType::BF16, {3, 2}, {0, 1, 2, 3, 4, 5});
  Tensor g = forward("pd_op.gather", "", {x, i64({2}, {2, 2}), i64({1}, {0})});
  CHECK(g.dtype() == DataType::BF16);
  checkValues(g, {2, 2}, {4, 5, 4, 5}, 0);  // np.take(x, [2, 2], axis=0)
  Tensor d = tensorOf(DataType::BF16, {2, 2}, {0.5, 1, 2, 4});
  Tensor gg = forward("pd_op.gather_grad", "", {x, i64({2}, {2, 2}), d, i64({1}, {0})});
  CHECK(gg.dtype() == DataType::BF16);
  checkValues(gg, {3, 2}, {0, 0, 0, 0, 2.5, 5}, 0);  // np.add.at(zeros, [2, 2], d)
  // o = x.copy(); o[[1, 1]] = 0; np.add.at(o, [1, 1], d)
  Tensor s = forward("pd_op.scatter", "overwrite:false", {x, i32({2}, {1, 1}), d});
  CHECK(s.dtype() == DataType::BF16);
  checkValues(s, {3, 2}, {0, 1, 2.5, 5, 4, 5}, 0);
}
