//===- pass_manager.cpp ---------------------------------------------------===//
#include "passes/pass_manager.h"

#include <chrono>

#include "core/verifier.h"
#include "passes/pass_registry.h"

namespace pir::passes {

bool PassManager::addPipeline(const std::vector<PassSpec>& specs, core::DiagnosticEngine& diag) {
  PassRegistry& registry = PassRegistry::instance();
  for (const PassSpec& spec : specs) {
    std::unique_ptr<Pass> pass = registry.create(spec.name);
    if (!pass) {
      diag.error(spec.offset, "unknown pass '" + spec.name + "'; known passes: " + registry.namesJoined());
      return false;
    }
    if (core::Status s = pass->setOptions(spec.options); !s) {
      diag.error(s.offset() >= 0 ? s.offset() : spec.offset, s.message());
      return false;
    }
    addPass(std::move(pass));
  }
  return true;
}

core::Status PassManager::run(core::ProgramSet& programs, core::DiagnosticEngine& diag) {
  for (auto& pass : passes_) {
    std::string name(pass->name());
    for (const core::NamedProgram& p : programs.programs)
      if (dump_ && options_.printBefore.count(name)) dump_(name, "Before", *p.program);
    auto start = std::chrono::steady_clock::now();
    core::Status s = runOne(*pass, programs, diag);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timings_.emplace_back("pass " + name, seconds);
    if (!s) return core::Status::error("pass '" + name + "' failed: " + s.message(), s.offset());
    for (const core::NamedProgram& p : programs.programs)
      if (dump_ && (options_.printAfterAll || options_.printAfter.count(name))) dump_(name, "After", *p.program);
    if (options_.verifyEach || options_.verifyDist) {
      core::VerifyOptions v;
      v.distConsistency = options_.verifyDist || pass->verifiesDistAfter();
      size_t errors = 0;
      auto verifyStart = std::chrono::steady_clock::now();
      for (const core::NamedProgram& p : programs.programs) errors += core::verifyProgram(*p.program, diag, v);
      timings_.emplace_back("verify after " + name,
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - verifyStart).count());
      if (errors) return core::Status::error("verification failed after pass '" + name + "'");
    }
  }
  return core::Status::ok();
}

core::Status PassManager::runOne(Pass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag) {
  if (!pass.splitsProgram()) {
    for (core::NamedProgram& p : programs.programs)
      if (core::Status s = pass.run(*p.program, diag); !s) return s;
    return core::Status::ok();
  }
  if (programs.programs.size() != 1)
    return core::Status::error("'" + std::string(pass.name()) + "' splits one program, but there are " +
                               std::to_string(programs.programs.size()));
  core::ProgramSet out;
  if (core::Status s = pass.runSplit(*programs.programs[0].program, out, diag); !s) return s;
  programs = std::move(out);
  return core::Status::ok();
}

}  // namespace pir::passes
