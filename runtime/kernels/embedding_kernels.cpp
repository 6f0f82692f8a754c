//===- embedding_kernels.cpp - embedding, c_embedding and their grads -----===//
//
// Row lookups of a [rows, width] table by int32 or int64 ids; the result is
// ids' shape + [width]. As Paddle's CPU kernels:
//   embedding(x, weight){padding_idx, sparse}: row x[i] of weight, zeros where
//     x[i] == padding_idx (a negative padding_idx, Paddle's -1, pads nothing);
//     an id outside [0, rows) is an error naming it.
//   embedding_grad(x, weight, out_grad){padding_idx}: zeros of weight's shape,
//     each out_grad row added to row x[i] (repeats accumulate), padding rows
//     left zero.
//   c_embedding(weight, x){start_index, vocab_size}: the vocab-parallel piece
//     holding rows [start_index, start_index + rows) of the whole table: an id
//     inside reads row id - start_index, one outside gives zeros (the
//     all-reduce after it sums the pieces); an id < 0, or >= vocab_size when
//     that is not -1, is an error.
//   c_embedding_grad(weight, x, out_grad){start_index}: the scatter-add of
//     the ids inside the piece.
// `sparse: true` (a SelectedRows gradient) is refused. bf16 grads accumulate
// in f32.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// The ids, the table, and which ids read which row.
struct Lookup {
  std::vector<int64_t> ids;
  int64_t rows = 0, width = 0;
  int64_t start = 0;     // c_embedding's start_index (0 for embedding)
  int64_t padding = -1;  // embedding's padding_idx; negative: none
  bool sharded = false;  // c_embedding: ids outside the piece give zeros
  Shape outShape;

  /// The row of id `i` in the table, or -1 for a zero row.
  int64_t rowOf(size_t i) const {
    int64_t id = ids[i];
    if (sharded) return id >= start && id < start + rows ? id - start : -1;
    return padding >= 0 && id == padding ? -1 : id;
  }
};

Status refuseSparse(const KernelContext& ctx) {
  if (core::getBool(ctx.op, "sparse").value_or(false))
    return kernelError(ctx, "sparse: true (a SelectedRows gradient) is not supported: the runner's tensors are dense");
  return Status::ok();
}

/// Reads ids (operand `idsAt`) and the table (operand `tableAt`), checking
/// every id against the range its op allows.
Status lookupOf(const KernelContext& ctx, size_t idsAt, size_t tableAt, bool sharded, Lookup& l) {
  if (!ctx.has(idsAt) || !ctx.in(idsAt).defined() || !ctx.has(tableAt) || !ctx.in(tableAt).defined())
    return kernelError(ctx, "ids and weight are required");
  const Tensor& table = ctx.in(tableAt);
  if (table.rank() != 2) return kernelError(ctx, "weight must be 2-D [rows, width], not " + shapeText(table.shape()));
  auto ids = intValues(ctx.in(idsAt), "ids");
  if (!ids) return kernelError(ctx, ids.status().message());
  l.ids = std::move(ids.value());
  l.rows = table.dim(0);
  l.width = table.dim(1);
  l.sharded = sharded;
  l.outShape.assign(ctx.in(idsAt).shape().begin(), ctx.in(idsAt).shape().end());
  l.outShape.push_back(l.width);
  if (sharded) {
    l.start = core::getInt64(ctx.op, "start_index").value_or(0);
    int64_t vocab = core::getInt64(ctx.op, "vocab_size").value_or(-1);
    for (size_t i = 0; i < l.ids.size(); ++i)
      if (l.ids[i] < 0 || (vocab >= 0 && l.ids[i] >= vocab))
        return kernelError(ctx, "id " + std::to_string(l.ids[i]) + " at flat index " + std::to_string(i) +
                                    " is outside [0, vocab_size " + std::to_string(vocab) + ")");
    return Status::ok();
  }
  l.padding = core::getInt64(ctx.op, "padding_idx").value_or(-1);
  for (size_t i = 0; i < l.ids.size(); ++i)
    if ((l.padding < 0 || l.ids[i] != l.padding) && (l.ids[i] < 0 || l.ids[i] >= l.rows))
      return kernelError(ctx, "id " + std::to_string(l.ids[i]) + " at flat index " + std::to_string(i) +
                                  " is outside the table's rows [0, " + std::to_string(l.rows) + ")");
  return Status::ok();
}

/// out[i, :] = table[rowOf(i), :] or zeros: one row copy or fill per id.
Status gatherRows(KernelContext& ctx, const Tensor& table, const Lookup& l) {
  return visitFloat(ctx, table.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor out = Tensor::allocate(table.dtype(), l.outShape);
    const T* w = table.data<T>();
    T* o = out.data<T>();
    for (size_t i = 0; i < l.ids.size(); ++i) {
      int64_t r = l.rowOf(i);
      if (r < 0)
        std::fill_n(o + int64_t(i) * l.width, l.width, T{});
      else
        std::copy_n(w + r * l.width, l.width, o + int64_t(i) * l.width);
    }
    ctx.setOut(0, std::move(out));
    return Status::ok();
  });
}

/// weight_grad = zeros of the table's shape, out_grad row i added to row
/// rowOf(i) (skipped when it is -1); in the grad's dtype, bf16 through f32.
Status scatterAddRows(KernelContext& ctx, const Tensor& dout, const Lookup& l) {
  if (dout.numel() != int64_t(l.ids.size()) * l.width)
    return kernelError(ctx,
                       "out_grad " + shapeText(dout.shape()) + " does not fit ids and width " + shapeText(l.outShape));
  return visitFloat(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    using C = ComputeT<T>;
    int64_t tableShape[] = {l.rows, l.width};
    Tensor acc = Tensor::zeros(std::is_same_v<T, C> ? dout.dtype() : DataType::F32, tableShape);
    C* g = acc.data<C>();
    const T* d = dout.data<T>();
    for (size_t i = 0; i < l.ids.size(); ++i) {
      int64_t r = l.rowOf(i);
      if (r < 0) continue;
      C* grow = g + r * l.width;
      const T* drow = d + int64_t(i) * l.width;
      for (int64_t j = 0; j < l.width; ++j) grow[j] += load(drow[j]);
    }
    ctx.setOut(0, std::is_same_v<T, C> ? std::move(acc) : castTensor(acc, dout.dtype()));
    return Status::ok();
  });
}

Status embedding(KernelContext& ctx) {  // (x, weight)
  if (Status s = refuseSparse(ctx); !s) return s;
  Lookup l;
  if (Status s = lookupOf(ctx, 0, 1, false, l); !s) return s;
  return gatherRows(ctx, ctx.in(1), l);
}

Status embeddingGrad(KernelContext& ctx) {  // (x, weight, out_grad)
  if (Status s = refuseSparse(ctx); !s) return s;
  Lookup l;
  if (Status s = lookupOf(ctx, 0, 1, false, l); !s) return s;
  if (!ctx.has(2) || !ctx.in(2).defined()) return kernelError(ctx, "out_grad is required");
  return scatterAddRows(ctx, ctx.in(2), l);
}

Status cEmbedding(KernelContext& ctx) {  // (weight, x)
  Lookup l;
  if (Status s = lookupOf(ctx, 1, 0, true, l); !s) return s;
  return gatherRows(ctx, ctx.in(0), l);
}

Status cEmbeddingGrad(KernelContext& ctx) {  // (weight, x, out_grad)
  Lookup l;
  if (Status s = lookupOf(ctx, 1, 0, true, l); !s) return s;
  if (!ctx.has(2) || !ctx.in(2).defined()) return kernelError(ctx, "out_grad is required");
  return scatterAddRows(ctx, ctx.in(2), l);
}

}  // namespace
}  // namespace kernels

void registerEmbeddingKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.c_embedding", cEmbedding, kFloats);
  r.add("pd_op.c_embedding_grad", cEmbeddingGrad, kFloats);
  r.add("pd_op.embedding", embedding, kFloats);
  r.add("pd_op.embedding_grad", embeddingGrad, kFloats);
}

}  // namespace pir::runtime
