//===- cli_checks.h - checks both command lines share -----------*- C++ -*-===//
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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

/// A count: an integer of at least `least` (CLI11's PositiveNumber prints
/// its range up to DBL_MAX in 300 digits, and lets 0.5 through).
inline CLI::Validator atLeast(int64_t least) {
  return CLI::Validator(
      [least](std::string& s) {
        int64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc::result_out_of_range) return "'" + s + "' is too large";
        if (ec != std::errc() || end != s.data() + s.size()) return "'" + s + "' is not an integer";
        if (v < least) return "must be at least " + std::to_string(least) + ", not " + s;
        return std::string();
      },
      "INT>=" + std::to_string(least));
}

/// The most seconds a finite --timeout may be: beyond it a deadline would
/// not fit the steady clock's nanoseconds.
inline constexpr double kMaxTimeoutSeconds = 1e9;

/// Seconds to wait: a finite number in [0.001, kMaxTimeoutSeconds], or
/// `inf` for no limit.
inline CLI::Validator timeoutSeconds() {
  return CLI::Validator(
      [](std::string& s) {
        char* end = nullptr;
        double v = std::strtod(s.c_str(), &end);
        if (!s.empty() && *end == '\0' && std::isinf(v) && v > 0) return std::string();  // inf: no limit
        if (s.empty() || *end != '\0' || !std::isfinite(v))
          return "'" + s + "' is not a number of seconds (or inf, for no limit)";
        if (v < 0.001 || v > kMaxTimeoutSeconds)
          return "must be from 0.001 to 1e9 seconds, or inf for no limit, not " + s;
        return std::string();
      },
      "SECONDS|inf");
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
