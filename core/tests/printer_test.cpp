//===- printer_test.cpp - printing IR built by hand -----------------------===//
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <span>
#include <vector>

#include "core/builder.h"
#include "core/printer.h"
#include "core/program.h"

using namespace pir::core;

namespace {
struct Fixture {
  Context ctx;
  Program prog{ctx};
  Builder b{ctx};
  Fixture() { b.setInsertionPointToEnd(prog.body()); }
  const Type* tensor(std::initializer_list<int64_t> dims, DataType dt = DataType::F32) {
    std::vector<int64_t> d(dims);
    return ctx.denseTensorType("builtin.tensor", dt, d);
  }
};
}  // namespace

TEST_CASE("printer: op lines, numbering, nulls, zero results", "[core][printer]") {
  Fixture f;
  NamedAttr dataAttrs[] = {
      {f.ctx.intern("name"), f.ctx.stringAttr("x")},
      {f.ctx.intern("stop_gradient"), f.ctx.arrayAttr(std::vector<const Attribute*>{f.ctx.boolAttr(true)})}};
  Operation* data = f.b.create("pd_op.data", {}, std::vector<const Type*>{f.tensor({4, 16})}, dataAttrs);
  Operation* two = f.b.create("pd_op.split2", std::vector<Value*>{data->result(0), nullptr},
                              std::vector<const Type*>{f.tensor({4, 8}), f.ctx.nullType()});
  f.b.create("builtin.shadow_output", std::vector<Value*>{two->result(0)}, {});
  REQUIRE(printProgram(f.prog) ==
          "{\n"
          "    (%0) = \"pd_op.data\" () {name:\"x\",stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>\n"
          "    (%1, %2) = \"pd_op.split2\" (%0, <<NULL VALUE>>) {} : (builtin.tensor<4x16xf32>, <<NULL TYPE>>) -> "
          "builtin.tensor<4x8xf32>, <<NULL TYPE>>\n"
          "    () = \"builtin.shadow_output\" (%1) {} : (builtin.tensor<4x8xf32>) -> \n"
          "}\n");
  // Printing twice numbers the same way: counters are per print.
  REQUIRE(printProgram(f.prog) == printProgram(f.prog));
}

TEST_CASE("printer: kwargs, block arguments and region ops", "[core][printer]") {
  Fixture f;
  BlockArgument* kw = f.prog.body().addKwarg(f.ctx, "w", f.tensor({2}));
  Operation* cond = f.b.create("pd_op.full", {}, std::vector<const Type*>{f.tensor({1}, DataType::Bool)});
  Operation* loop =
      f.b.create("pd_op.while", std::vector<Value*>{cond->result(0), kw}, std::vector<const Type*>{f.tensor({2})});
  Block* body = loop->addRegion(f.ctx).addBlock(f.ctx);
  BlockArgument* arg = body->addArgument(f.ctx, f.tensor({2}));
  Builder inner(f.ctx);
  inner.setInsertionPointToEnd(*body);
  inner.create("cf.yield", std::vector<Value*>{cond->result(0), arg}, {});
  Operation* group = f.b.create("cinn_op.group", {}, std::vector<const Type*>{f.tensor({2})});
  Builder g(f.ctx);
  g.setInsertionPointToEnd(*group->addRegion(f.ctx).addBlock(f.ctx));
  g.create("cf.yield", std::vector<Value*>{loop->result(0)}, {});
  REQUIRE(printProgram(f.prog) ==
          "{\n"
          "    ^kw:\n"
          "        %kwarg_w {}\n"
          "    (%0) = \"pd_op.full\" () {} : () -> builtin.tensor<1xb>\n"
          "    (%1) = \"pd_op.while\" (cond=%0, inputs=%kwarg_w) { \n"
          "    ^%arg_0 {}\n"
          "        () = \"cf.yield\" (%0, %arg_0) {} : (builtin.tensor<1xb>, builtin.tensor<2xf32>) -> \n"
          "    }\n"
          "    (%2) = \"cinn_op.group\" () {} : () -> builtin.tensor<2xf32>\n"
          "    {\n"
          "        () = \"cf.yield\" (%1) {} : (builtin.tensor<2xf32>) -> \n"
          "    }\n"
          "\n"
          "}\n");
}

TEST_CASE("printer: a block declares its arguments when first use would not give them back", "[core][printer]") {
  Fixture f;
  Operation* outer = f.b.create("custom.region", {}, {});
  Block* body = outer->addRegion(f.ctx).addBlock(f.ctx);
  BlockArgument* a0 = body->addArgument(f.ctx, f.tensor({1}));
  BlockArgument* a1 = body->addArgument(f.ctx, f.tensor({1}));
  Builder in(f.ctx);
  in.setInsertionPointToEnd(*body);
  // a0's first use is in a nested block: declared there, it would belong to it.
  Operation* nested = in.create("custom.inner", {}, {});
  Builder deep(f.ctx);
  deep.setInsertionPointToEnd(*nested->addRegion(f.ctx).addBlock(f.ctx));
  deep.create("cf.yield", std::vector<Value*>{a0}, {});
  Operation* yield = in.create("cf.yield", std::vector<Value*>{a0, a1}, {});
  const std::string declared =
      "{\n"
      "    () = \"custom.region\" () {} : () -> \n"
      "    {\n"
      "        ^%arg_0 {}, %arg_1 {}\n"
      "        () = \"custom.inner\" () {} : () -> \n"
      "        {\n"
      "            () = \"cf.yield\" (%arg_0) {} : (builtin.tensor<1xf32>) -> \n"
      "        }\n"
      "\n"
      "        () = \"cf.yield\" (%arg_0, %arg_1) {} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> \n"
      "    }\n"
      "\n"
      "}\n";
  REQUIRE(printProgram(f.prog) == declared);
  REQUIRE(printProgram(f.prog) == declared);  // idempotent

  // Used first, in order, by the block's own ops: Paddle's first-use form.
  nested->erase();
  REQUIRE(printProgram(f.prog) ==
          "{\n"
          "    () = \"custom.region\" () {} : () -> \n"
          "    {\n"
          "        () = \"cf.yield\" (%arg_0 {}, %arg_1 {}) {} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> \n"
          "    }\n"
          "\n"
          "}\n");

  // Used first out of order: read back, they would swap places.
  yield->operands()[0].set(a1);
  yield->operands()[1].set(a0);
  REQUIRE(printProgram(f.prog) ==
          "{\n"
          "    () = \"custom.region\" () {} : () -> \n"
          "    {\n"
          "        ^%arg_0 {}, %arg_1 {}\n"
          "        () = \"cf.yield\" (%arg_1, %arg_0) {} : (builtin.tensor<1xf32>, builtin.tensor<1xf32>) -> \n"
          "    }\n"
          "\n"
          "}\n");
}

TEST_CASE("printer: dist attrs in both eras", "[core][printer]") {
  Context ctx;
  int64_t shape[] = {2};
  int64_t ids[] = {0, 1};
  const ProcessMesh* mesh = ctx.processMesh(shape, ids);
  int64_t dims[] = {-1, 0};
  PartialEntry partial[] = {{0, ReduceType::Sum}};
  int64_t rep[] = {-1, -1};
  const TensorDistAttr* p = ctx.tensorDistAttr(mesh, rep, partial);
  const TensorDistAttr* s = ctx.tensorDistAttr(mesh, dims);
  int64_t tdims[] = {4, 8};
  const Type* t = ctx.distTensorType(DataType::F32, tdims, p);
  const Attribute* operands[] = {p, ctx.nullAttr()};
  const Attribute* results[] = {s};
  const OpDistAttr* od = ctx.opDistAttr(mesh, operands, results, 3, true);

  PrintStyle full;
  REQUIRE(typeToString(t, full) ==
          "pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)>");
  REQUIRE(attributeToString(od, full) ==
          "{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], "
          "partial(0,SUM)},operand(1):{<#AttrNull>},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]},"
          "chunk_id:3}");

  PrintStyle old;
  old.distEra = DistEra::DimsMaping;
  REQUIRE(typeToString(t, old) == "pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[-1,-1], partial(0,SUM)>");
  REQUIRE(attributeToString(ctx.opDistAttr(mesh, operands, results, -1, false), old) ==
          "{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[-1,-1],partial(0,SUM)},operand(1):{null},"
          "result(0):{dims_maping:[-1,0]}}");

  Placement pl[] = {{Placement::Kind::Shard, ReduceType::Sum, 1, 2}, {Placement::Kind::Partial, ReduceType::Avg, 0, 1}};
  REQUIRE(attributeToString(ctx.placementsAttr(pl)) == "[Shard(dim=1, split_factor=2), Partial(reduce_type=AVG)]");
}

TEST_CASE("printer: an op on another mesh cannot be spelled in the dims_maping era", "[core][printer]") {
  Context ctx;
  Program prog(ctx);
  prog.style().distEra = DistEra::DimsMaping;
  int64_t shape[] = {2};
  int64_t a[] = {0, 1}, b[] = {2, 3};
  int64_t rep[] = {-1};
  const Attribute* results[] = {ctx.tensorDistAttr(ctx.processMesh(shape, b), rep)};
  NamedAttr attrs[] = {{ctx.intern("op_dist_attr"), ctx.opDistAttr(ctx.processMesh(shape, a), {}, results, -1, false)}};
  Operation* op = Operation::create(ctx, "dist_op.reshard", {}, {}, attrs);
  op->setLocation(7);
  prog.body().pushBack(op);
  Status s = checkPrintable(prog);
  REQUIRE_FALSE(s.isOk());
  REQUIRE(s.offset() == 7);
  REQUIRE(s.message().find("dist_op.reshard") != std::string::npos);
  prog.style().distEra = DistEra::Full;
  REQUIRE(checkPrintable(prog).isOk());
}

TEST_CASE("printer: the threaded printability check reports the first op one thread does", "[core][printer]") {
  Context ctx;
  int64_t shape[] = {2};
  int64_t a[] = {0, 1}, b[] = {2, 3};
  int64_t rep[] = {-1};
  const Attribute* here[] = {ctx.tensorDistAttr(ctx.processMesh(shape, a), rep)};
  const Attribute* elsewhere[] = {ctx.tensorDistAttr(ctx.processMesh(shape, b), rep)};
  NamedAttr good[] = {{ctx.intern("op_dist_attr"), ctx.opDistAttr(ctx.processMesh(shape, a), {}, here, -1, false)}};
  NamedAttr bad[] = {{ctx.intern("op_dist_attr"), ctx.opDistAttr(ctx.processMesh(shape, a), {}, elsewhere, -1, false)}};
  // 4000 ops at locations 0..3999; `bad` marks the ones that cannot print,
  // and `nestAt` an op whose region holds one more (location 100000 + i).
  auto build = [&](Program& prog, std::vector<int> badAt, int nestAt) {
    prog.style().distEra = DistEra::DimsMaping;
    for (int i = 0; i < 4000; ++i) {
      bool isBad = std::find(badAt.begin(), badAt.end(), i) != badAt.end();
      Operation* op = Operation::create(ctx, "pd_op.relu", {}, {}, isBad ? std::span<const NamedAttr>(bad) : good);
      op->setLocation(i);
      prog.body().pushBack(op);
      if (i == nestAt) {
        Operation* inner = Operation::create(ctx, "pd_op.relu", {}, {}, bad);
        inner->setLocation(100000 + i);
        op->addRegion(ctx).addBlock(ctx)->pushBack(inner);
      }
    }
  };
  struct Case {
    std::vector<int> badAt;
    int nestAt;
    int64_t expected;  // -1: printable
  };
  for (const Case& c : {Case{{}, -1, -1}, Case{{2900, 3500}, -1, 2900}, Case{{3999}, -1, 3999},
                        Case{{2000}, 1200, 101200}, Case{{5, 3000}, 2500, 5}}) {
    Program prog(ctx);
    build(prog, c.badAt, c.nestAt);
    Status serial = checkPrintable(prog);
    for (unsigned threads : {2u, 3u}) {
      Status threaded = checkPrintable(prog, threads, 1);
      CHECK(threaded.isOk() == serial.isOk());
      CHECK(threaded.offset() == serial.offset());
      CHECK(threaded.message() == serial.message());
      CHECK((threaded.isOk() ? -1 : threaded.offset()) == c.expected);
    }
  }
}

TEST_CASE("printer: numbers at every count of digits", "[core][printer]") {
  Fixture f;
  // Dims print through the type's text, value numbers through the output
  // buffer: both count digits from the bit length.
  const Type* wide = f.tensor({0, 9, 10, 99, 100, 999999999999999999, 1000000000000000000,
                               std::numeric_limits<int64_t>::max(), -1, std::numeric_limits<int64_t>::min()});
  Operation* first = f.b.create("pd_op.data", {}, std::vector<const Type*>{wide});
  for (int i = 0; i < 1000; ++i)
    f.b.create("pd_op.relu", std::vector<Value*>{first->result(0)}, std::vector<const Type*>{wide});
  std::string text = printProgram(f.prog);
  CHECK(text.find("builtin.tensor<0x9x10x99x100x999999999999999999x1000000000000000000x9223372036854775807x-1x"
                  "-9223372036854775808xf32>") != std::string::npos);
  for (int n : {0, 9, 10, 99, 100, 999, 1000}) {
    std::string line = "    (%" + std::to_string(n) + ") = ";
    CHECK(text.find(line) != std::string::npos);
  }
  CHECK(text.find("(%1001)") == std::string::npos);
  // Every line, in order: a number made by counting on from the last
  // (every carry up to four digits) and its uses, converted each time.
  Fixture chain;
  Operation* last = chain.b.create("pd_op.data", {}, std::vector<const Type*>{chain.tensor({2})});
  for (int i = 0; i < 10000; ++i)
    last =
        chain.b.create("pd_op.relu", std::vector<Value*>{last->result(0)}, std::vector<const Type*>{chain.tensor({2})});
  std::string lines = printProgram(chain.prog);
  size_t at = lines.find('\n') + 1;
  for (int n = 0; n <= 10000; ++n) {
    std::string expected = "    (%" + std::to_string(n) + ") = \"" +
                           (n ? "pd_op.relu\" (%" + std::to_string(n - 1) + ")" : std::string("pd_op.data\" ()"));
    REQUIRE(lines.compare(at, expected.size(), expected) == 0);
    at = lines.find('\n', at) + 1;
  }
}
