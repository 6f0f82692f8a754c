//===- parse_file.h - a test input's programs, which must read -*- C++ -*-===//
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "parser/parser.h"
#include "passes/tests/test_files.h"

namespace pir::testing {

/// Every program of the file at `path`, parsed into `ctx`; the test fails
/// (with the diagnostics) when it cannot be read or does not parse.
inline std::vector<std::unique_ptr<core::Program>> parseAll(core::Context& ctx, const std::string& path) {
  std::string text = readFile(path);
  REQUIRE(!text.empty());
  core::SourceFile src(path, text);
  core::DiagnosticEngine diag(&src);
  auto r = parser::parseFile(ctx, src, diag);
  INFO(diag.render());
  REQUIRE(r.isOk());
  std::vector<std::unique_ptr<core::Program>> out;
  for (parser::ParsedProgram& p : r.value()) out.push_back(std::move(p.program));
  return out;
}

}  // namespace pir::testing
