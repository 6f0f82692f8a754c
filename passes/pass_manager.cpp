//===- pass_manager.cpp ---------------------------------------------------===//
#include "passes/pass_manager.h"

#include <chrono>

#include "core/verifier.h"
#include "passes/pass_registry.h"

namespace pir::passes {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// What a piece of `parent` is called and is: `PARENT.PIECE` (or either
/// alone when the other is empty), and the parent's rank, stage, job and
/// Context where the splitting pass set none.
void inheritFrom(const core::NamedProgram& parent, core::NamedProgram& piece) {
  if (!parent.name.empty()) piece.name = piece.name.empty() ? parent.name : parent.name + "." + piece.name;
  if (piece.rank < 0) piece.rank = parent.rank;
  if (piece.stage < 0) piece.stage = parent.stage;
  if (piece.job.empty()) piece.job = parent.job;
  if (!piece.context) piece.context = parent.context;
}

/// Replaces each program of `programs` by its pieces; on failure
/// `programs` keeps every program.
core::Status splitEach(SplittingPass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag) {
  std::vector<core::NamedProgram> out;
  for (core::NamedProgram& parent : programs.programs) {
    core::ProgramSet pieces;
    if (core::Status s = pass.split(parent, pieces, diag); !s) return s;
    for (core::NamedProgram& piece : pieces.programs) {
      if (!piece.program)
        return core::Status::internal("'" + std::string(pass.name()) + "' made a piece without a program");
      inheritFrom(parent, piece);
      out.push_back(std::move(piece));
    }
  }
  programs.programs = std::move(out);
  return core::Status::ok();
}

}  // namespace

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
    timings_.emplace_back("pass " + name, secondsSince(start));
    if (!s) return s.withMessage("pass '" + name + "' failed: " + s.message());
    for (const core::NamedProgram& p : programs.programs)
      if (dump_ && (options_.printAfterAll || options_.printAfter.count(name))) dump_(name, "After", *p.program);
    if (options_.verifyEach || options_.verifyDist)
      if (core::Status v = verifyAfter(*pass, programs, diag); !v) return v;
  }
  return core::Status::ok();
}

core::Status PassManager::runOne(Pass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag) {
  if (auto* splitting = dynamic_cast<SplittingPass*>(&pass)) return splitEach(*splitting, programs, diag);
  auto& perProgram = static_cast<ProgramPass&>(pass);  // the other kind there is
  for (core::NamedProgram& p : programs.programs)
    if (core::Status s = perProgram.runOnProgram(p, diag); !s) return s;
  return core::Status::ok();
}

core::Status PassManager::verifyAfter(const Pass& pass, const core::ProgramSet& programs,
                                      core::DiagnosticEngine& diag) {
  std::string name(pass.name());
  core::VerifyOptions v;
  v.distConsistency = options_.verifyDist || pass.verifiesDistAfter();
  v.partialReads = options_.verifyDist ? core::CheckLevel::Error : core::CheckLevel::Off;
  size_t errors = 0, first = diag.size();
  auto start = std::chrono::steady_clock::now();
  for (const core::NamedProgram& p : programs.programs) errors += core::verifyProgram(*p.program, diag, v);
  timings_.emplace_back("verify after " + name, secondsSince(start));
  if (!errors) return core::Status::ok();
  diag.prefixMessages(first, "after pass '" + name + "': ");
  // The input verified, so failing the structural checks is the pass's bug;
  // only the dist-consistency check may fail on what the user gave. Which
  // it was is asked again only now, on the way out.
  bool structural = !v.distConsistency;
  if (v.distConsistency) {
    core::DiagnosticEngine scratch(diag.source());
    for (const core::NamedProgram& p : programs.programs) structural |= core::verifyProgram(*p.program, scratch) != 0;
  }
  if (structural && options_.verifyEach)
    return core::Status::internal("pass '" + name + "' broke the IR: its output fails the verifier");
  return core::Status::error("verification failed after pass '" + name + "'");
}

}  // namespace pir::passes
