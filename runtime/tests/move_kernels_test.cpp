//===- move_kernels_test.cpp - data-movement kernels, bit for bit ---------===//
#include <catch2/catch.hpp>

#include "runtime/tests/run_helpers.h"

using namespace pir::runtime;
using namespace pir::runtime::testing;

namespace {

std::string data(std::string_view id, std::string_view name, std::string_view type) {
  return "(" + std::string(id) + R"() = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:")" + std::string(name) +
         R"(",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[],stop_gradient:[true]} : () -> builtin.tensor<)" +
         std::string(type) + ">";
}
std::string out(std::string_view id, std::string_view name, std::string_view type) {
  return R"(() = "builtin.shadow_output" ()" + std::string(id) + R"() {output_name:")" + std::string(name) +
         R"("} : (builtin.tensor<)" + std::string(type) + ">) -> ";
}
std::string intArray(std::string_view id, std::string_view values, int n) {
  return "(" + std::string(id) +
         R"() = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[)" +
         std::string(values) + "]} : () -> builtin.tensor<" + std::to_string(n) + "xi64>";
}
std::string axis(std::string_view id, int a) {
  return "(" + std::string(id) +
         R"x() = "pd_op.full" () {dtype:(pd_op.DataType)int32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float))x" +
         std::to_string(a) + "} : () -> builtin.tensor<1xi32>";
}

std::string prog(std::vector<std::string> lines) {
  std::string s = "{\n";
  for (auto& l : lines) s += "    " + l + "\n";
  return s + "}\n";
}

Tensor iota(std::vector<int64_t> shape) {
  Tensor t = Tensor::allocate(DataType::F32, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = float(i);
  return t;
}

}  // namespace

TEST_CASE("slice takes half-open ranges, wraps negatives, clamps, decreases", "[kernels]") {
  std::string err;
  auto f = runText(
      prog(
          {data("%0", "x", "3x4xf32"), intArray("%1", "(Int64)1,(Int64)-3", 2),
           intArray("%2", "(Int64)3,(Int64)100", 2),
           R"((%3) = "pd_op.slice" (%0, %1, %2) {axes:[(Int64)0,(Int64)1],decrease_axis:[],infer_flags:[(Int64)1,(Int64)1],stop_gradient:[true]} : (builtin.tensor<3x4xf32>, builtin.tensor<2xi64>, builtin.tensor<2xi64>) -> builtin.tensor<2x3xf32>)",
           out("%3", "y", "2x3xf32")}),
      {{"x", iota({3, 4})}}, &err);
  REQUIRE(err.empty());
  CHECK(dims(f["y"]) == std::vector<int64_t>{2, 3});
  CHECK(values(f["y"]) == std::vector<float>{5, 6, 7, 9, 10, 11});
  auto g = runText(
      prog(
          {data("%0", "x", "3x4xf32"), intArray("%1", "(Int64)2", 1), intArray("%2", "(Int64)3", 1),
           R"((%3) = "pd_op.slice" (%0, %1, %2) {axes:[(Int64)0],decrease_axis:[(Int64)0],infer_flags:[(Int64)1]} : (builtin.tensor<3x4xf32>, builtin.tensor<1xi64>, builtin.tensor<1xi64>) -> builtin.tensor<4xf32>)",
           out("%3", "y", "4xf32")}),
      {{"x", iota({3, 4})}}, &err);
  REQUIRE(err.empty());
  CHECK(dims(g["y"]) == std::vector<int64_t>{4});
  CHECK(values(g["y"]) == std::vector<float>{8, 9, 10, 11});
}

TEST_CASE("split and split_with_num cut along an axis, concat joins", "[kernels]") {
  std::string err;
  auto f = runText(
      prog(
          {data("%0", "x", "2x3xf32"), intArray("%1", "(Int64)1,(Int64)-1", 2), axis("%2", -1),
           R"((%3) = "pd_op.split" (%0, %1, %2) {} : (builtin.tensor<2x3xf32>, builtin.tensor<2xi64>, builtin.tensor<1xi32>) -> vec[builtin.tensor<2x1xf32>,builtin.tensor<2x2xf32>])",
           R"((%4, %5) = "builtin.split" (%3) {} : (vec[builtin.tensor<2x1xf32>,builtin.tensor<2x2xf32>]) -> builtin.tensor<2x1xf32>, builtin.tensor<2x2xf32>)",
           out("%4", "a", "2x1xf32"), out("%5", "b", "2x2xf32"),
           R"((%6) = "builtin.combine" (%5, %4) {} : (builtin.tensor<2x2xf32>, builtin.tensor<2x1xf32>) -> vec[builtin.tensor<2x2xf32>,builtin.tensor<2x1xf32>])",
           axis("%7", 1),
           R"((%8) = "pd_op.concat" (%6, %7) {} : (vec[builtin.tensor<2x2xf32>,builtin.tensor<2x1xf32>], builtin.tensor<1xi32>) -> builtin.tensor<2x3xf32>)",
           out("%8", "c", "2x3xf32"), axis("%9", 0),
           R"((%10) = "pd_op.split_with_num" (%0, %9) {num:(Int32)2} : (builtin.tensor<2x3xf32>, builtin.tensor<1xi32>) -> vec[builtin.tensor<1x3xf32>,builtin.tensor<1x3xf32>])",
           R"((%11) = "builtin.slice" (%10) {index:(Int32)1} : (vec[builtin.tensor<1x3xf32>,builtin.tensor<1x3xf32>]) -> builtin.tensor<1x3xf32>)",
           out("%11", "d", "1x3xf32")}),
      {{"x", iota({2, 3})}}, &err);
  REQUIRE(err.empty());
  CHECK(values(f["a"]) == std::vector<float>{0, 3});
  CHECK(values(f["b"]) == std::vector<float>{1, 2, 4, 5});
  CHECK(values(f["c"]) == std::vector<float>{1, 2, 0, 4, 5, 3});
  CHECK(values(f["d"]) == std::vector<float>{3, 4, 5});
}

TEST_CASE("transpose permutes dims, reshape infers -1 and keeps 0", "[kernels]") {
  std::string err;
  auto f = runText(
      prog(
          {data("%0", "x", "2x3x4xf32"),
           R"((%1) = "pd_op.transpose" (%0) {perm:[(Int32)2,(Int32)0,(Int32)1]} : (builtin.tensor<2x3x4xf32>) -> builtin.tensor<4x2x3xf32>)",
           out("%1", "t", "4x2x3xf32"), intArray("%2", "(Int64)0,(Int64)-1", 2),
           R"((%3) = "pd_op.reshape" (%0, %2) {} : (builtin.tensor<2x3x4xf32>, builtin.tensor<2xi64>) -> builtin.tensor<2x12xf32>)",
           out("%3", "r", "2x12xf32")}),
      {{"x", iota({2, 3, 4})}}, &err);
  REQUIRE(err.empty());
  CHECK(dims(f["t"]) == std::vector<int64_t>{4, 2, 3});
  auto t = values(f["t"]);
  // t[k][i][j] = x[i][j][k] = 12i + 4j + k
  CHECK(t[0] == 0);
  CHECK(t[1] == 4);
  CHECK(t[3] == 12);
  CHECK(t[6] == 1);
  CHECK(t[23] == 23);
  CHECK(dims(f["r"]) == std::vector<int64_t>{2, 12});
  CHECK(values(f["r"]) == values(iota({24})));
}

TEST_CASE("full, full_like, full_int_array, assign, share_data_, assign_out_", "[kernels]") {
  std::string err;
  auto f = runText(
      prog(
          {data("%0", "x", "2xf32"),
           R"((%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[7],value:(Double)1.5} : () -> builtin.tensor<2xf32>)",
           out("%1", "full", "2xf32"),
           R"((%2) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],value:(Float)-3} : () -> builtin.tensor<1xf32>)",
           R"((%3) = "pd_op.full_like" (%0, %2) {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(undefined:0)} : (builtin.tensor<2xf32>, builtin.tensor<1xf32>) -> builtin.tensor<2xi64>)",
           R"(() = "builtin.shadow_output" (%3) {output_name:"like"} : (builtin.tensor<2xi64>) -> )",
           R"((%4) = "pd_op.assign" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
           out("%4", "copy", "2xf32"),
           R"((%5) = "pd_op.share_data_" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
           out("%5", "alias", "2xf32"),
           R"((%6) = "pd_op.assign_out_" (%1, %4) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
           out("%6", "assigned", "2xf32")}),
      {{"x", f32({2}, {4, 5})}}, &err);
  REQUIRE(err.empty());
  CHECK(values(f["full"]) == std::vector<float>{1.5f, 1.5f});  // the result type's shape, not the attribute's
  REQUIRE(f["like"].dtype() == DataType::I64);
  CHECK(f["like"].data<int64_t>()[1] == -3);
  CHECK(values(f["copy"]) == std::vector<float>{1.5f, 1.5f});  // assign_out_ wrote the copy's buffer
  CHECK(f["assigned"].sharesStorageWith(f["copy"]));
  CHECK(values(f["alias"]) == std::vector<float>{4, 5});
  CHECK(!f["copy"].sharesStorageWith(f["alias"]));
}

TEST_CASE("kernel errors say what is wrong", "[kernels]") {
  std::string err;
  runText(
      prog(
          {data("%0", "x", "2x3xf32"), axis("%1", 1),
           R"((%2) = "pd_op.split_with_num" (%0, %1) {num:(Int32)2} : (builtin.tensor<2x3xf32>, builtin.tensor<1xi32>) -> vec[builtin.tensor<2x1xf32>,builtin.tensor<2x1xf32>])"}),
      {{"x", iota({2, 3})}}, &err);
  CHECK(err == "pd_op.split_with_num: dim 1 of tensor<2x3xf32> does not split into 2 equal pieces");
  runText(
      prog(
          {data("%0", "x", "2x3xf32"), intArray("%1", "(Int64)4", 1),
           R"((%2) = "pd_op.reshape" (%0, %1) {} : (builtin.tensor<2x3xf32>, builtin.tensor<1xi64>) -> builtin.tensor<4xf32>)"}),
      {{"x", iota({2, 3})}}, &err);
  CHECK(err == "pd_op.reshape: cannot reshape tensor<2x3xf32> to [4]");
  runText(
      prog(
          {data("%0", "x", "2xf32"),
           R"((%1) = "pd_op.all_reduce" (%0) {reduce_type:(Int32)0,ring_id:(Int32)12} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)"}),
      {{"x", iota({2})}}, &err);
  CHECK(err == "pd_op.all_reduce: no communicator (a collective in a run without ranks)");
}
