//===- fuzz_reading.cpp - one input read three ways, read alike ------------===//
//
// The input read on three threads in chunks of a line or so
// (parser_chunks.cpp), and read without the fast path (parser_fast.cpp),
// must give what one thread's ordinary reading gives: the same diagnostics,
// the same verdicts of the verifier, the same programs printed. Both are
// promised to be one reader's, always (parser.h's ParseOptions); anything
// else aborts, so libFuzzer keeps the input. (A target of its own: the
// threaded reader's code made fuzz_roundtrip's runs six times slower in
// libFuzzer's own bookkeeping, so this one gets a budget of its own.)
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/context.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"

using namespace pir;

namespace {

[[noreturn]] void die(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_reading: %s\n%s\n", what, detail.c_str());
  std::abort();
}

/// All that reading `text` with `options` gives, as text: the parser's
/// diagnostics, and for each program its place, the verifier's diagnostics
/// and, when it verifies and is printable, the program printed.
std::string readingOf(std::string_view text, const parser::ParseOptions& options) {
  core::Context ctx;
  core::SourceFile src("input.pir", text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseFile(ctx, src, diag, options);
  std::string out = diag.render();
  if (!parsed) return out + "(no programs)\n";
  for (parser::ParsedProgram& p : *parsed) {
    out += "--- " + p.marker + " at " + std::to_string(p.offset) + "\n";
    core::DiagnosticEngine vdiag(&src);
    bool verified = core::verifyProgram(*p.program, vdiag) == 0;
    out += vdiag.render();
    if (verified && core::checkPrintable(*p.program)) out += core::printProgram(*p.program);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string one = readingOf(text, {});
  parser::ParseOptions chunked;
  chunked.threads = 3;
  chunked.chunkBytes = 1;  // a cut at every `    (` line, up to 24 chunks
  if (std::string threaded = readingOf(text, chunked); threaded != one)
    die("three threads read otherwise than one", "--- one thread\n" + one + "--- three threads\n" + threaded);
  parser::ParseOptions general;
  general.fastPath = false;
  if (std::string slow = readingOf(text, general); slow != one)
    die("the general path reads otherwise than the fast path", "--- fast path\n" + one + "--- general path\n" + slow);
  return 0;
}
