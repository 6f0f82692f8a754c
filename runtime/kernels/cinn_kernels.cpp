//===- cinn_kernels.cpp - the CINN dialect's data movement ----------------===//
//
// cinn_op.broadcast (x){broadcast_axes, out_shape}, as it appears inside a
// cinn_op.group region: x's dim i is placed at output dim broadcast_axes[i]
// (increasing), the other output dims are 1, then numpy's broadcast_to
// out_shape. CINN's reductions are in reduce_kernels.cpp.
//
//===----------------------------------------------------------------------===//
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

Status cinnBroadcast(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  const Tensor& x = ctx.in(0);
  auto axes = core::getInt64Array(ctx.op, "broadcast_axes");
  auto outShape = core::getInt64Array(ctx.op, "out_shape");
  if (!axes || !outShape) return kernelError(ctx, "broadcast_axes and out_shape must be int array attributes");
  if (axes->size() != x.rank())
    return kernelError(ctx, std::to_string(axes->size()) + " broadcast_axes for x of rank " + std::to_string(x.rank()));
  for (int64_t d : *outShape)
    if (d < 0) return kernelError(ctx, "out_shape " + shapeText(*outShape) + " has a negative dim");
  // x's shape with its dims at their output axes and 1 elsewhere.
  Shape placed(outShape->size(), 1);
  int64_t previous = -1;
  for (size_t i = 0; i < axes->size(); ++i) {
    int64_t a = (*axes)[i];
    if (a <= previous || a >= int64_t(outShape->size()))
      return kernelError(ctx,
                         "broadcast_axes must increase within the output's rank " + std::to_string(outShape->size()));
    previous = a;
    int64_t want = (*outShape)[size_t(a)];
    if (x.dim(i) != 1 && x.dim(i) != want)
      return kernelError(ctx, "x " + shapeText(x.shape()) + " does not broadcast to " + shapeText(*outShape));
    placed[size_t(a)] = x.dim(i);
  }
  if (!isRunnable(x.dtype()))
    return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(x.dtype())));
  Tensor out = Tensor::allocate(x.dtype(), *outShape);
  visitDtype(x.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    const T* a = x.data<T>();
    T* o = out.data<T>();
    Shape sx = broadcastStrides(placed, *outShape);
    Shape so = broadcastStrides(*outShape, *outShape);
    int64_t lx = sx.empty() ? 0 : sx.back();
    forEachRow(*outShape, so, sx, [&](int64_t offO, int64_t offX, int64_t, int64_t n) {
      for (int64_t j = 0; j < n; ++j) o[offO + j] = a[offX + j * lx];
    });
  });
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

}  // namespace
}  // namespace kernels

void registerCinnKernels(KernelRegistry& r) { r.add("cinn_op.broadcast", kernels::cinnBroadcast, kAllDtypes); }

}  // namespace pir::runtime
