//===- ir_test.cpp - use lists, erasure, interning ------------------------===//
#include <catch2/catch.hpp>

#include <string>

#include "core/builder.h"
#include "core/bytes_equal.h"
#include "core/printer.h"
#include "core/program.h"

using namespace pir::core;

namespace {
const Type* f32x4(Context& ctx) {
  int64_t dims[] = {4};
  return ctx.denseTensorType("builtin.tensor", DataType::F32, dims);
}
}  // namespace

TEST_CASE("use lists link and unlink in O(1) from any position", "[core][ir]") {
  Context ctx;
  Program prog(ctx);
  Builder b(ctx);
  b.setInsertionPointToEnd(prog.body());
  const Type* t = f32x4(ctx);
  Operation* def = b.create("test.def", {}, std::vector<const Type*>{t});
  Value* v = def->result(0);
  std::vector<Value*> ops{v, v};
  Operation* u1 = b.create("test.use", ops, std::vector<const Type*>{t});
  Operation* u2 = b.create("test.use", std::vector<Value*>{v}, {});
  REQUIRE(v->numUses() == 3);
  SECTION("dropping the middle use keeps the others") {
    u1->operand(1).set(nullptr);
    REQUIRE(v->numUses() == 2);
    REQUIRE(u1->operandValue(1) == nullptr);
  }
  SECTION("erasing an op removes its uses") {
    u2->erase();
    REQUIRE(v->numUses() == 2);
    REQUIRE(prog.body().numOps() == 2);
  }
  SECTION("replaceAllUsesWith moves every use") {
    Operation* other = b.create("test.def", {}, std::vector<const Type*>{t});
    v->replaceAllUsesWith(other->result(0));
    REQUIRE(v->useEmpty());
    REQUIRE(other->result(0)->numUses() == 3);
    for (OpOperand* u = other->result(0)->firstUse(); u; u = u->nextUse()) REQUIRE(u->get() == other->result(0));
    REQUIRE(u1->operand(1).index() == 1);
  }
  SECTION("replacing a value with itself is a no-op") {
    v->replaceAllUsesWith(v);
    REQUIRE(v->numUses() == 3);
  }
}

TEST_CASE("blocks keep op order under insert and remove", "[core][ir]") {
  Context ctx;
  Program prog(ctx);
  Builder b(ctx);
  b.setInsertionPointToEnd(prog.body());
  Operation* a = b.create("t.a", {}, {});
  Operation* c = b.create("t.c", {}, {});
  b.setInsertionPoint(c);
  Operation* bop = b.create("t.b", {}, {});
  b.setInsertionPointAfter(c);
  Operation* d = b.create("t.d", {}, {});
  std::vector<std::string_view> names;
  for (Operation& op : prog.body()) names.push_back(op.name());
  REQUIRE(names == std::vector<std::string_view>{"t.a", "t.b", "t.c", "t.d"});
  prog.body().remove(bop);
  prog.body().remove(a);
  REQUIRE(prog.body().front() == c);
  REQUIRE(prog.body().back() == d);
  REQUIRE(prog.body().numOps() == 2);
}

TEST_CASE("attributes keep read order, and new keys go to their sorted slot", "[core][ir]") {
  Context ctx;
  NamedAttr attrs[] = {{ctx.intern("b"), ctx.boolAttr(true)},
                       {ctx.intern("d"), ctx.boolAttr(false)},
                       {ctx.intern("a_out_of_order"), ctx.boolAttr(true)}};
  Operation* op = Operation::create(ctx, "t.op", {}, {}, attrs);
  op->setAttr(ctx, "c", ctx.numberAttr("Int32", "1"));
  op->setAttr(ctx, "b", ctx.boolAttr(false));  // replaced in place
  std::vector<std::string_view> keys;
  for (const NamedAttr& a : op->attributes()) keys.push_back(a.key);
  REQUIRE(keys == std::vector<std::string_view>{"b", "c", "d", "a_out_of_order"});
  REQUIRE(op->attr("b") == ctx.boolAttr(false));
  REQUIRE(op->removeAttr(ctx, "c"));
  REQUIRE(op->attr("c") == nullptr);
}

TEST_CASE("ops with equal attribute lists share one, and editing one leaves the other", "[core][interning]") {
  Context ctx;
  NamedAttr attrs[] = {{ctx.intern("a"), ctx.boolAttr(true)}, {ctx.intern("b"), ctx.boolAttr(false)}};
  Operation* x = Operation::create(ctx, "t.op", {}, {}, attrs);
  Operation* y = Operation::create(ctx, "t.other", {}, {}, attrs);
  REQUIRE(x->attributes().data() == y->attributes().data());
  x->setAttr(ctx, "a", ctx.boolAttr(false));
  REQUIRE(y->attr("a") == ctx.boolAttr(true));
  REQUIRE(x->attr("a") == ctx.boolAttr(false));
  REQUIRE(x->attributes().data() != y->attributes().data());
  x->setAttr(ctx, "a", ctx.boolAttr(true));  // back to y's list
  REQUIRE(x->attributes().data() == y->attributes().data());
  REQUIRE(y->removeAttr(ctx, "b"));
  REQUIRE(x->attr("b") == ctx.boolAttr(false));
  REQUIRE(y->attributes().size() == 1);
  NamedAttr reordered[] = {attrs[1], attrs[0]};  // order is part of the list: Paddle prints it as read
  REQUIRE(Operation::create(ctx, "t.op", {}, {}, reordered)->attributes().data() != x->attributes().data());
}

TEST_CASE("an op's own attribute list reads, prints and edits as an interned one", "[core][interning]") {
  Context ctx;
  Program prog(ctx);
  Builder b(ctx);
  b.setInsertionPointToEnd(prog.body());
  NamedAttr attrs[] = {{ctx.intern("a"), ctx.boolAttr(true)}, {ctx.intern("name"), ctx.stringAttr("\"x\"")}};
  Operation* interned = b.create("t.op", {}, {}, attrs);
  Operation* own = b.create("t.op", {}, {}, {});
  own->setOwnAttributes(ctx, attrs);
  REQUIRE(own->attributes().data() != interned->attributes().data());  // not shared
  REQUIRE(own->attributes().data() != attrs);                          // but copied
  REQUIRE(own->attr("name") == interned->attr("name"));
  std::string text = printProgram(prog);
  size_t first = text.find("\"t.op\"");
  REQUIRE(first != std::string::npos);
  size_t second = text.find("\"t.op\"", first + 1);
  REQUIRE(second != std::string::npos);
  REQUIRE(text.substr(first, text.find('\n', first) - first) == text.substr(second, text.find('\n', second) - second));
  own->setAttr(ctx, "a", ctx.boolAttr(false));  // an edit interns the new list
  REQUIRE(own->attr("a") == ctx.boolAttr(false));
  REQUIRE(interned->attr("a") == ctx.boolAttr(true));
  own->setAttr(ctx, "a", ctx.boolAttr(true));
  REQUIRE(own->attributes().data() == interned->attributes().data());
  own->setOwnAttributes(ctx, {});
  REQUIRE(own->attributes().empty());
}

TEST_CASE("equal types and attributes are one pointer", "[core][interning]") {
  Context ctx;
  int64_t d1[] = {4, 16};
  int64_t d2[] = {4, 16};
  REQUIRE(ctx.denseTensorType("builtin.tensor", DataType::F32, d1) ==
          ctx.denseTensorType("builtin.tensor", DataType::F32, d2));
  REQUIRE(ctx.denseTensorType("builtin.tensor", DataType::F32, d1) !=
          ctx.denseTensorType("pd_op.tensor", DataType::F32, d1));
  REQUIRE(ctx.numberAttr("Int32", "-1") == ctx.numberAttr("Int32", "-1"));
  REQUIRE(ctx.numberAttr("Int32", "-1") != ctx.numberAttr("", "-1"));
  REQUIRE(ctx.numberAttr("Double", "1e-06") != ctx.numberAttr("Double", "0.000001"));
  REQUIRE(ctx.stringAttr("x") == ctx.stringAttrFromValue("x"));
  REQUIRE(ctx.stringAttrFromValue("a\"b")->raw() == "a\\\"b");
  REQUIRE(ctx.stringAttrFromValue("a\"b")->value() == "a\"b");
  const Attribute* e1[] = {ctx.boolAttr(true), ctx.numberAttr("", "1")};
  const Attribute* e2[] = {ctx.boolAttr(true), ctx.numberAttr("", "1")};
  REQUIRE(ctx.arrayAttr(e1) == ctx.arrayAttr(e2));
  REQUIRE(ctx.arrayAttr(e1) != ctx.arrayAttr(e1, /*arrayPrefix=*/true));
  std::string owned = "pd_op.relu";
  std::string_view interned = ctx.intern(owned);
  owned.assign("xxxxxxxxxx");
  REQUIRE(interned == "pd_op.relu");
  REQUIRE(ctx.intern("pd_op.relu").data() == interned.data());
}

TEST_CASE("many interned strings survive table growth", "[core][interning]") {
  Context ctx;
  std::vector<std::string_view> views;
  for (int i = 0; i < 5000; ++i) views.push_back(ctx.intern("name_" + std::to_string(i)));
  for (int i = 0; i < 5000; ++i) REQUIRE(ctx.intern("name_" + std::to_string(i)).data() == views[i].data());
}

TEST_CASE("context: hasInterned knows every op name, and only what was interned", "[core][ir]") {
  Context ctx;
  CHECK_FALSE(ctx.hasInterned("pd_op.embedding"));
  Operation* op = Operation::create(ctx, "pd_op.embedding", {}, {}, {});
  CHECK(ctx.hasInterned("pd_op.embedding"));
  CHECK(ctx.hasInterned(op->name()));
  CHECK_FALSE(ctx.hasInterned("pd_op.embedding_grad"));
  CHECK_FALSE(ctx.hasInterned("pd_op.embeddin"));  // a prefix is another string
  ctx.intern("");
  CHECK(ctx.hasInterned(""));
}

TEST_CASE("bytesEqual agrees with == at every length to 40", "[core][ir]") {
  std::string a(40, 'x');
  for (size_t n = 0; n <= 40; ++n)
    for (size_t at = 0; at < n; ++at) {
      std::string b = a.substr(0, n), c = b;
      c[at] = 'y';
      CHECK(bytesEqual(b, b));
      CHECK_FALSE(bytesEqual(b, c));
      CHECK(bytesEqual(b, c) == (b == c));
      CHECK_FALSE(bytesEqual(b, b + "x"));
    }
  CHECK(bytesEqual("", ""));
}
