//===- fuzz_roundtrip.cpp - parse, verify, print, parse again, print again ===//
//
// Whenever the input parses and verifies and checkPrintable accepts it, the
// printed text must parse again (into a fresh Context), verify, and print
// byte for byte the same. Anything else aborts, so libFuzzer keeps the input.
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
  std::fprintf(stderr, "fuzz_roundtrip: %s\n%s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  core::Context ctx;
  core::SourceFile src("input.pir", text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseFile(ctx, src, diag);
  if (!parsed) {
    (void)diag.render();  // rendering must not crash either
    return 0;
  }
  for (parser::ParsedProgram& p : *parsed) {
    core::DiagnosticEngine vdiag(&src);
    if (core::verifyProgram(*p.program, vdiag) != 0) {
      (void)vdiag.render();
      continue;
    }
    if (!core::checkPrintable(*p.program)) continue;
    std::string once = core::printProgram(*p.program);

    core::Context ctx2;
    core::SourceFile src2("printed.pir", once);
    core::DiagnosticEngine diag2(&src2);
    auto again = parser::parseProgram(ctx2, src2, diag2);
    if (!again) die("printed program does not parse again", once + "\n" + diag2.render());
    if (core::verifyProgram(**again, diag2) != 0)
      die("printed program does not verify again", once + "\n" + diag2.render());
    std::string twice = core::printProgram(**again);
    if (once != twice) die("printing is not a fixed point", "--- once\n" + once + "--- twice\n" + twice);
  }
  return 0;
}
