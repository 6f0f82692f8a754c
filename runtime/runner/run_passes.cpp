//===- run_passes.cpp - a pass pipeline, for the runner -------------------===//
#include "runtime/runner/run_passes.h"

#include "passes/pass_pipeline.h"
#include "runtime/runner/phase_timer.h"

namespace pir::runtime::runner {

using core::Status;

Status runPasses(const std::string& pipeline, core::ProgramSet& set, const core::SourceFile& source,
                 const std::string& prefix, passes::PassManager& pm) {
  core::DiagnosticEngine diag(&source);
  std::vector<passes::PassSpec> specs;
  if (!passes::parsePassPipeline(pipeline, specs, diag))
    return Status::rendered(core::ErrorKind::Internal, diag.render());
  return runPasses(std::move(specs), set, source, prefix, pm);
}

Status runPasses(std::vector<passes::PassSpec> specs, core::ProgramSet& set, const core::SourceFile& source,
                 const std::string& prefix, passes::PassManager& pm) {
  core::DiagnosticEngine diag(&source);
  if (!pm.addPipeline(specs, diag)) return Status::rendered(core::ErrorKind::Internal, diag.render());
  Status ran = pm.run(set, diag);
  for (const auto& [label, seconds] : pm.timings()) addPhaseTime(label, seconds);
  if (ran) return ran;
  if (diag.hasErrors()) return Status::rendered(ran.kind(), diag.render());
  return ran.prefixed(prefix).in(&source);
}

Status runPassesOn(const std::string& pipeline, core::Program& program, const core::SourceFile& source,
                   const std::string& prefix) {
  core::ProgramSet set;
  set.programs.emplace_back("serial", std::unique_ptr<core::Program>(&program));
  passes::PassManager pm;
  Status s = runPasses(pipeline, set, source, prefix, pm);
  set.programs[0].program.release();  // owned by the caller
  return s;
}

}  // namespace pir::runtime::runner
