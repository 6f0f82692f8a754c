//===- register_all.cpp - the list of every pass --------------------------===//
#include "passes/pass_registry.h"

namespace pir::passes {

void registerApplyPartitionPass();
void registerFoldReshardPass();
void registerLowerReshardPass();
void registerPipelineSplitPass();
void registerSplitMatmulGradPass();

void registerAllPasses() {
  registerApplyPartitionPass();
  registerFoldReshardPass();
  registerLowerReshardPass();
  registerPipelineSplitPass();
  registerSplitMatmulGradPass();
}

}  // namespace pir::passes
