//===- select_kernels.cpp - select_input and select_output ----------------===//
//
// The branch selection the translator from Paddle's old IR leaves around a
// conditional block (Paddle's select_input_instruction.cc and
// select_output_instruction.cc): a mask, one int32 element, picks an input
// or an output. select_input(mask, inputs...) copies inputs[mask];
// select_output(mask, x) copies x into result `mask`. A mask outside the
// values is an error (Paddle's select_output checks mask <= count, one too
// many). The results select_output does not pick are zeros of their
// declared type (-1 dims take x's): Paddle leaves them unset, and no branch
// that runs reads them.
//
//===----------------------------------------------------------------------===//
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

core::Result<int64_t> branchOf(KernelContext& ctx, size_t operand, size_t count) {
  if (!ctx.has(operand)) return kernelError(ctx, "no mask");
  const Tensor& mask = ctx.in(operand);
  if (mask.numel() != 1 || (mask.dtype() != DataType::I32 && mask.dtype() != DataType::I64))
    return kernelError(ctx, "the mask is " + mask.typeText() + ", not one int32 element");
  int64_t b = mask.dtype() == DataType::I32 ? mask.data<int32_t>()[0] : mask.data<int64_t>()[0];
  if (b < 0 || size_t(b) >= count)
    return kernelError(ctx, "the mask is " + std::to_string(b) + ", there are " + std::to_string(count) + " branches");
  return b;
}

Status selectInput(KernelContext& ctx) {
  auto b = branchOf(ctx, 0, ctx.operands.size() - 1);
  if (!b) return b.takeStatus();
  if (!ctx.has(size_t(*b) + 1)) return kernelError(ctx, "input " + std::to_string(*b) + " is absent");
  ctx.setOut(0, ctx.in(size_t(*b) + 1).clone());
  return Status::ok();
}

Status selectOutput(KernelContext& ctx) {
  auto b = branchOf(ctx, 0, ctx.results.size());
  if (!b) return b.takeStatus();
  if (Status s = requireOperands(ctx, {1}); !s) return s;
  const Tensor& x = ctx.in(1);
  for (size_t i = 0; i < ctx.results.size(); ++i) {
    if (int64_t(i) == *b) {
      ctx.setOut(i, x.clone());
      continue;
    }
    auto declared = core::tensorShape(ctx.op.result(uint32_t(i))->type());
    if (!declared || !isRunnable(declared->dtype)) continue;  // the executor's check names it
    std::vector<int64_t> dims(declared->dims.begin(), declared->dims.end());
    for (size_t d = 0; d < dims.size(); ++d)
      if (dims[d] < 0) dims[d] = d < x.rank() ? x.dim(d) : 0;
    ctx.setOut(i, Tensor::zeros(declared->dtype, dims));
  }
  return Status::ok();
}

}  // namespace
}  // namespace kernels

void registerSelectKernels(KernelRegistry& r) {
  r.add("pd_op.select_input", kernels::selectInput, kAllDtypes);
  r.add("pd_op.select_output", kernels::selectOutput, kAllDtypes);
}

}  // namespace pir::runtime
