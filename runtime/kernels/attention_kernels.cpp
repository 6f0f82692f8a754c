//===- attention_kernels.cpp - flash_attn and flash_attn_grad -------------===//
//
// flash_attn(q, k, v, fixed_seed_offset?, attn_mask?){dropout, causal,
// return_softmax, is_test, rng_name} -> (out, softmax, softmax_lse,
// seed_offset), the attention Paddle's flash_attn kernel computes, as a
// reference (not the tiled FlashAttention algorithm): q is [batch, seq_q,
// heads, head_dim], k and v [batch, seq_k, heads_k, head_dim] with heads a
// multiple of heads_k (grouped-query: head h reads kv head h / (heads /
// heads_k)); per batch and head
//   S = Q·Kᵀ/sqrt(head_dim) (+ attn_mask), P = softmax(S) by rows, O = P·V,
// causal masking key j from query i when j > i + seq_k - seq_q (FlashAttention
// 2's bottom-right alignment); attn_mask (q's dtype, rank >= 4, its leading
// dims flattened: [1 or batch, 1 or heads, seq_q, seq_k]) is added to S and
// excludes causal. softmax_lse is logsumexp of each row of S, [batch, heads,
// seq_q rounded up to 128] as Paddle's (or the declared last dim), f32 (f64
// for an f64 q); a row with no key left has out 0 and lse +inf; the padding
// is 0. softmax is not returned (return_softmax needs dropout, which is
// refused): a declared one is zeros. seed_offset is int64 [2]:
// fixed_seed_offset's, else 0, 0. Dropout > 0 outside is_test is refused.
//
// flash_attn_grad(q, k, v, out, softmax_lse, seed_offset, attn_mask?,
// out_grad){dropout, causal} -> (q_grad, k_grad, v_grad): P recomputed from
// S and the saved lse, D = rowsum(dO∘O), dS = P∘(dO·Vᵀ - D), dQ = dS·K·scale,
// dK = dSᵀ·Q·scale, dV = Pᵀ·dO (summed over a kv head's query heads).
//
// Every product is one cblas GEMM per (batch, head) on strided views of the
// [batch, seq, heads, dim] tensors; rows (max, exp, sums) are Eigen arrays.
// f32 and bf16 compute in f32, f64 in f64.
//
//===----------------------------------------------------------------------===//
#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"
#include "runtime/kernels/matmul.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

bool present(const KernelContext& ctx, size_t i) { return ctx.has(i) && ctx.in(i).defined(); }

/// The sizes of one call and where a (batch, head)'s matrices start.
struct Attention {
  int64_t batch = 0, seqQ = 0, seqK = 0, heads = 0, headsK = 0, dim = 0;
  bool causal = false;
  double scale = 1;
  // attn_mask as [maskBatch, maskHeads, seqQ, seqK] (0: no mask)
  int64_t maskBatch = 0, maskHeads = 0;
  int64_t lseCols = 0;  // softmax_lse's last dim

  int64_t kvHead(int64_t h) const { return h / (heads / headsK); }
  int64_t qAt(int64_t b, int64_t h) const { return b * seqQ * heads * dim + h * dim; }
  int64_t kAt(int64_t b, int64_t h) const { return b * seqK * headsK * dim + kvHead(h) * dim; }
  int64_t maskAt(int64_t b, int64_t h) const {
    return ((maskBatch == 1 ? 0 : b) * maskHeads + (maskHeads == 1 ? 0 : h)) * seqQ * seqK;
  }
  /// The keys query row i sees: [0, keys(i)).
  int64_t keys(int64_t i) const { return causal ? std::clamp<int64_t>(i + 1 + seqK - seqQ, 0, seqK) : seqK; }
};

int64_t roundUp128(int64_t n) { return (n + 127) / 128 * 128; }

/// Reads and checks the shapes of q (operand 0), k, v and attn_mask
/// (operand `maskAt`), the dropout and causal attributes.
Status attentionOf(const KernelContext& ctx, size_t maskAt, Attention& a) {
  for (size_t i : {0, 1, 2})
    if (!present(ctx, i)) return kernelError(ctx, "q, k and v are required");
  const Tensor &q = ctx.in(0), &k = ctx.in(1), &v = ctx.in(2);
  if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4)
    return kernelError(ctx, "q, k and v must be 4-D [batch, seq, heads, head_dim], not " + shapeText(q.shape()) + ", " +
                                shapeText(k.shape()) + ", " + shapeText(v.shape()));
  a.batch = q.dim(0), a.seqQ = q.dim(1), a.heads = q.dim(2), a.dim = q.dim(3);
  a.seqK = k.dim(1), a.headsK = k.dim(2);
  if (!std::equal(k.shape().begin(), k.shape().end(), v.shape().begin(), v.shape().end()) || k.dim(0) != a.batch ||
      k.dim(3) != a.dim || a.headsK == 0 || a.heads % a.headsK)
    return kernelError(ctx, "k " + shapeText(k.shape()) + " and v " + shapeText(v.shape()) +
                                " must be alike, of q's batch and head_dim, with heads dividing q's " +
                                shapeText(q.shape()));
  if (k.dtype() != q.dtype() || v.dtype() != q.dtype()) return kernelError(ctx, "q, k and v differ in dtype");
  double dropout = core::getDouble(ctx.op, "dropout").value_or(0.0);
  bool isTest = core::getBool(ctx.op, "is_test").value_or(false);
  if (dropout != 0 && !isTest)
    return kernelError(ctx, "dropout " + std::to_string(dropout) +
                                " is not supported (the reference attention runs dropout 0, or is_test)");
  a.causal = core::getBool(ctx.op, "causal").value_or(false);
  a.scale = 1.0 / std::sqrt(double(a.dim));
  if (!present(ctx, maskAt)) return Status::ok();
  const Tensor& m = ctx.in(maskAt);
  if (a.causal) return kernelError(ctx, "attn_mask and causal cannot be set together (as Paddle's)");
  if (m.dtype() != q.dtype()) return kernelError(ctx, "attn_mask " + m.typeText() + " is not of q's dtype");
  size_t r = m.rank();
  a.maskBatch = 1;
  for (size_t i = 0; r >= 4 && i + 3 < r; ++i) a.maskBatch *= m.dim(i);
  a.maskHeads = r >= 4 ? m.dim(r - 3) : 0;
  if (r < 4 || (a.maskBatch != 1 && a.maskBatch != a.batch) || (a.maskHeads != 1 && a.maskHeads != a.heads) ||
      m.dim(r - 2) != a.seqQ || m.dim(r - 1) != a.seqK)
    return kernelError(ctx, "attn_mask " + shapeText(m.shape()) + " is not [1 or batch " + std::to_string(a.batch) +
                                ", 1 or heads " + std::to_string(a.heads) + ", seq_q " + std::to_string(a.seqQ) +
                                ", seq_k " + std::to_string(a.seqK) + "]");
  return Status::ok();
}

template <class C>
using Row = Eigen::Map<Eigen::Array<C, Eigen::Dynamic, 1>>;
template <class C>
using ConstRow = Eigen::Map<const Eigen::Array<C, Eigen::Dynamic, 1>>;

/// S = scale·Q·Kᵀ (+ mask) for (b, h) into `s` [seqQ, seqK], the keys a
/// causal row does not see left unset.
template <class C>
void scores(const Attention& a, int64_t b, int64_t h, const C* q, const C* k, const C* mask, C* s) {
  gemm(false, true, a.seqQ, a.seqK, a.dim, C(a.scale), q + a.qAt(b, h), a.heads * a.dim, k + a.kAt(b, h),
       a.headsK * a.dim, C(0), s, a.seqK);
  if (mask) Row<C>(s, a.seqQ * a.seqK) += ConstRow<C>(mask + a.maskAt(b, h), a.seqQ * a.seqK);
}

template <class C>
void forward(const Attention& a, const C* q, const C* k, const C* v, const C* mask, C* out, C* lse) {
  std::vector<C> s(size_t(a.seqQ * a.seqK));
  const C inf = std::numeric_limits<C>::infinity();
  for (int64_t b = 0; b < a.batch; ++b)
    for (int64_t h = 0; h < a.heads; ++h) {
      scores(a, b, h, q, k, mask, s.data());
      C* rowLse = lse + (b * a.heads + h) * a.lseCols;
      for (int64_t i = 0; i < a.seqQ; ++i) {
        int64_t n = a.keys(i);
        C* p = s.data() + i * a.seqK;
        C m = n ? Row<C>(p, n).maxCoeff() : -inf;
        if (m == -inf) {  // no key: a zero row, lse +inf
          Row<C>(p, a.seqK).setZero();
          rowLse[i] = inf;
          continue;
        }
        Row<C> row(p, n);
        row = (row - m).exp();
        C sum = row.sum();
        row *= C(1) / sum;
        Row<C>(p + n, a.seqK - n).setZero();
        rowLse[i] = m + std::log(sum);
      }
      gemm(false, false, a.seqQ, a.dim, a.seqK, C(1), s.data(), a.seqK, v + a.kAt(b, h), a.headsK * a.dim, C(0),
           out + a.qAt(b, h), a.heads * a.dim);
    }
}

template <class C>
void backward(const Attention& a, const C* q, const C* k, const C* v, const C* mask, const C* out, const C* lse,
              const C* dout, C* dq, C* dk, C* dv) {
  std::vector<C> p(size_t(a.seqQ * a.seqK)), dp(size_t(a.seqQ * a.seqK));
  const C inf = std::numeric_limits<C>::infinity();
  for (int64_t b = 0; b < a.batch; ++b)
    for (int64_t h = 0; h < a.heads; ++h) {
      scores(a, b, h, q, k, mask, p.data());
      const C* rowLse = lse + (b * a.heads + h) * a.lseCols;
      for (int64_t i = 0; i < a.seqQ; ++i) {
        int64_t n = rowLse[i] == inf ? 0 : a.keys(i);
        C* pr = p.data() + i * a.seqK;
        Row<C>(pr, n) = (Row<C>(pr, n) - rowLse[i]).exp();
        Row<C>(pr + n, a.seqK - n).setZero();
      }
      int64_t ldq = a.heads * a.dim, ldk = a.headsK * a.dim;
      // dV += Pᵀ·dO; dP = dO·Vᵀ
      gemm(true, false, a.seqK, a.dim, a.seqQ, C(1), p.data(), a.seqK, dout + a.qAt(b, h), ldq, C(1), dv + a.kAt(b, h),
           ldk);
      gemm(false, true, a.seqQ, a.seqK, a.dim, C(1), dout + a.qAt(b, h), ldq, v + a.kAt(b, h), ldk, C(0), dp.data(),
           a.seqK);
      // dS = P∘(dP - D), D_i = dO_i·O_i
      for (int64_t i = 0; i < a.seqQ; ++i) {
        const C* o = out + a.qAt(b, h) + i * ldq;
        const C* g = dout + a.qAt(b, h) + i * ldq;
        C d = (ConstRow<C>(o, a.dim) * ConstRow<C>(g, a.dim)).sum();
        Row<C> dpr(dp.data() + i * a.seqK, a.seqK);
        dpr = Row<C>(p.data() + i * a.seqK, a.seqK) * (dpr - d);
      }
      // dQ = scale·dS·K; dK += scale·dSᵀ·Q
      gemm(false, false, a.seqQ, a.dim, a.seqK, C(a.scale), dp.data(), a.seqK, k + a.kAt(b, h), ldk, C(0),
           dq + a.qAt(b, h), ldq);
      gemm(true, false, a.seqK, a.dim, a.seqQ, C(a.scale), dp.data(), a.seqK, q + a.qAt(b, h), ldq, C(1),
           dk + a.kAt(b, h), ldk);
    }
}

/// The tensor of operand `i` (or nothing) in the compute dtype `dt`.
Tensor computeCopy(const KernelContext& ctx, size_t i, DataType dt) {
  return present(ctx, i) ? castTensor(ctx.in(i), dt) : Tensor();
}
template <class C>
const C* dataOr(const Tensor& t) {
  return t.defined() ? t.data<C>() : nullptr;
}

Status flashAttn(KernelContext& ctx) {  // (q, k, v, fixed_seed_offset?, attn_mask?)
  Attention a;
  if (Status s = attentionOf(ctx, 4, a); !s) return s;
  if (core::getBool(ctx.op, "return_softmax").value_or(false))
    return kernelError(ctx, "return_softmax is not supported (Paddle returns it only with dropout > 0)");
  const Tensor& q = ctx.in(0);
  DataType dt = q.dtype();
  if (dt != DataType::F32 && dt != DataType::F64 && dt != DataType::BF16)
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(dt)));
  DataType cdt = dt == DataType::F64 ? DataType::F64 : DataType::F32;
  auto lseDims = staticResultDims(ctx.op, 2);
  a.lseCols = lseDims && lseDims->size() == 3 && lseDims->back() >= a.seqQ ? lseDims->back() : roundUp128(a.seqQ);
  int64_t lseShape[] = {a.batch, a.heads, a.lseCols};
  Tensor lse = Tensor::zeros(cdt, lseShape);
  Tensor out = Tensor::allocate(cdt, q.shape());
  Tensor qc = castTensor(q, cdt), kc = castTensor(ctx.in(1), cdt), vc = castTensor(ctx.in(2), cdt);
  Tensor mc = computeCopy(ctx, 4, cdt);
  if (cdt == DataType::F64)
    forward<double>(a, qc.data<double>(), kc.data<double>(), vc.data<double>(), dataOr<double>(mc), out.data<double>(),
                    lse.data<double>());
  else
    forward<float>(a, qc.data<float>(), kc.data<float>(), vc.data<float>(), dataOr<float>(mc), out.data<float>(),
                   lse.data<float>());
  ctx.setOut(0, castTensor(out, dt));
  if (wantsResult(ctx, 1)) {
    auto dims = staticResultDims(ctx.op, 1);
    Shape shape = dims ? *dims : Shape{a.batch, a.heads, roundUp128(a.seqQ), roundUp128(a.seqK)};
    ctx.setOut(1, Tensor::zeros(dt, shape));
  }
  if (wantsResult(ctx, 2)) ctx.setOut(2, std::move(lse));
  if (wantsResult(ctx, 3)) {
    int64_t two[] = {2};
    Tensor so = Tensor::zeros(DataType::I64, two);
    if (present(ctx, 3)) {
      auto fixed = intValues(ctx.in(3), "fixed_seed_offset");
      if (!fixed || fixed->size() != 2) return kernelError(ctx, "fixed_seed_offset must hold two ints");
      so.data<int64_t>()[0] = (*fixed)[0], so.data<int64_t>()[1] = (*fixed)[1];
    }
    ctx.setOut(3, std::move(so));
  }
  return Status::ok();
}

// (q, k, v, out, softmax_lse, seed_offset, attn_mask?, out_grad)
Status flashAttnGrad(KernelContext& ctx) {
  Attention a;
  if (Status s = attentionOf(ctx, 6, a); !s) return s;
  for (size_t i : {3, 4, 7})
    if (!present(ctx, i)) return kernelError(ctx, "out, softmax_lse and out_grad are required");
  const Tensor& q = ctx.in(0);
  DataType dt = q.dtype();
  if (dt != DataType::F32 && dt != DataType::F64 && dt != DataType::BF16)
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(dt)));
  DataType cdt = dt == DataType::F64 ? DataType::F64 : DataType::F32;
  const Tensor &out = ctx.in(3), &lse = ctx.in(4), &dout = ctx.in(7);
  for (const Tensor* t : {&out, &dout})
    if (t->dtype() != dt || !std::equal(t->shape().begin(), t->shape().end(), q.shape().begin(), q.shape().end()))
      return kernelError(ctx, "out and out_grad must be of q's type " + q.typeText() + ", not " + t->typeText());
  if (lse.dtype() != cdt || lse.rank() != 3 || lse.dim(0) != a.batch || lse.dim(1) != a.heads || lse.dim(2) < a.seqQ)
    return kernelError(ctx, "softmax_lse " + lse.typeText() + " is not " + std::string(core::dataTypeName(cdt)) +
                                " [batch, heads, >= seq_q] of q " + shapeText(q.shape()));
  a.lseCols = lse.dim(2);
  Tensor qc = castTensor(q, cdt), kc = castTensor(ctx.in(1), cdt), vc = castTensor(ctx.in(2), cdt);
  Tensor oc = castTensor(out, cdt), gc = castTensor(dout, cdt), mc = computeCopy(ctx, 6, cdt);
  Tensor dq = Tensor::allocate(cdt, q.shape());
  Tensor dk = Tensor::zeros(cdt, ctx.in(1).shape()), dv = Tensor::zeros(cdt, ctx.in(2).shape());
  if (cdt == DataType::F64)
    backward<double>(a, qc.data<double>(), kc.data<double>(), vc.data<double>(), dataOr<double>(mc), oc.data<double>(),
                     lse.data<double>(), gc.data<double>(), dq.data<double>(), dk.data<double>(), dv.data<double>());
  else
    backward<float>(a, qc.data<float>(), kc.data<float>(), vc.data<float>(), dataOr<float>(mc), oc.data<float>(),
                    lse.data<float>(), gc.data<float>(), dq.data<float>(), dk.data<float>(), dv.data<float>());
  if (wantsResult(ctx, 0)) ctx.setOut(0, castTensor(dq, dt));
  if (wantsResult(ctx, 1)) ctx.setOut(1, castTensor(dk, dt));
  if (wantsResult(ctx, 2)) ctx.setOut(2, castTensor(dv, dt));
  return Status::ok();
}

}  // namespace
}  // namespace kernels

void registerAttentionKernels(KernelRegistry& r) {
  r.add("pd_op.flash_attn", kernels::flashAttn, kFloats);
  r.add("pd_op.flash_attn_grad", kernels::flashAttnGrad, kFloats);
}

}  // namespace pir::runtime
