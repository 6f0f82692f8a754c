//===- kernels_nan_test.cpp - NaN and infinities as numpy has them --------===//
//
// Issue 28: relu(NaN) was 0, so a NaN input could end in a finite loss.
// Every expected value below is numpy's (1.24) for the same expression,
// written out: np.maximum(x, 0) for relu, dout·(out > 0) with NaN where out
// is NaN for relu_grad, exp(x - max) / sum for softmax, astype for casts.
// Cases tagged [audit] pin what the audit of every kernel found numpy's
// already (old main passes them); the others failed on old main. The cast
// case is undefined behaviour on old main that x86 happened to resolve to
// numpy's values.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <limits>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("relu keeps NaN and infinities as np.maximum(x, 0) does", "[kernels][nan]") {
  std::vector<double> x{kNaN, -kInf, kInf, -1, 0, 2}, want{kNaN, 0, kInf, 0, 0, 2};
  for (DataType dt : {DataType::F32, DataType::F64, DataType::BF16}) {
    INFO(pir::core::dataTypeName(dt));
    checkIeee(run("pd_op.relu", "", {tensorOf(dt, {6}, x)}).out(0), {6}, want);
  }
}

TEST_CASE("relu_grad is dout·(out > 0), NaN where out is NaN", "[kernels][nan]") {
  // np.where(np.isnan(out), nan, dout * (out > 0)): a NaN or inf dout is not masked to 0.
  Tensor out = f32({5}, {kNaN, 0, 2, 0, 3});
  Tensor dout = f32({5}, {1, kNaN, 5, kInf, kNaN});
  checkIeee(run("pd_op.relu_grad", "", {out, dout}).out(0), {5}, {kNaN, kNaN, 5, kNaN, kNaN});
  // Finite values as before.
  checkIeee(run("pd_op.relu_grad", "", {f64({3}, {0, 1, 2}), f64({3}, {4, 5, -6})}).out(0), {3}, {0, 5, -6});
}

TEST_CASE("softmax rows with NaN or infinities, on the last axis and on axis 0", "[kernels][nan][audit]") {
  // np: m = x.max(axis, keepdims); e = exp(x - m); e / e.sum(axis, keepdims).
  Tensor x = f32({3, 3}, {1, kNaN, 2, 0, -kInf, 0, kInf, 0, 1});
  checkIeee(run("pd_op.softmax", "axis:(Int32)-1", {x}).out(0), {3, 3},
            {kNaN, kNaN, kNaN, 0.5, 0, 0.5, kNaN, kNaN, kNaN});
  // The transpose on axis 0 (the strided loop, not Eigen's).
  Tensor xt = f32({3, 3}, {1, 0, kInf, kNaN, -kInf, 0, 2, 0, 1});
  checkIeee(run("pd_op.softmax", "axis:(Int32)0", {xt}).out(0), {3, 3},
            {kNaN, 0.5, kNaN, kNaN, 0, kNaN, kNaN, 0.5, kNaN});
  checkIeee(run("pd_op.softmax", "axis:(Int32)-1", {f64({2}, {5, kNaN})}).out(0), {2}, {kNaN, kNaN});
}

TEST_CASE("cross_entropy_with_softmax: a NaN logit makes its row's loss NaN", "[kernels][nan]") {
  const std::string attrs =
      "soft_label:false,use_softmax:true,numeric_stable_mode:true,ignore_index:(Int32)-100,axis:(Int32)-1";
  Tensor x = f64({2, 3}, {1, kNaN, 2, 0, 0, 0});
  auto r = run("pd_op.cross_entropy_with_softmax", attrs, {x, tensorOf(DataType::I64, {2, 1}, {0, 1})}, 2);
  REQUIRE(r.status.isOk());
  checkIeee(r.out(1), {2, 1}, {kNaN, std::log(3.0)}, 1e-12);
  // Its grad without softmax: a NaN loss_grad is NaN at every class, not only the label's.
  const std::string noSoftmax =
      "soft_label:false,use_softmax:false,numeric_stable_mode:true,ignore_index:(Int32)-100,axis:(Int32)-1";
  auto g = run("pd_op.cross_entropy_with_softmax_grad", noSoftmax,
               {tensorOf(DataType::I64, {1, 1}, {0}), f64({1, 2}, {0.5, 0.5}), f64({1, 1}, {kNaN})});
  REQUIRE(g.status.isOk());
  checkIeee(g.out(0), {1, 2}, {kNaN, kNaN});
}

TEST_CASE("adam_ with amsgrad keeps a NaN moment2_max as np.maximum does", "[kernels][nan]") {
  Tensor p = f64({2}, {1, 1}), grad = f64({2}, {0.5, 0.5}), lr = f64({}, {0.01}), m1 = f64({2}, {0, 0}),
         m2 = f64({2}, {0, 0}), m2max = f64({2}, {kNaN, 0}), b1p = f64({1}, {0.9}), b2p = f64({1}, {0.999});
  auto r = run("pd_op.adam_", "beta1:(Float)0.9,beta2:(Float)0.999,epsilon:(Float)1e-08,amsgrad:true",
               {p, grad, lr, m1, m2, m2max, b1p, b2p, Tensor(), Tensor()}, 7);
  REQUIRE(r.status.isOk());
  CHECK(std::isnan(m2max.data<double>()[0]));
  CHECK(std::isnan(p.data<double>()[0]));
  CHECK(std::isfinite(p.data<double>()[1]));
}

TEST_CASE("binary ops, reductions, matmul and layer_norm propagate NaN and infinities", "[kernels][nan][audit]") {
  Tensor a = f32({3}, {kNaN, kInf, -kInf}), b = f32({3}, {1, -kInf, -kInf});
  checkIeee(run("pd_op.add", "", {a, b}).out(0), {3}, {kNaN, kNaN, -kInf});
  checkIeee(run("pd_op.multiply", "", {f64({2}, {0, 2}), f64({2}, {kInf, kNaN})}).out(0), {2}, {kNaN, kNaN});
  checkIeee(run("pd_op.divide", "", {f64({3}, {1, 0, -1}), f64({1}, {0})}).out(0), {3}, {kInf, kNaN, -kInf});
  checkIeee(run("pd_op.sum", "dtype:(pd_op.DataType)undefined,keepdim:false",
                {f32({3}, {1, kNaN, 2}), tensorOf(DataType::I64, {0}, {})})
                .out(0),
            {}, {kNaN});
  checkIeee(run("pd_op.mean", "axis:(pd_op.IntArray)[],keepdim:false", {f64({2}, {kInf, -kInf})}).out(0), {}, {kNaN});
  // np.array([[nan, 1]]) @ [[0], [0]] and [[inf, 0]] @ [[0], [1]]: 0·NaN and 0·inf are NaN.
  for (DataType dt : {DataType::F32, DataType::F64}) {
    INFO(pir::core::dataTypeName(dt));
    auto m = run("pd_op.matmul", "transpose_x:false,transpose_y:false",
                 {tensorOf(dt, {2, 2}, {kNaN, 1, kInf, 0}), tensorOf(dt, {2, 1}, {0, 0})});
    REQUIRE(m.status.isOk());
    checkIeee(m.out(0), {2, 1}, {kNaN, kNaN});
  }
  auto ln = run("pd_op.layer_norm", "epsilon:(Float)1e-05,begin_norm_axis:(Int32)1",
                {f64({2, 2}, {kNaN, 1, 1, 3}), Tensor(), Tensor()}, 3);
  REQUIRE(ln.status.isOk());
  checkIeee(ln.out(0), {2, 2}, {kNaN, kNaN, -0.9999950000374997, 0.9999950000374997}, 1e-12);
}

TEST_CASE("unary math on NaN and infinities", "[kernels][nan][audit]") {
  Tensor x = f64({3}, {kNaN, -kInf, kInf});
  checkIeee(run("pd_op.exp", "", {x}).out(0), {3}, {kNaN, 0, kInf});
  checkIeee(run("pd_op.sigmoid", "", {x}).out(0), {3}, {kNaN, 0, 1});
  checkIeee(run("pd_op.tanh", "", {x}).out(0), {3}, {kNaN, -1, 1});
  checkIeee(run("pd_op.abs", "", {x}).out(0), {3}, {kNaN, kInf, kInf});
  checkIeee(run("pd_op.square", "", {x}).out(0), {3}, {kNaN, kInf, kInf});
  checkIeee(run("pd_op.sqrt", "", {f64({2}, {-1, kInf})}).out(0), {2}, {kNaN, kInf});
  checkIeee(run("pd_op.gelu", "approximate:false", {f64({2}, {kNaN, kInf})}).out(0), {2}, {kNaN, kInf});
  checkIeee(run("pd_op.scale", "bias:(Float)1,bias_after_scale:true,scale:(Float)2", {x}).out(0), {3},
            {kNaN, -kInf, kInf});
}

TEST_CASE("a cast of NaN, an infinity or an out-of-range float to an int is numpy's astype on x86",
          "[kernels][nan][audit]") {
  // np.array([nan, inf, -inf, 3e9, -3.7], np.float32).astype(np.int32): the minimum for
  // the first four, -3 (truncated); as int64 3e9 fits. A static_cast there is undefined.
  Tensor x = f32({5}, {kNaN, kInf, -kInf, 3e9, -3.7});
  auto i32 = run("pd_op.cast", "dtype:(pd_op.DataType)int32", {x});
  REQUIRE(i32.status.isOk());
  const int32_t m32 = std::numeric_limits<int32_t>::min();
  CHECK(std::vector<int32_t>(i32.out(0).data<int32_t>(), i32.out(0).data<int32_t>() + 5) ==
        std::vector<int32_t>{m32, m32, m32, m32, -3});
  auto i64 = run("pd_op.cast", "dtype:(pd_op.DataType)int64", {x});
  REQUIRE(i64.status.isOk());
  const int64_t m64 = std::numeric_limits<int64_t>::min();
  CHECK(std::vector<int64_t>(i64.out(0).data<int64_t>(), i64.out(0).data<int64_t>() + 5) ==
        std::vector<int64_t>{m64, m64, m64, 3000000000, -3});
  // astype(bool): NaN is true.
  auto b = run("pd_op.cast", "dtype:(pd_op.DataType)bool", {f64({3}, {kNaN, kInf, 0})});
  REQUIRE(b.status.isOk());
  CHECK(values(b.out(0)) == std::vector<double>{1, 1, 0});
  // An int scale by a float factor that overflows is the minimum too (scale on int64 computes in f64).
  auto s = run("pd_op.scale", "bias:(Float)0,bias_after_scale:true,scale:(Double)1e300",
               {tensorOf(DataType::I64, {2}, {1, 0})});
  REQUIRE(s.status.isOk());
  CHECK(s.out(0).data<int64_t>()[0] == m64);
  CHECK(s.out(0).data<int64_t>()[1] == 0);
}
