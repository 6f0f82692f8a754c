//===- list_syntax_test.cpp - comma-separated lists: ends, commas, errors -===//
//
// Every list the parser reads, well formed, empty, with a missing comma and
// with a trailing comma: the message and its column are what users see (and
// what error goldens check), so they are pinned here, one list per case.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include "parser/tests/test_util.h"

using pir::parser::testing::errorsOf;

namespace {
struct Case {
  std::string text;
  std::string error;  // the first line of the diagnostics; empty: it parses
};

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

// An op mesh and the head of a dist type, to put lists after.
const std::string kMesh = "op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]}";
const std::string kMeshOpen = "op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]";
const std::string kDist = "(%0) = \"a\" () : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1]";
const std::string kValue = "(%0) = \"a\" () : () -> f32\n";

void check(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO(c.text);
    std::string errors = errorsOf(c.text + "\n");
    CHECK(firstLine(errors) == c.error);
  }
}
}  // namespace

TEST_CASE("result and operand lists", "[parser][lists]") {
  check({
      {"(%0 %1) = \"a\" () : () -> f32, f32",
       "input.pir:1:5: error: expected ',' or ')' in the result list, found '%1'"},
      {"(%0,) = \"a\" () : () -> f32", "input.pir:1:5: error: expected a result name such as '%0', found ')'"},
      {"(%0, %1) = \"a\" () : () -> f32, f32", ""},
      {"() = \"a\" ()", ""},
      {kValue + "() = \"b\" (%0 %0)", "input.pir:2:14: error: expected ',' or ')' in the operand list, found '%0'"},
      {kValue + "() = \"b\" (%0,)", "input.pir:2:14: error: expected an operand value, found ')'"},
      // Paddle prints a while without loop inputs so: the keyword ends the list.
      {kValue + "() = \"b\" (cond=%0, inputs=)", ""},
  });
}

TEST_CASE("operand and result type lists", "[parser][lists]") {
  check({
      {"() = \"a\" () : ()", ""},
      {kValue + "() = \"b\" (%0) : (f32 f32)",
       "input.pir:2:22: error: expected ')' after the operand types, found 'f32'"},
      {kValue + "() = \"b\" (%0) : (f32,)", "input.pir:2:22: error: expected a type, found ')'"},
      {"() = \"a\" () : f32", "input.pir:1:15: error: expected '(' to start the operand types, found 'f32'"},
      // Result types end with the line; a comma on the next line is not theirs.
      {"(%0) = \"a\" () : () -> f32 f32", "input.pir:1:27: error: expected an operation, found 'f32'"},
      {"(%0) = \"a\" () : () -> f32,\n() = \"b\" ()", "input.pir:2:1: error: expected a type, found '('"},
      {"(%0) = \"a\" () : () -> f32\n, f32", "input.pir:2:1: error: expected an operation, found ','"},
      {"(%0) = \"a\" () : () -> vec[f32 f32]", "input.pir:1:31: error: expected ',' or ']' in 'vec[...]', found 'f32'"},
      {"(%0) = \"a\" () : () -> vec[f32,]", "input.pir:1:31: error: expected a type, found ']'"},
      {"(%0) = \"a\" () : () -> vec(f32)", "input.pir:1:26: error: expected '[' after 'vec', found '('"},
      {"(%0) = \"a\" () : () -> vec[]", ""},
  });
}

TEST_CASE("attribute dictionaries and arrays", "[parser][lists]") {
  check({
      {"() = \"a\" () {a:1 b:2}", "input.pir:1:18: error: expected ',' or '}' in the attribute dictionary, found 'b'"},
      {"() = \"a\" () {a:1,}", "input.pir:1:18: error: expected an attribute name, found '}'"},
      {"() = \"a\" () {a:[1 2]}", "input.pir:1:19: error: expected ',' or ']' in the array, found '2'"},
      {"() = \"a\" () {a:[1,]}", "input.pir:1:19: error: expected an attribute value, found ']'"},
      {"() = \"a\" () {a:[1,[],(Array)[2]]}", ""},
  });
}

TEST_CASE("integer lists and mesh dim names", "[parser][lists]") {
  check({
      {"() = \"a\" () {op_dist_attr:{mesh:{shape:[2 3],process_ids:[0,1]}}}",
       "input.pir:1:43: error: expected ',' or ']' in the mesh shape, found '3'"},
      {"() = \"a\" () {op_dist_attr:{mesh:{shape:[2],process_ids:[0,]}}}",
       "input.pir:1:59: error: expected an integer in the process ids, found ']'"},
      {"() = \"a\" () {op_dist_attr:{mesh:{shape:2,process_ids:[0,1]}}}",
       "input.pir:1:40: error: expected '[' to start the mesh shape, found '2'"},
      {"(%0) = \"a\" () : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0 1],dims_mappings:[0]>",
       "input.pir:1:75: error: expected ',' or ']' in process_ids, found '1'"},
      {kDist + ",dims_mappings:[0,]>", "input.pir:1:95: error: expected an integer in dims_mapping, found ']'"},
      {"() = \"a\" () {" + kMeshOpen + ",dim_names:[x y]}}}",
       "input.pir:1:75: error: expected ']' after the dim names, found 'y'"},
      {"() = \"a\" () {" + kMeshOpen + ",dim_names:[x,,]}}}",
       "input.pir:1:75: error: expected a mesh dim name, found ','"},
      // Dim names (like placements) have always taken one trailing comma.
      {"() = \"a\" () {" + kMeshOpen + ",dim_names:[x,\"y\",]}}}", ""},
      {"() = \"a\" () {" + kMeshOpen + ",dim_names:[]}}}", ""},
  });
}

TEST_CASE("op_dist_attr entries and dist attribute lists", "[parser][lists]") {
  check({
      {"() = \"a\" () {" + kMesh + " operand(0):{<#AttrNull>}}}",
       "input.pir:1:63: error: expected ',' or '}' in op_dist_attr, found 'operand'"},
      {"() = \"a\" () {" + kMesh + ",}}",
       "input.pir:1:63: error: expected 'operand(N)', 'result(N)' or 'chunk_id', found '}'"},
      {"() = \"a\" () {op_dist_attr:{}}", "input.pir:1:28: error: expected 'mesh' to start op_dist_attr, found '}'"},
      {"() = \"a\" () {" + kMesh + ",operand(0):{[<#AttrNull> <#AttrNull>]}}}",
       "input.pir:1:88: error: expected ',' or ']' in the list of dist attributes, found '<#AttrNull>'"},
      {"() = \"a\" () {" + kMesh + ",operand(0):{[<#AttrNull>,]}}}",
       "input.pir:1:88: error: expected a dist attribute field such as 'dims_mappings', found ']'"},
      {kValue + "() = \"b\" (%0) {" + kMesh + ",operand(0):{[]},chunk_id:0}}", ""},
  });
}

TEST_CASE("dist attribute fields and placements", "[parser][lists]") {
  check({
      // A comma not followed by a field name ends the fields (it may start
      // the next entry of a list); here nothing takes it.
      {kDist + ",dims_mappings:[0],>", "input.pir:1:95: error: expected '>' to close 'pd_dist.tensor<', found ','"},
      {kDist + ",dims_mappings:[0],,>", "input.pir:1:95: error: expected '>' to close 'pd_dist.tensor<', found ','"},
      {kDist + ",dims_mappings:[0] partial(0,SUM)>",
       "input.pir:1:96: error: expected '>' to close 'pd_dist.tensor<', found 'partial'"},
      {kDist + ",dims_mappings:[0], placements:[Replicate() Replicate()]>",
       "input.pir:1:121: error: expected ']' after the placements, found 'Replicate'"},
      {kDist + ",dims_mappings:[0], placements:[Shard(dim=0),]>", ""},  // Replicate() would contradict [0]
      {kDist + ",dims_mappings:[0], placements:[]>", "input.pir:1:110: error: placements must not be empty"},
  });
}

TEST_CASE("block argument lists", "[parser][lists]") {
  check({
      {"() = \"a\" () {\n    ^%arg_0, %arg_1 %arg_2\n}",
       "input.pir:2:21: error: expected an operation or '}', found '%arg_2'"},
      {"() = \"a\" () {\n    ^%arg_0,\n}",
       "input.pir:3:1: error: expected a block argument such as '%arg_0', found '}'"},
      {"() = \"a\" () {\n    ^%arg_0, %arg_1\n}", ""},
  });
}
