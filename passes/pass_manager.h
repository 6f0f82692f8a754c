//===- pass_manager.h - running a pipeline of passes ------------*- C++ -*-===//
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>
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
  bool timing = false;
};

/// Receives IR dumps (`--print-ir-*`): the pass name, "before" or "after",
/// and the program.
using IrDumpHook = std::function<void(const std::string& pass, const char* when, const core::Program&)>;

class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {}) : options_(std::move(options)) {}

  void addPass(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
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
  /// `--timing` lines filled by run(): "pass NAME" for each pass, then
  /// "verify after NAME" when it verifies.
  const std::vector<std::pair<std::string, double>>& timings() const { return timings_; }

 private:
  core::Status runOne(Pass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag);
  core::Status verifyAfter(const Pass& pass, const core::ProgramSet& programs, core::DiagnosticEngine& diag);
  core::Status verifyPrograms(const Pass& pass, std::span<const core::Program* const> programs,
                              core::DiagnosticEngine& diag) const;
  core::Status streamPieces(SplittingPass& pass, core::ProgramSet& programs, core::DiagnosticEngine& diag);

  PassManagerOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
  IrDumpHook dump_;
  SplittingPass::PieceSink finalSink_;
  std::vector<std::pair<std::string, double>> timings_;
};

}  // namespace pir::passes
