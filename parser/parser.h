//===- parser.h - reading PIR text into programs -----------------*- C++ -*-===//
//
// Entry points of the reader. Every era of Paddle's printer is accepted (see
// research/paddle.md §1). Syntax errors stop at the first one; semantic
// errors (undefined, redefined or early-used values, type mismatches) are
// collected and all reported, sorted by position. Diagnostics go to `diag`;
// the returned Status only summarises.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/context.h"
#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"

namespace pir::parser {

/// How deep blocks, regions, arrays and types may nest before the reader
/// refuses the input (keeps hostile input from exhausting the stack).
inline constexpr int kMaxNestingDepth = 256;

/// One program of a file, with the `// -----` line that preceded it (empty
/// for a first program without one) and the offset where it starts.
struct ParsedProgram {
  std::string marker;
  int64_t offset = 0;
  std::unique_ptr<core::Program> program;
};

/// How forgiving the reader is.
struct ParseOptions {
  /// An operand type that differs from its value's is a warning, not an
  /// error (`--no-verify`): Paddle's own reader ignores operand types, and
  /// some of its fixtures have stale ones. The value's type is kept, so it is
  /// what gets printed.
  bool staleOperandTypesWarn = false;
  /// Ordinary op lines read from the tail memo (parser_fast.cpp); tests
  /// turn it off to compare with what the general path reads.
  bool fastPath = true;
  /// Threads to read a big program with (parser_chunks.cpp). The program
  /// read, its diagnostics and everything after are one thread's.
  unsigned threads = 1;
  /// The size chunks are cut at, at least (tests make it small).
  size_t chunkBytes = size_t{4} << 20;
  /// Called (from any reading thread) with byte ranges of the text the
  /// reader is done with, a few MB at a time: a caller may drop their pages
  /// (parser/input_file.h). Text read again later (a diagnostic's line, a
  /// cache's key) must still be there, as a mapped file's is.
  std::function<void(size_t begin, size_t end)> doneWith;
  /// Called on a reading thread before it reads a chunk of the text on
  /// threads, with the chunk's bytes: a caller may map them in at once.
  std::function<void(size_t begin, size_t end)> aboutToRead;
};

/// Parses every program in `source` (programs are separated by `// -----`
/// lines, optionally `// ----- job: NAME`).
core::Result<std::vector<ParsedProgram>> parseFile(core::Context& ctx, const core::SourceFile& source,
                                                   core::DiagnosticEngine& diag, const ParseOptions& options = {});

/// Parses exactly one program.
core::Result<std::unique_ptr<core::Program>> parseProgram(core::Context& ctx, const core::SourceFile& source,
                                                          core::DiagnosticEngine& diag);

/// Fragment entry points, for tests and tools.
core::Result<const core::Type*> parseType(core::Context& ctx, std::string_view text, core::DiagnosticEngine& diag);
core::Result<const core::Attribute*> parseAttribute(core::Context& ctx, std::string_view text,
                                                    core::DiagnosticEngine& diag);

/// How many times parseFile read a program on threads (not giving up and
/// reading it on one), in this process: tests check that they did.
size_t threadedReads();

/// The job name in a `// ----- job: NAME` line, or empty.
std::string_view jobNameOfMarker(std::string_view markerLine);

}  // namespace pir::parser
