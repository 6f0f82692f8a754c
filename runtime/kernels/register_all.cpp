//===- register_all.cpp - the list of every kernel family -----------------===//
#include "runtime/kernel.h"

namespace pir::runtime {

// One function per kernel file; keep the list sorted.
void registerAttentionKernels(KernelRegistry& registry);  // kernels/attention_kernels.cpp
void registerBatchNormKernels(KernelRegistry& registry);  // kernels/batch_norm_kernels.cpp
void registerBinaryKernels(KernelRegistry& registry);     // kernels/binary_kernels.cpp
void registerCinnKernels(KernelRegistry& registry);       // kernels/cinn_kernels.cpp
void registerCommKernels(KernelRegistry& registry);       // kernels/comm.cpp
void registerCompareKernels(KernelRegistry& registry);    // kernels/compare_kernels.cpp
void registerConvKernels(KernelRegistry& registry);       // kernels/conv_kernels.cpp
void registerCreationKernels(KernelRegistry& registry);   // kernels/creation.cpp
void registerDropoutKernels(KernelRegistry& registry);    // kernels/dropout_kernels.cpp
void registerEmbeddingKernels(KernelRegistry& registry);  // kernels/embedding_kernels.cpp
void registerIndexKernels(KernelRegistry& registry);      // kernels/index_kernels.cpp
void registerLossKernels(KernelRegistry& registry);       // kernels/loss_kernels.cpp
void registerMathKernels(KernelRegistry& registry);       // kernels/math_kernels.cpp
void registerMatmulKernels(KernelRegistry& registry);     // kernels/matmul_kernels.cpp
void registerMergeKernels(KernelRegistry& registry);      // kernels/gradient_merge_kernels.cpp
void registerNormKernels(KernelRegistry& registry);       // kernels/norm_kernels.cpp
void registerOptimizerKernels(KernelRegistry& registry);  // kernels/optimizer_kernels.cpp
void registerReduceKernels(KernelRegistry& registry);     // kernels/reduce_kernels.cpp
void registerRmsNormKernels(KernelRegistry& registry);    // kernels/rms_norm_kernels.cpp
void registerRopeKernels(KernelRegistry& registry);       // kernels/rope_kernels.cpp
void registerScanKernels(KernelRegistry& registry);       // kernels/scan_kernels.cpp
void registerSelectKernels(KernelRegistry& registry);     // kernels/select_kernels.cpp
void registerShapeKernels(KernelRegistry& registry);      // kernels/shape.cpp
void registerShapeOpsKernels(KernelRegistry& registry);   // kernels/shape_ops_kernels.cpp
void registerSwigluKernels(KernelRegistry& registry);     // kernels/swiglu_kernels.cpp
void registerUnaryKernels(KernelRegistry& registry);      // kernels/unary_kernels.cpp

void registerAllKernels(KernelRegistry& registry) {
  registerAttentionKernels(registry);
  registerBatchNormKernels(registry);
  registerBinaryKernels(registry);
  registerCinnKernels(registry);
  registerCommKernels(registry);
  registerCompareKernels(registry);
  registerConvKernels(registry);
  registerCreationKernels(registry);
  registerDropoutKernels(registry);
  registerEmbeddingKernels(registry);
  registerIndexKernels(registry);
  registerLossKernels(registry);
  registerMathKernels(registry);
  registerMatmulKernels(registry);
  registerMergeKernels(registry);
  registerNormKernels(registry);
  registerOptimizerKernels(registry);
  registerReduceKernels(registry);
  registerRmsNormKernels(registry);
  registerRopeKernels(registry);
  registerScanKernels(registry);
  registerSelectKernels(registry);
  registerShapeKernels(registry);
  registerShapeOpsKernels(registry);
  registerSwigluKernels(registry);
  registerUnaryKernels(registry);
}

}  // namespace pir::runtime
