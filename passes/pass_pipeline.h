//===- pass_pipeline.h - pipelines from strings and YAML --------*- C++ -*-===//
//
//   apply-partition,pipeline-split{mode=VPP vpp=2 split-bw=true}
//
// or the same in a YAML file:
//
//   pipeline:
//     - apply-partition
//     - pipeline-split: {mode: VPP, vpp: 2, split-bw: true}
//
// Errors are located: in the pipeline string by byte offset (rendered with
// a caret into the string), in YAML by line and column of the file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "passes/pass.h"

namespace pir::passes {

struct PassSpec {
  std::string name;
  PassOptionValues options;
  int64_t offset = -1;  // where the name stands in its source
};

/// Parses a pipeline string; problems go to `diag` (whose source should be
/// the pipeline text). Unknown pass names are not checked here.
bool parsePassPipeline(std::string_view text, std::vector<PassSpec>& out, core::DiagnosticEngine& diag);

/// Parses a YAML pipeline file's text; problems go to `diag` (whose source
/// should be the file).
bool parsePipelineYaml(std::string_view text, std::vector<PassSpec>& out, core::DiagnosticEngine& diag);

}  // namespace pir::passes
