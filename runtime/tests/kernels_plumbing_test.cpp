//===- kernels_plumbing_test.cpp - feeds, parameters, constants by era ----===//
//
// Issue 29's plumbing: builtin.get_parameter (builtin.parameter's name before
// 2024) and pd_op.feed read the scope as their newer spellings do;
// assign_value and assign_value_ make the constant their `values` list.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include "runtime/tests/run_helpers.h"

using namespace pir::runtime;
using namespace pir::runtime::testing;

TEST_CASE("builtin.get_parameter and pd_op.feed read the scope by name", "[kernels][plumbing]") {
  std::string text = block({
      R"((%0) = "builtin.get_parameter" () {parameter_name:"w"} : () -> builtin.tensor<2xf32>)",
      R"((%1) = "pd_op.feed" () {col:(Int32)0,name:"x"} : () -> builtin.tensor<2xf32>)",
      R"((%2) = "pd_op.add" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
      R"(() = "builtin.set_parameter" (%2) {parameter_name:"w"} : (builtin.tensor<2xf32>) -> )",
  });
  auto p = parse(text);
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program);
  REQUIRE(ex);
  auto& inputs = (*ex)->inputs();
  REQUIRE(inputs.size() == 2);
  CHECK(inputs[0].name == "w");
  CHECK(inputs[0].kind == ProgramInput::Kind::Parameter);
  CHECK(inputs[1].name == "x");
  CHECK(inputs[1].kind == ProgramInput::Kind::Data);
  TensorMap fetches;
  REQUIRE((*ex)->run({{"w", f32({2}, {1, 2})}, {"x", f32({2}, {10, 20})}}, fetches));
  CHECK(values(fetches.at("w")) == std::vector<float>{11, 22});
}

TEST_CASE("assign_value and assign_value_ make their values", "[kernels][plumbing]") {
  std::string text = block({
      R"((%0) = "pd_op.assign_value" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:[(Int32)2,(Int32)2],values:[(Double)1.5,(Double)-2,(Double)3,(Double)4]} : () -> builtin.tensor<2x2xf32>)",
      R"((%1) = "pd_op.full" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[3],value:(Float)0} : () -> builtin.tensor<3xi64>)",
      R"((%2) = "pd_op.assign_value_" (%1) {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),shape:[(Int32)3],values:[(Double)7,(Double)-8,(Double)9]} : (builtin.tensor<3xi64>) -> builtin.tensor<3xi64>)",
      R"(() = "builtin.shadow_output" (%0) {output_name:"a"} : (builtin.tensor<2x2xf32>) -> )",
      R"(() = "builtin.shadow_output" (%1) {output_name:"full_after"} : (builtin.tensor<3xi64>) -> )",
  });
  std::string error;
  TensorMap out = runText(text, {}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("a")) == std::vector<float>{1.5f, -2, 3, 4});
  const Tensor& b = out.at("full_after");  // written in place
  REQUIRE(b.dtype() == DataType::I64);
  CHECK(std::vector<int64_t>(b.data<int64_t>(), b.data<int64_t>() + 3) == std::vector<int64_t>{7, -8, 9});

  std::string tooFew = text;
  tooFew.replace(tooFew.find("(Double)1.5,"), 12, "");
  runText(tooFew, {}, &error);
  CHECK(error.find("pd_op.assign_value: 3 values for tensor<2x2xf32>") != std::string::npos);
  std::string tooBig = text;
  tooBig.replace(tooBig.find("(Double)7,"), 10, "(Double)1e30,");
  runText(tooBig, {}, &error);
  CHECK(error.find("pd_op.assign_value_: value 0 does not fit") != std::string::npos);
}

TEST_CASE("select_output routes x to the branch the mask picks; select_input takes it back", "[kernels][plumbing]") {
  // m = 1: x goes to result 1 (result 0 is zeros), and select_input picks input 1: 3x.
  auto text = [](int mask) {
    return block({
        R"((%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>)",
        R"((%1) = "pd_op.full" () {dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Float))" +
            std::to_string(mask) + R"(} : () -> builtin.tensor<1xi32>)",
        R"((%2, %3) = "pd_op.select_output" (%1, %0) {} : (builtin.tensor<1xi32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>, builtin.tensor<2xf32>)",
        R"((%4) = "pd_op.scale" (%2) {bias:(Float)0,bias_after_scale:true,scale:(Float)2} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
        R"((%5) = "pd_op.scale" (%3) {bias:(Float)0,bias_after_scale:true,scale:(Float)3} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
        R"((%6) = "pd_op.select_input" (%1, %4, %5) {} : (builtin.tensor<1xi32>, builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
        R"(() = "builtin.shadow_output" (%6) {output_name:"y"} : (builtin.tensor<2xf32>) -> )",
        R"(() = "builtin.shadow_output" (%2) {output_name:"branch0"} : (builtin.tensor<2xf32>) -> )",
    });
  };
  std::string error;
  TensorMap out = runText(text(1), {{"x", f32({2}, {1, -2})}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("y")) == std::vector<float>{3, -6});
  CHECK(values(out.at("branch0")) == std::vector<float>{0, 0});
  out = runText(text(0), {{"x", f32({2}, {1, -2})}}, &error);
  REQUIRE(error.empty());
  CHECK(values(out.at("y")) == std::vector<float>{2, -4});
  runText(text(2), {{"x", f32({2}, {1, -2})}}, &error);
  CHECK(error.find("pd_op.select_output: the mask is 2, there are 2 branches") != std::string::npos);
}
