//===- roundtrip_test.cpp - printing works from the IR, not the text -----===//
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "parser/tests/test_util.h"

using namespace pir;
using namespace pir::core;
using parser::testing::errorsOf;
using parser::testing::readFile;
using parser::testing::roundTrip;

TEST_CASE("seeds print identically after the input buffer is overwritten and freed", "[parser][printer]") {
  for (const char* name : {"reshard_before.pir", "reshard_after.pir"}) {
    std::string expected = readFile(std::string(PIR_SEEDS_DIR) + "/" + name);
    REQUIRE(!expected.empty());
    Context ctx;
    std::unique_ptr<Program> prog;
    {
      auto buffer = std::make_unique<char[]>(expected.size());
      std::memcpy(buffer.get(), expected.data(), expected.size());
      SourceFile src(name, std::string_view(buffer.get(), expected.size()));
      DiagnosticEngine diag(&src);
      auto r = parser::parseProgram(ctx, src, diag);
      INFO(diag.render());
      REQUIRE(r.isOk());
      prog = std::move(r.value());
      std::memset(buffer.get(), '#', expected.size());
    }  // the buffer is freed here
    REQUIRE(printProgram(*prog) == expected);
  }
}

TEST_CASE("CRLF becomes LF and a final newline is added", "[parser][printer]") {
  std::string lf = readFile(std::string(PIR_SEEDS_DIR) + "/reshard_before.pir");
  std::string crlf;
  for (char c : lf) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  REQUIRE(roundTrip(crlf) == lf);
  REQUIRE(roundTrip(lf.substr(0, lf.size() - 1)) == lf);
}

TEST_CASE("hand-edited numbering is closed up and renumbered in print order", "[parser][printer]") {
  std::string in = R"({
    (%7_123) = "pd_op.full" () {} : () -> tensor<1xf32>
    (%3) = "pd_op.relu" (%7_123) {} : (tensor<1xf32>) -> tensor<1xf32>
}
)";
  REQUIRE(roundTrip(in) == R"({
    (%0) = "pd_op.full" () {} : () -> tensor<1xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<1xf32>) -> tensor<1xf32>
}
)");
}

TEST_CASE("a number is its canonical digits: leading zeros, letters and long numbers make other names",
          "[parser][printer]") {
  // Each name is defined once and read by the op after it: a name read as
  // another's number would be a redefinition, or link the wrong value.
  // Read with one thread and on threads (names at chunks' starts too).
  const std::vector<std::string> names = {"%0",
                                          "%00",
                                          "%01",
                                          "%1",
                                          "%10",
                                          "%010",
                                          "%7",
                                          "%07",
                                          "%7a",
                                          "%a7",
                                          "%12345678",
                                          "%012345678",
                                          "%123456789",
                                          "%1234567890",
                                          "%99999999",
                                          "%9_9",
                                          "%18446744073709551617"};
  std::string in = "{\n";
  std::string out = "{\n";
  for (size_t i = 0; i < names.size(); ++i) {
    in += "    (" + names[i] + ") = \"a\" () {} : () -> f32\n";
    in += "    () = \"b\" (" + names[i] + ") {} : (f32) -> \n";
    out += "    (%" + std::to_string(i) + ") = \"a\" () {} : () -> f32\n";
    out += "    () = \"b\" (%" + std::to_string(i) + ") {} : (f32) -> \n";
  }
  in += "}\n";
  out += "}\n";
  REQUIRE(roundTrip(in) == out);
  for (unsigned threads : {2u, 3u}) {
    core::Context ctx;
    core::SourceFile src("input.pir", in);
    core::DiagnosticEngine diag(&src);
    parser::ParseOptions o;
    o.threads = threads;
    o.chunkBytes = 1;
    auto parsed = parser::parseFile(ctx, src, diag, o);
    REQUIRE(parsed);
    CHECK(core::printProgram(*(*parsed)[0].program) == out);
  }
  // The same number spelled the same way is one name.
  CHECK(errorsOf("{\n    (%12345678) = \"a\" () {} : () -> f32\n    (%12345678) = \"a\" () {} : () -> f32\n}\n")
            .find("redefinition of value '%12345678'") != std::string::npos);
}

TEST_CASE("numbers past the dense table's window stay one name each", "[parser][printer]") {
  // One op with 5000 results: printed, they are %0..%4999, most of them
  // defined beyond the window of numbers the parser keeps densely, and used
  // later, when the window has grown past them.
  const int n = 5000;
  std::string results, types;
  for (int i = 0; i < n; ++i) {
    results += (i ? ", %" : "%") + std::to_string(i);
    types += i ? ", f32" : "f32";
  }
  std::string text = "{\n    (" + results + ") = \"a\" () {} : () -> " + types + "\n";
  for (int i = 0; i < 600; ++i) text += "    () = \"b\" () {} : () -> \n";
  text += "    () = \"c\" (%4999, %4100, %0) {} : (f32, f32, f32) -> \n}\n";
  REQUIRE(roundTrip(text) == text);

  // Defined past the window, a number is still found when defined again later.
  std::string twice = "{\n    (%5000) = \"a\" () {} : () -> f32\n";
  for (int i = 0; i < 600; ++i) twice += "    () = \"b\" () {} : () -> \n";
  twice += "    (%5000) = \"a\" () {} : () -> f32\n}\n";
  REQUIRE(errorsOf(twice).find("redefinition of value '%5000'") != std::string::npos);
}

TEST_CASE("a dictionary with many keys still reports a repeated one", "[parser][errors]") {
  std::string dict;
  for (int i = 0; i < 100; ++i) dict += "k" + std::to_string(i) + ":1,";
  std::string text = "{\n    () = \"a\" () {" + dict + "k7:2} : () -> \n}\n";
  std::string errors = errorsOf(text);
  REQUIRE(errors.find("duplicate attribute 'k7'") != std::string::npos);
  REQUIRE(errorsOf("{\n    () = \"a\" () {" + dict + "k100:2} : () -> \n}\n").empty());
}

TEST_CASE("semantic errors are all reported, in order", "[parser][errors]") {
  std::string in = R"({
    (%0) = "t.a" (%9) {} : (tensor<1xf32>) -> tensor<1xf32>
    (%0) = "t.b" () {} : () -> tensor<1xf32>
    (%1) = "t.c" (%0) {} : (tensor<2xf32>) -> tensor<1xf32>
    (%2) = "t.d" (%5) {} : (tensor<1xf32>) -> tensor<1xf32>
    (%5) = "t.e" () {} : () -> tensor<1xf32>
}
)";
  std::string errors = errorsOf(in, "x.pir");
  INFO(errors);
  size_t undefined = errors.find("x.pir:2:19: error: undefined value '%9'");
  size_t redefined = errors.find("x.pir:3:6: error: redefinition of value '%0'");
  size_t previous = errors.find("x.pir:2:6: note: previously defined here");
  size_t mismatch = errors.find("x.pir:4:19: error: type of operand 0 ('%0') does not match its definition");
  size_t early = errors.find("x.pir:5:19: error: value '%5' is used before its definition");
  REQUIRE(undefined != std::string::npos);
  REQUIRE(redefined != std::string::npos);
  REQUIRE(previous != std::string::npos);
  REQUIRE(mismatch != std::string::npos);
  REQUIRE(early != std::string::npos);
  REQUIRE(undefined < redefined);
  REQUIRE(redefined < previous);
  REQUIRE(previous < mismatch);
  REQUIRE(mismatch < early);
}

TEST_CASE("syntax errors stop at the first, with a caret", "[parser][errors]") {
  REQUIRE(
      errorsOf("{\n    (%0) = \"t.a\" () {} : () -> tensor<1xf32>\n    (%1) = \"t.b\" (%0 {} : () ->\n}\n", "y.pir") ==
      "y.pir:3:25: error: expected ',' or ')' in the operand list, found ':'\n"
      "    (%1) = \"t.b\" (%0 {} : () ->\n"
      "                        ^\n");
  REQUIRE(errorsOf("", "e.pir") == "e.pir:1:1: error: empty input: expected a program\n\n^\n");
}

TEST_CASE("nesting is limited, not a stack overflow", "[parser][errors]") {
  std::string deep = "{\n    (%0) = \"t.a\" () {a:" + std::string(10000, '[') + std::string(10000, ']') +
                     "} : () -> tensor<1xf32>\n}\n";
  std::string errors = errorsOf(deep);
  REQUIRE(errors.find("nesting deeper than 256 levels (kMaxNestingDepth)") != std::string::npos);
  std::string regions = "{\n";
  for (int i = 0; i < 10000; ++i) regions += "() = \"t.r\" () {} : () -> {\n";
  REQUIRE(errorsOf(regions).find("kMaxNestingDepth") != std::string::npos);
}

TEST_CASE("several programs with split markers", "[parser][split]") {
  Context ctx;
  std::string text = "// ----- job: forward\n{\n}\n// -----\n{\n}\n";
  SourceFile src("s.pir", text);
  DiagnosticEngine diag(&src);
  auto r = parser::parseFile(ctx, src, diag);
  REQUIRE(r.isOk());
  REQUIRE(r->size() == 2);
  REQUIRE(parser::jobNameOfMarker((*r)[0].marker) == "forward");
  REQUIRE(parser::jobNameOfMarker((*r)[1].marker).empty());
  DiagnosticEngine diag2(&src);
  REQUIRE_FALSE(parser::parseProgram(ctx, src, diag2).isOk());
  REQUIRE(diag2.render().find("multiple programs; use --split-input-file") != std::string::npos);
}
