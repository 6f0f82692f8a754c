//===- register_all.cpp - the list of every pass --------------------------===//
#include "passes/pass_registry.h"

namespace pir::passes {

void registerFoldReshardPass();

void registerAllPasses() {
  registerFoldReshardPass();
}

}  // namespace pir::passes
