//===- matmul_kernels.cpp - matmul and matmul_grad over cblas -------------===//
//
// matmul(x, y){transpose_x, transpose_y} as numpy and Paddle define it: a
// flag transposes the last two dims; a 1-D x is read as [1, K] and a 1-D y
// as [K, 1] (their flag ignored), the unit dim squeezed from the result;
// batch dims broadcast. When y is a matrix and x is not transposed, x's
// batch dims fold into its rows: one GEMM instead of one per batch, in the
// forward pass and both grads (Paddle's matmul_grad folds the same way).
// matmul_grad (impl/matmul_grad_kernel_impl.h) sums broadcast batch dims
// back to each operand's shape.
//
//===----------------------------------------------------------------------===//
#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "runtime/kernels/math_util.h"
#include "runtime/kernels/matmul.h"

namespace pir::runtime {

namespace {

std::atomic<bool> gThreadsSet{false};
std::atomic<int> gThreads{1};

using core::Status;
using kernels::Shape;

Tensor toF32(const Tensor& t) {
  Tensor f = Tensor::allocate(DataType::F32, t.shape());
  const BFloat16* a = t.data<BFloat16>();
  float* o = f.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) o[i] = a[i].toFloat();
  return f;
}

/// op(A)·op(B) of contiguous matrices into C.
template <class T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c) {
  runtime::gemm(ta, tb, m, n, k, T(1), a, ta ? m : k, b, tb ? k : n, T(0), c, n);
}

template <class T>
void runBatches(const Tensor& a, bool ta, const Tensor& b, bool tb, Tensor& c, const Shape& batch) {
  size_t ra = a.rank(), rb = b.rank();
  int64_t m = ta ? a.dim(ra - 1) : a.dim(ra - 2), k = ta ? a.dim(ra - 2) : a.dim(ra - 1);
  int64_t n = tb ? b.dim(rb - 2) : b.dim(rb - 1);
  Shape batchA(a.shape().begin(), a.shape().end() - 2), batchB(b.shape().begin(), b.shape().end() - 2);
  Shape sa = kernels::broadcastStrides(batchA, batch), sb = kernels::broadcastStrides(batchB, batch);
  int64_t nb = numElements(batch);
  std::vector<int64_t> idx(batch.size(), 0);
  for (int64_t i = 0; i < nb; ++i) {
    int64_t offA = 0, offB = 0;
    for (size_t d = 0; d < batch.size(); ++d) offA += idx[d] * sa[d], offB += idx[d] * sb[d];
    gemm(ta, tb, m, n, k, a.data<T>() + offA * m * k, b.data<T>() + offB * k * n, c.data<T>() + i * m * n);
    for (size_t d = batch.size(); d-- > 0;)
      if (++idx[d] < batch[d])
        break;
      else
        idx[d] = 0;
  }
}

}  // namespace

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
          int64_t ldb, float beta, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, blasint(m), blasint(n),
              blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc));
}
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, blasint(m), blasint(n),
              blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c, blasint(ldc));
}

void setBlasThreads(int n) {
  gThreadsSet = true;
  gThreads = std::max(1, n);
  openblas_set_num_threads(gThreads);
}

int blasThreads() { return gThreads; }

Status batchedGemm(const Tensor& a, bool ta, const Tensor& b, bool tb, Tensor& c) {
  size_t ra = a.rank(), rb = b.rank();
  if (ra < 2 || rb < 2 || a.dtype() != b.dtype()) return Status::internal("batchedGemm: bad operands");
  int64_t m = ta ? a.dim(ra - 1) : a.dim(ra - 2), k = ta ? a.dim(ra - 2) : a.dim(ra - 1);
  int64_t kb = tb ? b.dim(rb - 1) : b.dim(rb - 2), n = tb ? b.dim(rb - 2) : b.dim(rb - 1);
  if (k != kb)
    return Status::error("the contracted dims differ (" + std::to_string(k) + " and " + std::to_string(kb) + ")");
  auto batch = kernels::broadcastShapes(std::span(a.shape().begin(), ra - 2), std::span(b.shape().begin(), rb - 2));
  if (!batch) return Status::error("the batch dims do not broadcast");
  Shape shape = *batch;
  shape.push_back(m);
  shape.push_back(n);
  DataType dt = a.dtype();
  if (dt != DataType::F32 && dt != DataType::F64 && dt != DataType::BF16)
    return Status::error(std::string("no matmul for dtype ") + std::string(core::dataTypeName(dt)));
  if (k == 0) {
    c = Tensor::zeros(dt, shape);
    return Status::ok();
  }
  if (dt == DataType::F64) {
    c = Tensor::allocate(dt, shape);
    runBatches<double>(a, ta, b, tb, c, *batch);
  } else if (dt == DataType::F32) {
    c = Tensor::allocate(dt, shape);
    runBatches<float>(a, ta, b, tb, c, *batch);
  } else {
    Tensor cf = Tensor::allocate(DataType::F32, shape);
    runBatches<float>(toF32(a), ta, toF32(b), tb, cf, *batch);
    c = Tensor::allocate(dt, shape);
    for (int64_t i = 0; i < cf.numel(); ++i) c.data<BFloat16>()[i] = BFloat16::fromFloat(cf.data<float>()[i]);
  }
  return Status::ok();
}

namespace kernels {
namespace {

/// x and y as matrices (1-D operands unsqueezed, their flag dropped), and
/// the shapes of out with and without the unit dims.
struct MatmulPlan {
  Tensor x, y;
  bool tx = false, ty = false;
  Shape out;  // the op's result shape
  bool folded = false;
};

Status planMatmul(const KernelContext& ctx, const Tensor& x, const Tensor& y, MatmulPlan& p) {
  if (x.rank() == 0 || y.rank() == 0) return kernelError(ctx, "matmul needs operands of rank >= 1");
  p.tx = core::getBool(ctx.op, "transpose_x").value_or(false) && x.rank() > 1;
  p.ty = core::getBool(ctx.op, "transpose_y").value_or(false) && y.rank() > 1;
  Shape xs(x.shape().begin(), x.shape().end()), ys(y.shape().begin(), y.shape().end());
  if (xs.size() == 1) xs.insert(xs.begin(), 1);
  if (ys.size() == 1) ys = {ys[0], 1};  // not push_back: GCC 12 -O3-style vectorizing warns falsely (-Warray-bounds)
  int64_t xk = p.tx ? xs[xs.size() - 2] : xs.back(), yk = p.ty ? ys.back() : ys[ys.size() - 2];
  if (xk != yk)
    return kernelError(ctx, "x " + shapeText(x.shape()) + " and y " + shapeText(y.shape()) +
                                " differ in the contracted dim (" + std::to_string(xk) + " vs " + std::to_string(yk) +
                                ")");
  auto batch = broadcastShapes(std::span(xs.data(), xs.size() - 2), std::span(ys.data(), ys.size() - 2));
  if (!batch)
    return kernelError(
        ctx, "the batch dims of " + shapeText(x.shape()) + " and " + shapeText(y.shape()) + " do not broadcast");
  p.out = *batch;
  if (x.rank() > 1) p.out.push_back(p.tx ? xs.back() : xs[xs.size() - 2]);
  if (y.rank() > 1) p.out.push_back(p.ty ? ys[ys.size() - 2] : ys.back());
  // Fold x's batch into its rows when y is one matrix.
  p.folded = ys.size() == 2 && xs.size() > 2 && !p.tx;
  if (p.folded) xs = {numElements(xs) / xs.back(), xs.back()};
  p.x = x.view(xs);
  p.y = y.view(ys);
  return Status::ok();
}

Status matmul(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  MatmulPlan p;
  if (Status s = planMatmul(ctx, ctx.in(0), ctx.in(1), p); !s) return s;
  Tensor c;
  if (Status s = batchedGemm(p.x, p.tx, p.y, p.ty, c); !s) return kernelError(ctx, s.message());
  ctx.setOut(0, c.view(p.out));
  return Status::ok();
}

/// `full` summed back to `target`'s shape (broadcast batch dims) and viewed
/// as `shape`.
Tensor reduceTo(const Tensor& full, const Tensor& target, std::span<const int64_t> shape) {
  if (full.numel() == target.numel()) return full.view(shape);
  return sumToShape(full, target.shape()).view(shape);
}

/// What both grads read: x and y as matrices, and dO (`d`) shaped as their
/// product, with the unit dims of 1-D operands back and rows folded like x's.
Status gradOperands(KernelContext& ctx, MatmulPlan& p, Tensor& d) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  if (Status s = planMatmul(ctx, ctx.in(0), ctx.in(1), p); !s) return s;
  const Tensor& dout = ctx.in(2);
  if (dout.numel() != numElements(p.out))
    return kernelError(ctx, "out_grad " + shapeText(dout.shape()) + " is not the result shape " + shapeText(p.out));
  Shape ds(p.x.shape().begin(), p.x.shape().end() - 2);
  if (!p.folded) {
    auto b = broadcastShapes(ds, std::span(p.y.shape().begin(), p.y.rank() - 2));
    ds = *b;
  }
  ds.push_back(p.tx ? p.x.shape().back() : p.x.dim(p.x.rank() - 2));
  ds.push_back(p.ty ? p.y.dim(p.y.rank() - 2) : p.y.shape().back());
  d = dout.view(ds);
  return Status::ok();
}

/// x_grad (result 0), when the op's type wants it.
Status xGrad(KernelContext& ctx, const MatmulPlan& p, const Tensor& d) {
  if (!wantsResult(ctx, 0)) return Status::ok();
  const Tensor &x = p.x, &y = p.y;
  bool tx = p.tx, ty = p.ty;
  Tensor dx;
  Status s = !tx  ? batchedGemm(d, false, y, !ty, dx)
             : ty ? batchedGemm(y, true, d, true, dx)
                  : batchedGemm(y, false, d, true, dx);
  if (!s) return kernelError(ctx, s.message());
  ctx.setOut(0, reduceTo(dx, x, ctx.in(0).shape()));
  return Status::ok();
}

/// The operands of dy's GEMM, A·B with their flags (y's stored shape).
struct YGradGemm {
  const Tensor *a, *b;
  bool ta, tb;
};
YGradGemm yGradGemm(const MatmulPlan& p, const Tensor& d) {
  if (!p.ty) return {&p.x, &d, !p.tx, false};
  return p.tx ? YGradGemm{&d, &p.x, true, true} : YGradGemm{&d, &p.x, true, false};
}

/// matmul_grad (x, y, out_grad){transpose_x, transpose_y} -> (x_grad, y_grad):
///   tx,ty  dx        dy
///   F,F    dO·Yᵀ     Xᵀ·dO
///   F,T    dO·Y      dOᵀ·X
///   T,F    Y·dOᵀ     X·dO
///   T,T    Yᵀ·dOᵀ    dOᵀ·Xᵀ
Status matmulGrad(KernelContext& ctx) {
  MatmulPlan p;
  Tensor d;
  if (Status s = gradOperands(ctx, p, d); !s) return s;
  if (Status s = xGrad(ctx, p, d); !s) return s;
  if (wantsResult(ctx, 1)) {
    YGradGemm g = yGradGemm(p, d);
    Tensor dy;
    if (Status s = batchedGemm(*g.a, g.ta, *g.b, g.tb, dy); !s) return kernelError(ctx, s.message());
    ctx.setOut(1, reduceTo(dy, p.y, ctx.in(1).shape()));
  }
  return Status::ok();
}

/// y += alpha·op(A)·op(B) for matrices, into y's own buffer.
template <class T>
void accumulate(const YGradGemm& g, double alpha, Tensor& y) {
  const Tensor &a = *g.a, &b = *g.b;
  int64_t m = g.ta ? a.dim(1) : a.dim(0), k = g.ta ? a.dim(0) : a.dim(1), n = g.tb ? b.dim(0) : b.dim(1);
  gemm(g.ta, g.tb, m, n, k, T(alpha), a.data<T>(), a.dim(1), b.data<T>(), b.dim(1), T(1), y.data<T>(), n);
}

}  // namespace
}  // namespace kernels

Status matmulGradUpdate(KernelContext& ctx) {
  using namespace kernels;
  MatmulPlan p;
  Tensor d;
  if (Status s = gradOperands(ctx, p, d); !s) return s;
  if (!ctx.has(3) || ctx.in(3).numel() < 1) return kernelError(ctx, "the fused update has no learning rate");
  Tensor y = ctx.in(1);  // the parameter: a handle on its buffer, which the update writes
  DataType dt = y.dtype();
  if (p.x.rank() != 2 || p.y.rank() != 2 || d.rank() != 2 || (dt != DataType::F32 && dt != DataType::F64))
    return Status::internal("pd_op.matmul_grad: an update fused into a GEMM it cannot make");
  // x_grad first: it reads y as it was.
  if (Status s = xGrad(ctx, p, d); !s) return s;
  YGradGemm g = yGradGemm(p, d);
  const double lr = valueAt(ctx.in(3), 0);
  const int64_t k = g.ta ? g.a->dim(0) : g.a->dim(1);
  // alpha as the GEMM gets it: an f64 learning rate may round to 0 or ∞ in f32
  const double alpha = dt == DataType::F32 ? double(float(-lr)) : -lr;
  if (k == 0 || alpha == 0 || !std::isfinite(alpha)) {
    // As sgd_ would: with alpha 0 BLAS skips the product (0·NaN stays
    // unseen), and an empty batch gives dy = 0, whose ∞·0 is NaN.
    Tensor dy;
    if (Status s = batchedGemm(*g.a, g.ta, *g.b, g.tb, dy); !s) return kernelError(ctx, s.message());
    sgdUpdate(y, dy, lr);
    return Status::ok();
  }
  if (dt == DataType::F32)
    accumulate<float>(g, alpha, y);
  else
    accumulate<double>(g, alpha, y);
  return Status::ok();
}

void registerMatmulKernels(KernelRegistry& r) {
  if (!gThreadsSet) openblas_set_num_threads(1);
  r.add("pd_op.matmul", kernels::matmul, kFloats);
  r.add("pd_op.matmul_grad", kernels::matmulGrad, kFloats);
}

}  // namespace pir::runtime
