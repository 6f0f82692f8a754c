//===- binary_kernels.cpp - add, add_n, subtract, multiply, divide, grads -===//
//
// numpy broadcasting (Paddle's axis = -1, right-aligned). A grad sums the
// broadcast dims back to each operand's shape (funcs/elementwise_grad_base.h).
// Ints are accepted by the forward ops; an integer division by zero is an
// error rather than undefined behaviour.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "runtime/kernels/elementwise.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

struct Add {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)  // wraps, as Paddle's int kernels do (no UB)
      return C(std::make_unsigned_t<C>(a) + std::make_unsigned_t<C>(b));
    else
      return a + b;
  }
  static constexpr bool kEigen = true;  // eigen() is the same op on Eigen tensors
  template <class A, class B>
  static auto eigen(const A& a, const B& b) {
    return a + b;
  }
};
struct Sub {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)  // wraps, as Paddle's int kernels do (no UB)
      return C(std::make_unsigned_t<C>(a) - std::make_unsigned_t<C>(b));
    else
      return a - b;
  }
  static constexpr bool kEigen = true;  // eigen() is the same op on Eigen tensors
  template <class A, class B>
  static auto eigen(const A& a, const B& b) {
    return a - b;
  }
};
struct Mul {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)  // wraps, as Paddle's int kernels do (no UB)
      return C(std::make_unsigned_t<C>(a) * std::make_unsigned_t<C>(b));
    else
      return a * b;
  }
  static constexpr bool kEigen = true;  // eigen() is the same op on Eigen tensors
  template <class A, class B>
  static auto eigen(const A& a, const B& b) {
    return a * b;
  }
};
struct Div {
  template <class C>
  C operator()(C a, C b) const {
    if constexpr (std::is_integral_v<C>)  // MIN / -1 wraps to MIN instead of trapping
      if (b == C(-1)) return C(std::make_unsigned_t<C>(0) - std::make_unsigned_t<C>(a));
    return a / b;
  }
  static constexpr bool kEigen = true;  // eigen() is the same op on Eigen tensors
  template <class A, class B>
  static auto eigen(const A& a, const B& b) {
    return a / b;
  }
};

/// The result tensor of a binary op: the preset in-place operand (add_) when
/// it has the broadcast shape, else a dying operand of that shape
/// (reuseOrAllocate: every loop reads index i of a full-shape operand before
/// writing it), else a new one.
Status prepareOut(KernelContext& ctx, const Shape& shape, DataType dtype) {
  Tensor& out = ctx.out(0);
  if (out.defined()) {
    if (!std::equal(out.shape().begin(), out.shape().end(), shape.begin(), shape.end()))
      return kernelError(
          ctx, "in-place result " + shapeText(out.shape()) + " cannot hold the broadcast shape " + shapeText(shape));
    return Status::ok();
  }
  auto full = [&](size_t i) {
    const Tensor& t = ctx.in(i);
    return ctx.reusable(i) && std::equal(t.shape().begin(), t.shape().end(), shape.begin(), shape.end());
  };
  ctx.setOut(0, full(0)   ? reuseOrAllocate(ctx, 0, dtype, shape)
                : full(1) ? reuseOrAllocate(ctx, 1, dtype, shape)
                          : Tensor::allocate(dtype, shape));
  return Status::ok();
}

template <class Op>
Status binaryKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& y = ctx.in(1);
  Shape shape;
  if (Status s = broadcastOf(ctx, x, y, shape); !s) return s;
  return visitNumber(ctx, x.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_integral_v<T> && std::is_same_v<Op, Div>) {
      const T* b = y.data<T>();
      if (std::find(b, b + y.numel(), T(0)) != b + y.numel()) return kernelError(ctx, "integer division by zero");
    }
    // Read y before out may alias x (add_): elementwise, each index is read
    // before it is written.
    if (Status s = prepareOut(ctx, shape, x.dtype()); !s) return s;
    binaryLoop<T>(x, y, ctx.out(0), Op{});
    return Status::ok();
  });
}

/// add_n(inputs): the sum of a vec of tensors of one dtype and shape (the
/// backward's sum of a value's gradients), added in order into a copy of
/// the first.
Status addN(KernelContext& ctx) {
  if (!ctx.has(0)) return kernelError(ctx, "inputs is required");
  const std::vector<Tensor>& xs = ctx.inList(0);
  if (xs.empty() || !xs[0].defined()) return kernelError(ctx, "add_n of no tensors");
  for (size_t i = 1; i < xs.size(); ++i)
    if (!xs[i].defined() || xs[i].dtype() != xs[0].dtype() ||
        !std::equal(xs[i].shape().begin(), xs[i].shape().end(), xs[0].shape().begin(), xs[0].shape().end()))
      return kernelError(ctx, "input " + std::to_string(i) + " " +
                                  (xs[i].defined() ? xs[i].typeText() : std::string("(none)")) +
                                  " differs from input 0 " + xs[0].typeText());
  return visitNumber(ctx, xs[0].dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor sum = xs[0].clone();
    for (size_t i = 1; i < xs.size(); ++i) binaryLoop<T>(sum, xs[i], sum, Add{});
    ctx.setOut(0, std::move(sum));
    return Status::ok();
  });
}

void negateInPlace(Tensor& t) {
  visitDtype(t.dtype(), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (!std::is_same_v<T, bool>) {
      T* p = t.data<T>();
      for (int64_t i = 0; i < t.numel(); ++i) p[i] = store<T>(-load(p[i]));
    }
  });
}

/// add_grad / subtract_grad (x, y, out_grad): the incoming gradient summed
/// back to x's and y's shapes, negated for subtract's y.
template <bool kNegateY>
Status addGradKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {2}); !s) return s;
  if (!ctx.has(0) || !ctx.has(1)) return kernelError(ctx, "x and y are needed for their shapes");
  const Tensor& dout = ctx.in(2);
  // Numbers only: sumToShape does not sum bools.
  return visitNumber(ctx, dout.dtype(), [&](auto*) -> Status {
    if (wantsResult(ctx, 1)) {  // first: x's grad may take dout's buffer
      Tensor dy = sumToShape(dout, ctx.in(1).shape());
      if (kNegateY) negateInPlace(dy);
      ctx.setOut(1, std::move(dy));
    }
    if (wantsResult(ctx, 0)) {
      const Tensor& x = ctx.in(0);
      bool same = std::equal(dout.shape().begin(), dout.shape().end(), x.shape().begin(), x.shape().end());
      ctx.setOut(0, same && ctx.reusable(2) ? dout : sumToShape(dout, x.shape()));  // a dying dout is x's grad
    }
    return Status::ok();
  });
}

/// multiply_grad (x, y, out_grad) -> (sum(dout·y), sum(dout·x)).
Status multiplyGradKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& y = ctx.in(1);
  const Tensor& dout = ctx.in(2);
  return visitNumber(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor tmp = Tensor::allocate(dout.dtype(), dout.shape());
    if (wantsResult(ctx, 0)) {
      binaryLoop<T>(dout, y, tmp, Mul{});
      ctx.setOut(0, sumToShape(tmp, x.shape()));
    }
    if (wantsResult(ctx, 1)) {
      binaryLoop<T>(dout, x, tmp, Mul{});
      ctx.setOut(1, sumToShape(tmp, y.shape()));
    }
    return Status::ok();
  });
}

/// divide_grad (x, y, out, out_grad) -> (sum(dout / y), sum(-dout·out / y)).
Status divideGradKernel(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2, 3}); !s) return s;
  const Tensor& x = ctx.in(0);
  const Tensor& y = ctx.in(1);
  const Tensor& out = ctx.in(2);
  const Tensor& dout = ctx.in(3);
  return visitFloat(ctx, dout.dtype(), [&](auto* tag) -> Status {
    using T = std::remove_pointer_t<decltype(tag)>;
    Tensor q = Tensor::allocate(dout.dtype(), dout.shape());
    binaryLoop<T>(dout, y, q, Div{});
    if (wantsResult(ctx, 1)) {
      Tensor dy = Tensor::allocate(dout.dtype(), dout.shape());
      binaryLoop<T>(q, out, dy, [](auto a, auto b) { return -a * b; });
      ctx.setOut(1, sumToShape(dy, y.shape()));
    }
    if (wantsResult(ctx, 0)) ctx.setOut(0, sumToShape(q, x.shape()));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerBinaryKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.add", binaryKernel<Add>, kNumbers);
  r.add("pd_op.add_", binaryKernel<Add>, kNumbers);
  r.add("pd_op.add_n", addN, kNumbers);
  r.add("pd_op.subtract", binaryKernel<Sub>, kNumbers);
  r.add("pd_op.multiply", binaryKernel<Mul>, kNumbers);
  r.add("pd_op.divide", binaryKernel<Div>, kNumbers);
  r.add("pd_op.add_grad", addGradKernel<false>, kNumbers);
  r.add("pd_op.subtract_grad", addGradKernel<true>, kNumbers);
  r.add("pd_op.multiply_grad", multiplyGradKernel, kNumbers);
  r.add("pd_op.divide_grad", divideGradKernel, kFloats);
}

}  // namespace pir::runtime
