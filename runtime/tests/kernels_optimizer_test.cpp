//===- kernels_optimizer_test.cpp - sgd_, adam_, adamw_: one step by hand --===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

TEST_CASE("sgd_ updates the param in place", "[kernels]") {
  Tensor p = f32({3}, {1, 2, 3});
  auto r = run("pd_op.sgd_", "multi_precision:false", {p, f32({}, {0.1}), f32({3}, {1, -2, 0.5}), Tensor()}, 2);
  REQUIRE(r.status.isOk());
  CHECK(r.out(0).sharesStorageWith(p));
  checkValues(p, {3}, {0.9, 2.2, 2.95});
  CHECK_FALSE(r.out(1).defined());
}

TEST_CASE("sgd_ with a master param updates the master and rounds it into a bf16 param", "[kernels]") {
  Tensor p = tensorOf(DataType::BF16, {2}, {1, 1});
  Tensor master = f32({2}, {1, 1});
  auto r = run("pd_op.sgd_", "multi_precision:true",
               {p, f32({1}, {0.5}), tensorOf(DataType::BF16, {2}, {1, 0.001}), master}, 2);
  REQUIRE(r.status.isOk());
  // 1 - 0.5·0.001 (the bf16 of 0.001 is 0.00099945068359375).
  checkValues(master, {2}, {0.5, 1 - 0.5 * 0.00099945068359375}, 1e-7);
  CHECK(values(p) == std::vector<double>{0.5, 1});  // 0.9995 rounds to 1 in bf16
}

namespace {

// One Adam step by hand: p = 1, g = 0.5, m1 = m2 = 0, b1p = 0.9, b2p = 0.999,
// lr = 0.01, eps = 1e-8.
//   m1 = 0.1·0.5 = 0.05;  m2 = 0.001·0.25 = 0.00025
//   lr_t = 0.01·√0.001/0.1 = 0.0031622776601683794
//   p = 1 - lr_t·0.05/(√0.00025 + 1e-8·√0.001) = 1 - lr_t·3.1622756602...
constexpr double kM1 = 0.05, kM2 = 0.00025;
const double kLrT = 0.01 * std::sqrt(0.001) / 0.1;
const double kStep = kLrT * kM1 / (std::sqrt(kM2) + 1e-8 * std::sqrt(0.001));

struct AdamOperands {
  Tensor p = f64({1}, {1}), g = f64({1}, {0.5}), lr = f64({}, {0.01}), m1 = f64({1}, {0}), m2 = f64({1}, {0}),
         m2max = f64({1}, {0}), b1p = f64({1}, {0.9}), b2p = f64({1}, {0.999});
};

}  // namespace

TEST_CASE("adam_ one step with 9 operands: param, moments and beta pows", "[kernels]") {
  AdamOperands o;
  auto r = run("pd_op.adam_",
               "beta1:(Float)0.9,beta2:(Float)0.999,epsilon:(Float)1e-08,lazy_mode:false,multi_precision:false,"
               "use_global_beta_pow:false",
               {o.p, o.g, o.lr, o.m1, o.m2, o.b1p, o.b2p, Tensor(), Tensor()}, 6);
  REQUIRE(r.status.isOk());
  CHECK(kStep == Approx(0.0099999968).epsilon(1e-6));
  checkValues(o.p, {1}, {1 - kStep}, 1e-12);
  checkValues(o.m1, {1}, {kM1}, 1e-15);
  checkValues(o.m2, {1}, {kM2}, 1e-15);
  checkValues(o.b1p, {1}, {0.81}, 1e-12);
  checkValues(o.b2p, {1}, {0.998001}, 1e-12);
}

TEST_CASE("adam_ with beta1, beta2 and epsilon as tensors (12) and amsgrad's moment2_max (10, 13)", "[kernels]") {
  AdamOperands o;
  auto r = run("pd_op.adam_", "multi_precision:false,use_global_beta_pow:true",
               {o.p, o.g, o.lr, o.m1, o.m2, o.b1p, o.b2p, Tensor(), Tensor(), f64({1}, {0.9}), f64({1}, {0.999}),
                f64({1}, {1e-8})},
               6);
  REQUIRE(r.status.isOk());
  checkValues(o.p, {1}, {1 - kStep}, 1e-12);
  checkValues(o.b1p, {1}, {0.9});  // use_global_beta_pow: left alone
  // amsgrad: m2max = max(m2max, m2) is the denominator's moment.
  AdamOperands a;
  a.m2max = f64({1}, {0.01});
  auto ams = run("pd_op.adam_", "beta1:(Float)0.9,beta2:(Float)0.999,epsilon:(Float)1e-08,amsgrad:true",
                 {a.p, a.g, a.lr, a.m1, a.m2, a.m2max, a.b1p, a.b2p, Tensor(), Tensor()}, 7);
  REQUIRE(ams.status.isOk());
  checkValues(a.m2max, {1}, {0.01});
  checkValues(a.p, {1}, {1 - kLrT * kM1 / (0.1 + 1e-8 * std::sqrt(0.001))}, 1e-12);
  checkValues(a.b2p, {1}, {0.998001}, 1e-7);
  AdamOperands t;
  auto ams13 = run("pd_op.adam_", "amsgrad:true",
                   {t.p, t.g, t.lr, t.m1, t.m2, t.m2max, t.b1p, t.b2p, Tensor(), Tensor(), f64({1}, {0.9}),
                    f64({1}, {0.999}), f64({1}, {1e-8})},
                   7);
  REQUIRE(ams13.status.isOk());
  checkValues(t.m2max, {1}, {kM2}, 1e-12);
  checkValues(t.p, {1}, {1 - kStep}, 1e-12);
}

TEST_CASE("adamw_ decays the param first, scaled by lr_ratio", "[kernels]") {
  AdamOperands o;
  std::string attrs =
      "beta1:(Float)0.9,beta2:(Float)0.999,coeff:(Float)0.01,epsilon:(Float)1e-08,lr_ratio:(Float)1,"
      "multi_precision:false,use_global_beta_pow:false,with_decay:true";
  auto r = run("pd_op.adamw_", attrs, {o.p, o.g, o.lr, o.m1, o.m2, o.b1p, o.b2p, Tensor(), Tensor()}, 6);
  REQUIRE(r.status.isOk());
  // p = 1·(1 - 0.01·0.01) - step = 0.9999 - step.
  checkValues(o.p, {1}, {0.9999 - kStep}, 1e-12);
  checkValues(o.b1p, {1}, {0.81}, 1e-7);
  AdamOperands h;
  std::string half =
      "beta1:(Float)0.9,beta2:(Float)0.999,coeff:(Float)0.01,epsilon:(Float)1e-08,lr_ratio:(Float)0.5,"
      "with_decay:true";
  auto hr = run("pd_op.adamw_", half, {h.p, h.g, h.lr, h.m1, h.m2, h.b1p, h.b2p, Tensor(), Tensor()}, 6);
  REQUIRE(hr.status.isOk());
  checkValues(h.p, {1}, {(1 - 0.005 * 0.01) - 0.5 * kStep}, 1e-12);
  AdamOperands n;
  auto nr = run("pd_op.adamw_", "coeff:(Float)0.01,with_decay:false",
                {n.p, n.g, n.lr, n.m1, n.m2, n.b1p, n.b2p, Tensor(), Tensor()}, 6);
  REQUIRE(nr.status.isOk());
  checkValues(n.p, {1}, {1 - kStep}, 1e-12);
}

TEST_CASE("adam_ with skip_update true leaves everything", "[kernels]") {
  AdamOperands o;
  auto r = run("pd_op.adam_", "beta1:(Float)0.9",
               {o.p, o.g, o.lr, o.m1, o.m2, o.b1p, o.b2p, Tensor(), tensorOf(DataType::Bool, {1}, {1})}, 6);
  REQUIRE(r.status.isOk());
  checkValues(o.p, {1}, {1});
  checkValues(o.b1p, {1}, {0.9});
}

TEST_CASE("every compute op of the seeds and of gen-program's programs has a math kernel", "[kernels]") {
  // Data movement, full*, reshape and communication have kernels of their
  // own (shape.cpp, creation.cpp, comm.cpp), so they are not listed here.
  for (const char* name : {"pd_op.add",           "pd_op.add_grad",    "pd_op.adamw_",        "pd_op.adam_",
                           "pd_op.gelu",          "pd_op.gelu_grad",   "pd_op.layer_norm",    "pd_op.layer_norm_grad",
                           "pd_op.matmul",        "pd_op.matmul_grad", "pd_op.mean",          "pd_op.mean_grad",
                           "pd_op.relu",          "pd_op.relu_grad",   "pd_op.sgd_",          "pd_op.softmax",
                           "pd_op.softmax_grad",  "pd_op.square",      "pd_op.square_grad",   "pd_op.subtract",
                           "pd_op.subtract_grad", "pd_op.multiply",    "pd_op.multiply_grad", "pd_op.divide",
                           "pd_op.divide_grad",   "pd_op.sum",         "pd_op.sum_grad",      "pd_op.scale",
                           "pd_op.cast",          "pd_op.cast_grad",   "pd_op.reshape_grad"}) {
    INFO(name);
    CHECK(kernelRegistry().find(name) != nullptr);
  }
}
