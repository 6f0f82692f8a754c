//===- register_all.cpp - the list of every pass --------------------------===//
#include "passes/pass_registry.h"

namespace pir::passes {

void registerAllPasses() {
  // Passes are added here as they land (apply-partition, fold-reshard,
  // split-matmul-grad, pipeline-split); see their issues.
}

}  // namespace pir::passes
