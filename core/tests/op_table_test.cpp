//===- op_table_test.cpp - lookup, names, in-place pairs, linearity -------===//
#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>

#include "core/builder.h"
#include "core/op_table.h"
#include "core/program.h"

using namespace pir::core;

namespace {

std::vector<std::pair<uint32_t, uint32_t>> pairs(std::span<const InplacePair> ps) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const InplacePair& p : ps) out.emplace_back(p.operand, p.result);
  return out;
}

const OpInfo& info(std::string_view name) {
  const OpInfo* i = lookupOp(name);
  REQUIRE(i != nullptr);
  return *i;
}

/// Ops built on values of one tensor type, with attributes.
struct OpMaker {
  Context ctx;
  Program prog{ctx};
  Builder b{ctx};
  const Type* t;
  OpMaker() {
    int64_t dims[] = {4};
    t = ctx.denseTensorType("builtin.tensor", DataType::F32, dims);
    b.setInsertionPointToEnd(prog.body());
  }
  Operation* make(std::string_view name, size_t numOperands, std::vector<NamedAttr> attrs = {}) {
    std::vector<Value*> ins;
    const Type* ts[] = {t};
    for (size_t i = 0; i < numOperands; ++i) ins.push_back(b.create("test.def", {}, ts)->result(0));
    for (NamedAttr& a : attrs) a.key = ctx.intern(a.key);
    return b.create(name, ins, ts, attrs);
  }
};

}  // namespace

TEST_CASE("every entry is found by its name, at its index", "[core][op_table]") {
  std::span<const OpInfo> all = opTable();
  REQUIRE(all.size() > 90);
  for (size_t i = 0; i < all.size(); ++i) {
    const OpInfo* found = lookupOp(all[i].name);
    REQUIRE(found == &all[i]);
    REQUIRE(found->index() == i);
  }
}

TEST_CASE("unknown ops have no entry", "[core][op_table]") {
  for (std::string_view n : {"", "cinn_op.groups", "pd_op.bogus", "pd_op.ad", "pd_op.add__", "test.def", "pd.relu",
                             "custom.loop", "pd_op.relu_"})
    REQUIRE(lookupOp(n) == nullptr);
  // A name is compared whole, not by prefix or a few bytes.
  std::string almost = "pd_op.matmuL";
  REQUIRE(lookupOp(almost) == nullptr);
  almost.back() = 'l';
  REQUIRE(lookupOp(almost) == &info("pd_op.matmul"));
  // Past 16 bytes the middle counts too, not only the ends and the length.
  std::string longer = "pd_op.layer_norm_grad";
  REQUIRE(lookupOp(longer) == &info("pd_op.layer_norm_grad"));
  longer[10] = 'X';
  REQUIRE(lookupOp(longer) == nullptr);
  REQUIRE(lookupOp("cf.yielD") == nullptr);
  REQUIRE(lookupOp("cf.yiel") == nullptr);
  REQUIRE(lookupOp(std::string_view("cf.yield\0", 9)) == nullptr);
}

TEST_CASE("lookups from several threads at once agree", "[core][op_table]") {
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 2000; ++round)
        for (const OpInfo& e : opTable())
          if (lookupOp(e.name) != &e || lookupOp("cinn_op.groups")) ++wrong;
    });
  for (std::thread& t : threads) t.join();
  REQUIRE(wrong == 0);
}

TEST_CASE("operand and result names are Paddle's, in Paddle's order", "[core][op_table]") {
  const OpInfo& mg = info("pd_op.matmul_grad");
  REQUIRE(mg.operandIndex("x") == 0);
  REQUIRE(mg.operandIndex("y") == 1);
  REQUIRE(mg.operandIndex("out_grad") == 2);
  REQUIRE(mg.operandIndex("grad") == -1);
  REQUIRE(mg.layout.results[0] == "x_grad");
  REQUIRE(mg.layout.results[1] == "y_grad");

  REQUIRE(info("pd_op.sgd_").operandIndex("grad", 4) == 2);
  REQUIRE(info("pd_op.momentum_").operandIndex("grad", 5) == 1);
  REQUIRE(info("pd_op.lamb_").operandIndex("grad", 9) == 1);
  for (uint32_t n : {9u, 10u, 12u, 13u}) {
    REQUIRE(info("pd_op.adam_").operandIndex("grad", n) == 1);
    REQUIRE(info("pd_op.adamw_").operandIndex("skip_update", n) == static_cast<int>(n == 9 || n == 12 ? 8 : 9));
  }
  REQUIRE(info("pd_op.adam_").operandIndex("moment2_max", 9) == -1);
  REQUIRE(info("pd_op.adam_").operandIndex("moment2_max", 10) == 5);
  REQUIRE(info("pd_op.adam_").operandIndex("grad", 7) == -1);  // no such layout

  REQUIRE(info("pd_op.relu_grad").operandName(0, 2) == "out");
  REQUIRE(info("pd_op.slice").operandName(2, 3) == "ends");
  REQUIRE(info("pd_op.slice").operandName(3, 4).empty());
  REQUIRE(info("pd_op.while").operandName(0, 4) == "cond");
  REQUIRE(info("pd_op.while").operandName(3, 4) == "inputs");
  REQUIRE(info("builtin.combine").operandName(7, 8) == "inputs");
  REQUIRE(info("builtin.split").layout.variadicResults);
  REQUIRE(info("pd_op.send_v2").layout.results.empty());
  REQUIRE(info("pd_op.recv_v2").layout.operands.empty());
}

TEST_CASE("in-place pairs come from the inplace: entries, adam_'s by layout", "[core][op_table]") {
  using P = std::vector<std::pair<uint32_t, uint32_t>>;
  REQUIRE(pairs(info("pd_op.sgd_").inplacePairs(4)) == P{{0, 0}, {3, 1}});
  REQUIRE(pairs(info("pd_op.momentum_").inplacePairs(5)) == P{{0, 0}, {2, 1}, {4, 2}});
  P amsgrad{{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}, {8, 6}};
  P before{{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}};
  for (std::string_view adam : {"pd_op.adam_", "pd_op.adamw_"}) {
    REQUIRE(pairs(info(adam).inplacePairs(10)) == amsgrad);
    REQUIRE(pairs(info(adam).inplacePairs(13)) == amsgrad);
    REQUIRE(pairs(info(adam).inplacePairs(9)) == before);
    REQUIRE(pairs(info(adam).inplacePairs(12)) == before);
    REQUIRE(info(adam).inplacePairs(8).empty());
  }
  REQUIRE(pairs(info("pd_op.lamb_").inplacePairs(9)) == before);
  REQUIRE(pairs(info("pd_op.add_").inplacePairs(2)) == P{{0, 0}});
  REQUIRE(pairs(info("pd_op.assign_out_").inplacePairs(2)) == P{{1, 0}});
  REQUIRE(pairs(info("pd_op.all_reduce_").inplacePairs(1)) == P{{0, 0}});
  // One layout holds whatever the count; callers check the indices.
  REQUIRE(pairs(info("pd_op.sgd_").inplacePairs(3)) == P{{0, 0}, {3, 1}});
  // Ops without a trailing '_' write nothing in place; those with one do.
  for (const OpInfo& e : opTable()) REQUIRE(e.writesInPlace() == e.name.ends_with('_'));
}

TEST_CASE("the attribute naming a value, region syntax and traits", "[core][op_table]") {
  REQUIRE(info("pd_op.data").nameAttr == "name");
  REQUIRE(info("builtin.parameter").nameAttr == "parameter_name");
  REQUIRE(info("builtin.set_parameter").nameAttr.empty());  // names no value pipeline-split hands over
  REQUIRE(info("builtin.shadow_output").nameAttr == "output_name");
  REQUIRE(info("pd_op.matmul").nameAttr.empty());

  REQUIRE(info("pd_op.if").regionSyntax == RegionSyntax::IfElse);
  REQUIRE(info("pd_op.while").regionSyntax == RegionSyntax::While);
  size_t special = 0;
  for (const OpInfo& e : opTable()) special += e.regionSyntax != RegionSyntax::Generic;
  REQUIRE(special == 2);

  REQUIRE(info("builtin.combine").has(kPacksVec));
  REQUIRE(info("builtin.split").has(kPacksVec));
  REQUIRE_FALSE(info("builtin.slice").has(kPacksVec));
  for (std::string_view n : {"pd_op.reshape", "pd_op.cast", "pd_op.add", "pd_op.add_", "pd_op.all_reduce",
                             "pd_op.c_allreduce_sum", "pd_op.c_allreduce_sum_"})
    REQUIRE(info(n).has(kPassesGradient));
  size_t passing = 0;
  for (const OpInfo& e : opTable()) passing += e.has(kPassesGradient);
  REQUIRE(passing == 7);
}

TEST_CASE("linearity: per operand, unknown without an entry", "[core][op_table]") {
  OpMaker m;
  Operation* add = m.make("pd_op.add", 2);
  REQUIRE(linearityOf(*add, 0) == Linearity::Linear);
  REQUIRE(linearityOf(*add, 1) == Linearity::Linear);
  REQUIRE(linearityOf(*add, 2) == Linearity::Unknown);  // no such operand
  Operation* relu = m.make("pd_op.relu", 1);
  REQUIRE(linearityOf(*relu, 0) == Linearity::NotLinear);
  Operation* rg = m.make("pd_op.relu_grad", 2);
  REQUIRE(linearityOf(*rg, 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*rg, 1) == Linearity::Linear);
  Operation* mg = m.make("pd_op.matmul_grad", 3);
  REQUIRE(linearityOf(*mg, 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*mg, 1) == Linearity::NotLinear);
  REQUIRE(linearityOf(*mg, 2) == Linearity::Linear);
  Operation* div = m.make("pd_op.divide", 2);
  REQUIRE(linearityOf(*div, 0) == Linearity::Linear);
  REQUIRE(linearityOf(*div, 1) == Linearity::NotLinear);
  Operation* combine = m.make("builtin.combine", 6);
  REQUIRE(linearityOf(*combine, 5) == Linearity::Linear);
  Operation* sgd = m.make("pd_op.sgd_", 4);
  REQUIRE(linearityOf(*sgd, 2) == Linearity::NotLinear);
  Operation* unknown = m.make("cinn_op.group", 1);
  REQUIRE(linearityOf(*unknown, 0) == Linearity::Unknown);
  // matmul has more operands than Paddle's signature: unknown, not a guess.
  Operation* odd = m.make("pd_op.matmul", 3);
  REQUIRE(linearityOf(*odd, 2) == Linearity::Unknown);
}

TEST_CASE("linearity that depends on an attribute", "[core][op_table]") {
  OpMaker m;
  auto num = [&](std::string_view tag, std::string_view text) { return m.ctx.numberAttr(tag, text); };
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", num("Float", "0")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", num("", "0.0")}}), 1) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {}), 0) == Linearity::Linear);  // Paddle's default 0
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", num("Float", "1")}}), 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*m.make("pd_op.scale", 2, {{"bias", m.ctx.boolAttr(true)}}), 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*m.make("pd_op.all_reduce", 1, {{"reduce_type", num("Int32", "0")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.all_reduce", 1, {{"reduce_type", num("Int32", "4")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.all_reduce", 1, {{"reduce_type", num("Int32", "1")}}), 0) == Linearity::NotLinear);
  REQUIRE(linearityOf(*m.make("pd_op.pool2d", 2, {{"pooling_type", m.ctx.stringAttr("avg")}}), 0) == Linearity::Linear);
  REQUIRE(linearityOf(*m.make("pd_op.pool2d", 2, {{"pooling_type", m.ctx.stringAttr("max")}}), 0) ==
          Linearity::NotLinear);
}

TEST_CASE("the ops the code and the test programs use have entries", "[core][op_table]") {
  for (std::string_view n : {"builtin.parameter",
                             "builtin.shadow_output",
                             "builtin.combine",
                             "builtin.split",
                             "builtin.set_parameter",
                             "builtin.get_parameter",
                             "builtin.constant",
                             "cf.yield",
                             "dist_op.reshard",
                             "pd_op.data",
                             "pd_op.relu",
                             "pd_op.relu_grad",
                             "pd_op.full",
                             "pd_op.matmul",
                             "pd_op.matmul_grad",
                             "pd_op.sgd_",
                             "pd_op.adamw_",
                             "pd_op.add",
                             "pd_op.add_grad",
                             "pd_op.subtract",
                             "pd_op.subtract_grad",
                             "pd_op.mean",
                             "pd_op.mean_grad",
                             "pd_op.full_like",
                             "pd_op.less_than",
                             "pd_op.if",
                             "pd_op.while",
                             "pd_op.square",
                             "pd_op.square_grad",
                             "pd_op.send_v2",
                             "pd_op.recv_v2",
                             "pd_op.cast",
                             "pd_op.exp",
                             "pd_op.gelu",
                             "pd_op.gelu_grad",
                             "pd_op.tanh",
                             "pd_op.scale",
                             "pd_op.full_int_array",
                             "pd_op.multiply",
                             "pd_op.concat",
                             "pd_op.sigmoid",
                             "pd_op.assign",
                             "pd_op.add_",
                             "pd_op.reshape",
                             "pd_op.reshape_grad",
                             "pd_op.softmax",
                             "pd_op.softmax_grad",
                             "pd_op.layer_norm",
                             "pd_op.layer_norm_grad",
                             "pd_op.transpose",
                             "pd_op.split",
                             "pd_op.split_with_num",
                             "pd_op.slice",
                             "pd_op.all_reduce",
                             "pd_op.all_gather",
                             "pd_op.reduce_scatter",
                             "pd_op.all_to_all",
                             "pd_op.broadcast",
                             "pd_op.shadow_feed",
                             "pd_op.fetch",
                             "pd_op.assign_out_"})
    REQUIRE(lookupOp(n) != nullptr);
}
