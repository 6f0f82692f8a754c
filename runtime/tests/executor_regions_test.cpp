//===- executor_regions_test.cpp - pd_op.if, pd_op.while, cinn_op.group ---===//
//
// Control flow runs its regions (issue 29), not a flattened copy: the taken
// branch of an if, a while's body as long as its condition holds (a trip
// count the data decides), values defined outside read inside, in-place ops
// on carried values, cf.yield swapping them, nesting, and CINN groups run
// inline. Every expected value is worked by hand in the comment beside it.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include "runtime/tests/run_helpers.h"

using namespace pir::runtime;
using namespace pir::runtime::testing;

namespace {

constexpr std::string_view kX =
    R"((%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>)";
constexpr std::string_view kN =
    R"((%1) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"n",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<f32>)";
constexpr std::string_view kZero =
    R"((%2) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[],stop_gradient:[true],value:(Float)0} : () -> builtin.tensor<f32>)";
constexpr std::string_view kOne =
    R"((%3) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<f32>)";

Tensor scalar(float v) { return f32({}, {v}); }

/// if (n > 0) { x + x } else { x - x }, with x and n fed.
std::string ifProgram() {
  return block(
      {kX, kN, kZero,
       R"((%4) = "pd_op.greater_than" (%1, %2) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"((%5) = "pd_op.if" (%4) {} -> builtin.tensor<2xf32> {)",
       R"(    (%6) = "pd_op.add" (%0, %0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(    () = "cf.yield" (%6) {} : (builtin.tensor<2xf32>) -> )", R"(} else {)",
       R"(    (%7) = "pd_op.subtract" (%0, %0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(    () = "cf.yield" (%7) {} : (builtin.tensor<2xf32>) -> )", R"(})",
       R"(() = "builtin.shadow_output" (%5) {output_name:"y"} : (builtin.tensor<2xf32>) -> )",
       R"(() = "builtin.shadow_output" (%0) {output_name:"x_after"} : (builtin.tensor<2xf32>) -> )"});
}

/// i = 0, acc = x; while (i < n) { acc = acc * 2 + i (scale_ in place on
/// the carried acc); i = i + 1 }: the trip count is n, fed.
std::string whileProgram() {
  return block(
      {kX, kN, kZero, kOne,
       R"((%4) = "pd_op.less_than" (%2, %1) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"((%5, %6) = "pd_op.while" (cond=%4, inputs=%2, %0) {)", R"(^%arg_0, %arg_1)",
       R"(    (%7) = "pd_op.scale_" (%arg_1) {bias:(Float)0,bias_after_scale:true,scale:(Float)2} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(    (%8) = "pd_op.add" (%7, %arg_0) {} : (builtin.tensor<2xf32>, builtin.tensor<f32>) -> builtin.tensor<2xf32>)",
       R"(    (%9) = "pd_op.add" (%arg_0, %3) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<f32>)",
       R"(    (%10) = "pd_op.less_than" (%9, %1) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"(    () = "cf.yield" (%10, %9, %8) {} : (builtin.tensor<b>, builtin.tensor<f32>, builtin.tensor<2xf32>) -> )",
       R"(})", R"(() = "builtin.shadow_output" (%5) {output_name:"i"} : (builtin.tensor<f32>) -> )",
       R"(() = "builtin.shadow_output" (%6) {output_name:"acc"} : (builtin.tensor<2xf32>) -> )",
       R"(() = "builtin.shadow_output" (%0) {output_name:"x_after"} : (builtin.tensor<2xf32>) -> )"});
}

}  // namespace

TEST_CASE("pd_op.if runs the branch its condition takes, reading outer values", "[executor][regions]") {
  std::string error;
  TensorMap out = runText(ifProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("y")) == std::vector<float>{2, -4});  // x + x
  CHECK(values(out.at("x_after")) == std::vector<float>{1, -2});
  out = runText(ifProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(-1)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("y")) == std::vector<float>{0, 0});  // x - x
}

TEST_CASE("pd_op.while runs as often as its data says; in-place ops leave the inputs be", "[executor][regions]") {
  std::string error;
  // n = 3: acc = ((x·2 + 0)·2 + 1)·2 + 2 = 8x + 4; x = [1, -2] gives [12, -12]; i = 3.
  TensorMap out = runText(whileProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("i")) == std::vector<float>{3});
  CHECK(values(out.at("acc")) == std::vector<float>{12, -12});
  CHECK(values(out.at("x_after")) == std::vector<float>{1, -2});  // scale_ wrote a copy of x
  // n = 5: 32x + (0·16 + 1·8 + 2·4 + 3·2 + 4) = 32x + 26.
  out = runText(whileProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(5)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("i")) == std::vector<float>{5});
  CHECK(values(out.at("acc")) == std::vector<float>{58, -38});
  // n = 0: no iteration; the results are the inputs.
  out = runText(whileProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(0)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("i")) == std::vector<float>{0});
  CHECK(values(out.at("acc")) == std::vector<float>{1, -2});
}

TEST_CASE("a while's cf.yield may swap its carried values; an if nests inside", "[executor][regions]") {
  // (a, b) = (x, 0·x); while (i < n) { (a, b) = (b + 1, if (i < 1) { a } else { a·3 }); i += 1 }
  std::string text = block(
      {kX,
       kN,
       kZero,
       kOne,
       R"((%4) = "pd_op.less_than" (%2, %1) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"((%5) = "pd_op.scale" (%0) {bias:(Float)0,bias_after_scale:true,scale:(Float)0} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"((%6, %7, %8) = "pd_op.while" (cond=%4, inputs=%2, %0, %5) {)",
       R"(^%arg_0, %arg_1, %arg_2)",
       R"(    (%9) = "pd_op.add" (%arg_2, %3) {} : (builtin.tensor<2xf32>, builtin.tensor<f32>) -> builtin.tensor<2xf32>)",
       R"(    (%10) = "pd_op.less_than" (%arg_0, %3) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"(    (%11) = "pd_op.if" (%10) {} -> builtin.tensor<2xf32> {)",
       R"(        () = "cf.yield" (%arg_1) {} : (builtin.tensor<2xf32>) -> )",
       R"(    } else {)",
       R"(        (%12) = "pd_op.scale" (%arg_1) {bias:(Float)0,bias_after_scale:true,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(        () = "cf.yield" (%12) {} : (builtin.tensor<2xf32>) -> )",
       R"(    })",
       R"(    (%13) = "pd_op.add" (%arg_0, %3) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<f32>)",
       R"(    (%14) = "pd_op.less_than" (%13, %1) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"(    () = "cf.yield" (%14, %13, %9, %11) {} : (builtin.tensor<b>, builtin.tensor<f32>, builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> )",
       R"(})",
       R"(() = "builtin.shadow_output" (%7) {output_name:"a"} : (builtin.tensor<2xf32>) -> )",
       R"(() = "builtin.shadow_output" (%8) {output_name:"b"} : (builtin.tensor<2xf32>) -> )"});
  std::string error;
  // x = [1, 2]. i=0: (a, b) = ([0,0]+1, [1,2]) = ([1,1], [1,2]); i=1: ([1,2]+1, [1,1]·3) = ([2,3], [3,3]);
  // i=2: ([3,3]+1, [2,3]·3) = ([4,4], [6,9]).
  TensorMap out = runText(text, {{"x", f32({2}, {1, 2})}, {"n", scalar(3)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("a")) == std::vector<float>{4, 4});
  CHECK(values(out.at("b")) == std::vector<float>{6, 9});
}

TEST_CASE("cinn_op.group runs its region inline; its cf.yield gives the results", "[executor][regions]") {
  std::string text = block(
      {kX, R"((%1) = cinn_op.group () -> builtin.tensor<2xf32> {)",
       R"((%2) = "pd_op.multiply" (%0, %0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(() = "cf.yield" (%2) {} : (builtin.tensor<2xf32>) -> )", R"(})",
       R"(() = "builtin.shadow_output" (%1) {output_name:"y"} : (builtin.tensor<2xf32>) -> )"});
  std::string error;
  TensorMap out = runText(text, {{"x", f32({2}, {3, -2})}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("y")) == std::vector<float>{9, 4});
}

TEST_CASE("a condition that is not one bool, a yield of the wrong count, ops the runner refuses",
          "[executor][regions]") {
  std::string error;
  std::string notBool = ifProgram();
  notBool.replace(notBool.find(R"("pd_op.if" (%4))"), 15, R"("pd_op.if" (%1))");
  runText(notBool, {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  CHECK(error.find("pd_op.if: the condition is tensor<f32>, not a 0-D or one-element bool tensor") !=
        std::string::npos);

  std::string twice = ifProgram();
  twice.replace(twice.find(R"(() = "cf.yield" (%6) {} : (builtin.tensor<2xf32>) -> )"), 53,
                R"(() = "cf.yield" (%6, %6) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> )");
  runText(twice, {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  CHECK(error.find("cf.yield: yields 2 values, pd_op.if takes 1") != std::string::npos);

  runText(block({R"((%0) = "cf.stack_create" () {} : () -> builtin.tensor<2xf32>)"}), {}, &error);
  CHECK(error.find("cf.stack_create: training through a loop") != std::string::npos);
  runText(block({kX, R"((%1) = "cinn_runtime.jit_kernel" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)"}),
          {}, &error);
  CHECK(error.find("cinn_runtime.jit_kernel: compiled CINN kernel: its code is not in the program") !=
        std::string::npos);
}

TEST_CASE("a carried value that shares its buffer with an outer one is copied before in-place ops write it",
          "[executor][regions]") {
  // i < 1 yields x itself from the if (no copy), then scale_ of the next iteration writes the carried
  // value in place: x must stay [1, -2]. i=0: acc = x; i=1: acc = 2x; i=2: acc = 4x = [4, -8].
  std::string text = block(
      {kX,
       kN,
       kZero,
       kOne,
       R"((%4) = "pd_op.less_than" (%2, %1) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"((%5, %6) = "pd_op.while" (cond=%4, inputs=%2, %0) {)",
       R"(^%arg_0, %arg_1)",
       R"(    (%7) = "pd_op.scale_" (%arg_1) {bias:(Float)0,bias_after_scale:true,scale:(Float)2} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(    (%8) = "pd_op.less_than" (%arg_0, %3) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"(    (%9) = "pd_op.if" (%8) {} -> builtin.tensor<2xf32> {)",
       R"(        () = "cf.yield" (%0) {} : (builtin.tensor<2xf32>) -> )",
       R"(    } else {)",
       R"(        () = "cf.yield" (%7) {} : (builtin.tensor<2xf32>) -> )",
       R"(    })",
       R"(    (%10) = "pd_op.add" (%arg_0, %3) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<f32>)",
       R"(    (%11) = "pd_op.less_than" (%10, %1) {} : (builtin.tensor<f32>, builtin.tensor<f32>) -> builtin.tensor<b>)",
       R"(    () = "cf.yield" (%11, %10, %9) {} : (builtin.tensor<b>, builtin.tensor<f32>, builtin.tensor<2xf32>) -> )",
       R"(})",
       R"(() = "builtin.shadow_output" (%6) {output_name:"acc"} : (builtin.tensor<2xf32>) -> )",
       R"(() = "builtin.shadow_output" (%0) {output_name:"x_after"} : (builtin.tensor<2xf32>) -> )"});
  std::string error;
  Tensor x = f32({2}, {1, -2});
  TensorMap out = runText(text, {{"x", x}, {"n", scalar(3)}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("acc")) == std::vector<float>{4, -8});
  CHECK(values(out.at("x_after")) == std::vector<float>{1, -2});
  CHECK(values(x) == std::vector<float>{1, -2});  // the caller's feed too
}

TEST_CASE("region values stay in their region; a missing condition; a cf.yield before the end; a loop limit",
          "[executor][regions]") {
  std::string error;
  // %6, made in the then branch, read after the if.
  std::string escaped = ifProgram();
  escaped.replace(escaped.find(R"(() = "builtin.shadow_output" (%5))"), 33, R"(() = "builtin.shadow_output" (%6))");
  runText(escaped, {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  CHECK(error.find("builtin.shadow_output: operand 0 is defined nowhere it can be run") != std::string::npos);

  std::string noCond = ifProgram();
  noCond.replace(noCond.find(R"("pd_op.if" (%4))"), 15, R"("pd_op.if" (<<NULL VALUE>>))");
  runText(noCond, {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  CHECK(error.find("pd_op.if: its condition is <<NULL VALUE>>") != std::string::npos);

  std::string early = ifProgram();
  early.replace(early.find(R"(    (%6) = "pd_op.add")"), 0,
                R"(    () = "cf.yield" (%0) {} : (builtin.tensor<2xf32>) -> )"
                "\n");
  runText(early, {{"x", f32({2}, {1, -2})}, {"n", scalar(3)}}, &error);
  CHECK(error.find("cf.yield: a cf.yield before the end of its region") != std::string::npos);

  RunStats stats;
  stats.maxLoopIterations = 4;
  error.clear();
  runText(whileProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(4)}}, &error, nullptr, &stats);
  CHECK(error.empty());
  runText(whileProgram(), {{"x", f32({2}, {1, -2})}, {"n", scalar(5)}}, &error, nullptr, &stats);
  CHECK(error.find("pd_op.while: more than 4 iterations (the run's limit)") != std::string::npos);
}
