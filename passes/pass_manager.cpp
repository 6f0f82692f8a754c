//===- pass_manager.cpp ---------------------------------------------------===//
#include "passes/pass_manager.h"

#include <algorithm>
#include <chrono>
#include <mutex>

#include "core/hash.h"

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

/// What --print-ir-after-change compares: every op by identity, in order,
/// with its name, attribute list, operands and result types (all uniqued or
/// stable pointers), and each block's arguments. A pass that rebuilds an op
/// as it was counts as a change; one that changes nothing never does.
uint64_t structuralFingerprint(const core::ProgramSet& programs) {
  uint64_t h = core::hashMix(0, programs.programs.size());
  auto block = [&](const core::Block& b) {
    for (const core::BlockArgument* a : b.arguments()) h = core::hashMix(h, reinterpret_cast<uintptr_t>(a));
    for (const core::BlockArgument* a : b.kwargs()) h = core::hashMix(h, reinterpret_cast<uintptr_t>(a));
  };
  for (const core::NamedProgram& p : programs.programs) {
    const core::PrintStyle& st = p.program->style();
    h = core::hashMix(h, reinterpret_cast<uintptr_t>(p.program.get()));
    h = core::hashMix(h, static_cast<uint64_t>(st.distEra) | st.taggedNumbers << 8 | st.opDistChunkId << 9);
    block(p.program->body());
    core::walk(p.program->body(), [&](const core::Operation& op) {
      h = core::hashMix(h, reinterpret_cast<uintptr_t>(&op));
      h = core::hashMix(h, reinterpret_cast<uintptr_t>(op.name().data()));
      h = core::hashMix(h, reinterpret_cast<uintptr_t>(op.attributes().data()));
      for (uint32_t i = 0; i < op.numOperands(); ++i)
        h = core::hashMix(h, reinterpret_cast<uintptr_t>(op.operandValue(i)));
      for (uint32_t i = 0; i < op.numResults(); ++i)
        h = core::hashMix(h, reinterpret_cast<uintptr_t>(op.result(i)->type()));
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (const core::Block* b : op.region(r).blocks()) block(*b);
    });
  }
  return h;
}

void collectOps(const core::ProgramSet& programs, std::unordered_map<const core::Operation*, uint32_t>& ops) {
  ops.clear();
  for (const core::NamedProgram& p : programs.programs)
    core::walk(p.program->body(), [&](const core::Operation& op) { ops.emplace(&op, 0); });
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

core::Status PassManager::failed(const std::string& pass, const core::Status& s) {
  failedPass_ = pass;
  return options_.nameFailures ? s.withMessage("pass '" + pass + "' failed: " + s.message()) : s;
}

core::Status PassManager::run(core::ProgramSet& programs, core::DiagnosticEngine& diag) {
  results_.beginRun();
  for (uint32_t i = 0; i < passes_.size(); ++i) {
    Pass* pass = passes_[i].get();
    std::string name(pass->name());
    results_.beginPass();
    if (options_.printBeforeAll || options_.printBefore.count(name))
      dumpAll(name, IrDumpPoint::Before, false, programs);
    uint64_t fingerprint = options_.printAfterChange ? structuralFingerprint(programs) : 0;
    if (options_.trackCreatedOps) collectOps(programs, seen_);
    auto start = std::chrono::steady_clock::now();
    auto* splitting = dynamic_cast<SplittingPass*>(pass);
    if (finalSink_ && splitting && i + 1 == passes_.size()) {
      core::Status s = streamPieces(*splitting, programs, diag);
      timings_.emplace_back("pass " + name, secondsSince(start));
      if (!s) return failed(name, s);
      return s;
    }
    core::Status s = runOne(*pass, programs, diag);
    timings_.emplace_back("pass " + name, secondsSince(start));
    if (options_.trackCreatedOps) noteCreatedOps(programs, i);
    if (!s) {
      if (options_.printAfterFailure) dumpAll(name, IrDumpPoint::AfterFailure, false, programs);
      return failed(name, s);
    }
    bool changed = options_.printAfterChange && structuralFingerprint(programs) != fingerprint;
    if (options_.printAfterAll || options_.printAfter.count(name) || changed)
      dumpAll(name, IrDumpPoint::After, changed, programs);
    if (options_.verifyEach || options_.verifyDist)
      if (core::Status v = verifyAfter(*pass, programs, diag); !v) {
        failedPass_ = name;
        if (options_.printAfterFailure) dumpAll(name, IrDumpPoint::AfterFailure, false, programs);
        return v;
      }
  }
  return core::Status::ok();
}

void PassManager::dumpAll(const std::string& pass, IrDumpPoint when, bool changed, const core::ProgramSet& programs) {
  if (!dump_) return;
  for (const core::NamedProgram& p : programs.programs) dump_(pass, when, changed, *p.program);
}

// An op a pass made without a location is placed by the op of the input
// next to it: the one it stands before in its block, else the last before it.
void PassManager::noteCreatedOps(const core::ProgramSet& programs, uint32_t passIndex) {
  struct Pending {
    int64_t last = -1;  // the last op seen in the block that has a location
    std::vector<Created*> waiting;
  };
  std::unordered_map<const core::Block*, Pending> blocks;
  for (const core::NamedProgram& p : programs.programs)
    core::walk(p.program->body(), [&](const core::Operation& op) {
      Pending& b = blocks[op.parentBlock()];
      if (!seen_.count(&op)) {
        Created& c = createdBy_[&op] = Created{passIndex, op.location()};
        if (op.location() < 0) b.waiting.push_back(&c);
        return;
      }
      auto it = createdBy_.find(&op);
      int64_t loc = it != createdBy_.end() ? it->second.from : op.location();
      if (loc < 0) return;
      for (Created* c : b.waiting) c->from = loc;
      b.waiting.clear();
      b.last = loc;
    });
  for (auto& [block, b] : blocks)
    for (Created* c : b.waiting) c->from = b.last;
  seen_.clear();
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
  std::vector<const core::Program*> list;
  for (const core::NamedProgram& p : programs.programs) list.push_back(p.program.get());
  auto start = std::chrono::steady_clock::now();
  core::Status s = verifyPrograms(pass, list, diag);
  timings_.emplace_back("verify after " + std::string(pass.name()), secondsSince(start));
  return s;
}

core::Status PassManager::verifyPrograms(const Pass& pass, std::span<const core::Program* const> programs,
                                         core::DiagnosticEngine& diag) const {
  std::string name(pass.name());
  core::VerifyOptions v;
  v.distConsistency = options_.verifyDist || pass.verifiesDistAfter();
  v.partialReads = options_.verifyDist ? core::CheckLevel::Error : core::CheckLevel::Off;
  size_t errors = 0, first = diag.size();
  for (const core::Program* p : programs) errors += core::verifyProgram(*p, diag, v);
  if (!errors) return core::Status::ok();
  diag.prefixMessages(first, "after pass '" + name + "': ");
  // The input verified, so failing the structural checks is the pass's bug;
  // only the dist-consistency check may fail on what the user gave. Which
  // it was is asked again only now, on the way out.
  bool structural = !v.distConsistency;
  if (v.distConsistency) {
    core::DiagnosticEngine scratch(diag.source());
    for (const core::Program* p : programs) structural |= core::verifyProgram(*p, scratch) != 0;
  }
  if (structural && options_.verifyEach)
    return core::Status::internal("pass '" + name + "' broke the IR: its output fails the verifier");
  return core::Status::error("verification failed after pass '" + name + "'");
}

core::Status PassManager::streamPieces(SplittingPass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag) {
  std::mutex mutex;
  std::vector<core::Diagnostic> found;  // the verifier's, from any thread: into `diag` once the split is over
  size_t base = 0;
  core::Status status;
  for (core::NamedProgram& parent : programs.programs) {
    size_t count = 0;
    auto sink = [&](size_t index, core::NamedProgram piece) -> core::Status {
      if (!piece.program)
        return core::Status::internal("'" + std::string(pass.name()) + "' made a piece without a program");
      inheritFrom(parent, piece);
      if (options_.verifyEach || options_.verifyDist) {
        core::DiagnosticEngine local(diag.source());
        const core::Program* one = piece.program.get();
        if (core::Status v = verifyPrograms(pass, std::span<const core::Program* const>(&one, 1), local); !v) {
          std::lock_guard<std::mutex> lock(mutex);
          for (const core::Diagnostic& d : local.diagnostics()) found.push_back(d);
          return v;
        }
      }
      {
        std::lock_guard<std::mutex> lock(mutex);
        count = std::max(count, index + 1);
      }
      return finalSink_(base + index, std::move(piece));
    };
    status = pass.splitInto(parent, sink, diag);
    if (!status) break;
    base += count;
  }
  for (core::Diagnostic& d : found) diag.add(std::move(d));
  if (!status) return status;
  programs.programs.clear();
  return core::Status::ok();
}

}  // namespace pir::passes
