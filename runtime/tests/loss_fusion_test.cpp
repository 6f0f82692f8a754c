//===- loss_fusion_test.cpp - a squared loss reduced without its squares --===//
//
// Hand-written loss chains, d = a - b, loss = sum or mean of square(d) over
// some axes, and their backward square_grad(d, sum_grad(square(d), g)),
// with and without what forbids the fusion (runtime/loss_fusion.h). Every
// run is checked against loops in double (not the runner's kernels) at
// f32's tolerance, 1e-6 + 1e-5 relative, and bit for bit against the same
// program compiled without the fusion; how many steps the plan dropped
// tells what was fused.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "runtime/tests/run_helpers.h"

using namespace pir;
using namespace pir::runtime;
using namespace pir::runtime::testing;

namespace {

/// One loss chain over a [R, C] difference.
struct Chain {
  int64_t rows = 5, cols = 7;
  bool mean = false;
  std::vector<int64_t> axes;  // empty: every dim
  bool keepdim = false;
  const char* dtype = "f32";
};

std::string typeOf(const std::vector<int64_t>& dims, const char* dtype) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + dtype + ">";
}

std::string listOf(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

/// The loss's shape: [R, C] reduced over the chain's axes.
std::vector<int64_t> lossShape(const Chain& c) {
  std::vector<int64_t> dims{c.rows, c.cols}, out;
  for (size_t i = 0; i < dims.size(); ++i) {
    bool reduced = c.axes.empty();
    for (int64_t a : c.axes) reduced |= (a < 0 ? a + 2 : a) == int64_t(i);
    if (!reduced)
      out.push_back(dims[i]);
    else if (c.keepdim)
      out.push_back(1);
  }
  return out;
}

/// a %1, b %2, g %3 (the loss's upstream gradient, fed); %4 = a - b;
/// %5 = square(%4); %7 = the reduction; %8 = its grad; %9 = square_grad;
/// loss and dd fetched. `between` goes between the square and the
/// reduction, `beforeGrad` between the reduction grad and the square_grad,
/// `tail` at the end.
std::string program(const Chain& c, std::vector<std::string> between = {}, std::vector<std::string> beforeGrad = {},
                    std::vector<std::string> tail = {}) {
  const std::string td = typeOf({c.rows, c.cols}, c.dtype), tl = typeOf(lossShape(c), c.dtype);
  const std::string axes = listOf(c.axes), keep = c.keepdim ? "true" : "false";
  std::vector<std::string> lines{
      R"((%1) = "pd_op.data" () {name:"a"} : () -> )" + td,
      R"((%2) = "pd_op.data" () {name:"b"} : () -> )" + td,
      R"((%3) = "pd_op.data" () {name:"g"} : () -> )" + tl,
      R"((%4) = "pd_op.subtract" (%1, %2) {} : ()" + td + ", " + td + ") -> " + td,
      R"((%5) = "pd_op.square" (%4) {} : ()" + td + ") -> " + td,
  };
  lines.insert(lines.end(), between.begin(), between.end());
  const std::string axisType = "tensor<" + std::to_string(c.axes.size()) + "xi64>";
  if (c.mean) {
    lines.push_back(R"((%7) = "pd_op.mean" (%5) {axis:(pd_op.IntArray))" + axes + ",keepdim:" + keep + "} : (" + td +
                    ") -> " + tl);
    lines.push_back(R"((%8) = "pd_op.mean_grad" (%5, %3) {axis:(pd_op.IntArray))" + axes + ",keepdim:" + keep +
                    ",reduce_all:false} : (" + td + ", " + tl + ") -> " + td);
  } else {
    lines.push_back(R"((%6) = "pd_op.full_int_array" () {dtype:int64,value:)" + axes + "} : () -> " + axisType);
    lines.push_back(R"((%7) = "pd_op.sum" (%5, %6) {dtype:)" +
                    std::string(c.dtype == std::string("f32") ? "float32" : "float64") + ",keepdim:" + keep + "} : (" +
                    td + ", " + axisType + ") -> " + tl);
    lines.push_back(R"((%8) = "pd_op.sum_grad" (%5, %3, %6) {keepdim:)" + keep + ",reduce_all:false} : (" + td + ", " +
                    tl + ", " + axisType + ") -> " + td);
  }
  lines.insert(lines.end(), beforeGrad.begin(), beforeGrad.end());
  lines.push_back(R"((%9) = "pd_op.square_grad" (%4, %8) {} : ()" + td + ", " + td + ") -> " + td);
  lines.push_back(R"(() = "builtin.shadow_output" (%7) {output_name:"loss"} : ()" + tl + ") -> ");
  lines.push_back(R"(() = "builtin.shadow_output" (%9) {output_name:"dd"} : ()" + td + ") -> ");
  lines.insert(lines.end(), tail.begin(), tail.end());
  std::string text = "{\n";
  for (const auto& l : lines) text += "    " + l + "\n";
  return text + "}\n";
}

TensorMap feedsFor(const Chain& c) {
  DataType dt = std::string(c.dtype) == "f32" ? DataType::F32 : DataType::F64;
  return {{"a", randomTensor({c.rows, c.cols}, dt, 1, 2)},
          {"b", randomTensor({c.rows, c.cols}, dt, 2, 2)},
          {"g", randomTensor(lossShape(c), dt, 3, 2)}};
}

/// The loss and dd by loops in double: loss[k] = Σ d² over group k (÷ its
/// size for mean), dd = 2·d·g[k] (÷ the group's size for mean), with d
/// scaled by `dScale` for the square_grad (an in-place write of d before it).
struct Expected {
  std::vector<double> loss, dd;
};
Expected expected(const Chain& c, const TensorMap& feeds, double dScale = 1) {
  bool rowsReduced = c.axes.empty(), colsReduced = c.axes.empty();
  for (int64_t a : c.axes) (a == 0 || a == -2 ? rowsReduced : colsReduced) = true;
  auto group = [&](int64_t i, int64_t j) {
    int64_t r = rowsReduced ? 0 : i, k = colsReduced ? 0 : j;
    return r * (colsReduced ? 1 : c.cols) + k;
  };
  const int64_t groups = (rowsReduced ? 1 : c.rows) * (colsReduced ? 1 : c.cols);
  const double count = double(c.rows * c.cols / groups);
  Expected e;
  e.loss.assign(size_t(groups), 0);
  e.dd.assign(size_t(c.rows * c.cols), 0);
  const Tensor &a = feeds.at("a"), &b = feeds.at("b"), &g = feeds.at("g");
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) {
      double d = at(a, i * c.cols + j) - at(b, i * c.cols + j);
      e.loss[size_t(group(i, j))] += d * d;
      e.dd[size_t(i * c.cols + j)] = 2 * dScale * d * at(g, group(i, j)) / (c.mean ? count : 1);
    }
  if (c.mean)
    for (double& l : e.loss) l /= count;
  return e;
}

bool sameBits(const Tensor& x, const Tensor& y) {
  return x.dtype() == y.dtype() && x.numel() == y.numel() &&
         std::memcmp(x.data<unsigned char>(), y.data<unsigned char>(), size_t(x.numel()) * elementSize(x.dtype())) == 0;
}

struct Run {
  TensorMap fetches;
  size_t steps = 0;
};
Run runOnce(const std::string& text, const TensorMap& feeds, bool fuse) {
  auto p = parse(text);
  INFO(p->error);
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program, kernelRegistry(), CompileOptions{.fuseLoss = fuse});
  if (!ex) FAIL(ex.status().message());
  Run r;
  core::Status st = (*ex)->run(feeds, r.fetches);
  INFO(st.message());
  REQUIRE(st);
  r.steps = (*ex)->numSteps();
  return r;
}

/// Runs `text` fused and not on the chain's feeds; checks both against the
/// loops and each fetch bit for bit between them; the steps the fusion
/// dropped.
size_t droppedSteps(const Chain& c, const std::string& text, double dScale = 1) {
  TensorMap feeds = feedsFor(c);
  Expected e = expected(c, feeds, dScale);
  Run fused = runOnce(text, feeds, true), plain = runOnce(text, feeds, false);
  for (const Run* r : {&fused, &plain}) {
    CHECK(close(r->fetches.at("loss"), e.loss));
    CHECK(close(r->fetches.at("dd"), e.dd));
  }
  for (const auto& [name, t] : plain.fetches) {
    INFO(name);
    CHECK(sameBits(fused.fetches.at(name), t));
  }
  return plain.steps - fused.steps;
}

}  // namespace

TEST_CASE("a squared loss and its grad make no squares and no broadcast, every reduction", "[loss_fusion]") {
  for (bool mean : {false, true})
    for (const char* dtype : {"f32", "f64"})
      for (auto axes : std::vector<std::vector<int64_t>>{{}, {0, 1}, {1}, {0}, {-1}})
        for (bool keepdim : {false, true}) {
          Chain c{5, 7, mean, axes, keepdim, dtype};
          INFO((mean ? "mean" : "sum") << " " << dtype << " axes " << listOf(axes) << " keepdim " << keepdim);
          CHECK(droppedSteps(c, program(c)) == 2);
        }
}

TEST_CASE("a loss over rows of more than eight elements and a ragged tail sums as the ops do", "[loss_fusion]") {
  // 8 running sums per row and a tail: the fused sum must keep their order
  Chain c{3, 67};
  CHECK(droppedSteps(c, program(c)) == 2);
  Chain one{1, 1};
  CHECK(droppedSteps(one, program(one)) == 2);
}

TEST_CASE("a squared loss is fused only where no one sees the difference", "[loss_fusion]") {
  Chain c;
  const std::string td = typeOf({c.rows, c.cols}, c.dtype);
  const std::string two = R"((%30) = "pd_op.full" () {dtype:float32,shape:[1],value:2} : () -> tensor<1xf32>)";
  const std::string doubleD =
      R"((%31) = "pd_op.scale_" (%4, %30) {bias:0,bias_after_scale:true} : ()" + td + ", tensor<1xf32>) -> " + td;
  SECTION("the squares are also fetched: only the backward is fused") {
    std::string text =
        program(c, {}, {}, {R"(() = "builtin.shadow_output" (%5) {output_name:"sq"} : ()" + td + ") -> "});
    CHECK(droppedSteps(c, text) == 1);
  }
  SECTION("the broadcast gradient is also fetched: only the forward is fused") {
    std::string text =
        program(c, {}, {}, {R"(() = "builtin.shadow_output" (%8) {output_name:"bcast"} : ()" + td + ") -> "});
    // the reduction grad, not fused, reads the square's input for its shape
    CHECK(droppedSteps(c, text) == 1);
  }
  SECTION("d is doubled in place between the reduction grad and the square_grad") {
    // square_grad reads the doubled d; the fused step would read it before
    CHECK(droppedSteps(c, program(c, {}, {two, doubleD}), 2) == 1);
  }
  SECTION("d is doubled in place between the square and the reduction") {
    // the loss is of d's squares before; the reduction would read d after
    CHECK(droppedSteps(c, program(c, {two, doubleD}), 2) == 1);
  }
  SECTION("the square_grad's x is not the square's input") {
    std::string text = program(c);
    std::string from = R"("pd_op.square_grad" (%4, %8))", to = R"("pd_op.square_grad" (%40, %8))";
    text.replace(text.find(from), from.size(), to);
    text.insert(text.find("    (%5) ="), "    (%40) = \"pd_op.relu\" (%4) {} : (" + td + ") -> " + td + "\n");
    TensorMap feeds = feedsFor(c);
    Run fused = runOnce(text, feeds, true), plain = runOnce(text, feeds, false);
    CHECK(plain.steps - fused.steps == 1);  // the forward only
    for (const auto& [name, t] : plain.fetches) CHECK(sameBits(fused.fetches.at(name), t));
  }
}

TEST_CASE("a sum of squares into another dtype is not fused", "[loss_fusion]") {
  // cast(square(d)) summed is not square(cast(d)) summed
  const std::string td = "tensor<5x7xf32>";
  std::string text = block({
      R"((%1) = "pd_op.data" () {name:"a"} : () -> )" + td,
      R"((%2) = "pd_op.square" (%1) {} : ()" + td + ") -> " + td,
      R"((%3) = "pd_op.full_int_array" () {dtype:int64,value:[]} : () -> tensor<0xi64>)",
      R"((%4) = "pd_op.sum" (%2, %3) {dtype:float64,keepdim:false} : ()" + td + ", tensor<0xi64>) -> tensor<f64>",
      R"(() = "builtin.shadow_output" (%4) {output_name:"loss"} : (tensor<f64>) -> )",
  });
  TensorMap feeds{{"a", randomTensor({5, 7}, DataType::F32, 4)}};
  Run fused = runOnce(text, feeds, true), plain = runOnce(text, feeds, false);
  CHECK(plain.steps == fused.steps);
  CHECK(sameBits(fused.fetches.at("loss"), plain.fetches.at("loss")));
  // the same program summing in f32 is fused, forward only
  std::string f32 = text;
  for (auto [from, to] : {std::pair<std::string, std::string>{"dtype:float64", "dtype:float32"},
                          {"tensor<f64>", "tensor<f32>"},
                          {"tensor<f64>", "tensor<f32>"}})
    f32.replace(f32.find(from), from.size(), to);
  Run fusedF32 = runOnce(f32, feeds, true), plainF32 = runOnce(f32, feeds, false);
  CHECK(plainF32.steps - fusedF32.steps == 1);
  CHECK(sameBits(fusedF32.fetches.at("loss"), plainF32.fetches.at("loss")));
  double want = 0;
  for (int64_t i = 0; i < 35; ++i) want += at(feeds.at("a"), i) * at(feeds.at("a"), i);
  CHECK(std::abs(at(fusedF32.fetches.at("loss"), 0) - want) <= 1e-6 + 1e-5 * want);
}

TEST_CASE("a fused loss grad's value is shown as the square_grad's", "[loss_fusion]") {
  // RunStats::madeValues with a fused plan (pir-run's --dump-values compiles without fusions; a library user may not)
  Chain c;
  auto p = parse(program(c));
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program);
  REQUIRE(ex);
  REQUIRE((*ex)->numFusedLossOps() == 2);
  std::vector<std::pair<const core::Value*, Tensor>> made;
  RunStats stats;
  stats.madeValues = &made;
  TensorMap fetches;
  REQUIRE((*ex)->run(feedsFor(c), fetches, nullptr, &stats));
  const core::Operation* squareGrad = nullptr;
  for (const core::Operation& op : p->program->body())
    if (op.name() == "pd_op.square_grad") squareGrad = &op;
  REQUIRE(squareGrad);
  bool shown = false;
  for (const auto& [value, tensor] : made) {
    INFO(value->definingOp()->name());
    CHECK(value->definingOp()->name() != "pd_op.sum_grad");  // never made: the step makes the square_grad's
    CHECK(value->definingOp()->name() != "pd_op.square");
    if (value == squareGrad->result(0)) shown = sameBits(tensor, fetches.at("dd"));
  }
  CHECK(shown);
}

TEST_CASE("a reduction grad whose out_grad is of another dtype is not fused: its error is the op's", "[loss_fusion]") {
  const std::string td = "tensor<4x6xf32>";
  std::string text = block({
      R"((%1) = "pd_op.data" () {name:"a"} : () -> )" + td,
      R"((%2) = "pd_op.data" () {name:"g"} : () -> tensor<f64>)",
      R"((%3) = "pd_op.square" (%1) {} : ()" + td + ") -> " + td,
      R"((%4) = "pd_op.mean_grad" (%3, %2) {axis:(pd_op.IntArray)[],keepdim:false,reduce_all:false} : ()" + td +
          ", tensor<f64>) -> " + td,
      R"((%5) = "pd_op.square_grad" (%1, %4) {} : ()" + td + ", " + td + ") -> " + td,
      R"(() = "builtin.shadow_output" (%5) {output_name:"da"} : ()" + td + ") -> ",
  });
  TensorMap feeds{{"a", randomTensor({4, 6}, DataType::F32, 5)}, {"g", Tensor::allocate(DataType::F64, {})}};
  std::string fused, plain;
  auto p = parse(text);
  REQUIRE(p->program);
  for (bool fuse : {true, false}) {
    auto ex = Executor::compile(*p->program, kernelRegistry(), CompileOptions{.fuseLoss = fuse});
    REQUIRE(ex);
    CHECK((*ex)->numFusedLossOps() == 0);
    TensorMap fetches;
    core::Status st = (*ex)->run(feeds, fetches);
    CHECK(!st);
    (fuse ? fused : plain) = st.message();
  }
  CHECK(fused == plain);
}
