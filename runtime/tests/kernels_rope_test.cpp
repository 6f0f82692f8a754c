//===- kernels_rope_test.cpp - fused_rotary_position_embedding and its grad -===//
#include <cmath>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

std::string attrs(bool pairs, bool timeMajor = false, double base = 10000) {
  return std::string("use_neox_rotary_style:") + (pairs ? "true" : "false") +
         ",time_major:" + (timeMajor ? "true" : "false") + ",rotary_emb_base:(Float)" + std::to_string(base);
}

Tensor ids64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }

// One head vector (1, 2, 3, 4) at one position, sin and cos given.
const std::vector<double> kSin = {0.1, 0.2, 0.3, 0.4}, kCos = {0.5, 0.6, 0.7, 0.8};

}  // namespace

TEST_CASE("rope rotates pairs or halves by the given table", "[kernels][rope]") {
  Tensor q = f64({1, 1, 1, 4}, {1, 2, 3, 4});
  Tensor sin = f64({1, 4}, kSin), cos = f64({1, 4}, kCos);
  // pairs: (x0 c0 - x1 s0, x1 c1 + x0 s1, x2 c2 - x3 s2, x3 c3 + x2 s3)
  auto p = run("pd_op.fused_rotary_position_embedding", attrs(true), {q, {}, {}, sin, cos, {}}, 3);
  REQUIRE(p.status.isOk());
  checkValues(p.out(0), {1, 1, 1, 4}, {0.5 - 0.2, 1.2 + 0.2, 2.1 - 1.2, 3.2 + 1.2}, 1e-12);
  // halves: (x0 c0 - x2 s0, x1 c1 - x3 s1, x2 c2 + x0 s2, x3 c3 + x1 s3); 4-D tables too.
  auto h = run("pd_op.fused_rotary_position_embedding", attrs(false),
               {q, {}, {}, f64({1, 1, 1, 4}, kSin), f64({1, 1, 1, 4}, kCos), {}}, 3);
  REQUIRE(h.status.isOk());
  checkValues(h.out(0), {1, 1, 1, 4}, {0.5 - 0.3, 1.2 - 0.8, 2.1 + 0.3, 3.2 + 0.8}, 1e-12);
}

TEST_CASE("rope computes the table from rotary_emb_base without sin and cos", "[kernels][rope]") {
  // Position 1 (the second of seq 2), head_dim 4, base 100: frequencies 1 and 1/10.
  Tensor q = f64({1, 2, 1, 4}, {0, 0, 0, 0, 1, 2, 3, 4});
  double c1 = std::cos(1.0), s1 = std::sin(1.0), c2 = std::cos(0.1), s2 = std::sin(0.1);
  auto p = run("pd_op.fused_rotary_position_embedding", attrs(true, false, 100), {q, {}, {}, {}, {}, {}}, 3);
  REQUIRE(p.status.isOk());
  // pairs (0, 1) at 1 rad, (2, 3) at 0.1 rad
  checkValues(p.out(0), {1, 2, 1, 4}, {0, 0, 0, 0, c1 - 2 * s1, 2 * c1 + s1, 3 * c2 - 4 * s2, 4 * c2 + 3 * s2}, 1e-12);
  auto h = run("pd_op.fused_rotary_position_embedding", attrs(false, false, 100), {q, {}, {}, {}, {}, {}}, 3);
  REQUIRE(h.status.isOk());
  // halves (0, 2) at 1 rad, (1, 3) at 0.1 rad
  checkValues(h.out(0), {1, 2, 1, 4}, {0, 0, 0, 0, c1 - 3 * s1, 2 * c2 - 4 * s2, 3 * c1 + s1, 4 * c2 + 2 * s2}, 1e-12);
}

TEST_CASE("rope reads positions, time-major layouts and grouped k and v", "[kernels][rope]") {
  // batch 2, seq 2, q 2 heads, k and v 1 head, head_dim 2; the table has 3 positions.
  Tensor sin = f64({3, 2}, {0, 0, 1, 1, 0, 0}), cos = f64({3, 2}, {1, 1, 0, 0, -1, -1});
  Tensor q = f64({2, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  Tensor k = f64({2, 2, 1, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor pos = ids64({2, 2}, {2, 1, 0, 2});
  auto r = run("pd_op.fused_rotary_position_embedding", attrs(true), {q, k, k, sin, cos, pos}, 3);
  REQUIRE(r.status.isOk());
  // position 0: identity; 1: (x0, x1) -> (-x1, x0); 2: negation.
  checkValues(r.out(0), {2, 2, 2, 2}, {-1, -2, -3, -4, -6, 5, -8, 7, 9, 10, 11, 12, -13, -14, -15, -16}, 0);
  checkValues(r.out(1), {2, 2, 1, 2}, {-1, -2, -4, 3, 5, 6, -7, -8}, 0);
  checkValues(r.out(2), {2, 2, 1, 2}, {-1, -2, -4, 3, 5, 6, -7, -8}, 0);
  // time_major: [seq, batch, heads, dim], position_ids still [batch, seq].
  Tensor kt = f64({2, 2, 1, 2}, {1, 2, 5, 6, 3, 4, 7, 8});  // k above, seq-major
  auto t = run("pd_op.fused_rotary_position_embedding", attrs(true, true), {kt, {}, {}, sin, cos, pos}, 3);
  REQUIRE(t.status.isOk());
  checkValues(t.out(0), {2, 2, 1, 2}, {-1, -2, 5, 6, -4, 3, -7, -8}, 0);
  // errors
  auto bad =
      run("pd_op.fused_rotary_position_embedding", attrs(true), {q, {}, {}, sin, cos, ids64({2, 2}, {0, 3, 0, 0})}, 3);
  CHECK(bad.status.message() == "position 3 at flat index 1 is outside sin and cos's 3 positions");
  auto odd =
      run("pd_op.fused_rotary_position_embedding", attrs(true), {f64({1, 1, 1, 3}, {1, 2, 3}), {}, {}, {}, {}, {}}, 3);
  CHECK(odd.status.message() == "head_dim 3 is odd");
  auto seq = run("pd_op.fused_rotary_position_embedding", attrs(true), {q, {}, {}, sin, cos, {}}, 3);
  CHECK(seq.status.message() == "sin and cos have 3 positions, q's seq is 2");
}

// The map is linear in q, k and v: its grad, by f64 central differences.
TEST_CASE("rope's grad matches finite differences", "[kernels][rope]") {
  for (bool pairs : {true, false})
    for (bool table : {true, false})
      for (bool timeMajor : {false, true}) {
        INFO("pairs " << pairs << ", table " << table << ", time_major " << timeMajor);
        std::string a = attrs(pairs, timeMajor, 50);
        Tensor q = randomF64({2, 3, 2, 6}, 70), k = randomF64({2, 3, 1, 6}, 71);
        Tensor sin = table ? randomF64({4, 6}, 72) : Tensor(), cos = table ? randomF64({4, 6}, 73) : Tensor();
        // [batch, seq]: q's dims 0, 1, or 1, 0 time-major
        Tensor pos = ids64({timeMajor ? 3 : 2, timeMajor ? 2 : 3}, {3, 1, 0, 2, 2, 1});
        Tensor wq = randomF64({2, 3, 2, 6}, 74), wk = randomF64({2, 3, 1, 6}, 75);
        auto g = run("pd_op.fused_rotary_position_embedding_grad", a, {sin, cos, pos, wq, wk, {}}, 3);
        REQUIRE(g.status.isOk());
        auto outAt = [&](size_t i) {
          return [&, i](const std::vector<Tensor>& v) {
            auto r = run("pd_op.fused_rotary_position_embedding", a, v, 3);
            REQUIRE(r.status.isOk());
            return r.out(i);
          };
        };
        std::vector<Tensor> in = {q, k, {}, sin, cos, pos};
        checkClose(g.out(0), numericGrad(outAt(0), in, 0, wq), 1e-8);
        checkClose(g.out(1), numericGrad(outAt(1), in, 1, wk), 1e-8);
      }
}
