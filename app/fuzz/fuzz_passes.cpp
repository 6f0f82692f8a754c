//===- fuzz_passes.cpp - every default-option pass keeps programs valid ---===//
//
// Parse; if the program verifies, run each registered pass with its default
// options (each on a freshly parsed copy, as a one-program set through the
// PassManager's path for its kind: in place, or split into pieces), then the
// program (or every program split off) must still verify -- with the
// dist-consistency check too when the pass asks for it and the input
// already passed it -- and must print text that reads back into a program
// that verifies and prints the same. The passes that work for one rank run
// for ranks 0 and 1 too, alone and as the per-rank pipeline split-ranks
// runs (lower-reshard, partition-rank, dist-to-dense).
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

/// The checks every output program must pass (see the file comment).
void checkOutput(const std::string& label, const core::SourceFile& src, core::Program& out, bool distHeldBefore,
                 const core::VerifyOptions& withDist) {
  core::DiagnosticEngine after(&src);
  if (core::verifyProgram(out, after) != 0)
    die(label, "the program no longer verifies", after.render() + core::printProgram(out));
  if (distHeldBefore && core::verifyProgram(out, after, withDist) != 0)
    die(label, "the program is no longer dist-consistent", after.render() + core::printProgram(out));
  if (!core::checkPrintable(out)) return;
  std::string printed;
  if (!core::printProgram(out, [&](std::string_view chunk) {
        printed.append(chunk);
        return true;
      }))
    die(label, "printing failed", printed);
  // What a pass prints is piped into the next pir-opt: it must read
  // back as it was.
  core::Context ctx2;
  core::SourceFile src2("printed.pir", printed);
  core::DiagnosticEngine diag2(&src2);
  auto again = parser::parseProgram(ctx2, src2, diag2);
  if (!again) die(label, "the printed output does not parse again", printed + "\n" + diag2.render());
  if (core::verifyProgram(**again, diag2) != 0)
    die(label, "the printed output does not verify again", printed + "\n" + diag2.render());
  if (core::printProgram(**again) != printed)
    die(label, "the printed output prints differently when read back", printed);
}

/// Runs `pipeline` (pass specs, or one registered pass when `entry` is
/// given) on a fresh parse of `text` and checks what it leaves; false when
/// the input does not parse or verify (nothing to check then).
bool runOne(std::string_view text, const std::string& label, const passes::PassRegistry::Entry* entry,
            const std::string& pipeline) {
  core::Context ctx;
  core::SourceFile src("input.pir", text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseProgram(ctx, src, diag);
  if (!parsed) return false;
  core::Program& program = **parsed;
  if (core::verifyProgram(program, diag) != 0) return false;

  // Through a pass manager that does not verify: the checks are here. A
  // splitting pass turns the program into pieces; each must hold what the
  // input held.
  passes::PassManagerOptions unverified;
  unverified.verifyEach = false;
  passes::PassManager pm(unverified);
  if (entry) {
    std::unique_ptr<passes::Pass> pass = entry->factory();
    if (core::Status s = pass->setOptions({}); !s) die(label, "setOptions({}) failed", s.message());
    pm.addPass(std::move(pass));
  } else {
    std::vector<passes::PassSpec> specs;
    core::SourceFile pipeSrc("<pipeline>", pipeline);
    core::DiagnosticEngine pipeDiag(&pipeSrc);
    if (!passes::parsePassPipeline(pipeline, specs, pipeDiag) || !pm.addPipeline(specs, pipeDiag))
      die(label, "the pipeline does not build", pipeDiag.render());
  }
  core::VerifyOptions withDist;
  for (const auto& pass : pm.passes()) withDist.distConsistency = withDist.distConsistency || pass->verifiesDistAfter();
  core::DiagnosticEngine before(&src);
  bool distHeldBefore = withDist.distConsistency && core::verifyProgram(program, before, withDist) == 0;
  core::ProgramSet set;
  set.programs.emplace_back("", std::move(*parsed));
  core::Status ran = pm.run(set, diag);
  if (ran.isInternal()) die(label, "an internal error", ran.message() + "\n" + diag.render());
  if (!ran) return true;  // refusing is fine; breaking is not
  std::vector<core::Program*> outputs;
  for (core::NamedProgram& np : set.programs) {
    if (!np.program) die(label, "the pass left a null program", np.name);
    outputs.push_back(np.program.get());
  }
  for (core::Program* out : outputs) checkOutput(label, src, *out, distHeldBefore, withDist);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // passes warn per input; keep the log readable
  (void)defaultPasses();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const passes::PassRegistry::Entry* entry : defaultPasses())
    if (!runOne(text, entry->name, entry, "")) return 0;
  for (const char* rank : {"0", "1"}) {
    std::string r = std::string("{rank=") + rank + "}";
    for (const char* pass : {"lower-reshard", "partition-rank", "dist-to-dense"})
      runOne(text, pass + r, nullptr, pass + r);
    std::string perRank = "lower-reshard" + r + ",partition-rank" + r + ",dist-to-dense" + r;
    runOne(text, perRank, nullptr, perRank);
  }
  return 0;
}
