//===- cli_checks.h - checks both command lines share -----------*- C++ -*-===//
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>

namespace pir::app {

/// Refuses an empty path: it is a mistake (an unset shell variable), not
/// "no file".
inline CLI::Validator nonEmptyPath() {
  return CLI::Validator([](std::string& s) { return s.empty() ? std::string("an empty path") : std::string(); },
                        "PATH");
}

/// False, after saying so, when what went to stdout (help text, the pass
/// list) could not all be written (`--help > /dev/full`).
inline bool stdoutWritten() {
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
  std::fprintf(stderr, "pir-opt: error: cannot write to stdout\n");
  return false;
}

/// The exit code after CLI11 reported a parse error or printed --help or
/// --version.
inline int exitAfterParse(const CLI::App& app, const CLI::ParseError& e) {
  if (app.exit(e) != 0) return 1;
  return stdoutWritten() ? 0 : 1;
}

}  // namespace pir::app
