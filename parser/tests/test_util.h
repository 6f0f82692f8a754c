//===- test_util.h - helpers shared by the parser tests ---------*- C++ -*-===//
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "core/printer.h"
#include "parser/parser.h"

namespace pir::parser::testing {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Parses `text` as one program; on failure returns the rendered diagnostics
/// prefixed with "ERROR:".
inline std::string roundTrip(const std::string& text, const std::string& name = "input.pir") {
  core::Context ctx;
  core::SourceFile src(name, text);
  core::DiagnosticEngine diag(&src);
  auto prog = parseProgram(ctx, src, diag);
  if (!prog) return "ERROR:" + diag.render();
  return core::printProgram(**prog);
}

/// The rendered diagnostics for `text` (empty when it parses).
inline std::string errorsOf(const std::string& text, const std::string& name = "input.pir") {
  core::Context ctx;
  core::SourceFile src(name, text);
  core::DiagnosticEngine diag(&src);
  auto r = parseFile(ctx, src, diag);
  return r ? std::string() : diag.render();
}

}  // namespace pir::parser::testing
