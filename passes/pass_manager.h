//===- pass_manager.h - running a pipeline of passes ------------*- C++ -*-===//
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"
#include "passes/pass.h"
#include "passes/pass_pipeline.h"

namespace pir::passes {

struct PassManagerOptions {
  // Run the verifier after every pass. The input is taken to have passed
  // it (pir-opt verifies it first), so a pass whose output fails it has a
  // bug: an internal error.
  bool verifyEach = true;
  bool verifyDist = false;  // also the dist-consistency check after every pass
  std::set<std::string> printBefore, printAfter;
  bool printAfterAll = false;
  bool printBeforeAll = false;
  // Dump after a pass only when it changed the programs: their structural
  // fingerprint (see run()) differs before and after it.
  bool printAfterChange = false;
  bool printAfterFailure = false;  // dump what a failing pass left
  // Remember which pass made each op that was not there before it
  // (--print-locations): two walks of the programs a pass.
  bool trackCreatedOps = false;
  bool timing = false;
  // Name the failing pass in run()'s status ("pass 'X' failed: ..."); a
  // nested manager that names it its own way turns this off.
  bool nameFailures = true;
};

/// Where in the pipeline an IR dump is taken.
enum class IrDumpPoint { Before, After, AfterFailure };

/// Receives IR dumps (`--print-ir-*`): the pass name, where, whether the
/// pass changed the programs (known only with printAfterChange; else
/// false) and the program.
using IrDumpHook = std::function<void(const std::string& pass, IrDumpPoint when, bool changed, const core::Program&)>;

class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {}) : options_(std::move(options)) {}

  void addPass(std::unique_ptr<Pass> pass) {
    pass->setResults(&results_);
    passes_.push_back(std::move(pass));
  }
  /// Builds the passes of `specs` from the registry; unknown names and bad
  /// options are reported at the spec's offset in `diag`.
  bool addPipeline(const std::vector<PassSpec>& specs, core::DiagnosticEngine& diag);

  void setIrDumpHook(IrDumpHook hook) { dump_ = std::move(hook); }

  /// Where the last pass's pieces go when it is a splitting pass: each
  /// piece, verified (as configured) and named, is handed to `sink` as soon
  /// as it is made, with its index in the output, and is not kept (run()
  /// leaves the set empty). `--output-dir` writes them this way, so memory
  /// holds only the pieces being made. `sink` may be called from several
  /// threads at once. No IR dumps are made of streamed pieces.
  void setFinalSink(SplittingPass::PieceSink sink) { finalSink_ = std::move(sink); }

  /// Runs every pass on every program of `programs`, verifying after each
  /// (as configured). A splitting pass replaces each program by its pieces,
  /// in order (see SplittingPass::split for their names). A pass whose
  /// output fails the verifier is an internal error (with verifyEach); the
  /// dist-consistency check failing (asked for by --verify-dist or by the
  /// pass) is the input's, a user error.
  core::Status run(core::ProgramSet& programs, core::DiagnosticEngine& diag);

  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }
  /// What the passes left (split-ranks' RankLayout, ...); a caller may seed
  /// it before run() with what the passes read.
  PassResults& results() { return results_; }
  const PassResults& results() const { return results_; }
  /// The pass whose failure run() returned (empty when none failed).
  std::string_view failedPass() const { return failedPass_; }
  /// `--timing` lines filled by run(): "pass NAME" for each pass, then
  /// "verify after NAME" when it verifies.
  const std::vector<std::pair<std::string, double>>& timings() const { return timings_; }
  /// Which pass made `op` (with trackCreatedOps), and the source offset it
  /// was made from: its own location, else that of the op of the input it
  /// stands before in its block (after, at a block's end), else -1. The
  /// name is empty for an op that was there before the pipeline ran.
  struct Origin {
    std::string_view pass;
    int64_t from = -1;
  };
  Origin createdBy(const core::Operation& op) const {
    auto it = createdBy_.find(&op);
    if (it == createdBy_.end()) return {};
    return {passes_[it->second.pass]->name(), it->second.from};
  }

 private:
  void dumpAll(const std::string& pass, IrDumpPoint when, bool changed, const core::ProgramSet& programs);
  void noteCreatedOps(const core::ProgramSet& programs, uint32_t passIndex);

  core::Status runOne(Pass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag);
  core::Status failed(const std::string& pass, const core::Status& s);
  core::Status verifyAfter(const Pass& pass, const core::ProgramSet& programs, core::DiagnosticEngine& diag);
  core::Status verifyPrograms(const Pass& pass, std::span<const core::Program* const> programs,
                              core::DiagnosticEngine& diag) const;
  core::Status streamPieces(SplittingPass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag);

  PassManagerOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
  IrDumpHook dump_;
  struct Created {
    uint32_t pass;  // index in passes_
    int64_t from;
  };
  std::unordered_map<const core::Operation*, Created> createdBy_;
  std::unordered_map<const core::Operation*, uint32_t> seen_;  // ops before the running pass
  SplittingPass::PieceSink finalSink_;
  std::vector<std::pair<std::string, double>> timings_;
  PassResults results_;
  std::string failedPass_;
};

}  // namespace pir::passes
