//===- cli_checks.h - checks both command lines share -----------*- C++ -*-===//
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>

namespace pir::app {

/// A failure of the command line itself (an option, a file it names), as
/// both CLIs print it: `TOOL: error: MESSAGE`. A failure located in an
/// input is rendered by core::renderStatus / the DiagnosticEngine instead.
inline int cliError(const char* tool, const std::string& message, int code = 1) {
  std::fprintf(stderr, "%s: error: %s\n", tool, message.c_str());
  return code;
}

/// Refuses an empty path: it is a mistake (an unset shell variable), not
/// "no file".
inline CLI::Validator nonEmptyPath() {
  return CLI::Validator([](std::string& s) { return s.empty() ? std::string("an empty path") : std::string(); },
                        "PATH");
}

/// False, after saying so, when what went to stdout (help text, the pass
/// list) could not all be written (`--help > /dev/full`).
inline bool stdoutWritten(const char* tool) {
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
  cliError(tool, "cannot write to stdout");
  return false;
}

/// The exit code after CLI11 reported a parse error or printed --help or
/// --version.
inline int exitAfterParse(const char* tool, const CLI::App& app, const CLI::ParseError& e) {
  if (app.exit(e) != 0) return 1;
  return stdoutWritten(tool) ? 0 : 1;
}

}  // namespace pir::app
