//===- fragment_test.cpp - types and attributes on their own -------------===//
#include <catch2/catch.hpp>

#include "parser/tests/test_util.h"

using namespace pir;
using namespace pir::core;

namespace {
std::string typeRoundTrip(std::string_view text) {
  Context ctx;
  DiagnosticEngine diag;
  auto t = parser::parseType(ctx, text, diag);
  if (!t) return "ERROR";
  PrintStyle style;
  return typeToString(*t, style);
}
std::string attrRoundTrip(std::string_view text) {
  Context ctx;
  DiagnosticEngine diag;
  auto a = parser::parseAttribute(ctx, text, diag);
  if (!a) return "ERROR";
  return attributeToString(*a);
}
}  // namespace

TEST_CASE("types print back as read", "[parser][types]") {
  for (std::string_view t :
       {"builtin.tensor<4x16xf32>", "pd_op.tensor<f32>", "tensor<-1x30xbf16>", "gpu_tensor<-1x-1xf32>", "i64",
        "vec[builtin.tensor<1xf32>,builtin.tensor<2xi32>]", "vec[]", "<<NULL TYPE>>",
        "pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>",
        "pd_dist.tensor<4x8xf32, mesh_shape:[2,2],process_ids:[3,2,1,0],dims_mappings:[-1,-1], "
        "partial(1,MAX),partial(0,AVG), placements:[Partial(reduce_type=AVG), Partial(reduce_type=MAX)]>",
        "pd_op.tensor_array<f32>", "builtin.tensor<2x3xf8e4m3fn>", "tensor<0xc128>"})
    REQUIRE(typeRoundTrip(t) == t);
}

TEST_CASE("bad types are refused", "[parser][types]") {
  for (std::string_view t : {"builtin.tensor<4xfoo>", "builtin.tensor<4x16>", "tensor<0x<<NULL TYPE>>>", "vec[",
                             "builtin.tensor<99999999999999999999xf32>", "builtin.tensor<-2xf32>", "nothing",
                             "pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1]>"})
    REQUIRE(typeRoundTrip(t) == "ERROR");
}

TEST_CASE("attributes print back as read", "[parser][attrs]") {
  for (std::string_view a :
       {"(Int32)-1",
        "(Float)1",
        "(Double)1e-06",
        "(Int64)0",
        "-1",
        "0.5",
        "true",
        "\"a\\\"b\"",
        "[(Int64)2,(Int64)1]",
        "(Array)[1,2]",
        "[]",
        "(pd_op.DataType)float32",
        "(pd_op.Place)Place(undefined:0)",
        "(pd_op.IntArray)[4,16]",
        "float32",
        "Place(gpu:0)",
        "<#AttrNull>",
        "<backend:GPU|layout:Undefined(AnyLayout)|dtype:float32>",
        "(0x7f437760d7c0)",
        "(Float)inf",
        "(Double)-nan",
        "{mesh:{shape:[2],process_ids:[0,1]},operand(0):{[mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1],"
        "mesh_shape:[2],process_ids:[0,1],dims_mappings:[0]]},operand(1):{<#AttrNull>},result(0):{mesh_shape:[2],"
        "process_ids:[0,1],dims_mappings:[0]},chunk_id:-1}"})
    REQUIRE(attrRoundTrip(a) == a);
}

TEST_CASE("special floats are numbers", "[parser][attrs]") {
  Context ctx;
  DiagnosticEngine diag;
  auto a = parser::parseAttribute(ctx, "(Float)inf", diag);
  REQUIRE(a.isOk());
  REQUIRE((*a)->isa<NumberAttr>());
}

TEST_CASE("numbers that overflow their type are refused", "[parser][attrs]") {
  REQUIRE(attrRoundTrip("(Int32)2147483647") == "(Int32)2147483647");
  REQUIRE(attrRoundTrip("(Int32)2147483648") == "ERROR");
  REQUIRE(attrRoundTrip("(Int32)-2147483649") == "ERROR");
  REQUIRE(attrRoundTrip("(Int64)9223372036854775807") == "(Int64)9223372036854775807");
  REQUIRE(attrRoundTrip("(Int64)9223372036854775808") == "ERROR");
  REQUIRE(attrRoundTrip("99999999999999999999") == "ERROR");
  REQUIRE(attrRoundTrip("(Float)1e39") == "ERROR");
  REQUIRE(attrRoundTrip("(Double)1e39") == "(Double)1e39");
  REQUIRE(attrRoundTrip("(Double)1e999") == "ERROR");
  REQUIRE(attrRoundTrip("(Int32)1.5") == "ERROR");
}

TEST_CASE("dist attribute errors", "[parser][attrs]") {
  REQUIRE(attrRoundTrip("{mesh:{shape:[2],process_ids:[0,1]},result(0):{dims_maping:[-1],partial(0,MEAN)}}") ==
          "ERROR");
  REQUIRE(attrRoundTrip("{mesh:{shape:[2],process_ids:[0,1]},result(1):{dims_maping:[-1]}}") == "ERROR");
  REQUIRE(attrRoundTrip("{mesh:{shape:[2],process_ids:[0,1]},result(0):{partial(0,SUM)}}") == "ERROR");
}
