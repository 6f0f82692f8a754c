//===- rank_passes_test.cpp - partition-rank, dist-to-dense, remove-unuseful-comm -===//
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/known_reshards.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes;

namespace {

// x (5x8, Shard(0) on [0,1]) -> relu -> reshape to 5x2x4 (its shape from a
// full_int_array), read by: a relu on [2,3] and its shadow_output (another
// rank's ops), an unused fake reshard, an unused combine, and a shadow_output.
const char* kProgram = R"({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[5,8],stop_gradient:[true]} : () -> pd_dist.tensor<5x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:0},stop_gradient:[false]} : (pd_dist.tensor<5x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<5x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%2) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},chunk_id:0},place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[(Int64)5,(Int64)2,(Int64)4]} : () -> pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>
    (%3) = "pd_op.reshape" (%1, %2) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]},chunk_id:0},stop_gradient:[false]} : (pd_dist.tensor<5x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>, pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>) -> pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>
    (%4) = "pd_op.relu" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[2,3]},operand(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1,-1]},result(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1,-1]},chunk_id:1},stop_gradient:[false]} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>) -> pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1,-1]>
    () = "builtin.shadow_output" (%4) {op_dist_attr:{mesh:{shape:[2],process_ids:[2,3]},operand(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1,-1]},chunk_id:1},output_name:"y"} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1,-1,-1]>) -> 
    (%5) = "dist_op.reshard" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1,-1]},chunk_id:0}} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>) -> pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1,-1]>
    (%6) = "builtin.combine" (%3, %3) {} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>, pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>) -> vec[pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>,pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>]
    () = "builtin.shadow_output" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]},chunk_id:0},output_name:"z"} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>) -> 
}
)";

struct Run {
  Context ctx;
  std::string text;
  SourceFile src;
  DiagnosticEngine diag;
  ProgramSet set;
  PassManager pm;
  Status status;

  /// `pipeline` run on `program`, after `prepare` (given the pass manager
  /// and the parsed program) seeded results or added passes ahead of it.
  Run(std::string program, const std::string& pipeline,
      const std::function<void(PassManager&, const Program&)>& prepare = {})
      : text(std::move(program)), src("t.pir", text), diag(&src) {
    registerAllPasses();
    auto p = parser::parseProgram(ctx, src, diag);
    REQUIRE(p.isOk());
    REQUIRE(verifyProgram(**p, diag) == 0);
    set.programs.emplace_back("", std::move(p.value()));
    if (prepare) prepare(pm, *set.programs[0].program);
    std::vector<PassSpec> specs;
    REQUIRE(parsePassPipeline(pipeline, specs, diag));
    REQUIRE(pm.addPipeline(specs, diag));
    status = pm.run(set, diag);
  }
  /// With `rings` handed on as split-ranks hands it to remove-unuseful-comm.
  Run(std::string program, const std::string& pipeline, const RingTable* rings)
      : Run(std::move(program), pipeline, [rings](PassManager& pm, const Program&) { pm.results().set(*rings); }) {}

  size_t reshards() const {
    size_t n = 0;
    walk(set.programs[0].program->body(), [&](const Operation& op) { n += isReshard(op); });
    return n;
  }

  std::string printed() const { return printProgram(*set.programs[0].program); }
  std::vector<std::string> opNames() const {
    std::vector<std::string> out;
    for (const Operation& op : set.programs[0].program->body()) out.emplace_back(op.name());
    return out;
  }
  std::string errors() const { return diag.render(); }
};

/// The text of the line of `printed` holding `needle`, or empty.
std::string lineWith(const std::string& printed, const std::string& needle) {
  size_t at = printed.find(needle);
  if (at == std::string::npos) return "";
  size_t begin = printed.rfind('\n', at) + 1, end = printed.find('\n', at);
  return printed.substr(begin, end - begin);
}

/// `program` with `from` replaced by `to` (once).
std::string edited(std::string program, const std::string& from, const std::string& to) {
  size_t at = program.find(from);
  REQUIRE(at != std::string::npos);
  return program.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("partition-rank keeps the ops of rank 0 and drops fake reshards and unused combines") {
  Run r(kProgram, "partition-rank{rank=0}");
  REQUIRE(r.status.isOk());
  CHECK(r.opNames() == std::vector<std::string>{"pd_op.data", "pd_op.relu", "pd_op.full_int_array", "pd_op.reshape",
                                                "builtin.shadow_output"});
}

TEST_CASE("partition-rank takes the program's rank when none is given, and refuses a program without one") {
  Run none(kProgram, "partition-rank");
  CHECK(!none.status.isOk());
  CHECK(none.status.message().find("partition-rank needs a rank") != std::string::npos);
}

TEST_CASE("partition-rank refuses an op off its rank whose result an op on it reads") {
  Run r(kProgram, "partition-rank{rank=2}");
  REQUIRE(!r.status.isOk());
  CHECK(r.errors().find("t.pir:6:5: error: op 'pd_op.relu' stays on rank 2 but reads a result of 'pd_op.reshape'") !=
        std::string::npos);
}

TEST_CASE("partition-rank refuses a dist_op.reshard still in use") {
  std::string program = edited(
      kProgram,
      R"(() = "builtin.shadow_output" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]},chunk_id:0},output_name:"z"} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>))",
      R"(() = "builtin.shadow_output" (%5) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1,-1]},chunk_id:0},output_name:"z"} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1,-1]>))");
  Run r(program, "partition-rank{rank=1}");
  REQUIRE(!r.status.isOk());
  CHECK(r.errors().find("t.pir:8:5: error: dist_op.reshard is still in use on rank 1; run lower-reshard{rank=1} "
                        "first") != std::string::npos);
}

TEST_CASE("dist-to-dense gives the last rank its short piece of an uneven shard") {
  // 5 rows on 2 ranks: rank 0 holds 3 (ceil), rank 1 the other 2.
  for (int rank : {0, 1}) {
    std::string rows = rank == 0 ? "3" : "2";
    Run r(kProgram,
          "partition-rank{rank=" + std::to_string(rank) + "},dist-to-dense{rank=" + std::to_string(rank) + "}");
    REQUIRE(r.status.isOk());
    std::string out = r.printed();
    CHECK(lineWith(out, "pd_op.data") ==
          "    (%0) = \"pd_op.data\" () "
          "{chunk_id:(Int64)0,dtype:(pd_op.DataType)float32,name:\"x\",place:(pd_op.Place)Place("
          "undefined:0),shape:(pd_op.IntArray)[" +
              rows + ",8],stop_gradient:[true]} : () -> builtin.tensor<" + rows + "x8xf32>");
    CHECK(lineWith(out, "pd_op.full_int_array")
              .find("value:[(Int64)" + rows +
                    ",(Int64)2,(Int64)4]} : () -> "
                    "builtin.tensor<3xi64>") != std::string::npos);
    CHECK(lineWith(out, "pd_op.reshape").find("-> builtin.tensor<" + rows + "x2x4xf32>") != std::string::npos);
    CHECK(out.find("pd_dist") == std::string::npos);
    CHECK(out.find("op_dist_attr") == std::string::npos);
  }
}

TEST_CASE("dist-to-dense keeps -1 dims and converts vec elements one by one") {
  std::string program = edited(kProgram, "shape:(pd_op.IntArray)[5,8]", "shape:(pd_op.IntArray)[-1,8]");
  for (int i = 0; i < 4; ++i) program = edited(program, "pd_dist.tensor<5x8xf32", "pd_dist.tensor<-1x8xf32");
  size_t reshard = program.find("    (%5) = \"dist_op.reshard\"");
  program.erase(reshard, program.find('\n', reshard) + 1 - reshard);  // no partition-rank: the combine stays
  Run r(program, "dist-to-dense{rank=1}");
  REQUIRE(r.status.isOk());
  CHECK(lineWith(r.printed(), "pd_op.data")
            .find("shape:(pd_op.IntArray)[-1,8],stop_gradient:[true]} : () -> "
                  "builtin.tensor<-1x8xf32>") != std::string::npos);
  CHECK(lineWith(r.printed(), "builtin.combine").find("-> vec[builtin.tensor<2x2x4xf32>,builtin.tensor<2x2x4xf32>]") !=
        std::string::npos);
}

TEST_CASE("dist-to-dense refuses a reshard that was never lowered") {
  Run r(kProgram, "dist-to-dense{rank=0}");
  REQUIRE(!r.status.isOk());
  CHECK(r.errors().find("t.pir:8:5: error: dist_op.reshard on rank 0 has no dense form") != std::string::npos);
}

TEST_CASE("dist-to-dense copies a full_int_array another op reads before making it local") {
  std::string program = edited(
      kProgram,
      R"(() = "builtin.shadow_output" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]},chunk_id:0},output_name:"z"} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>))",
      R"(() = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},chunk_id:0},output_name:"z"} : (pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>))");
  Run r(program, "partition-rank{rank=1},dist-to-dense{rank=1}");
  REQUIRE(r.status.isOk());
  std::string out = r.printed();
  CHECK(r.opNames() == std::vector<std::string>{"pd_op.data", "pd_op.relu", "pd_op.full_int_array",
                                                "pd_op.full_int_array", "pd_op.reshape", "builtin.shadow_output"});
  CHECK(out.find("(%2) = \"pd_op.full_int_array\" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,place:(pd_op.Place)"
                 "Place(cpu),stop_gradient:[true],value:[(Int64)5,(Int64)2,(Int64)4]}") != std::string::npos);
  CHECK(out.find("(%3) = \"pd_op.full_int_array\" () {chunk_id:(Int64)0,dtype:(pd_op.DataType)int64,place:(pd_op.Place)"
                 "Place(cpu),stop_gradient:[true],value:[(Int64)2,(Int64)2,(Int64)4]}") != std::string::npos);
  CHECK(out.find("\"pd_op.reshape\" (%1, %3)") != std::string::npos);
  CHECK(out.find("\"builtin.shadow_output\" (%2)") != std::string::npos);
}

TEST_CASE("dist-to-dense localizes full_int_arrays of one list once per local type, and copies a shared one") {
  // Three full_int_arrays of one list [5,2,4] give the shapes of a sharded reshape, another sharded one (its
  // full_int_array also read by a shadow_output, so copied) and a replicated one: on rank 1 the first two read
  // [2,2,4], the third [5,2,4], and the shared full_int_array keeps [5,2,4].
  const std::string mesh = "mesh_shape:[2],process_ids:[0,1]";
  const std::string od = "op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},";
  auto dist = [&](const std::string& dims, const std::string& map) {
    return "pd_dist.tensor<" + dims + ", " + mesh + ",dims_mappings:[" + map + "]>";
  };
  auto data = [&](int id, const std::string& name, const std::string& map) {
    return "    (%" + std::to_string(id) + R"() = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:")" + name +
           "\"," + od + "result(0):{" + mesh + ",dims_mappings:[" + map +
           "]},chunk_id:0},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[5,8],stop_gradient:[true]} : "
           "() -> " +
           dist("5x8xf32", map) + "\n";
  };
  auto full = [&](int id) {
    return "    (%" + std::to_string(id) + R"() = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,)" + od +
           "result(0):{" + mesh +
           ",dims_mappings:[-1]},chunk_id:0},place:(pd_op.Place)Place(cpu),stop_gradient:[true],value:[(Int64)5,"
           "(Int64)2,(Int64)4]} : () -> " +
           dist("3xi64", "-1") + "\n";
  };
  auto reshape = [&](int id, int x, int shape, const std::string& in, const std::string& out) {
    return "    (%" + std::to_string(id) + R"() = "pd_op.reshape" (%)" + std::to_string(x) + ", %" +
           std::to_string(shape) + ") {" + od + "operand(0):{" + mesh + ",dims_mappings:[" + in + "]},operand(1):{" +
           mesh + ",dims_mappings:[-1]},result(0):{" + mesh + ",dims_mappings:[" + out +
           "]},chunk_id:0},stop_gradient:[false]} : (" + dist("5x8xf32", in) + ", " + dist("3xi64", "-1") + ") -> " +
           dist("5x2x4xf32", out) + "\n";
  };
  auto output = [&](int id, const std::string& name, const std::string& type, const std::string& map) {
    return R"(    () = "builtin.shadow_output" (%)" + std::to_string(id) + ") {" + od + "operand(0):{" + mesh +
           ",dims_mappings:[" + map + "]},chunk_id:0},output_name:\"" + name + "\"} : (" + dist(type, map) + ") -> \n";
  };
  std::string program = "{\n" + data(0, "x", "0,-1") + data(1, "y", "-1,-1") + full(2) +
                        reshape(3, 0, 2, "0,-1", "0,-1,-1") + full(4) + reshape(5, 0, 4, "0,-1", "0,-1,-1") + full(6) +
                        reshape(7, 1, 6, "-1,-1", "-1,-1,-1") + output(3, "a", "5x2x4xf32", "0,-1,-1") +
                        output(5, "b", "5x2x4xf32", "0,-1,-1") + output(4, "c", "3xi64", "-1") +
                        output(7, "d", "5x2x4xf32", "-1,-1,-1") + "}\n";
  Run r(program, "partition-rank{rank=1},dist-to-dense{rank=1}");
  REQUIRE(r.status.isOk());
  std::string out = r.printed();
  auto valueOf = [&](int id) {
    std::string line = lineWith(out, "(%" + std::to_string(id) + ") = \"pd_op.full_int_array\"");
    size_t at = line.find("value:");
    return at == std::string::npos ? line : line.substr(at, line.find('}', at) - at);
  };
  CHECK(r.opNames() == std::vector<std::string>{"pd_op.data", "pd_op.data", "pd_op.full_int_array", "pd_op.reshape",
                                                "pd_op.full_int_array", "pd_op.full_int_array", "pd_op.reshape",
                                                "pd_op.full_int_array", "pd_op.reshape", "builtin.shadow_output",
                                                "builtin.shadow_output", "builtin.shadow_output",
                                                "builtin.shadow_output"});
  CHECK(valueOf(2) == "value:[(Int64)2,(Int64)2,(Int64)4]");
  CHECK(valueOf(4) == "value:[(Int64)5,(Int64)2,(Int64)4]");  // read by output "c" too: its copy is made local
  CHECK(valueOf(5) == "value:[(Int64)2,(Int64)2,(Int64)4]");
  CHECK(valueOf(7) == "value:[(Int64)5,(Int64)2,(Int64)4]");  // the replicated reshape's
  CHECK(out.find("\"pd_op.reshape\" (%0, %5)") != std::string::npos);
  CHECK(out.find("\"pd_op.reshape\" (%1, %7)") != std::string::npos);
  CHECK(lineWith(out, "output_name:\"c\"").find("(%4)") != std::string::npos);
}

TEST_CASE("dist-to-dense refuses a distributed reshape whose shape is computed") {
  std::string program = edited(kProgram, R"("pd_op.reshape" (%1, %2))", R"("pd_op.reshape" (%1, %0))");
  program = edited(
      program,
      R"(operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]})",
      R"(operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]})");
  program = edited(
      program,
      R"(pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>) -> pd_dist.tensor<5x2x4xf32)",
      R"(pd_dist.tensor<5x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<5x2x4xf32)");
  Run r(program, "partition-rank{rank=0},dist-to-dense{rank=0}");
  REQUIRE(!r.status.isOk());
  CHECK(r.errors().find("t.pir:5:5: error: the shape operand of a distributed pd_op.reshape must come from "
                        "pd_op.full_int_array") != std::string::npos);
}

namespace {

// A table of 5 rows sharded on its rows over [0,1] (rank 0: rows 0-2, rank 1: rows 3-4), looked up by replicated
// ids, its result partial; then its grad.
const char* kVocabParallel = R"({
    (%0) = "builtin.parameter" () {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:-1},parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> pd_dist.tensor<5x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "pd_op.data" () {dtype:int64,name:"ids",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},chunk_id:-1},place:Place(undefined:0),shape:[3],stop_gradient:[true]} : () -> pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>
    (%2) = "pd_op.embedding" (%1, %0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)},chunk_id:-1},padding_idx:-1,sparse:false,stop_gradient:[false]} : (pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>, pd_dist.tensor<5x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<3x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)>
    (%3) = "pd_op.embedding_grad" (%1, %0, %2) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},operand(1):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},operand(2):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:-1},padding_idx:-1,stop_gradient:[false]} : (pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>, pd_dist.tensor<5x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>, pd_dist.tensor<3x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1], partial(0,SUM)>) -> pd_dist.tensor<5x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    () = "builtin.shadow_output" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},chunk_id:-1},output_name:"g"} : (pd_dist.tensor<5x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> 
}
)";

}  // namespace

TEST_CASE("dist-to-dense makes an embedding on a vocab shard the rank's c_embedding, from its first row") {
  for (int rank : {0, 1}) {
    Run r(kVocabParallel, "dist-to-dense{rank=" + std::to_string(rank) + "}");
    REQUIRE(r.status.isOk());
    CHECK(r.opNames() == std::vector<std::string>{"builtin.parameter", "pd_op.data", "pd_op.c_embedding",
                                                  "pd_op.c_embedding_grad", "builtin.shadow_output"});
    std::string out = r.printed(), start = rank == 0 ? "0" : "3", rows = rank == 0 ? "3" : "2";
    INFO(out);
    // weight first, then the ids; the table's rows, the rank's first; padding_idx and sparse gone
    std::string w = "builtin.tensor<" + rows + "x4xf32>";
    CHECK(lineWith(out, "\"pd_op.c_embedding\"") ==
          "    (%2) = \"pd_op.c_embedding\" (%0, %1) {chunk_id:-1,start_index:" + start +
              ",stop_gradient:[false],vocab_size:5} : (" + w + ", builtin.tensor<3xi64>) -> builtin.tensor<3x4xf32>");
    CHECK(lineWith(out, "\"pd_op.c_embedding_grad\"") ==
          "    (%3) = \"pd_op.c_embedding_grad\" (%0, %1, %2) {chunk_id:-1,start_index:" + start +
              ",stop_gradient:[false]} : (" + w + ", builtin.tensor<3xi64>, builtin.tensor<3x4xf32>) -> " + w);
  }
}

TEST_CASE("dist-to-dense leaves an embedding on a whole table, and refuses a sharded one with a padding_idx") {
  std::string whole = kVocabParallel;
  for (size_t at; (at = whole.find("dims_mappings:[0,-1]")) != std::string::npos;)
    whole.replace(at, 20, "dims_mappings:[-1,-1]");
  Run r(whole, "dist-to-dense{rank=1}");
  REQUIRE(r.status.isOk());
  CHECK(r.opNames()[2] == "pd_op.embedding");
  Run padded(edited(kVocabParallel, "padding_idx:-1,sparse", "padding_idx:2,sparse"), "dist-to-dense{rank=0}");
  REQUIRE(!padded.status.isOk());
  CHECK(padded.errors().find("t.pir:4:5: error: an embedding on a vocab-sharded weight with padding_idx 2 has no "
                             "per-rank form") != std::string::npos);
}

namespace {

const char* kDenseComm = R"({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[true]} : () -> builtin.tensor<4x8xf32>
    (%1) = "pd_op.all_reduce" (%0) {reduce_type:(Int32)0,ring_id:(Int32)12} : (builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>
    (%2) = "pd_op.all_gather" (%1) {nranks:(Int32)2,ring_id:(Int32)13} : (builtin.tensor<4x8xf32>) -> builtin.tensor<8x8xf32>
    (%3) = "pd_op.all_gather" (%2) {nranks:(Int32)1,ring_id:(Int32)12} : (builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
    (%4) = "pd_op.share_data_" (%3) {} : (builtin.tensor<8x8xf32>) -> builtin.tensor<8x8xf32>
    () = "builtin.shadow_output" (%4) {output_name:"y"} : (builtin.tensor<8x8xf32>) -> 
}
)";

}  // namespace

TEST_CASE("remove-unuseful-comm drops the collectives of one-rank rings") {
  RingTable rings;
  REQUIRE(rings.add(12, {1}).isOk());
  REQUIRE(rings.add(13, {0, 1}).isOk());
  Run r(kDenseComm, "remove-unuseful-comm", &rings);
  REQUIRE(r.status.isOk());
  CHECK(r.opNames() == std::vector<std::string>{"pd_op.data", "pd_op.all_gather", "builtin.shadow_output"});
  CHECK(r.printed().find("\"pd_op.all_gather\" (%0)") != std::string::npos);
  CHECK(r.printed().find("\"builtin.shadow_output\" (%1)") != std::string::npos);
}

TEST_CASE("remove-unuseful-comm refuses rings it does not know, and running without a table") {
  RingTable rings;
  REQUIRE(rings.add(13, {0, 1}).isOk());
  Run partial(kDenseComm, "remove-unuseful-comm", &rings);
  REQUIRE(!partial.status.isOk());
  CHECK(partial.errors().find("t.pir:3:5: error: op 'pd_op.all_reduce' is on ring 12, which the ring table lacks") !=
        std::string::npos);
  Run none(kDenseComm, "remove-unuseful-comm");
  REQUIRE(!none.status.isOk());
  CHECK(none.errors().find("t.pir:3:5: error: remove-unuseful-comm needs the ring table") != std::string::npos);
}

TEST_CASE("the ring table refuses an id given to two rank lists") {
  RingTable rings;
  REQUIRE(rings.add(12, {0, 1}).isOk());
  CHECK(rings.add(12, {0, 1}).isOk());
  Status clash = rings.add(12, {1, 0});
  REQUIRE(!clash.isOk());
  CHECK(clash.message() == "ring 12 is given as [1, 0] and as [0, 1]");
  CHECK(!rings.add(14, {}).isOk());
  CHECK(!rings.add(14, {2, 2}).isOk());
  REQUIRE(rings.add(3, {2}).isOk());
  CHECK(rings.rings().front().ringId == 3);
}

TEST_CASE("a pass manager streams the last splitting pass's pieces to its sink, verified and named") {
  registerAllPasses();
  Context ctx;
  std::string text = R"({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[3],process_ids:[4,0,2]},result(0):{mesh_shape:[3],process_ids:[4,0,2],dims_mappings:[0]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[7],stop_gradient:[true]} : () -> pd_dist.tensor<7xf32, mesh_shape:[3],process_ids:[4,0,2],dims_mappings:[0]>
}
)";
  SourceFile src("t.pir", text);
  DiagnosticEngine diag(&src);
  auto p = parser::parseProgram(ctx, src, diag);
  REQUIRE(p.isOk());
  ProgramSet set;
  set.programs.emplace_back("net", std::move(*p));
  std::vector<PassSpec> specs;
  REQUIRE(parsePassPipeline("split-ranks", specs, diag));
  PassManager pm;
  REQUIRE(pm.addPipeline(specs, diag));
  std::mutex mutex;
  std::map<size_t, std::string> seen;  // index -> "name rank: data's type"
  pm.setFinalSink([&](size_t index, NamedProgram piece) {
    std::string line =
        piece.name + " " + std::to_string(piece.rank) + ": " + lineWith(printProgram(*piece.program), "->");
    std::lock_guard<std::mutex> lock(mutex);
    seen[index] = line;
    return Status::ok();
  });
  REQUIRE(pm.run(set, diag).isOk());
  CHECK(set.programs.empty());
  // Ranks ascending; 7 on 3 gives 3,3,1 by mesh position: rank 4 first, 0, then 2.
  auto end = [](const std::string& s) { return s.substr(s.rfind("->")); };
  REQUIRE(seen.size() == 3);
  CHECK(seen[0].rfind("net.rank0 0: ", 0) == 0);
  CHECK(end(seen[0]) == "-> builtin.tensor<3xf32>");
  CHECK(seen[1].rfind("net.rank2 2: ", 0) == 0);
  CHECK(end(seen[1]) == "-> builtin.tensor<1xf32>");
  CHECK(seen[2].rfind("net.rank4 4: ", 0) == 0);
  CHECK(end(seen[2]) == "-> builtin.tensor<3xf32>");
}

TEST_CASE("lower-reshard lowers the reshards its maker lists for the program, and walks for them otherwise") {
  auto lowerWith = [](bool listForThisProgram) {
    // An empty list: the program's one reshard is left if the list is read.
    Run r(kProgram, "lower-reshard{rank=0}", [&](PassManager& pm, const Program& program) {
      auto known = std::make_shared<KnownReshards>();
      known->program = listForThisProgram ? &program : nullptr;
      pm.results().share<KnownReshards>(known);
    });
    REQUIRE(r.status.isOk());
    return r.reshards();
  };
  CHECK(lowerWith(true) == 1);   // the (empty) list was lowered
  CHECK(lowerWith(false) == 0);  // a list for another program is not trusted: the walk finds the reshard
}

namespace {

/// `kProgram` without the lines holding any of `drop`.
std::string without(std::initializer_list<const char*> drop) {
  std::string out, line;
  for (size_t at = 0, end; at < std::string(kProgram).size(); at = end + 1) {
    end = std::string(kProgram).find('\n', at);
    line = std::string(kProgram).substr(at, end - at);
    bool keep = true;
    for (const char* d : drop) keep = keep && line.find(d) == std::string::npos;
    if (keep) out += line + "\n";
  }
  return out;
}
const char* kOtherRanksOps = "process_ids:[2,3]},";
const char* kFakeReshard = "(%5) = \"dist_op.reshard\"";
const char* kUnusedCombine = "(%6) = \"builtin.combine\"";

/// Tells the next pass that lower-reshard left `count` reshards in the
/// program it runs on (or, with `thisProgram` false, in another one).
class TellReshardsLeft : public ProgramPass {
 public:
  TellReshardsLeft(size_t count, bool thisProgram) : count_(count), thisProgram_(thisProgram) {}
  std::string_view name() const override { return "tell-reshards-left"; }
  std::string_view description() const override { return "leave ReshardsLeft for the next pass"; }
  Status runOnProgram(NamedProgram& p, DiagnosticEngine&) override {
    publishForNextPass(ReshardsLeft{thisProgram_ ? p.program.get() : nullptr, count_});
    return Status::ok();
  }

 private:
  size_t count_;
  bool thisProgram_;
};

/// Does nothing: a pass between the teller and partition-rank.
class Idle : public ProgramPass {
 public:
  std::string_view name() const override { return "idle"; }
  std::string_view description() const override { return "do nothing"; }
  Status runOnProgram(NamedProgram&, DiagnosticEngine&) override { return Status::ok(); }
};

/// The op names `program` keeps through `first`, then partition-rank{rank=0}.
std::vector<std::string> partitionedAfter(const std::string& program, std::vector<std::unique_ptr<Pass>> first) {
  Run r(program, "partition-rank{rank=0}", [&](PassManager& pm, const Program&) {
    for (auto& pass : first) pm.addPass(std::move(pass));
  });
  REQUIRE(r.status.isOk());
  return r.opNames();
}

template <class... Passes>
std::vector<std::unique_ptr<Pass>> ahead(Passes... p) {
  std::vector<std::unique_ptr<Pass>> out;
  (out.push_back(std::unique_ptr<Pass>(p)), ...);
  return out;
}

}  // namespace

TEST_CASE("partition-rank skips its walk only when lower-reshard, just before, left no reshard") {
  // One mesh, [0,1], and a fake reshard: the walk erases it.
  std::string program = without({kOtherRanksOps, kUnusedCombine});
  const std::vector<std::string> walked{"pd_op.data", "pd_op.relu", "pd_op.full_int_array", "pd_op.reshape",
                                        "builtin.shadow_output"};
  std::vector<std::string> kept = walked;
  kept.insert(kept.begin() + 4, "dist_op.reshard");
  CHECK(partitionedAfter(program, {}) == walked);
  CHECK(partitionedAfter(program, ahead(new TellReshardsLeft(1, true))) == walked);
  CHECK(partitionedAfter(program, ahead(new TellReshardsLeft(0, false))) == walked);  // told of another program
  CHECK(partitionedAfter(program, ahead(new TellReshardsLeft(0, true), new Idle)) == walked);  // told too early
  // Told there is none, it trusts lower-reshard: the one reshard is not looked for.
  CHECK(partitionedAfter(program, ahead(new TellReshardsLeft(0, true))) == kept);
}

TEST_CASE("partition-rank walks when its Context names an op packing a vec, or holds a mesh without the rank") {
  const std::vector<std::string> walked{"pd_op.data", "pd_op.relu", "pd_op.full_int_array", "pd_op.reshape",
                                        "builtin.shadow_output"};
  // An unused combine (every mesh holds rank 0).
  CHECK(partitionedAfter(without({kOtherRanksOps, kFakeReshard}), ahead(new TellReshardsLeft(0, true))) == walked);
  // Ops on [2,3], no combine.
  CHECK(partitionedAfter(without({kFakeReshard, kUnusedCombine}), ahead(new TellReshardsLeft(0, true))) == walked);
  // Neither: nothing to erase, and nothing erased.
  CHECK(partitionedAfter(without({kOtherRanksOps, kFakeReshard, kUnusedCombine}),
                         ahead(new TellReshardsLeft(0, true))) == walked);
}

TEST_CASE("lower-reshard tells the next pass how many reshards it left") {
  // %5 made a replicate -> shard reshard: a rank off its mesh gets a fake one.
  std::string program = edited(
      kProgram,
      R"((%5) = "dist_op.reshard" (%3) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1,-1]},chunk_id:0}} : (pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1,-1]>) -> pd_dist.tensor<5x2x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1,-1]>)",
      R"((%5) = "dist_op.reshard" (%2) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0]},chunk_id:0}} : (pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>) -> pd_dist.tensor<3xi64, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0]>)");
  auto lower = [&program](int rank) {
    Run r(program, "lower-reshard{rank=" + std::to_string(rank) + "}");
    REQUIRE(r.status.isOk());
    const ReshardsLeft* told = r.pm.results().get<ReshardsLeft>();
    REQUIRE(told);
    CHECK(told->program == r.set.programs[0].program.get());
    CHECK(told->count == r.reshards());
    return r.reshards();
  };
  CHECK(lower(0) == 0);  // rank 0 slices its piece
  CHECK(lower(2) == 1);  // rank 2, off the mesh [0,1], gets a fake reshard
  // A second reshard alike is lowered from the first one's record (EmissionMemo): its fake reshard counts too.
  std::string fake = lineWith(program, "(%5) = \"dist_op.reshard\"");
  program = edited(program, fake, fake + "\n" + edited(fake, "(%5)", "(%50)"));
  CHECK(lower(2) == 2);
}

TEST_CASE("lower-reshard given planned rings fails on a ring they lack") {
  // kProgram's S(0) -> R reshard gathers on the ring [0,1]; none is planned.
  Run r(kProgram, "lower-reshard{rank=0}",
        [](PassManager& pm, const Program&) { pm.results().set(ProcessGroupTable()); });
  REQUIRE(!r.status);
  CHECK(r.status.isInternal());
  CHECK(r.status.message().find("lower-reshard{rank=0} needed a ring of ranks [0, 1], which the rings planned over "
                                "the distributed program lack") != std::string::npos);
}

TEST_CASE("remove-unuseful-comm walks when a ring holds one rank or an op is named pd_op.share_data_") {
  // No share_data_: only the one-rank ring makes the walk worth it.
  std::string noShare = edited(edited(kDenseComm,
                                      "    (%4) = \"pd_op.share_data_\" (%3) {} : (builtin.tensor<8x8xf32>) -> "
                                      "builtin.tensor<8x8xf32>\n",
                                      ""),
                               "\"builtin.shadow_output\" (%4)", "\"builtin.shadow_output\" (%3)");
  RingTable oneRank;
  REQUIRE(oneRank.add(12, {1}).isOk());
  REQUIRE(oneRank.add(13, {0, 1}).isOk());
  Run r(noShare, "remove-unuseful-comm", &oneRank);
  REQUIRE(r.status.isOk());
  CHECK(r.opNames() == std::vector<std::string>{"pd_op.data", "pd_op.all_gather", "builtin.shadow_output"});
  // No one-rank ring: only the share_data_ does.
  RingTable twoRanks;
  REQUIRE(twoRanks.add(12, {0, 1}).isOk());
  REQUIRE(twoRanks.add(13, {0, 1}).isOk());
  Run s(kDenseComm, "remove-unuseful-comm", &twoRanks);
  REQUIRE(s.status.isOk());
  CHECK(s.opNames() == std::vector<std::string>{"pd_op.data", "pd_op.all_reduce", "pd_op.all_gather",
                                                "pd_op.all_gather", "builtin.shadow_output"});
  // Neither, and a table split-ranks says covers the program: the walk is
  // skipped, and the program is as it was.
  auto coveringTable = [](const RingTable& rings) {
    return [&rings](PassManager& pm, const Program&) {
      pm.results().set(rings);
      pm.results().set(RingTableCoversProgram{});
    };
  };
  Run t(noShare, "remove-unuseful-comm", coveringTable(twoRanks));
  REQUIRE(t.status.isOk());
  CHECK(t.printed() == noShare);
  // A table seeded without that word is not trusted to hold every ring.
  RingTable lacking;
  REQUIRE(lacking.add(13, {0, 1}).isOk());
  Run seeded(noShare, "remove-unuseful-comm", &lacking);
  REQUIRE(!seeded.status.isOk());
  CHECK(seeded.errors().find("t.pir:3:5: error: op 'pd_op.all_reduce' is on ring 12, which the ring table lacks") !=
        std::string::npos);
}
