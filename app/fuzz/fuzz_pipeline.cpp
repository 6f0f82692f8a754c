//===- fuzz_pipeline.cpp - pipeline strings and YAML pipeline files -------===//
//
// The first byte splits the rest of the input: the first (byte % size+1)
// bytes are a pipeline string, the remainder a YAML file. Both readers must
// return (true or false) without crashing, hanging or leaking; their
// diagnostics must render.
//
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "passes/pass_pipeline.h"

using namespace pir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  size_t cut = rest.empty() ? 0 : data[0] % (rest.size() + 1);
  std::string_view pipeline = rest.substr(0, cut);
  std::string_view yaml = rest.substr(cut);
  {
    core::SourceFile src("<pass-pipeline>", pipeline);
    core::DiagnosticEngine diag(&src);
    std::vector<passes::PassSpec> specs;
    if (!passes::parsePassPipeline(pipeline, specs, diag)) (void)diag.render();
  }
  {
    core::SourceFile src("pipeline.yaml", yaml);
    core::DiagnosticEngine diag(&src);
    std::vector<passes::PassSpec> specs;
    if (!passes::parsePipelineYaml(yaml, specs, diag)) (void)diag.render();
  }
  return 0;
}
