//===- elementwise.h - broadcasting binary loops -----------------*- C++ -*-===//
//
// The loop every broadcasting binary kernel shares (add, subtract, multiply,
// divide and the products inside their grads, maximum, minimum, and the
// comparisons and logic ops, whose results are bool). Same-shape f32/f64
// operands go through Eigen's Tensor module, whose explicit SIMD measured
// 1.5x faster than a plain loop at -O2 on a 1M-element add (README
// "Kernels"); bf16, ints, scalars, bool results and other broadcasts take
// plain loops, the general case walking the output row by row with
// per-operand strides.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <unsupported/Eigen/CXX11/Tensor>

#include "runtime/kernels/math_util.h"

namespace pir::runtime::kernels {

/// out[i] = op(x[bx(i)], y[by(i)]) over out's shape, the broadcast of x's and
/// y's, with out of element type R (bool for a comparison); plain loops.
/// `out` must be allocated with that shape.
template <class T, class R, class Op>
void binaryLoopTo(const Tensor& x, const Tensor& y, Tensor& out, Op op) {
  const T* a = x.data<T>();
  const T* b = y.data<T>();
  R* o = out.data<R>();
  int64_t n = out.numel();
  bool sameX = x.numel() == n, sameY = y.numel() == n;
  if (sameX && sameY && std::equal(x.shape().begin(), x.shape().end(), y.shape().begin(), y.shape().end())) {
    for (int64_t i = 0; i < n; ++i) o[i] = store<R>(op(load(a[i]), load(b[i])));
    return;
  }
  if (sameX && y.numel() == 1) {
    auto s = load(b[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = store<R>(op(load(a[i]), s));
    return;
  }
  if (sameY && x.numel() == 1) {
    auto s = load(a[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = store<R>(op(s, load(b[i])));
    return;
  }
  Shape sx = broadcastStrides(x.shape(), out.shape());
  Shape sy = broadcastStrides(y.shape(), out.shape());
  int64_t lx = sx.empty() ? 0 : sx.back(), ly = sy.empty() ? 0 : sy.back();
  forEachRow(out.shape(), sx, sy, [&](int64_t offX, int64_t offY, int64_t row, int64_t len) {
    R* orow = o + row * len;
    for (int64_t j = 0; j < len; ++j) orow[j] = store<R>(op(load(a[offX + j * lx]), load(b[offY + j * ly])));
  });
}

/// As binaryLoopTo with out of x's element type; same-shape f32/f64 operands
/// of an op with an Eigen form (kEigen) go through Eigen.
template <class T, class Op>
void binaryLoop(const Tensor& x, const Tensor& y, Tensor& out, Op op) {
  if constexpr (std::is_floating_point_v<T> && requires { Op::kEigen; }) {
    int64_t n = out.numel();
    if (x.numel() == n && std::equal(x.shape().begin(), x.shape().end(), y.shape().begin(), y.shape().end())) {
      using In = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor>>;
      Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor>> eo(out.data<T>(), n);
      eo = Op::eigen(In(x.data<T>(), n), In(y.data<T>(), n));  // coefficient-wise: out may alias x (add_)
      return;
    }
  }
  binaryLoopTo<T, T>(x, y, out, op);
}

}  // namespace pir::runtime::kernels
