//===- elementwise.h - broadcasting binary loops -----------------*- C++ -*-===//
//
// The loop every broadcasting binary kernel shares (add, subtract, multiply,
// divide and the products inside their grads). Same-shape f32/f64 operands
// go through Eigen's Tensor module, whose explicit SIMD measured 1.5x faster
// than a plain loop at -O2 on a 1M-element add (README "Kernels"); bf16,
// ints, scalars and other broadcasts take plain loops, the general case
// walking the output row by row with per-operand strides.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <unsupported/Eigen/CXX11/Tensor>

#include "runtime/kernels/math_util.h"

namespace pir::runtime::kernels {

/// out[i] = op(x[bx(i)], y[by(i)]) over out's shape, the broadcast of x's and
/// y's; `out` is allocated with that shape (and x's dtype) when empty.
template <class T, class Op>
void binaryLoop(const Tensor& x, const Tensor& y, Tensor& out, Op op) {
  const T* a = x.data<T>();
  const T* b = y.data<T>();
  T* o = out.data<T>();
  int64_t n = out.numel();
  bool sameX = x.numel() == n, sameY = y.numel() == n;
  if (sameX && sameY && std::equal(x.shape().begin(), x.shape().end(), y.shape().begin(), y.shape().end())) {
    if constexpr (std::is_floating_point_v<T> && requires { Op::kEigen; }) {
      using In = Eigen::TensorMap<Eigen::Tensor<const T, 1, Eigen::RowMajor>>;
      Eigen::TensorMap<Eigen::Tensor<T, 1, Eigen::RowMajor>> eo(o, n);
      eo = Op::eigen(In(a, n), In(b, n));  // coefficient-wise: o may alias a (add_)
      return;
    }
    for (int64_t i = 0; i < n; ++i) o[i] = store<T>(op(load(a[i]), load(b[i])));
    return;
  }
  if (sameX && y.numel() == 1) {
    auto s = load(b[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = store<T>(op(load(a[i]), s));
    return;
  }
  if (sameY && x.numel() == 1) {
    auto s = load(a[0]);
    for (int64_t i = 0; i < n; ++i) o[i] = store<T>(op(s, load(b[i])));
    return;
  }
  Shape sx = broadcastStrides(x.shape(), out.shape());
  Shape sy = broadcastStrides(y.shape(), out.shape());
  int64_t lx = sx.empty() ? 0 : sx.back(), ly = sy.empty() ? 0 : sy.back();
  forEachRow(out.shape(), sx, sy, [&](int64_t offX, int64_t offY, int64_t row, int64_t len) {
    T* orow = o + row * len;
    for (int64_t j = 0; j < len; ++j) orow[j] = store<T>(op(load(a[offX + j * lx]), load(b[offY + j * ly])));
  });
}

}  // namespace pir::runtime::kernels
