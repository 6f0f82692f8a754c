//===- dist_locate_test.cpp - finding op_dist_attr parts in op text -------===//
#include <catch2/catch.hpp>
#include <string>

#include "core/diagnostics.h"
#include "core/dist_locate.h"

using namespace pir::core;

namespace {

// The column (0-based, in `text`) of what `ref` names, or -1.
int64_t at(std::string_view text, DistEntryRef ref) { return locateDistEntry(text, 0, ref); }

int64_t find(std::string_view text, std::string_view what, size_t from = 0) {
  return static_cast<int64_t>(text.find(what, from));
}

constexpr std::string_view kOp =
    R"((%1) = "pd_op.f" (%0, %2) {name:"op_dist_attr:{mesh",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},)"
    R"(operand(0):{dims_maping:[-1,0]},operand(1):{[dims_maping:[0],partial(0,SUM),dims_maping:[-1],partial(0,MAX)]},)"
    R"(result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1],partial(0,SUM),partial(1,MAX)}},x:1} : ())";

}  // namespace

TEST_CASE("locateDistEntry finds entry keys and the op mesh, past a string that looks like one", "[diag][locate]") {
  CHECK(at(kOp, {false, -1, -1, DistPart::Mesh}) == find(kOp, "mesh:{shape"));
  CHECK(at(kOp, {false, 0}) == find(kOp, "operand(0)"));
  CHECK(at(kOp, {false, 1}) == find(kOp, "operand(1)"));
  CHECK(at(kOp, {true, 0}) == find(kOp, "result(0)"));
  CHECK(at(kOp, {false, 2}) == -1);  // no such entry
  CHECK(at(kOp, {true, 1}) == -1);
}

TEST_CASE("locateDistEntry finds fields, numbers and partials of an entry", "[diag][locate]") {
  CHECK(at(kOp, {false, 0, -1, DistPart::DimsMapping}) == find(kOp, "dims_maping:[-1,0]"));
  CHECK(at(kOp, {false, 0, -1, DistPart::DimsMapping, 1}) == find(kOp, "0]},operand(1)"));
  CHECK(at(kOp, {false, 0, -1, DistPart::DimsMapping, 2}) == -1);
  CHECK(at(kOp, {true, 0, -1, DistPart::Mesh}) == find(kOp, "mesh_shape"));
  CHECK(at(kOp, {true, 0, -1, DistPart::Partial, 1}) == find(kOp, "partial(1,MAX)"));
  CHECK(at(kOp, {true, 0, -1, DistPart::Partial, 0}) == find(kOp, "partial(0,SUM)", find(kOp, "result(0)")));
}

TEST_CASE("locateDistEntry splits a list entry where the reader does", "[diag][locate]") {
  // A repeated dims_maping starts element 1.
  CHECK(at(kOp, {false, 1, 0}) == find(kOp, "dims_maping:[0]"));
  CHECK(at(kOp, {false, 1, 1}) == find(kOp, "dims_maping:[-1]"));
  CHECK(at(kOp, {false, 1, 1, DistPart::Partial}) == find(kOp, "partial(0,MAX)"));
  CHECK(at(kOp, {false, 1, 2}) == -1);
  CHECK(at(kOp, {false, 0, 0}) == -1);  // not a list
  constexpr std::string_view nulls = R"((%1) = "f" (%0) {op_dist_attr:{mesh:{shape:[1],process_ids:[0]},)"
                                     R"(operand(0):{[null,<#AttrNull>,dims_maping:[-1]]}}} : ())";
  CHECK(at(nulls, {false, 0, 1}) == find(nulls, "<#AttrNull>"));
  CHECK(at(nulls, {false, 0, 2}) == find(nulls, "dims_maping"));
}

TEST_CASE("locateDistEntry looks at the op's own line only", "[diag][locate]") {
  std::string text = "(%0) = \"a\" () {x:1} : ()\n(%1) = \"b\" () {op_dist_attr:{mesh:{shape:[1],process_ids:[0]}}}\n";
  CHECK(locateDistEntry(text, 0, {false, -1, -1, DistPart::Mesh}) == -1);
  CHECK(locateDistEntry(text, find(text, "(%1)"), {false, -1, -1, DistPart::Mesh}) == find(text, "mesh:"));
  CHECK(locateDistEntry(text, -1, {}) == -1);
  CHECK(locateDistEntry(text, static_cast<int64_t>(text.size()), {}) == -1);
  // Unbalanced and cut-off text ends the search, never reads past the line.
  CHECK(locateDistEntry("(%0) = \"a\" () {op_dist_attr:{mesh:{shape:[", 0, {false, 0}) == -1);
  CHECK(locateDistEntry("{op_dist_attr:{operand(0):{[dims_maping:[0", 0, {false, 0, 0, DistPart::DimsMapping, 3}) ==
        -1);
}

TEST_CASE("locateOperand finds the operands of an op's signature", "[diag][locate]") {
  CHECK(locateOperand(kOp, 0, 0) == find(kOp, "%0"));
  CHECK(locateOperand(kOp, 0, 1) == find(kOp, "%2"));
  CHECK(locateOperand(kOp, 0, 2) == -1);
  constexpr std::string_view noResults = R"(() = "cf.yield" (<<NULL VALUE>>, %4) {} : ())";
  CHECK(locateOperand(noResults, 0, 1) == find(noResults, "%4"));
  CHECK(locateOperand("(%0) \"x\"", 0, 0) == -1);  // no '='
}

TEST_CASE("a diagnostic's context starts the clipped line when the caret fits after it", "[diag][locate]") {
  std::string line(600, 'a');
  line.replace(200, 10, "operand(5)");
  line.replace(260, 1, "X");
  SourceFile src("f", line);
  Diagnostic d{Severity::Error, 260, "m", {}};
  std::string plain = renderDiagnostic(&src, d);
  CHECK(plain.find("\n" + std::string(160 / 3, ' ') + "^\n") != std::string::npos);  // a third of the way in
  d.context = 200;
  std::string shown = renderDiagnostic(&src, d);
  CHECK(shown.find("\noperand(5)") != std::string::npos);
  CHECK(shown.find("\n" + std::string(60, ' ') + "^\n") != std::string::npos);
  d.context = 10;  // too far before the caret: as without one
  CHECK(renderDiagnostic(&src, d) == plain);
}

TEST_CASE("a diagnostic and its notes render in their own sources when they name one", "[diag]") {
  SourceFile a("a.pir", "first\nsecond\n"), b("b.pir", "other\n");
  Diagnostic d{Severity::Error, 6, "here", {}};
  d.notes.push_back(Diagnostic{Severity::Note, 1, "there", {}});
  d.notes.back().source = &b;
  CHECK(renderDiagnostic(&a, d) == "a.pir:2:1: error: here\nsecond\n^\nb.pir:1:2: note: there\nother\n ^\n");
  d.source = &b;  // the diagnostic's own source wins over the one given, and is its notes' default
  d.offset = 0;
  d.notes.back().source = nullptr;
  CHECK(renderDiagnostic(&a, d) == "b.pir:1:1: error: here\nother\n^\nb.pir:1:2: note: there\nother\n ^\n");
}
