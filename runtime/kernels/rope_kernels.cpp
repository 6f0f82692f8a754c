//===- rope_kernels.cpp - fused_rotary_position_embedding and its grad ----===//
//
// fused_rotary_position_embedding(q, k?, v?, sin?, cos?, position_ids?)
// {use_neox_rotary_style, time_major, rotary_emb_base} -> (out_q, out_k,
// out_v), as Paddle's fusion/gpu/fused_rope_kernel.cu: each of q, k, v is
// [batch, seq, heads, head_dim] ([seq, batch, ..] with time_major), heads
// may differ (grouped k and v); every head vector x at position p becomes
//   out[j] = x[j]·cos[p, j] + rot(x)[j]·sin[p, j],
// where rot pairs (2i, 2i+1) with use_neox_rotary_style (Paddle's name for
// it: rot(x)[2i] = -x[2i+1], rot(x)[2i+1] = x[2i]) and the halves without
// (rot(x)[j] = -x[j + d/2] for j < d/2, x[j - d/2] after). p is the sequence
// index, or position_ids[b, s] (int64 [batch, seq]). sin and cos, both or
// neither, are [seq', head_dim] or [1, seq', 1, head_dim], seq' = seq without
// position_ids, > every position with them; without them the table is
// sin/cos(p / rotary_emb_base^(e/head_dim)) with e = 2·(j/2) for the pairs
// and 2·(j mod d/2) for the halves (Paddle uses 2·(j/2) for both, which for
// the halves is no rotation: docs/pir-run.md). The grad applies the
// transpose to out_*_grad (sin and cos from the same operands).
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

bool present(const KernelContext& ctx, size_t i) { return ctx.has(i) && ctx.in(i).defined(); }

/// What every head vector of one call shares: the layout, the table, the
/// positions.
struct Rope {
  int64_t batch = 0, seq = 0, dim = 0;
  bool timeMajor = false, pairs = true;
  double base = 10000;
  const Tensor* sin = nullptr;  // with cos: the table, rows by position
  const Tensor* cos = nullptr;
  int64_t tableRows = 0;
  std::vector<int64_t> positions;  // [batch, seq], empty: the sequence index

  int64_t position(int64_t b, int64_t s) const { return positions.empty() ? s : positions[size_t(b * seq + s)]; }
};

/// Reads the attributes, sin, cos and position_ids (operands `tables`,
/// `tables + 1`, `tables + 2`) for heads shaped like `first`.
Status ropeOf(const KernelContext& ctx, const Tensor& first, size_t tables, Rope& r) {
  if (first.rank() != 4)
    return kernelError(ctx, "q must be 4-D [batch, seq, heads, head_dim], not " + shapeText(first.shape()));
  r.timeMajor = core::getBool(ctx.op, "time_major").value_or(false);
  r.pairs = core::getBool(ctx.op, "use_neox_rotary_style").value_or(true);
  r.base = core::getDouble(ctx.op, "rotary_emb_base").value_or(10000.0);
  r.batch = first.dim(r.timeMajor ? 1 : 0);
  r.seq = first.dim(r.timeMajor ? 0 : 1);
  r.dim = first.dim(3);
  if (r.dim % 2) return kernelError(ctx, "head_dim " + std::to_string(r.dim) + " is odd");
  if (present(ctx, tables + 2)) {
    const Tensor& ids = ctx.in(tables + 2);
    if (ids.dtype() != DataType::I64 || ids.rank() != 2 || ids.dim(0) != r.batch || ids.dim(1) != r.seq)
      return kernelError(ctx, "position_ids " + ids.typeText() + " is not int64 [batch " + std::to_string(r.batch) +
                                  ", seq " + std::to_string(r.seq) + "]");
    r.positions.assign(ids.data<int64_t>(), ids.data<int64_t>() + ids.numel());
  }
  if (!present(ctx, tables) || !present(ctx, tables + 1)) return Status::ok();
  const Tensor& sin = ctx.in(tables);
  const Tensor& cos = ctx.in(tables + 1);
  bool shapeOk = std::equal(sin.shape().begin(), sin.shape().end(), cos.shape().begin(), cos.shape().end()) &&
                 (sin.rank() == 2 || (sin.rank() == 4 && sin.dim(0) == 1 && sin.dim(2) == 1)) &&
                 sin.dim(sin.rank() - 1) == r.dim && sin.dtype() == first.dtype() && cos.dtype() == first.dtype();
  if (!shapeOk)
    return kernelError(ctx, "sin " + sin.typeText() + " and cos " + cos.typeText() +
                                " must be alike, [seq, head_dim] or [1, seq, 1, head_dim] of q's dtype, head_dim " +
                                std::to_string(r.dim));
  r.sin = &sin;
  r.cos = &cos;
  r.tableRows = sin.dim(sin.rank() == 4 ? 1 : 0);
  if (r.positions.empty() && r.tableRows != r.seq)
    return kernelError(
        ctx, "sin and cos have " + std::to_string(r.tableRows) + " positions, q's seq is " + std::to_string(r.seq));
  for (size_t i = 0; i < r.positions.size(); ++i)
    if (r.positions[i] < 0 || r.positions[i] >= r.tableRows)
      return kernelError(ctx, "position " + std::to_string(r.positions[i]) + " at flat index " + std::to_string(i) +
                                  " is outside sin and cos's " + std::to_string(r.tableRows) + " positions");
  return Status::ok();
}

/// sin and cos of position `p` into `sn`, `cs` (head_dim each): the table's
/// row, or the frequencies computed in C.
template <class T, class C>
void tableRow(const Rope& r, int64_t p, C* sn, C* cs) {
  if (r.sin) {
    const T* s = r.sin->data<T>() + p * r.dim;
    const T* c = r.cos->data<T>() + p * r.dim;
    for (int64_t j = 0; j < r.dim; ++j) sn[j] = load(s[j]), cs[j] = load(c[j]);
    return;
  }
  int64_t half = r.dim / 2;
  for (int64_t j = 0; j < r.dim; ++j) {
    int64_t e = r.pairs ? (j / 2) * 2 : (j % half) * 2;
    C angle = C(p) / C(std::pow(r.base, double(e) / double(r.dim)));
    sn[j] = std::sin(angle), cs[j] = std::cos(angle);
  }
}

/// dst = src·cos + rot(src)·sin for one head vector, or with `transpose`
/// the transposed map (the grad).
template <class T, class C>
void rotate(const T* src, T* dst, const C* sn, const C* cs, int64_t d, bool pairs, bool transpose) {
  int64_t half = d / 2;
  for (int64_t j = 0; j < d; ++j) {
    int64_t k = pairs ? (j % 2 ? j - 1 : j + 1) : (j < half ? j + half : j - half);
    bool minus = pairs ? j % 2 == 0 : j < half;  // the sign of rot's term
    C other = load(src[k]);
    // forward: rot(x)[j]·sin[j]; transpose: the term of x[j] in rot(x)[k]·sin[k]
    C term = transpose ? (minus ? other : -other) * sn[k] : (minus ? -other : other) * sn[j];
    dst[j] = store<T>(C(load(src[j])) * cs[j] + term);
  }
}

/// Applies the rotation to operands `heads` (q, k, v or their grads, absent
/// ones skipped) into results 0, 1, 2.
Status rotateAll(KernelContext& ctx, std::initializer_list<size_t> heads, size_t tables, bool transpose) {
  size_t firstAt = *heads.begin();
  if (!present(ctx, firstAt)) return kernelError(ctx, "q (or out_q_grad) is required");
  const Tensor& first = ctx.in(firstAt);
  Rope r;
  if (Status s = ropeOf(ctx, first, tables, r); !s) return s;
  for (size_t i : heads) {
    if (!present(ctx, i)) continue;
    const Tensor& t = ctx.in(i);
    if (t.rank() != 4 || t.dtype() != first.dtype() || t.dim(0) != first.dim(0) || t.dim(1) != first.dim(1) ||
        t.dim(3) != r.dim)
      return kernelError(ctx, "operand " + std::to_string(i) + " " + t.typeText() + " does not match q " +
                                  first.typeText() + " but in heads");
  }
  return visitFloat(ctx, first.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    std::vector<C> sn(size_t(r.dim)), cs(size_t(r.dim));
    std::vector<Tensor> outs;
    for (size_t i : heads)
      outs.push_back(present(ctx, i) ? Tensor::allocate(first.dtype(), ctx.in(i).shape()) : Tensor());
    for (int64_t b = 0; b < r.batch; ++b)
      for (int64_t s = 0; s < r.seq; ++s) {
        tableRow<T>(r, r.position(b, s), sn.data(), cs.data());
        size_t n = 0;
        for (size_t i : heads) {
          Tensor& out = outs[n++];
          if (!out.defined()) continue;
          int64_t nh = out.dim(2);
          int64_t at = ((r.timeMajor ? s * r.batch + b : b * r.seq + s) * nh) * r.dim;
          const T* src = ctx.in(i).template data<T>() + at;
          T* dst = out.data<T>() + at;
          for (int64_t h = 0; h < nh; ++h)
            rotate(src + h * r.dim, dst + h * r.dim, sn.data(), cs.data(), r.dim, r.pairs, transpose);
        }
      }
    for (size_t n = 0; n < outs.size(); ++n)
      if (outs[n].defined() && wantsResult(ctx, n)) ctx.setOut(n, std::move(outs[n]));
    return Status::ok();
  });
}

Status rope(KernelContext& ctx) {  // (q, k, v, sin, cos, position_ids)
  return rotateAll(ctx, {0, 1, 2}, 3, false);
}

Status ropeGrad(KernelContext& ctx) {  // (sin, cos, position_ids, out_q_grad, out_k_grad, out_v_grad)
  return rotateAll(ctx, {3, 4, 5}, 0, true);
}

}  // namespace
}  // namespace kernels

void registerRopeKernels(KernelRegistry& r) {
  r.add("pd_op.fused_rotary_position_embedding", kernels::rope, kFloats);
  r.add("pd_op.fused_rotary_position_embedding_grad", kernels::ropeGrad, kFloats);
}

}  // namespace pir::runtime
