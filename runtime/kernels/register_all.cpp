//===- register_all.cpp - the list of every kernel family -----------------===//
#include "runtime/kernel.h"

namespace pir::runtime {

// One function per kernel file; keep the list sorted.

void registerAllKernels(KernelRegistry& registry) { (void)registry; }

}  // namespace pir::runtime
