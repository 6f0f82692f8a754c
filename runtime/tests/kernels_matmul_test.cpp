//===- kernels_matmul_test.cpp - matmul and matmul_grad -------------------===//
#include "runtime/kernels/matmul.h"
#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

std::string flags(bool tx, bool ty) {
  return std::string("transpose_x:") + (tx ? "true" : "false") + ",transpose_y:" + (ty ? "true" : "false");
}

Tensor matmul(const Tensor& x, const Tensor& y, bool tx = false, bool ty = false) {
  auto r = run("pd_op.matmul", flags(tx, ty), {x, y});
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.out(0);
}

}  // namespace

TEST_CASE("matmul by hand, with each transpose flag", "[kernels]") {
  Tensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor b = f32({3, 2}, {7, 8, 9, 10, 11, 12});
  checkValues(matmul(a, b), {2, 2}, {58, 64, 139, 154});
  // aᵀ is 3x2: aᵀ·a = [[17,22,27],[22,29,36],[27,36,45]].
  checkValues(matmul(a, a, true, false), {3, 3}, {17, 22, 27, 22, 29, 36, 27, 36, 45});
  checkValues(matmul(a, a, false, true), {2, 2}, {14, 32, 32, 77});
  // aᵀ·bᵀ = (b·a)ᵀ, b·a = [[39,54,69],[49,68,87],[59,82,105]].
  checkValues(matmul(a, b, true, true), {3, 3}, {39, 49, 59, 54, 68, 82, 69, 87, 105});
  checkValues(matmul(f64({2, 3}, {1, 2, 3, 4, 5, 6}), f64({3, 2}, {7, 8, 9, 10, 11, 12})), {2, 2}, {58, 64, 139, 154});
}

TEST_CASE("matmul of 1-D operands squeezes the unit dim as numpy does", "[kernels]") {
  Tensor v = f32({3}, {1, 2, 3});
  Tensor m = f32({3, 2}, {7, 8, 9, 10, 11, 12});
  checkValues(matmul(v, m), {2}, {58, 64});
  checkValues(matmul(f32({2, 3}, {1, 2, 3, 4, 5, 6}), v), {2}, {14, 32});
  checkValues(matmul(v, v), {}, {14});
  // The flag of a 1-D operand is ignored.
  checkValues(matmul(v, v, true, true), {}, {14});
}

TEST_CASE("matmul broadcasts batch dims and folds a batched x onto a matrix y", "[kernels]") {
  Tensor x = f32({2, 1, 2}, {1, 2, 3, 4});
  Tensor y = f32({2, 1}, {10, 1});
  checkValues(matmul(x, y), {2, 1, 1}, {12, 34});
  // x [2,1,1,2] · y [3,2,2] -> [2,3,1,2]: batch [2,1] broadcast against [3].
  Tensor x4 = f32({2, 1, 1, 2}, {1, 2, 3, 4});
  Tensor y3 = f32({3, 2, 2}, {1, 0, 0, 1, 2, 0, 0, 2, 0, 1, 1, 0});
  checkValues(matmul(x4, y3), {2, 3, 1, 2}, {1, 2, 2, 4, 2, 1, 3, 4, 6, 8, 4, 3});
  auto bad = run("pd_op.matmul", flags(false, false), {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2, 2}, {1, 2, 3, 4})});
  CHECK(bad.status.message() == "x [2x3] and y [2x2] differ in the contracted dim (3 vs 2)");
}

TEST_CASE("bf16 matmul is computed in f32", "[kernels]") {
  Tensor a = tensorOf(DataType::BF16, {1, 2}, {1, 2});
  Tensor b = tensorOf(DataType::BF16, {2, 1}, {3, 0.5});
  Tensor c = matmul(a, b);
  CHECK(c.dtype() == DataType::BF16);
  CHECK(values(c) == std::vector<double>{4});
}

// Central differences in f64 (step 1e-6, tolerance 1e-7 absolute): matmul
// is bilinear, so only rounding separates the two.
TEST_CASE("matmul_grad matches finite differences for every flag, broadcast batches and 1-D operands", "[kernels]") {
  struct Case {
    Shape x, y;
  };
  for (bool tx : {false, true})
    for (bool ty : {false, true}) {
      std::vector<Case> cases = {
          {{3, 4}, {4, 5}}, {{2, 3, 4}, {4, 5}}, {{2, 1, 3, 4}, {3, 4, 5}}, {{4}, {4, 5}}, {{3, 4}, {4}}};
      for (Case c : cases) {
        // Swap the last two dims of a transposed operand (rank >= 2).
        if (tx && c.x.size() > 1) std::swap(c.x[c.x.size() - 1], c.x[c.x.size() - 2]);
        if (ty && c.y.size() > 1) std::swap(c.y[c.y.size() - 1], c.y[c.y.size() - 2]);
        INFO("tx " << tx << " ty " << ty << " x rank " << c.x.size() << " y rank " << c.y.size());
        Tensor x = randomF64(c.x, 41), y = randomF64(c.y, 42);
        Tensor out = matmul(x, y, tx, ty);
        Tensor w = randomF64(shapeOf(out), 43);
        auto g = run("pd_op.matmul_grad", flags(tx, ty), {x, y, w}, 2);
        REQUIRE(g.status.isOk());
        auto f = [&](const std::vector<Tensor>& in) { return matmul(in[0], in[1], tx, ty); };
        checkClose(g.out(0), numericGrad(f, {x, y}, 0, w), 1e-7);
        checkClose(g.out(1), numericGrad(f, {x, y}, 1, w), 1e-7);
      }
    }
}

TEST_CASE("setBlasThreads sets OpenBLAS's thread count, one by default", "[kernels]") {
  (void)kernelRegistry();
  CHECK(blasThreads() == 1);
  setBlasThreads(2);
  CHECK(blasThreads() == 2);
  setBlasThreads(1);
  CHECK(blasThreads() == 1);
}
