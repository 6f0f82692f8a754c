//===- run_passes.h - a pass pipeline, for the runner -------------*- C++ -*-===//
#pragma once

#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"

namespace pir::runtime::runner {

/// Runs the pass pipeline `pipeline` over `set` through `pm` (which keeps
/// the passes, for their results), each pass's time a phase. A failure is
/// the passes' located diagnostics, or the status after `prefix` located in
/// `source`; a pipeline that does not build is an internal error.
core::Status runPasses(const std::string& pipeline, core::ProgramSet& set, const core::SourceFile& source,
                       const std::string& prefix, passes::PassManager& pm);

/// The same for a pipeline given as specs (values need no pipeline syntax:
/// a path may hold a comma).
core::Status runPasses(std::vector<passes::PassSpec> specs, core::ProgramSet& set, const core::SourceFile& source,
                       const std::string& prefix, passes::PassManager& pm);

/// `pipeline` over `program` alone (the caller keeps it).
core::Status runPassesOn(const std::string& pipeline, core::Program& program, const core::SourceFile& source,
                         const std::string& prefix);

}  // namespace pir::runtime::runner
