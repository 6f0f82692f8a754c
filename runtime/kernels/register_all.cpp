//===- register_all.cpp - the list of every kernel family -----------------===//
#include "runtime/kernel.h"

namespace pir::runtime {

// One function per kernel file; keep the list sorted.
// Data movement and communication (runner-core):
void registerCommKernels(KernelRegistry& registry);
void registerCreationKernels(KernelRegistry& registry);
void registerShapeKernels(KernelRegistry& registry);

void registerAllKernels(KernelRegistry& registry) {
  // Data movement and communication (runner-core):
  registerCommKernels(registry);
  registerCreationKernels(registry);
  registerShapeKernels(registry);
}

}  // namespace pir::runtime
