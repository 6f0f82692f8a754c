//===- fuzz_passes.cpp - every default-option pass keeps programs valid ---===//
//
// Parse; if the program verifies, run each registered pass with its default
// options (each on a freshly parsed copy, as a one-program set through the
// PassManager's path for its kind: in place, or split into pieces), then the
// program (or every program split off) must still verify -- with the
// dist-consistency check too when the pass asks for it and the input
// already passed it -- and must print text that reads back into a program
// that verifies and prints the same.
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

#include "core/context.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"

using namespace pir;

namespace {

[[noreturn]] void die(const std::string& pass, const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_passes: pass '%s': %s\n%s\n", pass.c_str(), what, detail.c_str());
  std::abort();
}

/// The registered passes (every option of a pass has a default).
const std::vector<const passes::PassRegistry::Entry*>& defaultPasses() {
  static const std::vector<const passes::PassRegistry::Entry*> list = [] {
    passes::registerAllPasses();
    std::vector<const passes::PassRegistry::Entry*> out;
    for (const auto& e : passes::PassRegistry::instance().entries()) out.push_back(&e);
    if (out.empty()) {
      std::fprintf(stderr, "fuzz_passes: no pass is registered\n");
      std::abort();
    }
    return out;
  }();
  return list;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // passes warn per input; keep the log readable
  (void)defaultPasses();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const passes::PassRegistry::Entry* entry : defaultPasses()) {
    core::Context ctx;
    core::SourceFile src("input.pir", text);
    core::DiagnosticEngine diag(&src);
    auto parsed = parser::parseProgram(ctx, src, diag);
    if (!parsed) return 0;
    core::Program& program = **parsed;
    if (core::verifyProgram(program, diag) != 0) return 0;

    std::unique_ptr<passes::Pass> pass = entry->factory();
    core::VerifyOptions withDist;
    withDist.distConsistency = pass->verifiesDistAfter();
    core::DiagnosticEngine before(&src);
    bool distHeldBefore = withDist.distConsistency && core::verifyProgram(program, before, withDist) == 0;
    if (core::Status s = pass->setOptions({}); !s) die(entry->name, "setOptions({}) failed", s.message());

    // Through a pass manager that does not verify: the checks are here. A
    // splitting pass turns the program into pieces; each must hold what the
    // input held.
    passes::PassManagerOptions unverified;
    unverified.verifyEach = false;
    passes::PassManager pm(unverified);
    pm.addPass(std::move(pass));
    core::ProgramSet set;
    set.programs.emplace_back("", std::move(*parsed));
    core::Status ran = pm.run(set, diag);
    if (ran.isInternal()) die(entry->name, "an internal error", ran.message() + "\n" + diag.render());
    if (!ran) continue;  // refusing is fine; breaking is not
    std::vector<core::Program*> outputs;
    for (core::NamedProgram& np : set.programs) {
      if (!np.program) die(entry->name, "the pass left a null program", np.name);
      outputs.push_back(np.program.get());
    }

    for (core::Program* out : outputs) {
      core::DiagnosticEngine after(&src);
      if (core::verifyProgram(*out, after) != 0)
        die(entry->name, "the program no longer verifies", after.render() + core::printProgram(*out));
      if (distHeldBefore && core::verifyProgram(*out, after, withDist) != 0)
        die(entry->name, "the program is no longer dist-consistent", after.render() + core::printProgram(*out));
      if (!core::checkPrintable(*out)) continue;
      std::string printed;
      if (!core::printProgram(*out, [&](std::string_view chunk) {
            printed.append(chunk);
            return true;
          }))
        die(entry->name, "printing failed", printed);
      // What a pass prints is piped into the next pir-opt: it must read
      // back as it was.
      core::Context ctx2;
      core::SourceFile src2("printed.pir", printed);
      core::DiagnosticEngine diag2(&src2);
      auto again = parser::parseProgram(ctx2, src2, diag2);
      if (!again) die(entry->name, "the printed output does not parse again", printed + "\n" + diag2.render());
      if (core::verifyProgram(**again, diag2) != 0)
        die(entry->name, "the printed output does not verify again", printed + "\n" + diag2.render());
      if (core::printProgram(**again) != printed)
        die(entry->name, "the printed output prints differently when read back", printed);
    }
  }
  return 0;
}
