//===- creation.cpp - full*, assign*, share_data_, shadow_feed ------------===//
//
// A created tensor takes its shape from the result type when that is
// static (dist_to_dense localises types, not `full`'s shape attribute), else
// from the attribute.
//
//===----------------------------------------------------------------------===//
#include <limits>

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

/// assign_value(_) {shape, dtype, values}: `values` (numbers, or bools) in
/// C order; assign_value_ writes them into its operand's buffer (the result
/// arrives preset to it).
Status assignValue(KernelContext& ctx) {
  auto dtype = core::getDataType(ctx.op, "dtype");
  if (!dtype || !isRunnable(*dtype)) return Status::error("no dtype the runner computes with");
  auto dims = staticResultDims(ctx.op, 0);
  if (!dims) dims = core::getIntArray(ctx.op, "shape");
  if (!dims) return Status::error("no shape");
  auto* values = ctx.op.attrOf<core::ArrayAttr>("values");
  if (!values) return Status::error("no 'values' array");
  Tensor out = ctx.out(0).defined() ? ctx.out(0) : Tensor::allocate(*dtype, *dims);
  if (out.dtype() != *dtype || out.numel() != int64_t(values->size()))
    return Status::error(std::to_string(values->size()) + " values for " + typeText(*dtype, *dims) +
                         (ctx.out(0).defined() ? " into " + out.typeText() : ""));
  for (size_t i = 0; i < values->size(); ++i) {
    const core::Attribute* a = values->elements()[i];
    std::optional<double> v = core::getDouble(a);
    if (!v)
      if (auto b = core::getBool(a)) v = *b ? 1.0 : 0.0;
    if (!v) return Status::error("value " + std::to_string(i) + " is no number");
    bool fits = visitDtype(out.dtype(), [&](auto* tag) {
      using T = std::remove_pointer_t<decltype(tag)>;
      if constexpr (std::is_same_v<T, BFloat16>) {
        out.data<T>()[i] = BFloat16::fromFloat(float(*v));
      } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (!(*v >= double(std::numeric_limits<T>::min()) && *v <= double(std::numeric_limits<T>::max()))) return false;
        out.data<T>()[i] = T(*v);
      } else {
        out.data<T>()[i] = T(*v);
      }
      return true;
    });
    if (!fits) return Status::error("value " + std::to_string(i) + " does not fit " + typeText(*dtype, {}));
  }
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
  r.add("pd_op.assign", assign, kAllDtypes);
  // Of a dense value, after apply-partition: the whole value on every rank
  // (the reshard after it cuts the rank's piece).
  r.add("dist_op.shard_tensor", shareData, kAllDtypes);
  r.add("pd_op.assign_out_", assignOut, kAllDtypes);
  r.add("pd_op.assign_value", assignValue, kAllDtypes);
  r.add("pd_op.assign_value_", assignValue, kAllDtypes);
  r.add("pd_op.full", full, kAllDtypes);
  r.add("pd_op.full_int_array", fullIntArray, kInts);
  r.add("pd_op.full_like", fullLike, kAllDtypes);
  r.add("pd_op.shadow_feed", shareData, kAllDtypes);  // the kernel dialect's copy to a device: the identity on CPU
  r.add("pd_op.share_data_", shareData, kAllDtypes);
}

}  // namespace pir::runtime
