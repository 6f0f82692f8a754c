//===- attr_list_builder_test.cpp - sorted lists in the era's spelling ----===//
#include <catch2/catch.hpp>

#include "core/attr_list_builder.h"
#include "core/builder.h"
#include "core/printer.h"

using namespace pir::core;

namespace {
/// `{k:v,k:v}` as the printer writes an op's attributes.
std::string printed(std::span<const NamedAttr> attrs, const PrintStyle& style) {
  std::string out = "{";
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (i) out += ',';
    out += attrs[i].key;
    out += ':';
    printAttribute(out, attrs[i].value, style);
  }
  return out + "}";
}
PrintStyle bareStyle() {
  PrintStyle s;
  s.taggedNumbers = false;
  return s;
}
}  // namespace

TEST_CASE("numbers and dialect values are spelled in the program's era", "[core][attrs]") {
  Context ctx;
  std::vector<int64_t> dims{4, 16};
  std::vector<int32_t> axes{0, -1};
  for (bool tagged : {true, false}) {
    PrintStyle style = tagged ? PrintStyle{} : bareStyle();
    AttrListBuilder b(ctx, style);
    b.setInt32("op_role", 1).setInt64("chunk_id", -1).setFloat("eps", 1e-06f).setDouble("scale", 0.5);
    b.setInt64Array("value", dims).setInt32Array("axis", axes).setIntArray("shape", dims);
    b.setDataType("dtype", DataType::I64).setPlace("place", Place{"cpu"}).setBool("flag", true);
    b.setString("name", "a\"b").setFloat("one", 1.0f).setDouble("big", 1e20);
    if (tagged)
      REQUIRE(printed(b.attrs(), style) ==
              "{axis:[(Int32)0,(Int32)-1],big:(Double)1e+20,chunk_id:(Int64)-1,dtype:(pd_op.DataType)int64,"
              "eps:(Float)1e-06,flag:true,name:\"a\\\"b\",one:(Float)1,op_role:(Int32)1,"
              "place:(pd_op.Place)Place(cpu),scale:(Double)0.5,shape:(pd_op.IntArray)[4,16],"
              "value:[(Int64)4,(Int64)16]}");
    else
      REQUIRE(printed(b.attrs(), style) ==
              "{axis:[0,-1],big:1e+20,chunk_id:-1,dtype:int64,eps:1e-06,flag:true,name:\"a\\\"b\",one:1,"
              "op_role:1,place:Place(cpu),scale:0.5,shape:[4,16],value:[4,16]}");
  }
}

TEST_CASE("what the builder spells reads back", "[core][attrs]") {
  Context ctx;
  AttrSpeller s(ctx, PrintStyle{});
  REQUIRE(getInt32(s.int32(-7)) == -7);
  REQUIRE(getDouble(s.float64(0.25)) == 0.25);
  REQUIRE(getDataType(s.dataType(DataType::BF16)) == DataType::BF16);
  REQUIRE(getPlace(s.place({"gpu", 1})) == Place{"gpu", 1});
  std::vector<int64_t> v{3, -1};
  REQUIRE(getIntArray(s.intArray(v)) == v);
  REQUIRE(s.dataType(DataType::Index) == nullptr);
  // The same value twice is one attribute, and one the parser would make.
  REQUIRE(s.int32(1) == s.int32(1));
  REQUIRE(s.int32(1) == ctx.numberAttr("Int32", "1"));
}

TEST_CASE("keys are kept in bytewise order, a key set twice keeps its last value", "[core][attrs]") {
  Context ctx;
  AttrListBuilder b(ctx, PrintStyle{});
  AttrKey role(ctx, "op_role");
  b.setBool("stop_gradient", false).setInt32(role, 0).setBool("Z", true).setBool("_x", true);
  b.setInt32(role, 2).set("a", nullptr);  // a null value is left out
  REQUIRE(printed(b.attrs(), PrintStyle{}) == "{Z:true,_x:true,op_role:(Int32)2,stop_gradient:false}");
  REQUIRE(b.attrs()[2].key.data() == role.str().data());
  REQUIRE(b.get("op_role") == ctx.numberAttr("Int32", "2"));
  REQUIRE(b.remove("Z"));
  REQUIRE_FALSE(b.remove("Z"));
  REQUIRE(printed(b.attrs(), PrintStyle{}) == "{_x:true,op_role:(Int32)2,stop_gradient:false}");
}

TEST_CASE("more attributes than the inline buffer holds stay sorted", "[core][attrs]") {
  Context ctx;
  AttrListBuilder b(ctx, bareStyle());
  std::string expect = "{";
  // Keys k00..k19 set in a scrambled order.
  for (int i = 0; i < 20; ++i) {
    int k = (i * 7) % 20;
    std::string key = "k" + std::to_string(k / 10) + std::to_string(k % 10);
    b.setInt64(key, k);
  }
  for (int k = 0; k < 20; ++k)
    expect += (k ? ",k" : "k") + std::to_string(k / 10) + std::to_string(k % 10) + ":" + std::to_string(k);
  REQUIRE(b.size() == 20);
  REQUIRE(printed(b.attrs(), bareStyle()) == expect + "}");
  b.setInt64("k05", 50);
  REQUIRE(b.size() == 20);
  REQUIRE(getInt64(b.get("k05")) == 50);
  REQUIRE(b.remove("k00"));
  REQUIRE(b.attrs().front().key == "k01");
  b.clear();
  REQUIRE(b.attrs().empty());
  b.setInt64("b", 1).setInt64("a", 2);
  REQUIRE(printed(b.attrs(), bareStyle()) == "{a:2,b:1}");
}

TEST_CASE("a list is applied to an op, interned or as its own", "[core][attrs]") {
  Context ctx;
  Program prog(ctx);
  Builder builder(ctx);
  builder.setInsertionPointToEnd(prog.body());
  Operation* x = builder.create("test.x", {}, {});
  Operation* y = builder.create("test.y", {}, {});
  Operation* z = builder.create("test.z", {}, {});
  AttrListBuilder b(prog);
  b.setInt32("op_role", 1).setBool("a", true);
  b.apply(*x);
  b.apply(*y);
  b.applyOwn(*z);
  REQUIRE(x->attributes().data() == y->attributes().data());
  REQUIRE(z->attributes().data() != x->attributes().data());
  REQUIRE(b.finish().data() == x->attributes().data());
  REQUIRE(getInt32(*z, "op_role") == 1);
  // Copying another op's list and changing one value.
  AttrListBuilder c(prog);
  c.setAll(x->attributes()).setInt32("op_role", 2);
  c.apply(*y);
  REQUIRE(printed(y->attributes(), prog.style()) == "{a:true,op_role:(Int32)2}");
  REQUIRE(printed(x->attributes(), prog.style()) == "{a:true,op_role:(Int32)1}");
}
