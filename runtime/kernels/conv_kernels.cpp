//===- conv_kernels.cpp - conv2d, pool2d and their grads -------------------===//
//
// conv2d(input, filter){strides, paddings, padding_algorithm, dilations,
// groups, data_format} as Paddle's phi conv kernel computes it: per image
// and group, im2col of the (padded, dilated) windows into a
// [C/g·kh·kw, Ho·Wo] matrix, then one cblas GEMM with the group's filter
// rows. conv2d_grad (input, filter, out_grad) -> (input_grad, filter_grad):
// filter_grad accumulates out_grad·colᵀ over the images (a GEMM with
// beta = 1), input_grad is col2im of filterᵀ·out_grad. paddings has 2
// values (each side) or 4 (top, bottom, left, right); "SAME" pads
// ceil(in/stride) outputs (the extra pad at the bottom/right, dilations
// taken as 1, as Paddle's UpdatePaddingAndDilation), "VALID" pads nothing.
//
// pool2d(x, kernel_size){strides, paddings, ceil_mode, exclusive,
// data_format, pooling_type, global_pooling, adaptive, padding_algorithm}
// follows phi/kernels/funcs/pooling.cc: only the top and left paddings
// place the windows, a window ends at most at in + that padding, and a
// non-exclusive average divides by the window size clipped there (so
// padding counts, the ceil_mode overhang does not). Max starts at -FLT_MAX
// and keeps a NaN; its grad goes to the first maximum of each window.
// adaptive windows are [floor(i·in/out), ceil((i+1)·in/out)).
//
// data_format NCHW or NHWC (and AnyLayout, NCHW's): an NHWC input,
// out_grad or out is transposed to NCHW and the results back, as Paddle's
// CPU conv kernel does (TransToChannelFirst), so an NHWC conv is the same
// im2col and GEMMs; the filter is [M, C/groups, kh, kw] in both. f32 and
// f64; bf16 through f32.
//
//===----------------------------------------------------------------------===//
#include <cblas.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "core/attributes.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime {
namespace kernels {
namespace {

using core::Status;

/// A bool attribute, or the 0/1 integer of 2023 dumps (`is_test:0`).
bool flag(const core::Operation& op, std::string_view key, bool dflt) {
  if (auto b = core::getBool(op, key)) return *b;
  if (auto i = core::getInt64(op, key)) return *i != 0;
  return dflt;
}

/// A string attribute (`"NCHW"`, or the bare `NCHW` of 2023 dumps).
std::string strAttr(const core::Operation& op, std::string_view key, std::string_view dflt) {
  if (auto* s = op.attrOf<core::StringAttr>(key)) return s->value();
  if (auto* s = op.attrOf<core::SymbolAttr>(key)) return std::string(s->text());
  return std::string(dflt);
}

/// `[1, 2]`, for messages about attribute values.
std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

/// A pair attribute (strides, dilations): 2 values (1 is both), each > 0.
Status pairAttr(const KernelContext& ctx, std::string_view key, int64_t& a, int64_t& b) {
  auto v = core::getInt64Array(ctx.op, key);
  if (!v) {
    a = b = 1;
    return Status::ok();
  }
  if (v->size() == 1) v->push_back(v->front());
  if (v->size() != 2 || (*v)[0] <= 0 || (*v)[1] <= 0)
    return kernelError(ctx, std::string(key) + " must be 2 positive values, not " + listText(*v));
  a = (*v)[0];
  b = (*v)[1];
  return Status::ok();
}

/// paddings as [top, bottom, left, right] from 2 or 4 values.
Status paddingsAttr(const KernelContext& ctx, int64_t pads[4]) {
  auto v = core::getInt64Array(ctx.op, "paddings").value_or(std::vector<int64_t>{0, 0});
  if (v.size() == 2)
    v = {v[0], v[0], v[1], v[1]};
  else if (v.size() != 4)
    return kernelError(ctx, "paddings must have 2 or 4 values, not " + std::to_string(v.size()));
  for (int i = 0; i < 4; ++i) {
    if (v[size_t(i)] < 0) return kernelError(ctx, "paddings must not be negative");
    pads[i] = v[size_t(i)];
  }
  return Status::ok();
}

/// Whether data_format puts the channel last (NHWC); an error for a format
/// that is neither NCHW nor NHWC.
Status channelLast(const KernelContext& ctx, bool& last) {
  std::string f = strAttr(ctx.op, "data_format", "NCHW");
  if (f != "NCHW" && f != "AnyLayout" && f != "NHWC")
    return kernelError(ctx, "data_format " + f + " is not supported (NCHW or NHWC)");
  last = f == "NHWC";
  return Status::ok();
}

template <class T>
void permute4(const T* src, std::span<const int64_t> dims, bool toChannelFirst, T* dst) {
  int64_t n = dims[0], a = dims[1], b = dims[2], c = dims[3];  // src dims
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < a; ++j)
      for (int64_t k = 0; k < b; ++k)
        for (int64_t l = 0; l < c; ++l) {
          T v = src[((i * a + j) * b + k) * c + l];
          if (toChannelFirst)  // src NHWC [n, a=H, b=W, c=C] -> NCHW
            dst[((i * c + l) * a + j) * b + k] = v;
          else  // src NCHW [n, a=C, b=H, c=W] -> NHWC
            dst[((i * b + k) * c + l) * a + j] = v;
        }
}

/// A 4-D tensor NHWC -> NCHW (`toChannelFirst`) or NCHW -> NHWC; any other
/// rank is returned as it is (the kernels report it).
Tensor relayout(const Tensor& t, bool toChannelFirst) {
  if (t.rank() != 4) return t;
  std::span<const int64_t> d = t.shape();
  Shape shape = toChannelFirst ? Shape{d[0], d[3], d[1], d[2]} : Shape{d[0], d[2], d[3], d[1]};
  Tensor out = Tensor::allocate(t.dtype(), shape);
  if (out.numel() == 0) return out;
  switch (elementSize(t.dtype())) {  // moves elements: only the width matters
    case 1:
      permute4(t.data<uint8_t>(), d, toChannelFirst, out.data<uint8_t>());
      break;
    case 2:
      permute4(t.data<uint16_t>(), d, toChannelFirst, out.data<uint16_t>());
      break;
    case 4:
      permute4(t.data<uint32_t>(), d, toChannelFirst, out.data<uint32_t>());
      break;
    default:
      permute4(t.data<uint64_t>(), d, toChannelFirst, out.data<uint64_t>());
      break;
  }
  return out;
}

/// Operand `i` in NCHW: as it is, or transposed from NHWC.
Tensor channelFirst(const KernelContext& ctx, size_t i, bool last) {
  return last ? relayout(ctx.in(i), true) : ctx.in(i);
}

/// "SAME" and "VALID" applied to pads (Paddle's UpdatePadding); false for
/// an unknown algorithm.
bool applyPaddingAlgorithm(const std::string& algo, const int64_t in[2], const int64_t stride[2],
                           const int64_t window[2], int64_t pads[4]) {
  if (algo == "SAME") {
    for (int i = 0; i < 2; ++i) {
      int64_t out = (in[i] + stride[i] - 1) / stride[i];
      int64_t sum = std::max<int64_t>((out - 1) * stride[i] + window[i] - in[i], 0);
      pads[2 * i] = sum / 2;
      pads[2 * i + 1] = sum - sum / 2;
    }
    return true;
  }
  if (algo == "VALID") {
    std::fill(pads, pads + 4, 0);
    return true;
  }
  return algo == "EXPLICIT" || algo.empty();
}

void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float beta, float* c) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, blasint(m), blasint(n),
              blasint(k), 1.0f, a, blasint(ta ? m : k), b, blasint(tb ? k : n), beta, c, blasint(n));
}
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, const double* b, double beta, double* c) {
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, blasint(m), blasint(n),
              blasint(k), 1.0, a, blasint(ta ? m : k), b, blasint(tb ? k : n), beta, c, blasint(n));
}

// ---------------------------------------------------------------- conv2d

struct ConvGeom {
  int64_t n, c, h, w;      // input
  int64_t m, kh, kw;       // filter [m, c/groups, kh, kw]
  int64_t groups, cg, mg;  // per group: input and output channels
  int64_t sh, sw, dh, dw;
  int64_t pads[4];  // top, bottom, left, right
  int64_t ho, wo;
  int64_t k() const { return cg * kh * kw; }  // rows of col
  int64_t p() const { return ho * wo; }       // columns of col
  // 1x1, stride 1, no padding: the image is its own col.
  bool direct() const {
    return kh == 1 && kw == 1 && sh == 1 && sw == 1 && pads[0] == 0 && pads[1] == 0 && pads[2] == 0 && pads[3] == 0;
  }
};

/// The geometry of conv2d on `in` (NCHW, after any relayout).
Status convGeom(const KernelContext& ctx, const Tensor& in, const Tensor& filter, ConvGeom& g) {
  if (in.rank() != 4 || filter.rank() != 4)
    return kernelError(
        ctx, "conv2d needs a 4-D input and filter, not " + shapeText(in.shape()) + " and " + shapeText(filter.shape()));
  g.n = in.dim(0), g.c = in.dim(1), g.h = in.dim(2), g.w = in.dim(3);
  g.m = filter.dim(0), g.kh = filter.dim(2), g.kw = filter.dim(3);
  g.groups = core::getInt64(ctx.op, "groups").value_or(1);
  if (g.groups < 1) return kernelError(ctx, "groups must be >= 1, not " + std::to_string(g.groups));
  if (g.c % g.groups != 0)
    return kernelError(
        ctx, "input channels " + std::to_string(g.c) + " are not divisible by groups " + std::to_string(g.groups));
  if (g.m % g.groups != 0)
    return kernelError(ctx, "filter's output channels " + std::to_string(g.m) + " are not divisible by groups " +
                                std::to_string(g.groups));
  g.cg = g.c / g.groups;
  g.mg = g.m / g.groups;
  if (filter.dim(1) != g.cg)
    return kernelError(ctx, "filter " + shapeText(filter.shape()) + " needs " + std::to_string(g.cg) +
                                " input channels per group (input " + shapeText(in.shape()) + ", groups " +
                                std::to_string(g.groups) + ")");
  if (Status s = pairAttr(ctx, "strides", g.sh, g.sw); !s) return s;
  if (Status s = pairAttr(ctx, "dilations", g.dh, g.dw); !s) return s;
  if (Status s = paddingsAttr(ctx, g.pads); !s) return s;
  std::string algo = strAttr(ctx.op, "padding_algorithm", "EXPLICIT");
  int64_t inHW[2] = {g.h, g.w}, stride[2] = {g.sh, g.sw}, window[2] = {g.kh, g.kw};
  if (!applyPaddingAlgorithm(algo, inHW, stride, window, g.pads))
    return kernelError(ctx, "padding_algorithm " + algo + " is not EXPLICIT, SAME or VALID");
  if (algo == "SAME") g.dh = g.dw = 1;
  int64_t eh = g.dh * (g.kh - 1) + 1, ew = g.dw * (g.kw - 1) + 1;
  int64_t spanH = g.h + g.pads[0] + g.pads[1] - eh, spanW = g.w + g.pads[2] + g.pads[3] - ew;
  if (spanH < 0 || spanW < 0 || g.kh < 1 || g.kw < 1)
    return kernelError(
        ctx, "the filter " + shapeText(filter.shape()) + " is larger than the padded input " + shapeText(in.shape()));
  g.ho = spanH / g.sh + 1;
  g.wo = spanW / g.sw + 1;
  return Status::ok();
}

/// The windows of one group's [cg, h, w] image as a [cg·kh·kw, ho·wo] matrix.
template <class T>
void im2col(const T* img, const ConvGeom& g, T* col) {
  for (int64_t c = 0; c < g.cg; ++c)
    for (int64_t i = 0; i < g.kh; ++i)
      for (int64_t j = 0; j < g.kw; ++j) {
        T* row = col + ((c * g.kh + i) * g.kw + j) * g.p();
        for (int64_t oh = 0; oh < g.ho; ++oh) {
          int64_t y = oh * g.sh - g.pads[0] + i * g.dh;
          T* o = row + oh * g.wo;
          if (y < 0 || y >= g.h) {
            std::fill(o, o + g.wo, T(0));
            continue;
          }
          const T* src = img + (c * g.h + y) * g.w;
          for (int64_t ow = 0; ow < g.wo; ++ow) {
            int64_t x = ow * g.sw - g.pads[2] + j * g.dw;
            o[ow] = x >= 0 && x < g.w ? src[x] : T(0);
          }
        }
      }
}

/// The reverse of im2col: adds each col entry to the image element it came
/// from.
template <class T>
void col2im(const T* col, const ConvGeom& g, T* img) {
  for (int64_t c = 0; c < g.cg; ++c)
    for (int64_t i = 0; i < g.kh; ++i)
      for (int64_t j = 0; j < g.kw; ++j) {
        const T* row = col + ((c * g.kh + i) * g.kw + j) * g.p();
        for (int64_t oh = 0; oh < g.ho; ++oh) {
          int64_t y = oh * g.sh - g.pads[0] + i * g.dh;
          if (y < 0 || y >= g.h) continue;
          T* dst = img + (c * g.h + y) * g.w;
          for (int64_t ow = 0; ow < g.wo; ++ow) {
            int64_t x = ow * g.sw - g.pads[2] + j * g.dw;
            if (x >= 0 && x < g.w) dst[x] += row[oh * g.wo + ow];
          }
        }
      }
}

template <class T>
void convForward(const ConvGeom& g, const T* in, const T* filter, T* out) {
  std::vector<T> col(g.direct() ? 0 : size_t(g.k() * g.p()));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t gr = 0; gr < g.groups; ++gr) {
      const T* img = in + (n * g.c + gr * g.cg) * g.h * g.w;
      const T* b = img;
      if (!g.direct()) {
        im2col(img, g, col.data());
        b = col.data();
      }
      gemm(false, false, g.mg, g.p(), g.k(), filter + gr * g.mg * g.k(), b, T(0), out + (n * g.m + gr * g.mg) * g.p());
    }
}

template <class T>
void convBackward(const ConvGeom& g, const T* in, const T* filter, const T* dout, T* din, T* dfilter) {
  std::vector<T> col(size_t(g.k() * g.p()));
  for (int64_t n = 0; n < g.n; ++n)
    for (int64_t gr = 0; gr < g.groups; ++gr) {
      const T* d = dout + (n * g.m + gr * g.mg) * g.p();
      const T* f = filter + gr * g.mg * g.k();
      if (dfilter) {
        const T* img = in + (n * g.c + gr * g.cg) * g.h * g.w;
        const T* b = img;
        if (!g.direct()) {
          im2col(img, g, col.data());
          b = col.data();
        }
        gemm(false, true, g.mg, g.k(), g.p(), d, b, T(1), dfilter + gr * g.mg * g.k());
      }
      if (din) {
        T* img = din + (n * g.c + gr * g.cg) * g.h * g.w;
        if (g.direct()) {
          gemm(true, false, g.k(), g.p(), g.mg, f, d, T(1), img);
        } else {
          gemm(true, false, g.k(), g.p(), g.mg, f, d, T(0), col.data());
          col2im(col.data(), g, img);
        }
      }
    }
}

/// Runs `f.template operator()<C>(tensors as C)` in the compute type C of
/// `dt` (bf16 widened to f32), then narrows the results back.
template <class F>
Status inComputeType(const KernelContext& ctx, DataType dt, F&& f) {
  if (dt == DataType::F32) return f(static_cast<float*>(nullptr), DataType::F32);
  if (dt == DataType::F64) return f(static_cast<double*>(nullptr), DataType::F64);
  if (dt == DataType::BF16) return f(static_cast<float*>(nullptr), DataType::F32);
  return kernelError(ctx, std::string("no kernel for dtype ") + std::string(core::dataTypeName(dt)));
}

Status conv2d(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1}); !s) return s;
  bool last = false;
  if (Status s = channelLast(ctx, last); !s) return s;
  Tensor input = channelFirst(ctx, 0, last);
  ConvGeom g;
  if (Status s = convGeom(ctx, input, ctx.in(1), g); !s) return s;
  DataType dt = input.dtype();
  return inComputeType(ctx, dt, [&](auto* tag, DataType ct) -> Status {
    using C = std::remove_pointer_t<decltype(tag)>;
    Tensor in = castTensor(input, ct), filter = castTensor(ctx.in(1), ct);
    Tensor out = Tensor::allocate(ct, {g.n, g.m, g.ho, g.wo});
    if (out.numel() > 0 && g.k() > 0) convForward<C>(g, in.data<C>(), filter.data<C>(), out.data<C>());
    if (out.numel() > 0 && g.k() == 0) std::fill(out.data<C>(), out.data<C>() + out.numel(), C(0));
    ctx.setOut(0, castTensor(last ? relayout(out, false) : out, dt));
    return Status::ok();
  });
}

Status conv2dGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  bool last = false;
  if (Status s = channelLast(ctx, last); !s) return s;
  Tensor input = channelFirst(ctx, 0, last);
  ConvGeom g;
  if (Status s = convGeom(ctx, input, ctx.in(1), g); !s) return s;
  Shape outShape = last ? Shape{g.n, g.ho, g.wo, g.m} : Shape{g.n, g.m, g.ho, g.wo};
  if (Shape(ctx.in(2).shape().begin(), ctx.in(2).shape().end()) != outShape)
    return kernelError(ctx,
                       "out_grad " + shapeText(ctx.in(2).shape()) + " is not the output shape " + shapeText(outShape));
  Tensor dout = channelFirst(ctx, 2, last);
  DataType dt = input.dtype();
  return inComputeType(ctx, dt, [&](auto* tag, DataType ct) -> Status {
    using C = std::remove_pointer_t<decltype(tag)>;
    Tensor in = castTensor(input, ct), filter = castTensor(ctx.in(1), ct), d = castTensor(dout, ct);
    bool wantIn = wantsResult(ctx, 0), wantFilter = wantsResult(ctx, 1);
    Tensor din = Tensor::zeros(ct, in.shape()), dfilter = Tensor::zeros(ct, filter.shape());
    if (d.numel() > 0 && g.k() > 0)
      convBackward<C>(g, in.data<C>(), filter.data<C>(), d.data<C>(), wantIn ? din.data<C>() : nullptr,
                      wantFilter ? dfilter.data<C>() : nullptr);
    if (wantIn) ctx.setOut(0, castTensor(last ? relayout(din, false) : din, dt));
    if (wantFilter) ctx.setOut(1, castTensor(dfilter, dt));
    return Status::ok();
  });
}

// ---------------------------------------------------------------- pool2d

struct PoolGeom {
  int64_t n, c, h, w;
  int64_t kh, kw, sh, sw;
  int64_t pt, pl;  // the top and left paddings (they place the windows)
  int64_t ho, wo;
  bool max, exclusive, adaptive;

  /// The window of output (oh, ow) clipped to the input, and the divisor
  /// of an average over it.
  void window(int64_t oh, int64_t ow, int64_t& h0, int64_t& h1, int64_t& w0, int64_t& w1, int64_t& size) const {
    if (adaptive) {
      h0 = oh * h / ho, h1 = ((oh + 1) * h + ho - 1) / ho;
      w0 = ow * w / wo, w1 = ((ow + 1) * w + wo - 1) / wo;
      size = (h1 - h0) * (w1 - w0);
      return;
    }
    h0 = oh * sh - pt, w0 = ow * sw - pl;
    h1 = std::min(h0 + kh, h + pt), w1 = std::min(w0 + kw, w + pl);
    size = (h1 - h0) * (w1 - w0);
    h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
    h1 = std::min(h1, h), w1 = std::min(w1, w);
    if (exclusive) size = std::max<int64_t>(h1 - h0, 0) * std::max<int64_t>(w1 - w0, 0);
  }
};

/// The geometry of pool2d on `x` (NCHW, after any relayout).
Status poolGeom(const KernelContext& ctx, const Tensor& x, size_t kernelSizeOperand, PoolGeom& g) {
  if (x.rank() != 4) return kernelError(ctx, "pool2d needs a 4-D x, not " + shapeText(x.shape()));
  g.n = x.dim(0), g.c = x.dim(1), g.h = x.dim(2), g.w = x.dim(3);
  std::string type = strAttr(ctx.op, "pooling_type", "max");
  if (type != "max" && type != "avg") return kernelError(ctx, "pooling_type " + type + " is not max or avg");
  g.max = type == "max";
  g.exclusive = flag(ctx.op, "exclusive", true);
  g.adaptive = flag(ctx.op, "adaptive", false);
  bool global = flag(ctx.op, "global_pooling", false);
  bool ceil = flag(ctx.op, "ceil_mode", false);
  auto ks = intArrayArg(ctx, kernelSizeOperand, "kernel_size");
  if (!ks) return kernelError(ctx, "kernel_size is neither an int tensor nor an IntArray attribute");
  if (ks->size() == 1) ks->push_back(ks->front());
  if (ks->size() != 2) return kernelError(ctx, "kernel_size must have 2 values, not " + listText(*ks));
  g.kh = (*ks)[0], g.kw = (*ks)[1];
  if (global) g.kh = g.h, g.kw = g.w;
  if (Status s = pairAttr(ctx, "strides", g.sh, g.sw); !s) return s;
  int64_t pads[4];
  if (Status s = paddingsAttr(ctx, pads); !s) return s;
  std::string algo = strAttr(ctx.op, "padding_algorithm", "EXPLICIT");
  int64_t inHW[2] = {g.h, g.w}, stride[2] = {g.sh, g.sw}, window[2] = {g.kh, g.kw};
  if (!applyPaddingAlgorithm(algo, inHW, stride, window, pads))
    return kernelError(ctx, "padding_algorithm " + algo + " is not EXPLICIT, SAME or VALID");
  if (global || g.adaptive) std::fill(pads, pads + 4, 0);
  g.pt = pads[0], g.pl = pads[2];
  if (g.kh < 1 || g.kw < 1) return kernelError(ctx, "kernel_size must be positive, not " + listText(*ks));
  if (g.adaptive) {
    g.ho = g.kh, g.wo = g.kw;
    if (g.h == 0 || g.w == 0) return kernelError(ctx, "adaptive pooling of an empty x " + shapeText(x.shape()));
    return Status::ok();
  }
  auto outSize = [&](int64_t in, int64_t k, int64_t p0, int64_t p1, int64_t s) {
    int64_t span = in - k + p0 + p1 + (ceil ? s - 1 : 0);
    return span < 0 ? int64_t(0) : span / s + 1;
  };
  g.ho = outSize(g.h, g.kh, pads[0], pads[1], g.sh);
  g.wo = outSize(g.w, g.kw, pads[2], pads[3], g.sw);
  if (g.ho <= 0 || g.wo <= 0)
    return kernelError(ctx, "kernel_size " + listText(*ks) + " is larger than the padded x " + shapeText(x.shape()));
  return Status::ok();
}

template <class C>
void poolForward(const PoolGeom& g, const C* x, C* out) {
  for (int64_t plane = 0; plane < g.n * g.c; ++plane) {
    const C* img = x + plane * g.h * g.w;
    C* o = out + plane * g.ho * g.wo;
    for (int64_t oh = 0; oh < g.ho; ++oh)
      for (int64_t ow = 0; ow < g.wo; ++ow) {
        int64_t h0, h1, w0, w1, size;
        g.window(oh, ow, h0, h1, w0, w1, size);
        C v = g.max ? C(-FLT_MAX) : C(0);
        for (int64_t y = h0; y < h1; ++y)
          for (int64_t xx = w0; xx < w1; ++xx) v = g.max ? nanMax(v, img[y * g.w + xx]) : v + img[y * g.w + xx];
        if (!g.max) v = size > 0 ? v / C(size) : std::numeric_limits<C>::quiet_NaN();
        o[oh * g.wo + ow] = v;
      }
  }
}

template <class C>
void poolBackward(const PoolGeom& g, const C* x, const C* out, const C* dout, C* dx) {
  for (int64_t plane = 0; plane < g.n * g.c; ++plane) {
    const C* img = x + plane * g.h * g.w;
    C* di = dx + plane * g.h * g.w;
    const C* o = out + plane * g.ho * g.wo;
    const C* d = dout + plane * g.ho * g.wo;
    for (int64_t oh = 0; oh < g.ho; ++oh)
      for (int64_t ow = 0; ow < g.wo; ++ow) {
        int64_t h0, h1, w0, w1, size;
        g.window(oh, ow, h0, h1, w0, w1, size);
        C dv = d[oh * g.wo + ow];
        if (g.max) {
          C m = o[oh * g.wo + ow];
          bool found = false;
          for (int64_t y = h0; y < h1 && !found; ++y)
            for (int64_t xx = w0; xx < w1 && !found; ++xx)
              if (img[y * g.w + xx] == m) {
                di[y * g.w + xx] += dv;
                found = true;
              }
          continue;
        }
        if (size <= 0) continue;
        C share = dv / C(size);
        for (int64_t y = h0; y < h1; ++y)
          for (int64_t xx = w0; xx < w1; ++xx) di[y * g.w + xx] += share;
      }
  }
}

Status pool2d(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0}); !s) return s;
  bool last = false;
  if (Status s = channelLast(ctx, last); !s) return s;
  Tensor input = channelFirst(ctx, 0, last);
  PoolGeom g;
  if (Status s = poolGeom(ctx, input, 1, g); !s) return s;
  DataType dt = input.dtype();
  return inComputeType(ctx, dt, [&](auto* tag, DataType ct) -> Status {
    using C = std::remove_pointer_t<decltype(tag)>;
    Tensor x = castTensor(input, ct);
    Tensor out = Tensor::allocate(ct, {g.n, g.c, g.ho, g.wo});
    poolForward<C>(g, x.data<C>(), out.data<C>());
    ctx.setOut(0, castTensor(last ? relayout(out, false) : out, dt));
    return Status::ok();
  });
}

/// pool2d_grad (x, out, out_grad, kernel_size) -> x_grad.
Status pool2dGrad(KernelContext& ctx) {
  if (Status s = requireOperands(ctx, {0, 1, 2}); !s) return s;
  bool last = false;
  if (Status s = channelLast(ctx, last); !s) return s;
  Tensor input = channelFirst(ctx, 0, last);
  PoolGeom g;
  if (Status s = poolGeom(ctx, input, 3, g); !s) return s;
  Shape outShape = last ? Shape{g.n, g.ho, g.wo, g.c} : Shape{g.n, g.c, g.ho, g.wo};
  for (size_t i : {size_t(1), size_t(2)})
    if (Shape(ctx.in(i).shape().begin(), ctx.in(i).shape().end()) != outShape)
      return kernelError(ctx, std::string(i == 1 ? "out " : "out_grad ") + shapeText(ctx.in(i).shape()) +
                                  " is not the output shape " + shapeText(outShape));
  Tensor outIn = channelFirst(ctx, 1, last), doutIn = channelFirst(ctx, 2, last);
  DataType dt = input.dtype();
  return inComputeType(ctx, dt, [&](auto* tag, DataType ct) -> Status {
    using C = std::remove_pointer_t<decltype(tag)>;
    Tensor x = castTensor(input, ct), out = castTensor(outIn, ct), d = castTensor(doutIn, ct);
    Tensor dx = Tensor::zeros(ct, x.shape());
    poolBackward<C>(g, x.data<C>(), out.data<C>(), d.data<C>(), dx.data<C>());
    ctx.setOut(0, castTensor(last ? relayout(dx, false) : dx, dt));
    return Status::ok();
  });
}

}  // namespace
}  // namespace kernels

void registerConvKernels(KernelRegistry& r) {
  using namespace kernels;
  r.add("pd_op.conv2d", conv2d, kFloats);
  r.add("pd_op.conv2d_grad", conv2dGrad, kFloats);
  r.add("pd_op.pool2d", pool2d, kFloats);
  r.add("pd_op.pool2d_grad", pool2dGrad, kFloats);
}

}  // namespace pir::runtime
