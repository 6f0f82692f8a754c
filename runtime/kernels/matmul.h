//===- matmul.h - GEMM through OpenBLAS and its thread count ----*- C++ -*-===//
//
// matmul and matmul_grad call cblas_sgemm / cblas_dgemm (bf16 operands are
// widened to f32 around the call). Kernels are single-threaded, ranks being
// the parallelism: OpenBLAS runs on one thread unless setBlasThreads says
// otherwise (pir-run's --blas-threads N).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/status.h"
#include "runtime/kernel.h"
#include "runtime/tensor.h"

namespace pir::runtime {

/// OpenBLAS's thread count for every later GEMM (n >= 1). Before the kernel
/// registry is built it is 1 (the registry sets it unless this was called).
void setBlasThreads(int n);
int blasThreads();

/// C = op(A)·op(B) over the last two dims, batch dims broadcast numpy-style:
/// A is (..., r, c) read as (..., c, r) when `transA`; likewise B. Both have
/// rank >= 2 and one float dtype (f32, f64, bf16); C is allocated with
/// shape broadcast(batchA, batchB) + [m, n].
core::Status batchedGemm(const Tensor& a, bool transA, const Tensor& b, bool transB, Tensor& c);

/// C = alpha·op(A)·op(B) + beta·C for row-major m×k and k×n operands with
/// leading dims (lda, ldb, ldc: a row's stride in elements), so that one
/// head of a [batch, seq, heads, dim] tensor is a matrix in place: one
/// cblas_sgemm / cblas_dgemm call.
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
          const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

/// matmul_grad (x, y, out_grad, learning_rate) whose y is an sgd_'s
/// parameter and whose y_grad only that sgd_ reads (the executor's plan
/// decides: runtime/update_fusion.h): x_grad as pd_op.matmul_grad makes it,
/// then y -= lr·dy by the GEMM of dy itself (alpha = -lr, beta = 1, into
/// y's buffer). y_grad is not made.
core::Status matmulGradUpdate(KernelContext& ctx);

}  // namespace pir::runtime
