//===- register_all.cpp - the list of every pass --------------------------===//
#include "passes/pass_registry.h"

namespace pir::passes {

void registerApplyPartitionPass();
void registerDistToDensePass();
void registerDropDistPass();
void registerExportGradientsPass();
void registerFoldReshardPass();
void registerGradientMergePass();
void registerLowerReshardPass();
void registerPartitionRankPass();
void registerPipelineSplitPass();
void registerRemoveUnusefulCommPass();
void registerSplitMatmulGradPass();
void registerSplitRanksPass();

void registerAllPasses() {
  registerApplyPartitionPass();
  registerDistToDensePass();
  registerDropDistPass();
  registerExportGradientsPass();
  registerFoldReshardPass();
  registerGradientMergePass();
  registerLowerReshardPass();
  registerPartitionRankPass();
  registerPipelineSplitPass();
  registerRemoveUnusefulCommPass();
  registerSplitMatmulGradPass();
  registerSplitRanksPass();
}

}  // namespace pir::passes
