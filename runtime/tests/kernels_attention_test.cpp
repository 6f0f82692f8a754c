//===- kernels_attention_test.cpp - flash_attn and flash_attn_grad --------===//
//
// Against a plain-loop attention written here in f64 (no GEMM, no Eigen),
// by hand where one key makes it exact, and the grad by f64 central
// differences.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <limits>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

std::string attrs(bool causal, double dropout = 0, bool isTest = false, bool returnSoftmax = false) {
  return std::string("dropout:(Float)") + std::to_string(dropout) + ",causal:" + (causal ? "true" : "false") +
         ",return_softmax:" + (returnSoftmax ? "true" : "false") + ",is_test:" + (isTest ? "true" : "false") +
         ",rng_name:\"\"";
}
std::string gradAttrs(bool causal) { return std::string("dropout:(Float)0,causal:") + (causal ? "true" : "false"); }

struct Reference {
  Tensor out, lse;  // lse [b, h, sq]
};

/// softmax(q·kᵀ/sqrt(d) + mask)·v with loops: q [b, sq, h, d], k and v
/// [b, sk, hk, d], mask [mb, mh, sq, sk] or none, causal bottom-right.
Reference reference(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor* mask, bool causal) {
  int64_t B = q.dim(0), SQ = q.dim(1), H = q.dim(2), D = q.dim(3), SK = k.dim(1), HK = k.dim(2);
  Reference r{Tensor::zeros(DataType::F64, q.shape()), Tensor::zeros(DataType::F64, std::vector<int64_t>{B, H, SQ})};
  auto at = [](const Tensor& t, int64_t a, int64_t b, int64_t c, int64_t d) {
    return kernels::valueAt(t, ((a * t.dim(1) + b) * t.dim(2) + c) * t.dim(3) + d);
  };
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h) {
      int64_t hk = h / (H / HK);
      for (int64_t i = 0; i < SQ; ++i) {
        std::vector<double> s(size_t(SK), -std::numeric_limits<double>::infinity());
        for (int64_t j = 0; j < SK; ++j) {
          if (causal && j > i + SK - SQ) continue;
          double dot = 0;
          for (int64_t e = 0; e < D; ++e) dot += at(q, b, i, h, e) * at(k, b, j, hk, e);
          s[size_t(j)] = dot / std::sqrt(double(D));
          if (mask) s[size_t(j)] += at(*mask, mask->dim(0) == 1 ? 0 : b, mask->dim(1) == 1 ? 0 : h, i, j);
        }
        double m = *std::max_element(s.begin(), s.end()), sum = 0;
        for (double x : s) sum += std::exp(x - m);
        r.lse.data<double>()[(b * H + h) * SQ + i] = m + std::log(sum);
        for (int64_t e = 0; e < D; ++e) {
          double o = 0;
          for (int64_t j = 0; j < SK; ++j) o += std::exp(s[size_t(j)] - m) / sum * at(v, b, j, hk, e);
          r.out.data<double>()[((b * SQ + i) * H + h) * D + e] = o;
        }
      }
    }
  return r;
}

/// softmax_lse [b, h, cols] cut to its first sq columns.
Tensor lseRows(const Tensor& lse, int64_t sq) {
  Tensor t = Tensor::allocate(DataType::F64, std::vector<int64_t>{lse.dim(0), lse.dim(1), sq});
  for (int64_t r = 0; r < lse.dim(0) * lse.dim(1); ++r)
    for (int64_t i = 0; i < sq; ++i) t.data<double>()[r * sq + i] = kernels::valueAt(lse, r * lse.dim(2) + i);
  return t;
}

}  // namespace

TEST_CASE("flash_attn with one key is that key's value", "[kernels][attention]") {
  // batch 1, seq 2 queries, 1 key, 1 head, head_dim 4: out = v, lse = q·k/2.
  Tensor q = f64({1, 2, 1, 4}, {1, 0, 0, 0, 0, 2, 0, 0});
  Tensor k = f64({1, 1, 1, 4}, {3, 5, 0, 0}), v = f64({1, 1, 1, 4}, {7, 8, 9, 10});
  auto r = run("pd_op.flash_attn", attrs(false), {q, k, v, {}, {}}, 4);
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {1, 2, 1, 4}, {7, 8, 9, 10, 7, 8, 9, 10}, 1e-15);
  // softmax_lse is [batch, heads, seq_q rounded up to 128] as Paddle's, padded with 0
  REQUIRE(shapeOf(r.out(2)) == Shape{1, 1, 128});
  CHECK(r.out(2).dtype() == DataType::F64);
  CHECK(values(r.out(2))[0] == 1.5);
  CHECK(values(r.out(2))[1] == 5);
  CHECK(values(r.out(2))[2] == 0);
  CHECK(values(r.out(3)) == std::vector<double>{0, 0});
}

TEST_CASE("flash_attn matches a loop attention", "[kernels][attention]") {
  struct Case {
    const char* what;
    Shape q, kv;
    bool causal, mask;
    Shape maskShape;
  };
  std::vector<Case> cases = {
      {"plain", {2, 5, 2, 4}, {2, 5, 2, 4}, false, false, {}},
      {"causal", {2, 5, 2, 4}, {2, 5, 2, 4}, true, false, {}},
      {"causal, fewer queries than keys", {1, 3, 2, 4}, {1, 5, 2, 4}, true, false, {}},
      {"grouped kv heads", {2, 4, 4, 3}, {2, 4, 2, 3}, true, false, {}},
      {"mask per batch and head", {2, 3, 2, 4}, {2, 6, 2, 4}, false, true, {2, 2, 3, 6}},
      {"mask broadcast, rank 5", {2, 3, 2, 4}, {2, 6, 2, 4}, false, true, {1, 1, 1, 3, 6}},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    const Case& k = cases[c];
    INFO(k.what);
    Tensor q = randomF64(k.q, uint32_t(100 + c)), kk = randomF64(k.kv, uint32_t(110 + c)),
           v = randomF64(k.kv, uint32_t(120 + c));
    Tensor mask = k.mask ? randomF64(k.maskShape, uint32_t(130 + c)) : Tensor();
    if (k.mask) mask.data<double>()[1] = -std::numeric_limits<double>::infinity();
    auto r = run("pd_op.flash_attn", attrs(k.causal), {q, kk, v, {}, mask}, 4);
    REQUIRE(r.status.isOk());
    Tensor m4;  // the mask as [leading dims, heads, seq_q, seq_k]
    if (k.mask) {
      int64_t heads = k.maskShape[k.maskShape.size() - 3];
      m4 = mask.view(std::vector<int64_t>{mask.numel() / (heads * k.q[1] * k.kv[1]), heads, k.q[1], k.kv[1]});
    }
    Reference want = reference(q, kk, v, k.mask ? &m4 : nullptr, k.causal);
    checkClose(r.out(0), want.out, 1e-12, 1e-12);
    checkClose(lseRows(r.out(2), k.q[1]), want.lse, 1e-12, 1e-12);
    // f32 and bf16 within their precision
    auto f = run("pd_op.flash_attn", attrs(k.causal),
                 {kernels::castTensor(q, DataType::F32),
                  kernels::castTensor(kk, DataType::F32),
                  kernels::castTensor(v, DataType::F32),
                  {},
                  k.mask ? kernels::castTensor(mask, DataType::F32) : Tensor()},
                 4);
    REQUIRE(f.status.isOk());
    CHECK(f.out(2).dtype() == DataType::F32);
    checkClose(f.out(0), want.out, 1e-5, 1e-5);
    auto b = run("pd_op.flash_attn", attrs(k.causal),
                 {kernels::castTensor(q, DataType::BF16),
                  kernels::castTensor(kk, DataType::BF16),
                  kernels::castTensor(v, DataType::BF16),
                  {},
                  k.mask ? kernels::castTensor(mask, DataType::BF16) : Tensor()},
                 4);
    REQUIRE(b.status.isOk());
    CHECK(b.out(0).dtype() == DataType::BF16);
    checkClose(b.out(0), want.out, 5e-2, 5e-2);
  }
}

TEST_CASE("flash_attn keeps the declared softmax_lse width and fixed seeds", "[kernels][attention]") {
  Tensor q = randomF64({1, 3, 1, 2}, 140), k = randomF64({1, 3, 1, 2}, 141);
  KernelRun r("pd_op.flash_attn", attrs(true), {q, k, k, tensorOf(DataType::I64, {2}, {42, 7}), {}},
              {"builtin.tensor<1x3x1x2xf64>", "<<NULL TYPE>>", "builtin.tensor<1x1x3xf64>", "builtin.tensor<2xi64>"});
  REQUIRE(r.status.isOk());
  CHECK(shapeOf(r.out(2)) == Shape{1, 1, 3});
  CHECK_FALSE(r.out(1).defined());
  CHECK(values(r.out(3)) == std::vector<double>{42, 7});
  // a declared softmax is zeros of its type
  KernelRun s("pd_op.flash_attn", attrs(false), {q, k, k, {}, {}},
              {"builtin.tensor<1x3x1x2xf64>", "builtin.tensor<1x1x128x128xf64>", "builtin.tensor<1x1x128xf32>",
               "builtin.tensor<2xi64>"});
  REQUIRE(s.status.isOk());
  CHECK(shapeOf(s.out(1)) == Shape{1, 1, 128, 128});
}

TEST_CASE("flash_attn refuses what the reference does not compute", "[kernels][attention]") {
  Tensor q = randomF64({1, 2, 2, 4}, 150), k = randomF64({1, 2, 2, 4}, 151);
  auto drop = run("pd_op.flash_attn", attrs(false, 0.1), {q, k, k, {}, {}}, 4);
  CHECK(drop.status.message() ==
        "dropout 0.100000 is not supported (the reference attention runs dropout 0, or is_test)");
  auto test = run("pd_op.flash_attn", attrs(false, 0.1, true), {q, k, k, {}, {}}, 4);
  CHECK(test.status.isOk());  // is_test: no dropout
  auto sm = run("pd_op.flash_attn", attrs(false, 0, false, true), {q, k, k, {}, {}}, 4);
  CHECK(sm.status.message() == "return_softmax is not supported (Paddle returns it only with dropout > 0)");
  auto both = run("pd_op.flash_attn", attrs(true), {q, k, k, {}, randomF64({1, 1, 2, 2}, 152)}, 4);
  CHECK(both.status.message() == "attn_mask and causal cannot be set together (as Paddle's)");
  auto heads = run("pd_op.flash_attn", attrs(false), {randomF64({1, 2, 3, 4}, 153), k, k, {}, {}}, 4);
  CHECK(heads.status.message().find("with heads dividing q's [1x2x3x4]") != std::string::npos);
  auto mask = run("pd_op.flash_attn", attrs(false), {q, k, k, {}, randomF64({1, 3, 2, 2}, 154)}, 4);
  CHECK(mask.status.message() == "attn_mask [1x3x2x2] is not [1 or batch 1, 1 or heads 2, seq_q 2, seq_k 2]");
}

// f64 central differences of sum(out · w) in q, k and v.
TEST_CASE("flash_attn_grad matches finite differences", "[kernels][attention]") {
  struct Case {
    const char* what;
    Shape q, kv;
    bool causal, mask;
  };
  std::vector<Case> cases = {
      {"plain", {2, 3, 2, 4}, {2, 3, 2, 4}, false, false},
      {"causal", {1, 4, 2, 3}, {1, 4, 2, 3}, true, false},
      {"causal, fewer queries", {1, 2, 2, 3}, {1, 4, 2, 3}, true, false},
      {"grouped", {1, 3, 4, 2}, {1, 3, 2, 2}, true, false},
      {"mask", {2, 3, 2, 2}, {2, 4, 2, 2}, false, true},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    const Case& k = cases[c];
    INFO(k.what);
    Tensor q = randomF64(k.q, uint32_t(160 + c)), kk = randomF64(k.kv, uint32_t(170 + c)),
           v = randomF64(k.kv, uint32_t(180 + c)), w = randomF64(k.q, uint32_t(190 + c));
    Tensor mask = k.mask ? randomF64({k.q[0], 1, k.q[1], k.kv[1]}, uint32_t(200 + c)) : Tensor();
    auto fwd = run("pd_op.flash_attn", attrs(k.causal), {q, kk, v, {}, mask}, 4);
    REQUIRE(fwd.status.isOk());
    auto g =
        run("pd_op.flash_attn_grad", gradAttrs(k.causal), {q, kk, v, fwd.out(0), fwd.out(2), fwd.out(3), mask, w}, 3);
    REQUIRE(g.status.isOk());
    auto out = [&](const std::vector<Tensor>& in) {
      auto r = run("pd_op.flash_attn", attrs(k.causal), in, 4);
      REQUIRE(r.status.isOk());
      return r.out(0);
    };
    std::vector<Tensor> in = {q, kk, v, {}, mask};
    for (size_t i = 0; i < 3; ++i) {
      INFO("operand " << i);
      checkClose(g.out(i), numericGrad(out, in, i, w), 1e-8, 1e-7);
    }
  }
}
