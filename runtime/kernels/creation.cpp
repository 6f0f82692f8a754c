//===- creation.cpp - full*, assign, share_data_, shadow_feed, assign_out_ -===//
//
// A created tensor takes its shape from the result type when that is
// static (dist_to_dense localises types, not `full`'s shape attribute), else
// from the attribute.
//
//===----------------------------------------------------------------------===//
#include "runtime/kernels/kernel_util.h"

namespace pir::runtime {
namespace {

using core::Status;

Status full(KernelContext& ctx) {
  auto dtype = core::getDataType(ctx.op, "dtype");
  if (!dtype || !isRunnable(*dtype)) return Status::error("no dtype the runner computes with");
  auto dims = staticResultDims(ctx.op, 0);
  if (!dims) dims = core::getIntArray(ctx.op, "shape");
  if (!dims) return Status::error("no shape");
  auto value = core::getDouble(ctx.op, "value");
  if (!value) return Status::error("no value");
  Tensor out = Tensor::allocate(*dtype, *dims);
  fillWith(out, *value);
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status fullIntArray(KernelContext& ctx) {
  auto value = core::getInt64Array(ctx.op, "value");
  if (!value) return Status::error("no value");
  DataType dtype = core::getDataType(ctx.op, "dtype").value_or(DataType::I64);
  if (dtype != DataType::I64 && dtype != DataType::I32) return Status::error("dtype must be int32 or int64");
  int64_t n = int64_t(value->size());
  Tensor out = Tensor::allocate(dtype, std::span<const int64_t>(&n, 1));
  for (int64_t i = 0; i < n; ++i) {
    if (dtype == DataType::I64)
      out.data<int64_t>()[i] = (*value)[i];
    else
      out.data<int32_t>()[i] = int32_t((*value)[i]);
  }
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status fullLike(KernelContext& ctx) {
  const Tensor& x = ctx.in(0);
  auto value =
      ctx.has(1) ? scalarValue(ctx.in(1), "value") : core::Result<double>(core::getDouble(ctx.op, "value").value_or(0));
  if (!value) return value.takeStatus();
  DataType dtype = core::getDataType(ctx.op, "dtype").value_or(x.dtype());
  if (!isRunnable(dtype)) dtype = x.dtype();  // Paddle's `undefined` dtype: x's
  Tensor out = Tensor::allocate(dtype, x.shape());
  fillWith(out, *value);
  ctx.setOut(0, std::move(out));
  return Status::ok();
}

Status assign(KernelContext& ctx) {
  ctx.setOut(0, ctx.in(0).clone());
  return Status::ok();
}

Status shareData(KernelContext& ctx) {
  ctx.setOut(0, ctx.in(0));
  return Status::ok();
}

/// assign_out_(x, output): x's elements into output's buffer (the result
/// arrives preset to it, the op table's in-place pair).
Status assignOut(KernelContext& ctx) {
  const Tensor& x = ctx.in(0);
  Tensor& out = ctx.out(0);
  if (!out.defined()) out = ctx.in(1);
  if (out.dtype() != x.dtype() || out.numel() != x.numel())
    return Status::error("cannot assign " + x.typeText() + " to " + out.typeText());
  if (!out.sharesStorageWith(x) && x.bytes()) std::memcpy(out.raw(), x.raw(), x.bytes());
  return Status::ok();
}

}  // namespace

void registerCreationKernels(KernelRegistry& r) {
  r.add("pd_op.assign", assign);
  r.add("pd_op.assign_out_", assignOut);
  r.add("pd_op.full", full);
  r.add("pd_op.full_int_array", fullIntArray);
  r.add("pd_op.full_like", fullLike);
  r.add("pd_op.shadow_feed", shareData);  // the kernel dialect's copy to a device: the identity on CPU
  r.add("pd_op.share_data_", shareData);
}

}  // namespace pir::runtime
