//===- attr_access_test.cpp - typed reads, numbers read once --------------===//
#include <catch2/catch.hpp>

#include <cmath>

#include "core/attr_access.h"
#include "core/builder.h"
#include "core/printer.h"
#include "core/program.h"

using namespace pir::core;

namespace {
std::string printed(const Attribute* a) {
  std::string out;
  printAttribute(out, a, PrintStyle{});
  return out;
}
const Attribute* array(Context& ctx, std::vector<const Attribute*> elems, bool prefix = false) {
  return ctx.arrayAttr(elems, prefix);
}
}  // namespace

TEST_CASE("a number is read when it is made and prints as read", "[core][attrs]") {
  Context ctx;
  const NumberAttr* i = ctx.numberAttr("Int32", "-1");
  REQUIRE(i->asInt() == -1);
  REQUIRE(i->asDouble() == -1.0);
  REQUIRE(printed(i) == "(Int32)-1");
  const NumberAttr* d = ctx.numberAttr("Double", "1e-06");
  REQUIRE_FALSE(d->asInt());
  REQUIRE(d->asDouble() == 1e-06);
  REQUIRE(printed(d) == "(Double)1e-06");
  // Equal values spelled differently stay distinct attributes.
  REQUIRE(ctx.numberAttr("Float", "1.0") != ctx.numberAttr("Float", "1"));
  REQUIRE(printed(ctx.numberAttr("Float", "1.0")) == "(Float)1.0");
  REQUIRE(ctx.numberAttr("Float", "1")->asInt() == 1);  // what the text spells, whatever the tag
  REQUIRE(ctx.numberAttr("", "1.")->asDouble() == 1.0);
  REQUIRE(std::isinf(*ctx.numberAttr("Float", "-inf")->asDouble()));
  REQUIRE(*ctx.numberAttr("Float", "-inf")->asDouble() < 0);
  REQUIRE(std::isnan(*ctx.numberAttr("Double", "nan")->asDouble()));
  REQUIRE(std::signbit(*ctx.numberAttr("", "-0")->asDouble()));
  // Past 64 bits: no integer, but a real; past a double: infinity, as strtod.
  const NumberAttr* big = ctx.numberAttr("", "99999999999999999999");
  REQUIRE_FALSE(big->asInt());
  REQUIRE(big->asDouble() == 1e20);
  REQUIRE(std::isinf(*ctx.numberAttr("", "1e400")->asDouble()));
  REQUIRE(ctx.numberAttr("", "1e-400")->asDouble() == 0.0);
  REQUIRE(ctx.numberAttr("Int64", "9223372036854775807")->asInt() == INT64_MAX);
  REQUIRE_FALSE(ctx.numberAttr("", "12abc")->asDouble());
  REQUIRE_FALSE(ctx.numberAttr("", "")->asInt());
}

TEST_CASE("bools read bare and tagged", "[core][attrs]") {
  Context ctx;
  REQUIRE(getBool(ctx.boolAttr(true)) == true);
  REQUIRE(getBool(ctx.boolAttr(false)) == false);
  REQUIRE(getBool(ctx.taggedAttr("Bool", ctx.boolAttr(true))) == true);
  REQUIRE_FALSE(getBool(ctx.taggedAttr("Int32", ctx.boolAttr(true))));
  REQUIRE_FALSE(getBool(ctx.symbolAttr("true")));
  REQUIRE_FALSE(getBool(ctx.numberAttr("", "1")));
  REQUIRE_FALSE(getBool(nullptr));
}

TEST_CASE("integers and reals read from every number spelling", "[core][attrs]") {
  Context ctx;
  REQUIRE(getInt64(ctx.numberAttr("Int64", "3")) == 3);
  REQUIRE(getInt64(ctx.numberAttr("", "1")) == 1);
  REQUIRE(getInt32(ctx.numberAttr("Int32", "-1")) == -1);
  REQUIRE(getInt32(ctx.numberAttr("Int64", "2147483647")) == 2147483647);
  REQUIRE_FALSE(getInt32(ctx.numberAttr("Int64", "2147483648")));
  REQUIRE(getInt64(ctx.numberAttr("Int64", "2147483648")) == 2147483648LL);
  REQUIRE_FALSE(getInt64(ctx.numberAttr("", "0.5")));
  REQUIRE_FALSE(getInt64(ctx.stringAttr("1")));
  REQUIRE(getDouble(ctx.numberAttr("Double", "1e-06")) == 1e-06);
  REQUIRE(getDouble(ctx.numberAttr("", "0.5")) == 0.5);
  REQUIRE(getDouble(ctx.numberAttr("Int32", "7")) == 7.0);
  REQUIRE(getFloat(ctx.numberAttr("Float", "1")) == 1.0f);
  REQUIRE(getFloat(ctx.numberAttr("Float", "0.1")) == 0.1f);
  REQUIRE_FALSE(getFloat(ctx.numberAttr("Double", "1e300")));
  REQUIRE(std::isinf(*getFloat(ctx.numberAttr("Float", "inf"))));
  REQUIRE_FALSE(getDouble(ctx.boolAttr(true)));
}

TEST_CASE("integer arrays read tagged and bare elements, with or without (Array)", "[core][attrs]") {
  Context ctx;
  auto* tagged = array(ctx, {ctx.numberAttr("Int32", "4"), ctx.numberAttr("Int32", "16")});
  auto* bare = array(ctx, {ctx.numberAttr("", "4"), ctx.numberAttr("", "-16")});
  auto* old = array(ctx, {ctx.numberAttr("Int64", "5")}, true);
  REQUIRE(getInt32Array(tagged) == std::vector<int32_t>{4, 16});
  REQUIRE(getInt64Array(tagged) == std::vector<int64_t>{4, 16});
  REQUIRE(getInt64Array(bare) == std::vector<int64_t>{4, -16});
  REQUIRE(getInt64Array(old) == std::vector<int64_t>{5});
  REQUIRE(getInt64Array(array(ctx, {})) == std::vector<int64_t>{});
  REQUIRE_FALSE(getInt64Array(array(ctx, {ctx.numberAttr("", "4"), ctx.numberAttr("", "0.5")})));
  REQUIRE_FALSE(getInt32Array(array(ctx, {ctx.numberAttr("Int64", "4294967296")})));
  REQUIRE_FALSE(getInt64Array(ctx.numberAttr("", "4")));
  // An IntArray is tagged with its dialect, or bare.
  REQUIRE(getIntArray(ctx.taggedAttr("pd_op.IntArray", bare)) == std::vector<int64_t>{4, -16});
  REQUIRE(getIntArray(bare) == std::vector<int64_t>{4, -16});
  REQUIRE_FALSE(getIntArray(ctx.taggedAttr("pd_op.DataType", bare)));
  REQUIRE_FALSE(getInt64Array(ctx.taggedAttr("pd_op.IntArray", bare)));
}

TEST_CASE("data types read in Paddle's names, tagged or bare", "[core][attrs]") {
  Context ctx;
  REQUIRE(getDataType(ctx.taggedAttr("pd_op.DataType", ctx.symbolAttr("float32"))) == DataType::F32);
  REQUIRE(getDataType(ctx.symbolAttr("int64")) == DataType::I64);
  REQUIRE(getDataType(ctx.symbolAttr("bfloat16")) == DataType::BF16);
  REQUIRE(getDataType(ctx.symbolAttr("float8_e5m2")) == DataType::F8E5M2);
  REQUIRE(getDataType(ctx.taggedAttr("pd.DataType", ctx.symbolAttr("bool"))) == DataType::Bool);
  REQUIRE_FALSE(getDataType(ctx.symbolAttr("f32")));  // the builtin name is not Paddle's
  REQUIRE_FALSE(getDataType(ctx.taggedAttr("pd_op.Place", ctx.symbolAttr("float32"))));
  REQUIRE_FALSE(getDataType(ctx.stringAttr("float32")));
  for (DataType t : {DataType::BF16, DataType::F16, DataType::F32, DataType::F64, DataType::Bool, DataType::I8,
                     DataType::U8, DataType::I16, DataType::I32, DataType::I64, DataType::C64, DataType::C128,
                     DataType::F8E4M3FN, DataType::F8E5M2})
    REQUIRE(parsePaddleDataType(paddleDataTypeName(t)) == t);
  REQUIRE(paddleDataTypeName(DataType::Index).empty());
}

TEST_CASE("places read with and without a device id", "[core][attrs]") {
  Context ctx;
  REQUIRE(getPlace(ctx.taggedAttr("pd_op.Place", ctx.symbolAttr("Place(cpu)"))) == Place{"cpu", -1});
  REQUIRE(getPlace(ctx.symbolAttr("Place(undefined:0)")) == Place{"undefined", 0});
  REQUIRE(getPlace(ctx.symbolAttr("Place(gpu:3)")) == Place{"gpu", 3});
  REQUIRE(getPlace(ctx.symbolAttr("Place(gpu_pinned)")) == Place{"gpu_pinned", -1});
  for (std::string_view bad :
       {"Place()", "Place(gpu:)", "Place(gpu:x)", "Place(gpu:-1)", "Place(cpu", "cpu", "Place(a b)"})
    REQUIRE_FALSE(parsePlace(bad));
  REQUIRE(placeText({"gpu", 0}) == "Place(gpu:0)");
  REQUIRE(placeText({"cpu"}) == "Place(cpu)");
}

TEST_CASE("an op's attribute is read by key", "[core][attrs]") {
  Context ctx;
  Program prog(ctx);
  Builder b(ctx);
  b.setInsertionPointToEnd(prog.body());
  NamedAttr attrs[] = {{ctx.intern("op_role"), ctx.numberAttr("Int32", "1")},
                       {ctx.intern("transpose_x"), ctx.taggedAttr("Bool", ctx.boolAttr(true))}};
  Operation* op = b.create("test.op", {}, {}, attrs);
  REQUIRE(getInt32(*op, "op_role") == 1);
  REQUIRE(getBool(*op, "transpose_x") == true);
  REQUIRE_FALSE(getBool(*op, "transpose_y"));
  REQUIRE_FALSE(getInt64(*op, "transpose_x"));
}
