//===- strict_types_test.cpp - misspelled types, refused meshes, stale operand types ===//
#include <catch2/catch.hpp>

#include "parser/tests/test_util.h"

using namespace pir;
using pir::parser::testing::errorsOf;
using pir::parser::testing::roundTrip;

namespace {
size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("a misspelled type is reported where it is written, each time", "[parser][strict]") {
  const std::string def = "{\n    (%0) = \"a\" () {} : () -> builtin.tenosr<4xf32>\n";
  const std::string use = "    (%1) = \"b\" (%0) {} : (builtin.tensor<4xf32>) -> builtin.tenosr<4xf32>\n}\n";
  std::string errors = errorsOf(def + use);
  REQUIRE(count(errors, "error:") == 2);  // the type cache does not hide the second
  REQUIRE(errors.find("input.pir:2:30: error: unknown type 'builtin.tenosr'; did you mean 'builtin.tensor'?") == 0);
  REQUIRE(errors.find("input.pir:3:53: error: unknown type 'builtin.tenosr'") != std::string::npos);
  REQUIRE(errors.find("does not match") == std::string::npos);  // read as the type meant
}

TEST_CASE("registered types we do not model and far names print back", "[parser][strict]") {
  for (std::string type : {"pd_op.selectedrows<10x4xf32>", "pd_op.sparsecootensor<4x4xf32>", "pd_op.tensor_array<f32>",
                           "cf.stack<>", "my_dialect.tnesor_thing<3>"}) {
    std::string text = "{\n    (%0) = \"a\" () {} : () -> " + type + "\n}\n";
    REQUIRE(roundTrip(text) == text);
  }
}

TEST_CASE("a refused mesh or placement in an op_dist_attr is reported each time", "[parser][strict]") {
  const std::string op = "    () = \"a\" () {op_dist_attr:{mesh:{shape:[2],process_ids:[1,1]},chunk_id:0}} : () -> \n";
  std::string errors = errorsOf("{\n" + op + op + "}\n");
  REQUIRE(count(errors, "process id 1 appears twice in the mesh") == 2);
  REQUIRE(errors.find("input.pir:2:63: error:") == 0);  // at the repeated id
}

TEST_CASE("stale operand types are warnings when asked", "[parser][strict]") {
  const std::string text =
      "{\n    (%0) = \"a\" () {} : () -> builtin.tensor<4xf32>\n"
      "    (%1) = \"b\" (%0) {} : (builtin.tensor<8xf32>) -> builtin.tensor<4xf32>\n}\n";
  core::Context ctx;
  core::SourceFile src("input.pir", text);
  SECTION("by default an error") {
    core::DiagnosticEngine diag(&src);
    REQUIRE_FALSE(parser::parseFile(ctx, src, diag));
    REQUIRE(diag.hasErrors());
  }
  SECTION("a warning, and the value's type is printed") {
    core::DiagnosticEngine diag(&src);
    parser::ParseOptions options;
    options.staleOperandTypesWarn = true;
    auto r = parser::parseFile(ctx, src, diag, options);
    REQUIRE(r);
    REQUIRE(diag.size() == 1);
    REQUIRE(diag.diagnostics()[0].severity == core::Severity::Warning);
    REQUIRE(core::printProgram(*(*r)[0].program).find("(builtin.tensor<4xf32>) -> builtin.tensor<4xf32>") !=
            std::string::npos);
  }
}
