//===- print_era_test.cpp - converting a program's printer era ------------===//
#include <catch2/catch.hpp>

#include "core/print_era.h"
#include "parser/tests/test_util.h"

using namespace pir;
using namespace pir::core;

namespace {

/// `text` read, converted to `era` and printed; "ERROR:MESSAGE" when the
/// conversion (or the printable check) refuses.
std::string convert(const std::string& text, PrintEra era) {
  Context ctx;
  SourceFile src("t.pir", text);
  DiagnosticEngine diag(&src);
  auto prog = parser::parseProgram(ctx, src, diag);
  INFO(diag.render());
  REQUIRE(prog.isOk());
  if (Status s = prepareToPrint(**prog, era); !s) return "ERROR:" + s.message();
  return printProgram(**prog);
}

std::string seed(const std::string& name) { return parser::testing::readFile(std::string(PIR_SEEDS_DIR) + "/" + name); }

}  // namespace

TEST_CASE("print era names", "[era]") {
  CHECK(parsePrintEra("input") == PrintEra::Input);
  CHECK(parsePrintEra("2024") == PrintEra::Y2024);
  CHECK(parsePrintEra("newest") == PrintEra::Newest);
  CHECK_FALSE(parsePrintEra("2023").has_value());
  CHECK_FALSE(parsePrintEra("").has_value());
}

TEST_CASE("the seeds go to the newest era and back unchanged", "[era]") {
  for (const char* name : {"reshard_before.pir", "reshard_after.pir"}) {
    INFO(name);
    std::string text = seed(name);
    std::string newest = convert(text, PrintEra::Newest);
    CHECK(newest.find("(pd_op.") == std::string::npos);
    CHECK(newest.find("(Float)") == std::string::npos);
    CHECK(newest.find("dims_maping") == std::string::npos);
    CHECK(newest.find("chunk_id:-1}") != std::string::npos);
    CHECK(convert(newest, PrintEra::Newest) == newest);
    CHECK(convert(newest, PrintEra::Y2024) == text);
    CHECK(convert(text, PrintEra::Input) == text);
  }
}

TEST_CASE("each spelling of the two eras", "[era]") {
  const std::string tagged =
      "{\n"
      "    (%0) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),"
      "shape:(pd_op.IntArray)[2],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<2xf32>\n"
      "    (%1) = \"pd_op.transpose\" (%0) {perm:[(Int32)0],stop_gradient:[true]} : (builtin.tensor<2xf32>) -> "
      "builtin.tensor<2xf32>\n"
      "    (%2) = \"pd_op.softmax\" (%1) {axis:(Int32)-1,stop_gradient:[true]} : (builtin.tensor<2xf32>) -> "
      "builtin.tensor<2xf32>\n"
      "}\n";
  const std::string bare =
      "{\n"
      "    (%0) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[2],stop_gradient:[true],value:1} : () -> "
      "tensor<2xf32>\n"
      "    (%1) = \"pd_op.transpose\" (%0) {perm:[0],stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    (%2) = \"pd_op.softmax\" (%1) {axis:-1,stop_gradient:[true]} : (tensor<2xf32>) -> tensor<2xf32>\n"
      "}\n";
  CHECK(convert(tagged, PrintEra::Newest) == bare);
  CHECK(convert(bare, PrintEra::Y2024) == tagged);
}

TEST_CASE("what the 2024 era cannot spell is a located error", "[era]") {
  const std::string chunk =
      "{\n"
      "    (%0) = \"pd_op.full\" () {dtype:float32,op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},"
      "result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},chunk_id:1},place:Place(cpu),shape:[2],"
      "stop_gradient:[true],value:1} : () -> pd_dist.tensor<2xf32, mesh_shape:[2],process_ids:[0,1],"
      "dims_mappings:[-1]>\n"
      "}\n";
  CHECK_THAT(convert(chunk, PrintEra::Y2024), Catch::Contains("ERROR:op 'pd_op.full' has chunk_id 1"));
  // The same op on mesh ids [2,3]: the op attr spells them, the type could not.
  std::string moved = chunk;
  for (size_t at; (at = moved.find("[0,1]")) != std::string::npos;) moved.replace(at, 5, "[2,3]");
  moved.replace(moved.find("chunk_id:1"), 10, "chunk_id:-1");
  CHECK(convert(moved, PrintEra::Y2024).find("ERROR:") == std::string::npos);
  // A result type on a mesh other than its op's would read back on the op's.
  std::string other = chunk;
  other.replace(other.find("chunk_id:1"), 10, "chunk_id:-1");
  other.replace(other.rfind("process_ids:[0,1]"), 17, "process_ids:[4,5]");
  CHECK_THAT(convert(other, PrintEra::Y2024), Catch::Contains("result 0 has a dist type on another mesh"));
  const std::string unknown =
      "{\n"
      "    (%0) = \"my.op\" () {k:7} : () -> tensor<2xf32>\n"
      "}\n";
  CHECK_THAT(convert(unknown, PrintEra::Y2024), Catch::Contains("ERROR:op 'my.op': attribute 'k' is `7`"));
  // The newest era spells all of these.
  CHECK(convert(unknown, PrintEra::Newest) == unknown);
}
