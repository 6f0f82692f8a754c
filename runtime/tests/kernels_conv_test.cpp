//===- kernels_conv_test.cpp - conv2d, pool2d, batch_norm and grads -------===//
//
// Expected forward values come from numpy (torch is not installed): inputs
// are pat(shape, mul, mod) = ((i·mul) % mod - mod//2) / 4 over the flat
// index i; conv is a direct sum over the windows of np.pad(x, pads) (each
// group's channels, dilated slices), pooling follows Paddle's pooling.cc
// windows (top/left pads place them, the end clipped at in + that pad),
// batch_norm is (x - m) / np.sqrt(v + eps) · scale + bias with m, v =
// x.mean/x.var over all but the channel axis. Grads are checked against f64
// central differences.
//
//===----------------------------------------------------------------------===//
#include "runtime/executor.h"
#include "runtime/tests/kernels_test_util.h"
#include "runtime/tests/run_helpers.h"

using namespace pir::runtime;
using namespace pir::runtime::test;
using pir::runtime::kernels::castTensor;

namespace {

Tensor pat(Shape shape, int64_t mul, int64_t mod) {
  Tensor t = Tensor::allocate(DataType::F64, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = double((i * mul) % mod - mod / 2) * 0.25;
  return t;
}

Tensor i64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }

Tensor forward(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in) {
  auto r = run(op, attrs, in);
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.out(0);
}

std::string convAttrs(const std::string& strides, const std::string& pads, const std::string& dil, int groups,
                      const std::string& algo = "EXPLICIT", const std::string& format = "NCHW") {
  return "data_format:\"" + format + "\",dilations:" + dil + ",groups:(Int32)" + std::to_string(groups) +
         ",padding_algorithm:\"" + algo + "\",paddings:" + pads + ",strides:" + strides;
}

std::string poolAttrs(const std::string& type, const std::string& strides, const std::string& pads, bool ceil,
                      bool exclusive, const std::string& algo = "EXPLICIT", bool global = false, bool adaptive = false,
                      const std::string& format = "NCHW") {
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  return "adaptive:" + b(adaptive) + ",ceil_mode:" + b(ceil) + ",data_format:\"" + format +
         "\",exclusive:" + b(exclusive) + ",global_pooling:" + b(global) + ",padding_algorithm:\"" + algo +
         "\",paddings:" + pads + ",pooling_type:\"" + type + "\",strides:" + strides;
}

std::string bnAttrs(bool isTest, const std::string& format = "NCHW", bool globalStats = false) {
  return std::string("data_format:\"") + format + "\",epsilon:(Float)1e-05,is_test:" + (isTest ? "true" : "false") +
         ",momentum:(Float)0.9,trainable_statistics:false,use_global_stats:" + (globalStats ? "true" : "false");
}

/// Checks conv2d_grad's two results against central differences of conv2d.
void checkConvGrad(const std::string& attrs, const Tensor& x, const Tensor& w) {
  Tensor out = forward("pd_op.conv2d", attrs, {x, w});
  Tensor dy = randomF64(shapeOf(out), 7);
  auto g = run("pd_op.conv2d_grad", attrs, {x, w, dy}, 2);
  INFO(g.status.message());
  REQUIRE(g.status.isOk());
  auto fwd = [&](const std::vector<Tensor>& in) { return forward("pd_op.conv2d", attrs, in); };
  checkClose(g.out(0), numericGrad(fwd, {x, w}, 0, dy), 1e-7);
  checkClose(g.out(1), numericGrad(fwd, {x, w}, 1, dy), 1e-7);
}

void checkPoolGrad(const std::string& attrs, const Tensor& x, const Tensor& k) {
  Tensor out = forward("pd_op.pool2d", attrs, {x, k});
  Tensor dy = randomF64(shapeOf(out), 11);
  auto g = run("pd_op.pool2d_grad", attrs, {x, out, dy, k});
  INFO(g.status.message());
  REQUIRE(g.status.isOk());
  auto fwd = [&](const std::vector<Tensor>& in) { return forward("pd_op.pool2d", attrs, in); };
  checkClose(g.out(0), numericGrad(fwd, {x, k}, 0, dy), 1e-7);
}

}  // namespace

TEST_CASE("conv2d: stride, padding, dilation, groups, SAME and VALID", "[kernels][conv]") {
  // conv(pat((1,2,5,5),7,11), pat((3,2,3,3),5,7), stride 2, pads 1)
  Tensor x = pat({1, 2, 5, 5}, 7, 11), w = pat({3, 2, 3, 3}, 5, 7);
  std::string a = convAttrs("[(Int32)2,(Int32)2]", "[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", 1);
  checkValues(forward("pd_op.conv2d", a, {x, w}), {1, 3, 3, 3},
              {-0.625,  -0.5625, -1.125,  -0.6875, -0.8125, 2.25,   0.125, -0.8125, -0.25,
               -1.6875, 0.9375,  -0.1875, 2.5,     1.75,    -0.625, -0.5,  -1.625,  0.5,
               -0.5625, -0.625,  1.625,   -0.4375, -0.9375, 0,      -0.25, -0.6875, -0.0625});
  // The same in f32 and bf16 (computed in f32).
  Tensor o32 = forward("pd_op.conv2d", a, {castTensor(x, DataType::F32), castTensor(w, DataType::F32)});
  CHECK(o32.dtype() == DataType::F32);
  checkClose(o32, forward("pd_op.conv2d", a, {x, w}), 1e-6);
  Tensor o16 = forward("pd_op.conv2d", a, {castTensor(x, DataType::BF16), castTensor(w, DataType::BF16)});
  CHECK(o16.dtype() == DataType::BF16);
  checkClose(o16, forward("pd_op.conv2d", a, {x, w}), 0.02);

  // conv(pat((1,4,4,4),3,13), pat((2,2,2,2),5,7), dilations 2, groups 2, pads 1)
  std::string dg = convAttrs("[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", "[(Int32)2,(Int32)2]", 2);
  checkValues(forward("pd_op.conv2d", dg, {pat({1, 4, 4, 4}, 3, 13), pat({2, 2, 2, 2}, 5, 7)}), {1, 2, 4, 4},
              {-0.4375, 0.9375, -0.1875, 0.3125,  -0.125, 2.75,    2.1875, -0.375,  0,      -1.9375, 2.375,
               -1.125,  -0.375, -1.375,  1.625,   -0.75,  -0.1875, 2.125,  -0.3125, -0.5,   -0.375,  -0.8125,
               2,       0.5,    -0.625,  -0.9375, 1.875,  0.625,   0.25,   0.0625,  -0.375, 0.3125});

  // SAME, stride 2 on 5x4 with a 3x3 filter: pads (1, 1) and (0, 1).
  Tensor x3 = pat({1, 1, 5, 4}, 7, 11), w3 = pat({1, 1, 3, 3}, 5, 9);
  std::string same = convAttrs("[(Int32)2,(Int32)2]", "[(Int32)0,(Int32)0]", "[(Int32)3,(Int32)3]", 1, "SAME");
  checkValues(forward("pd_op.conv2d", same, {x3, w3}), {1, 1, 3, 2},
              {-2.0625, -1.125, -2.875, -0.5625, -2.4375, -0.6875});
  std::string valid = convAttrs("[(Int32)2,(Int32)2]", "[(Int32)5,(Int32)5]", "[(Int32)1,(Int32)1]", 1, "VALID");
  checkValues(forward("pd_op.conv2d", valid, {x3, w3}), {1, 1, 2, 1}, {4, 4});
  // Four paddings (top 0, bottom 1, left 2, right 0), strides (1, 2).
  std::string four =
      convAttrs("[(Int32)1,(Int32)2]", "[(Int32)0,(Int32)1,(Int32)2,(Int32)0]", "[(Int32)1,(Int32)1]", 1);
  checkValues(forward("pd_op.conv2d", four, {x3, w3}), {1, 1, 4, 2},
              {1.125, 4, -0.9375, -2.875, 1.125, 4, -0.9375, -2.4375});
}

TEST_CASE("conv2d_grad matches central differences", "[kernels][conv]") {
  checkConvGrad(convAttrs("[(Int32)2,(Int32)2]", "[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", 1),
                randomF64({2, 2, 5, 5}, 1), randomF64({3, 2, 3, 3}, 2));
  checkConvGrad(convAttrs("[(Int32)1,(Int32)2]", "[(Int32)1,(Int32)0,(Int32)2,(Int32)1]", "[(Int32)2,(Int32)1]", 2),
                randomF64({1, 4, 6, 5}, 3), randomF64({4, 2, 2, 3}, 4));
  checkConvGrad(convAttrs("[(Int32)2,(Int32)2]", "[(Int32)0,(Int32)0]", "[(Int32)1,(Int32)1]", 1, "SAME"),
                randomF64({1, 2, 5, 4}, 5), randomF64({2, 2, 3, 3}, 6));
  // 1x1, stride 1, no padding: the image is its own col.
  checkConvGrad(convAttrs("[(Int32)1,(Int32)1]", "[(Int32)0,(Int32)0]", "[(Int32)1,(Int32)1]", 2),
                randomF64({2, 4, 3, 3}, 7), randomF64({6, 2, 1, 1}, 8));
  // A <<NULL TYPE>> input_grad is not computed.
  std::string a = convAttrs("[(Int32)1,(Int32)1]", "[(Int32)0,(Int32)0]", "[(Int32)1,(Int32)1]", 1);
  Tensor x = randomF64({1, 1, 3, 3}, 9), w = randomF64({1, 1, 2, 2}, 10);
  KernelRun g("pd_op.conv2d_grad", a, {x, w, randomF64({1, 1, 2, 2}, 11)}, {"<<NULL TYPE>>", "builtin.tensor<1xf32>"});
  REQUIRE(g.status.isOk());
  CHECK(!g.out(0).defined());
  CHECK(shapeOf(g.out(1)) == Shape{1, 1, 2, 2});
}

TEST_CASE("conv2d errors are kernel errors", "[kernels][conv]") {
  std::string one = "[(Int32)1,(Int32)1]", zero = "[(Int32)0,(Int32)0]";
  auto msg = [](const std::string& attrs, const Tensor& x, const Tensor& w) {
    auto r = run("pd_op.conv2d", attrs, {x, w});
    CHECK(!r.status.isOk());
    return r.status.message();
  };
  Tensor x = randomF64({1, 3, 4, 4}, 1);
  CHECK(msg(convAttrs(one, zero, one, 2), x, randomF64({2, 1, 2, 2}, 2)) ==
        "input channels 3 are not divisible by groups 2");
  CHECK(msg(convAttrs(one, zero, one, 1), x, randomF64({2, 2, 2, 2}, 2)) ==
        "filter [2x2x2x2] needs 3 input channels per group (input [1x3x4x4], groups 1)");
  CHECK(msg(convAttrs(one, zero, one, 3), x, randomF64({4, 1, 2, 2}, 2)) ==
        "filter's output channels 4 are not divisible by groups 3");
  CHECK(msg(convAttrs(one, zero, one, 1, "EXPLICIT", "NCDHW"), x, randomF64({2, 3, 2, 2}, 2)) ==
        "data_format NCDHW is not supported (NCHW or NHWC)");
  CHECK(msg(convAttrs(one, zero, one, 1, "FULL"), x, randomF64({2, 3, 2, 2}, 2)) ==
        "padding_algorithm FULL is not EXPLICIT, SAME or VALID");
  CHECK(msg(convAttrs(one, zero, one, 1), x, randomF64({2, 3, 5, 2}, 2)) ==
        "the filter [2x3x5x2] is larger than the padded input [1x3x4x4]");
  CHECK(msg(convAttrs("[(Int32)0,(Int32)1]", zero, one, 1), x, randomF64({2, 3, 2, 2}, 2)) ==
        "strides must be 2 positive values, not [0, 1]");
  CHECK(msg(convAttrs(one, zero, one, 1), randomF64({3, 4, 4}, 1), randomF64({2, 3, 2, 2}, 2)) ==
        "conv2d needs a 4-D input and filter, not [3x4x4] and [2x3x2x2]");
  auto bad = run("pd_op.conv2d_grad", convAttrs(one, zero, one, 1),
                 {x, randomF64({2, 3, 2, 2}, 2), randomF64({1, 2, 2, 2}, 3)}, 2);
  CHECK(bad.status.message() == "out_grad [1x2x2x2] is not the output shape [1x2x3x3]");
}

TEST_CASE("pool2d: max and avg with padding, exclusive, ceil_mode, SAME, global, adaptive", "[kernels][conv]") {
  Tensor x = pat({1, 1, 5, 5}, 7, 11);
  Tensor k3 = i64({2}, {3, 3}), k2 = i64({2}, {2, 2});
  std::string s2 = "[(Int32)2,(Int32)2]", p1 = "[(Int32)1,(Int32)1]", p0 = "[(Int32)0,(Int32)0]";
  // pool(pat((1,1,5,5),7,11), k3, s2, pads 1): max; avg exclusive; avg counting the padding
  checkValues(forward("pd_op.pool2d", poolAttrs("max", s2, p1, false, true), {x, k3}), {1, 1, 3, 3},
              {1, 1.25, 1.25, 1, 1, 1.25, 0.75, 1, 0.5});
  checkValues(forward("pd_op.pool2d", poolAttrs("avg", s2, p1, false, true), {x, k3}), {1, 1, 3, 3},
              {-0.125, 0.2083333333, 0.3125, -0.2916666667, -0.1111111111, -0.08333333333, 0, -0.125, -0.25}, 1e-9);
  checkValues(forward("pd_op.pool2d", poolAttrs("avg", s2, p1, false, false), {x, k3}), {1, 1, 3, 3},
              {-0.05555555556, 0.1388888889, 0.1388888889, -0.1944444444, -0.1111111111, -0.05555555556, 0,
               -0.08333333333, -0.1111111111},
              1e-9);
  // ceil_mode, k2 s2: the overhang is not counted even when not exclusive.
  checkValues(forward("pd_op.pool2d", poolAttrs("avg", s2, p0, true, false), {x, k2}), {1, 1, 3, 3},
              {-0.125, -0.0625, 0.5, -0.5, 0.25, 0.125, 0.25, -0.375, -0.5});
  checkValues(forward("pd_op.pool2d", poolAttrs("max", s2, p0, true, true), {x, k2}), {1, 1, 3, 3},
              {1, 1.25, 0.75, 0.25, 1, 1.25, 0.75, 0.5, -0.5});
  // SAME: k3 s2 pads (1, 1); k2 s2 pads (0, 1), of which Paddle keeps the top/left 0.
  checkValues(forward("pd_op.pool2d", poolAttrs("max", s2, p0, false, true, "SAME"), {x, k3}), {1, 1, 3, 3},
              {1, 1.25, 1.25, 1, 1, 1.25, 0.75, 1, 0.5});
  checkValues(forward("pd_op.pool2d", poolAttrs("avg", s2, p0, false, false, "SAME"), {x, k2}), {1, 1, 3, 3},
              {-0.125, -0.0625, 0.5, -0.5, 0.25, 0.125, 0.25, -0.375, -0.5});
  // VALID: k3 s2 without padding.
  checkValues(forward("pd_op.pool2d", poolAttrs("max", s2, p1, false, true, "VALID"), {x, k3}), {1, 1, 2, 2},
              {1, 1.25, 1, 1.25});
  // global: x.mean(axis=(2, 3)) whatever kernel_size says
  checkValues(forward("pd_op.pool2d", poolAttrs("avg", s2, p1, false, true, "EXPLICIT", true), {x, k2}), {1, 1, 1, 1},
              {-0.05});
  // adaptive 2x3: windows [floor(i·5/2), ceil((i+1)·5/2)) and likewise /3
  checkValues(
      forward("pd_op.pool2d", poolAttrs("avg", s2, p1, false, true, "EXPLICIT", false, true), {x, i64({2}, {2, 3})}),
      {1, 1, 2, 3}, {-0.3333333333, 0, 0.3333333333, -0.25, -0.2222222222, -0.04166666667}, 1e-9);
  // f32 and kernel_size as an attribute-free int32 operand
  Tensor o32 = forward("pd_op.pool2d", poolAttrs("max", s2, p1, false, true),
                       {castTensor(x, DataType::F32), tensorOf(DataType::I32, {2}, {3, 3})});
  CHECK(o32.dtype() == DataType::F32);
  checkValues(o32, {1, 1, 3, 3}, {1, 1.25, 1.25, 1, 1, 1.25, 0.75, 1, 0.5});
}

TEST_CASE("pool2d_grad matches central differences", "[kernels][conv]") {
  std::string s2 = "[(Int32)2,(Int32)2]", s1 = "[(Int32)1,(Int32)1]", p1 = "[(Int32)1,(Int32)1]";
  Tensor x = randomF64({2, 2, 5, 6}, 3);  // distinct values: one maximum per window
  Tensor k3 = i64({2}, {3, 3}), k2 = i64({2}, {2, 2});
  checkPoolGrad(poolAttrs("max", s2, p1, false, true), x, k3);
  checkPoolGrad(poolAttrs("max", s1, p1, true, true), x, k2);
  checkPoolGrad(poolAttrs("avg", s2, p1, false, true), x, k3);
  checkPoolGrad(poolAttrs("avg", s2, p1, false, false), x, k3);
  checkPoolGrad(poolAttrs("avg", s2, "[(Int32)0,(Int32)0]", true, false), x, k2);
  checkPoolGrad(poolAttrs("avg", s2, p1, false, true, "SAME"), x, k2);
  checkPoolGrad(poolAttrs("avg", s2, p1, false, true, "EXPLICIT", false, true), x, i64({2}, {2, 4}));
  checkPoolGrad(poolAttrs("max", s2, p1, false, true, "EXPLICIT", true), x, k2);
  // Tied maxima: the first one in the window gets the gradient.
  Tensor tie = f64({1, 1, 2, 2}, {1, 1, 1, 0});
  std::string a = poolAttrs("max", s2, "[(Int32)0,(Int32)0]", false, true);
  Tensor out = forward("pd_op.pool2d", a, {tie, k2});
  checkValues(forward("pd_op.pool2d_grad", a, {tie, out, f64({1, 1, 1, 1}, {5}), k2}), {1, 1, 2, 2}, {5, 0, 0, 0});
}

TEST_CASE("pool2d errors are kernel errors", "[kernels][conv]") {
  std::string s1 = "[(Int32)1,(Int32)1]", p0 = "[(Int32)0,(Int32)0]";
  Tensor x = randomF64({1, 2, 4, 4}, 1), k2 = i64({2}, {2, 2});
  auto msg = [](const std::string& attrs, const std::vector<Tensor>& in) {
    auto r = run("pd_op.pool2d", attrs, in);
    CHECK(!r.status.isOk());
    return r.status.message();
  };
  CHECK(msg(poolAttrs("max", s1, p0, false, true, "EXPLICIT", false, false, "NDHWC"), {x, k2}) ==
        "data_format NDHWC is not supported (NCHW or NHWC)");
  CHECK(msg(poolAttrs("lp", s1, p0, false, true), {x, k2}) == "pooling_type lp is not max or avg");
  CHECK(msg(poolAttrs("max", s1, p0, false, true), {randomF64({2, 4, 4}, 1), k2}) ==
        "pool2d needs a 4-D x, not [2x4x4]");
  CHECK(msg(poolAttrs("max", s1, p0, false, true), {x, i64({2}, {5, 2})}) ==
        "kernel_size [5, 2] is larger than the padded x [1x2x4x4]");
  CHECK(msg(poolAttrs("max", s1, p0, false, true), {x, i64({3}, {2, 2, 2})}) ==
        "kernel_size must have 2 values, not [2, 2, 2]");
  CHECK(msg(poolAttrs("max", s1, "[(Int32)1,(Int32)1,(Int32)1]", false, true), {x, k2}) ==
        "paddings must have 2 or 4 values, not 3");
}

namespace {

Tensor toNhwc(const Tensor& t) { return forward("pd_op.transpose", "perm:[(Int32)0,(Int32)2,(Int32)3,(Int32)1]", {t}); }

}  // namespace

// NHWC is NCHW with the channel moved last: each NHWC run must be the NCHW
// run of the transposed input, transposed (app/tests/cli_run_conv_nhwc_test.sh
// checks both against numpy too).
TEST_CASE("conv2d and conv2d_grad in NHWC are NCHW's, transposed", "[kernels][conv]") {
  struct Case {
    std::string strides, pads, dil;
    int groups;
    std::string algo;
    Shape x, w;
  };
  for (const Case& c :
       {Case{"[(Int32)2,(Int32)2]",
             "[(Int32)1,(Int32)1]",
             "[(Int32)1,(Int32)1]",
             1,
             "EXPLICIT",
             {2, 2, 5, 5},
             {3, 2, 3, 3}},
        Case{"[(Int32)1,(Int32)2]",
             "[(Int32)1,(Int32)0,(Int32)2,(Int32)1]",
             "[(Int32)2,(Int32)1]",
             2,
             "EXPLICIT",
             {1, 4, 6, 5},
             {4, 2, 2, 3}},
        Case{
            "[(Int32)2,(Int32)2]", "[(Int32)0,(Int32)0]", "[(Int32)1,(Int32)1]", 1, "SAME", {1, 3, 5, 4}, {2, 3, 3, 3}},
        Case{"[(Int32)1,(Int32)1]",
             "[(Int32)0,(Int32)0]",
             "[(Int32)1,(Int32)1]",
             2,
             "VALID",
             {2, 4, 3, 3},
             {6, 2, 1, 1}}}) {
    std::string nchw = convAttrs(c.strides, c.pads, c.dil, c.groups, c.algo, "NCHW");
    std::string nhwc = convAttrs(c.strides, c.pads, c.dil, c.groups, c.algo, "NHWC");
    INFO(nhwc);
    Tensor x = randomF64(c.x, 71), w = randomF64(c.w, 72);
    Tensor want = forward("pd_op.conv2d", nchw, {x, w});
    Tensor got = forward("pd_op.conv2d", nhwc, {toNhwc(x), w});
    checkClose(got, toNhwc(want), 1e-12);
    // The grads: input_grad transposed back, filter_grad the same.
    Tensor dy = randomF64(shapeOf(want), 73);
    auto gc = run("pd_op.conv2d_grad", nchw, {x, w, dy}, 2);
    auto gh = run("pd_op.conv2d_grad", nhwc, {toNhwc(x), w, toNhwc(dy)}, 2);
    REQUIRE(gc.status.isOk());
    INFO(gh.status.message());
    REQUIRE(gh.status.isOk());
    checkClose(gh.out(0), toNhwc(gc.out(0)), 1e-12);
    checkClose(gh.out(1), gc.out(1), 1e-12);
    // and against central differences of the NHWC forward
    auto fwd = [&](const std::vector<Tensor>& in) { return forward("pd_op.conv2d", nhwc, in); };
    checkClose(gh.out(0), numericGrad(fwd, {toNhwc(x), w}, 0, toNhwc(dy)), 1e-7);
    checkClose(gh.out(1), numericGrad(fwd, {toNhwc(x), w}, 1, toNhwc(dy)), 1e-7);
  }
  // f32 and bf16 keep their dtype in NHWC too.
  std::string a = convAttrs("[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", 1, "EXPLICIT", "NHWC");
  Tensor x = randomF64({1, 4, 4, 2}, 74), w = randomF64({3, 2, 3, 3}, 75);
  for (DataType dt : {DataType::F32, DataType::BF16}) {
    Tensor o = forward("pd_op.conv2d", a, {castTensor(x, dt), castTensor(w, dt)});
    CHECK(o.dtype() == dt);
    checkClose(o, forward("pd_op.conv2d", a, {x, w}), dt == DataType::F32 ? 1e-5 : 0.1);
  }
  // An NHWC out_grad of the wrong shape names the NHWC shape.
  auto bad = run("pd_op.conv2d_grad", a, {x, w, randomF64({1, 3, 4, 4}, 76)}, 2);
  CHECK(bad.status.message() == "out_grad [1x3x4x4] is not the output shape [1x4x4x3]");
}

TEST_CASE("pool2d and pool2d_grad in NHWC are NCHW's, transposed", "[kernels][conv]") {
  std::string s2 = "[(Int32)2,(Int32)2]", s1 = "[(Int32)1,(Int32)1]", p1 = "[(Int32)1,(Int32)1]",
              p0 = "[(Int32)0,(Int32)0]";
  Tensor x = randomF64({2, 3, 5, 6}, 81);  // distinct values: one maximum per window
  Tensor k3 = i64({2}, {3, 3}), k2 = i64({2}, {2, 2});
  struct Case {
    std::string type, strides, pads;
    bool ceil, exclusive;
    std::string algo;
    bool global, adaptive;
    Tensor k;
  };
  for (const Case& c : {Case{"max", s2, p1, false, true, "EXPLICIT", false, false, k3},
                        Case{"avg", s2, p1, false, false, "EXPLICIT", false, false, k3},
                        Case{"avg", s1, p0, true, true, "EXPLICIT", false, false, k2},
                        Case{"max", s2, p0, false, true, "SAME", false, false, k3},
                        Case{"avg", s2, p1, false, true, "EXPLICIT", true, false, k2},
                        Case{"avg", s2, p1, false, true, "EXPLICIT", false, true, i64({2}, {2, 4})}}) {
    std::string nchw = poolAttrs(c.type, c.strides, c.pads, c.ceil, c.exclusive, c.algo, c.global, c.adaptive);
    std::string nhwc = poolAttrs(c.type, c.strides, c.pads, c.ceil, c.exclusive, c.algo, c.global, c.adaptive, "NHWC");
    INFO(nhwc);
    Tensor want = forward("pd_op.pool2d", nchw, {x, c.k});
    Tensor got = forward("pd_op.pool2d", nhwc, {toNhwc(x), c.k});
    checkClose(got, toNhwc(want), 1e-12);
    Tensor dy = randomF64(shapeOf(want), 82);
    Tensor gc = forward("pd_op.pool2d_grad", nchw, {x, want, dy, c.k});
    Tensor gh = forward("pd_op.pool2d_grad", nhwc, {toNhwc(x), got, toNhwc(dy), c.k});
    checkClose(gh, toNhwc(gc), 1e-12);
    auto fwd = [&](const std::vector<Tensor>& in) { return forward("pd_op.pool2d", nhwc, in); };
    checkClose(gh, numericGrad(fwd, {toNhwc(x), c.k}, 0, toNhwc(dy)), 1e-7);
  }
  auto bad = run("pd_op.pool2d_grad", poolAttrs("max", s2, p0, false, true, "EXPLICIT", false, false, "NHWC"),
                 {toNhwc(x), randomF64({2, 3, 2, 3}, 83), randomF64({2, 2, 3, 3}, 84), k2});
  CHECK(bad.status.message() == "out [2x3x2x3] is not the output shape [2x2x3x3]");
  // An NHWC x is [N, H, W, C]: a 3-channel NHWC image of 2x2 pools over its H and W.
  Tensor img = f64({1, 2, 2, 3}, {1, 10, 100, 2, 20, 200, 3, 30, 300, 4, 40, 400});
  checkValues(
      forward("pd_op.pool2d", poolAttrs("avg", s2, p0, false, true, "EXPLICIT", false, false, "NHWC"), {img, k2}),
      {1, 1, 1, 3}, {2.5, 25, 250}, 1e-12);
}

TEST_CASE("batch_norm_: training updates the running statistics in place", "[kernels][conv]") {
  // m, v = x.mean((0,2,3)), x.var((0,2,3)) of pat((2,3,2,2),7,11); out = (x - m)/np.sqrt(v + 1e-5)·scale + bias
  Tensor x = pat({2, 3, 2, 2}, 7, 11);
  Tensor mean = f64({3}, {0.1, -0.2, 0.3}), var = f64({3}, {1.0, 0.5, 2.0});
  Tensor scale = f64({3}, {1.5, -0.5, 2.0}), bias = f64({3}, {0.1, 0.2, -0.3});
  auto r = run("pd_op.batch_norm_", bnAttrs(false), {x, mean, var, scale, bias}, 6);
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 3, 2, 2},
              {-2.507935789,  0.6669425627, -1.147273638, 2.027604713,  0.005449896329, 0.6971835983,
               -0.5133503801, 0.1783833218, -2.174070516, 2.198760688,  -0.3,           -2.798760688,
               0.6669425627,  -1.147273638, 2.027604713,  0.2133885125, 0.6971835983,   -0.5133503801,
               0.1783833218,  0.8701170238, 2.198760688,  -0.3,         -2.798760688,   1.574070516},
              1e-5);
  // 0.9·mean + 0.1·m, 0.9·var + 0.1·v (the biased v), m, 1/np.sqrt(v + 1e-5)
  checkValues(r.out(1), {3}, {0.10875, -0.183125, 0.245}, 1e-7);
  checkValues(r.out(2), {3}, {0.968359375, 0.5022460937, 1.8640625}, 1e-7);
  checkValues(r.out(3), {3}, {0.1875, -0.03125, -0.25});
  checkValues(r.out(4), {3}, {1.209477467, 1.383467404, 1.249380344}, 1e-6);
  CHECK(r.out(5).numel() == 0);
  // In place: mean and variance now hold mean_out and variance_out.
  CHECK(r.out(1).sharesStorageWith(mean));
  checkValues(mean, {3}, {0.10875, -0.183125, 0.245}, 1e-7);
  checkValues(var, {3}, {0.968359375, 0.5022460937, 1.8640625}, 1e-7);

  // Not in place: the operands stay.
  Tensor mean2 = f64({3}, {0.1, -0.2, 0.3});
  auto n = run("pd_op.batch_norm", bnAttrs(false), {x, mean2, f64({3}, {1.0, 0.5, 2.0}), scale, bias}, 6);
  REQUIRE(n.status.isOk());
  checkValues(mean2, {3}, {0.1, -0.2, 0.3});
  checkValues(n.out(1), {3}, {0.10875, -0.183125, 0.245}, 1e-7);

  // f32 x and statistics.
  auto f = run("pd_op.batch_norm_", bnAttrs(false),
               {castTensor(x, DataType::F32), f64({3}, {0.1, -0.2, 0.3}), f64({3}, {1.0, 0.5, 2.0}),
                castTensor(scale, DataType::F32), castTensor(bias, DataType::F32)},
               6);
  REQUIRE(f.status.isOk());
  CHECK(f.out(0).dtype() == DataType::F32);
  checkClose(f.out(0), r.out(0), 1e-5);
}

TEST_CASE("batch_norm: test mode, global stats and NHWC", "[kernels][conv]") {
  Tensor x = pat({2, 3, 2, 2}, 7, 11);
  Tensor scale = f64({3}, {1.5, -0.5, 2.0}), bias = f64({3}, {0.1, 0.2, -0.3});
  // (x - mean)/np.sqrt(var + 1e-5)·scale + bias with the running statistics
  std::vector<double> want = {-1.924989875,  0.699997,      -0.7999955,   1.824991375,  -0.1181948696, 0.5889048406,
                              -0.6485196523, 0.05858005796, -2.138473035, 0.3363945121, -1.077815515,  -2.492025542,
                              0.699997,      -0.7999955,    1.824991375,  0.324998875,  0.5889048406,  -0.6485196523,
                              0.05858005796, 0.7656797682,  0.3363945121, -1.077815515, -2.492025542,  -0.01715799463};
  for (std::string attrs : {bnAttrs(true), bnAttrs(false, "NCHW", true)}) {
    Tensor mean = f64({3}, {0.1, -0.2, 0.3}), var = f64({3}, {1.0, 0.5, 2.0});
    auto r = run("pd_op.batch_norm_", attrs, {x, mean, var, scale, bias}, 6);
    REQUIRE(r.status.isOk());
    checkValues(r.out(0), {2, 3, 2, 2}, want, 1e-6);
    checkValues(mean, {3}, {0.1, -0.2, 0.3});
    checkValues(var, {3}, {1.0, 0.5, 2.0});
  }
  // NHWC: the channel is the last dim; m, v over axes (0, 1) of pat((2,2,3),7,11)
  auto h = run("pd_op.batch_norm_", bnAttrs(false, "NHWC"),
               {pat({2, 2, 3}, 7, 11), f64({3}, {0, 0, 0}), f64({3}, {1, 1, 1}), scale, bias}, 6);
  REQUIRE(h.status.isOk());
  checkValues(h.out(0), {2, 2, 3},
              {-2.456324296, -0.4707774649, 2.383109859, 1.330822809, -0.02359248829, 0.5943699532, 0.9521080988,
               0.4235924883, -1.194369953, 0.5733933882, 0.8707774649, -2.983109859},
              1e-6);
  // Without scale and bias (optional): 1 and 0.
  auto bare =
      run("pd_op.batch_norm", bnAttrs(true), {x, f64({3}, {0, 0, 0}), f64({3}, {1, 1, 1}), Tensor(), Tensor()}, 6);
  REQUIRE(bare.status.isOk());
  checkClose(bare.out(0), castTensor(x, DataType::F64), 1e-4);
}

TEST_CASE("batch_norm_grad matches central differences", "[kernels][conv]") {
  Tensor x = randomF64({3, 2, 2, 3}, 21), scale = f64({2}, {1.5, -0.7}), bias = f64({2}, {0.2, -0.1});
  for (bool isTest : {false, true}) {
    for (std::string format : {"NCHW", "NHWC"}) {
      std::string attrs = bnAttrs(isTest, format);
      int64_t c = format == "NCHW" ? 2 : 3;
      Tensor sc = c == 2 ? scale : f64({3}, {1.5, -0.7, 0.4}), bi = c == 2 ? bias : f64({3}, {0.2, -0.1, 0.3});
      Tensor mean = randomF64({c}, 22), var = randomF64({c}, 23, 0.5, 2.0);
      auto f = run("pd_op.batch_norm", attrs, {x, mean, var, sc, bi}, 6);
      REQUIRE(f.status.isOk());
      Tensor dy = randomF64(shapeOf(x), 24);
      auto g =
          run("pd_op.batch_norm_grad", attrs, {x, sc, bi, f.out(1), f.out(2), f.out(3), f.out(4), f.out(5), dy}, 3);
      INFO(g.status.message());
      REQUIRE(g.status.isOk());
      auto fwd = [&](const std::vector<Tensor>& in) {
        return forward("pd_op.batch_norm", attrs, {in[0], mean, var, in[1], in[2]});
      };
      INFO("is_test " << isTest << ", " << format);
      checkClose(g.out(0), numericGrad(fwd, {x, sc, bi}, 0, dy), 1e-6);
      checkClose(g.out(1), numericGrad(fwd, {x, sc, bi}, 1, dy), 1e-6);
      checkClose(g.out(2), numericGrad(fwd, {x, sc, bi}, 2, dy), 1e-6);
    }
  }
}

TEST_CASE("batch_norm errors are kernel errors", "[kernels][conv]") {
  Tensor x = randomF64({2, 3, 2, 2}, 1), s3 = f64({3}, {1, 1, 1});
  auto bad = run("pd_op.batch_norm_", bnAttrs(false), {x, s3.clone(), s3.clone(), f64({2}, {1, 1}), s3}, 6);
  CHECK(bad.status.message() == "scale [2] does not have the 3 channels of x");
  auto rank1 = run("pd_op.batch_norm", bnAttrs(false), {f64({3}, {1, 2, 3}), s3, s3, s3, s3}, 6);
  CHECK(rank1.status.message() == "batch_norm needs x of rank >= 2, not [3]");
  auto fmt = run("pd_op.batch_norm", bnAttrs(false, "NDHWCX"), {x, s3, s3, s3, s3}, 6);
  CHECK(fmt.status.message() == "data_format NDHWCX is not supported (NCHW or NHWC)");
  auto empty = run("pd_op.batch_norm", bnAttrs(false), {Tensor::allocate(DataType::F64, {0, 3, 2}), s3, s3, s3, s3}, 6);
  CHECK(empty.status.message() == "batch statistics of an empty x [0x3x2]");
  auto grad = run("pd_op.batch_norm_grad", bnAttrs(false), {x, s3, s3, s3, s3, Tensor(), Tensor(), Tensor(), x}, 3);
  CHECK(grad.status.message() == "saved_mean and saved_variance are missing");
}

TEST_CASE("2023 dumps' spellings: bare strings, 0/1 flags, data_layout", "[kernels][conv]") {
  // Attributes as corpus 29 prints them (its [..] aside, which the parser does not read).
  Tensor x = pat({1, 2, 5, 5}, 7, 11), w = pat({3, 2, 3, 3}, 5, 7);
  std::string conv =
      "groups:1,padding_algorithm:EXPLICIT,strides:[2,2],data_format:NCHW,dilations:[1,1],paddings:[1,"
      "1]";
  checkClose(forward("pd_op.conv2d", conv, {x, w}),
             forward("pd_op.conv2d", convAttrs("[(Int32)2,(Int32)2]", "[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", 1),
                     {x, w}),
             0);
  std::string pool =
      "padding_algorithm:EXPLICIT,paddings:[1,1],exclusive:0,data_format:NCHW,adaptive:0,strides:[2,2],"
      "ceil_mode:0,global_pooling:0,pooling_type:avg";
  Tensor p = pat({1, 1, 5, 5}, 7, 11), k3 = i64({2}, {3, 3});
  checkClose(
      forward("pd_op.pool2d", pool, {p, k3}),
      forward("pd_op.pool2d", poolAttrs("avg", "[(Int32)2,(Int32)2]", "[(Int32)1,(Int32)1]", false, false), {p, k3}),
      0);
  std::string bn = "trainable_statistics:0,use_global_stats:0,data_layout:NHWC,epsilon:1e-05,is_test:1,momentum:0.9";
  Tensor xb = pat({2, 2, 3}, 7, 11), m = f64({3}, {0.1, 0.2, 0.3}), v = f64({3}, {1, 2, 3});
  Tensor s = f64({3}, {1.5, -0.5, 2}), b = f64({3}, {0.1, 0.2, -0.3});
  auto legacy = run("pd_op.batch_norm", bn, {xb, m, v, s, b}, 6);
  auto current = run("pd_op.batch_norm", bnAttrs(true, "NHWC"), {xb, m, v, s, b}, 6);
  REQUIRE(legacy.status.isOk());
  REQUIRE(current.status.isOk());
  checkClose(legacy.out(0), current.out(0), 0);
}

TEST_CASE("a conv net through the executor: conv2d, batch_norm_, relu, pool2d", "[kernels][conv]") {
  auto T = [](const std::string& dims) { return "builtin.tensor<" + dims + "xf32>"; };
  auto param = [&](int id, const std::string& name, const std::string& dims) {
    return "(%" + std::to_string(id) + ") = \"builtin.parameter\" () {parameter_name:\"" + name +
           "\",persistable:[true]} : () -> " + T(dims);
  };
  std::string conv = convAttrs("[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", "[(Int32)1,(Int32)1]", 1);
  std::string pool = poolAttrs("max", "[(Int32)2,(Int32)2]", "[(Int32)0,(Int32)0]", false, true);
  std::string text = testing::block(
      {"(%0) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",place:(pd_op.Place)Place(cpu),"
       "shape:(pd_op.IntArray)[2,2,4,4],stop_gradient:[true]} : () -> " +
           T("2x2x4x4"),
       param(1, "w", "3x2x3x3"), param(2, "mean", "3"), param(3, "var", "3"), param(4, "scale", "3"),
       param(5, "bias", "3"),
       "(%6) = \"pd_op.conv2d\" (%0, %1) {" + conv + "} : (" + T("2x2x4x4") + ", " + T("3x2x3x3") + ") -> " +
           T("2x3x4x4"),
       "(%7, %8, %9, %10, %11, %12) = \"pd_op.batch_norm_\" (%6, %2, %3, %4, %5) {" + bnAttrs(false) + "} : (" +
           T("2x3x4x4") + ", " + T("3") + ", " + T("3") + ", " + T("3") + ", " + T("3") + ") -> " + T("2x3x4x4") +
           ", " + T("3") + ", " + T("3") + ", " + T("3") + ", " + T("3") + ", " + T("-1"),
       "(%13) = \"pd_op.relu\" (%7) {} : (" + T("2x3x4x4") + ") -> " + T("2x3x4x4"),
       "(%14) = \"pd_op.full_int_array\" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),"
       "stop_gradient:[true],value:[(Int64)2,(Int64)2]} : () -> builtin.tensor<2xi64>",
       "(%15) = \"pd_op.pool2d\" (%13, %14) {" + pool + "} : (" + T("2x3x4x4") + ", builtin.tensor<2xi64>) -> " +
           T("2x3x2x2"),
       "() = \"builtin.shadow_output\" (%15) {output_name:\"y\"} : (" + T("2x3x2x2") + ") -> "});
  auto f = [](const Tensor& t) { return castTensor(t, DataType::F32); };
  Tensor x = f(randomF64({2, 2, 4, 4}, 31)), w = f(randomF64({3, 2, 3, 3}, 32));
  Tensor mean = f(f64({3}, {0, 0.5, -0.5})), var = f(f64({3}, {1, 2, 0.5}));
  Tensor scale = f(f64({3}, {1, 2, -1})), bias = f(f64({3}, {0, 0.1, 0.2}));
  TensorMap feeds{{"x", x}, {"w", w}, {"mean", mean}, {"var", var}, {"scale", scale}, {"bias", bias}};
  // The same chain kernel by kernel, on copies of the statistics.
  Tensor c = forward("pd_op.conv2d", conv, {x, w});
  auto bn = run("pd_op.batch_norm_", bnAttrs(false), {c, mean.clone(), var.clone(), scale, bias}, 6);
  REQUIRE(bn.status.isOk());
  Tensor want = forward("pd_op.pool2d", pool, {forward("pd_op.relu", "", {bn.out(0)}), i64({2}, {2, 2})});
  std::string error;
  TensorMap out = testing::runText(text, feeds, &error);
  INFO(error);
  REQUIRE(out.count("y"));
  checkClose(out["y"], want, 1e-6);
  // batch_norm_ moved the running statistics of the parameters in place.
  checkClose(mean, bn.out(1), 0);
  checkClose(var, bn.out(2), 0);
}
