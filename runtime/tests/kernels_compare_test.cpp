//===- kernels_compare_test.cpp - comparisons, logic, where, max, CINN ops ===//
//
// Expected values are numpy 1.24's, written out as literals; each names the
// numpy expression that gave it (x, y, ... as built just above it).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor i64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }
Tensor i32(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I32, std::move(shape), v); }
Tensor bools(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::Bool, std::move(shape), v); }
Tensor bf16(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::BF16, std::move(shape), v); }

/// A bool result of `shape` holding `v` (0 and 1).
void checkBools(const Tensor& t, Shape shape, const std::vector<double>& v) {
  CHECK(t.dtype() == DataType::Bool);
  CHECK(shapeOf(t) == shape);
  CHECK(values(t) == v);
}

/// The result of a run that must succeed.
Tensor ok(const KernelRun& r) {
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.results[0].tensor;
}

}  // namespace

TEST_CASE("comparisons broadcast into bool, NaN compares as numpy's", "[kernels]") {
  // x = np.array([[1, nan, 3], [-inf, 2, inf]], np.float32); y = np.array([2, nan, 3], np.float32)
  Tensor x = f32({2, 3}, {1, kNan, 3, -kInf, 2, kInf});
  Tensor y = f32({3}, {2, kNan, 3});
  checkBools(ok(run("pd_op.less_than", "", {x, y})), {2, 3}, {1, 0, 0, 1, 0, 0});      // np.less(x, y)
  checkBools(ok(run("pd_op.less_equal", "", {x, y})), {2, 3}, {1, 0, 1, 1, 0, 0});     // np.less_equal(x, y)
  checkBools(ok(run("pd_op.greater_than", "", {x, y})), {2, 3}, {0, 0, 0, 0, 0, 1});   // np.greater(x, y)
  checkBools(ok(run("pd_op.greater_equal", "", {x, y})), {2, 3}, {0, 0, 1, 0, 0, 1});  // np.greater_equal(x, y)
  checkBools(ok(run("pd_op.equal", "", {x, y})), {2, 3}, {0, 0, 1, 0, 0, 0});          // np.equal(x, y)
  checkBools(ok(run("pd_op.not_equal", "", {x, y})), {2, 3}, {1, 1, 0, 1, 1, 1});      // np.not_equal(x, y)
  // The same in f64, y first (the broadcast goes the other way).
  Tensor x64 = f64({2, 3}, {1, kNan, 3, -kInf, 2, kInf});
  Tensor y64 = f64({3}, {2, kNan, 3});
  checkBools(ok(run("pd_op.greater_than", "", {y64, x64})), {2, 3}, {1, 0, 0, 1, 0, 0});  // np.greater(y, x)
}

TEST_CASE("comparisons of ints, bools and bf16", "[kernels]") {
  // np.less_equal(np.array([[1], [5]]), np.array([0, 5, 9]))
  checkBools(ok(run("pd_op.less_equal", "", {i64({2, 1}, {1, 5}), i64({3}, {0, 5, 9})})), {2, 3}, {0, 1, 1, 0, 1, 1});
  // np.greater(np.array([-3, 7], np.int32), np.int32(0)): a 0-D y
  checkBools(ok(run("pd_op.greater_than", "", {i32({2}, {-3, 7}), i32({}, {0})})), {2}, {0, 1});
  // xb = np.array([True, False, True]); yb = np.array([False, False, True]); xb > yb; xb == yb
  Tensor xb = bools({3}, {1, 0, 1}), yb = bools({3}, {0, 0, 1});
  checkBools(ok(run("pd_op.greater_than", "", {xb, yb})), {3}, {1, 0, 0});
  checkBools(ok(run("pd_op.equal", "", {xb, yb})), {3}, {0, 1, 1});
  // np.equal([1.5, 2.0, -0.0], [1.5, 3.0, 0.0]) (each exact in bf16)
  checkBools(ok(run("pd_op.equal", "", {bf16({3}, {1.5, 2, -0.0}), bf16({3}, {1.5, 3, 0})})), {3}, {1, 0, 1});
  checkBools(ok(run("pd_op.not_equal", "", {bf16({1}, {kNan}), bf16({1}, {kNan})})), {1}, {1});  // nan != nan
}

TEST_CASE("comparisons: shapes that do not broadcast, mixed dtypes", "[kernels]") {
  auto bad = run("pd_op.less_than", "", {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})});
  CHECK(bad.status.message() == "shapes [2x3] and [2] do not broadcast");
  auto mixed = run("pd_op.equal", "", {f32({1}, {1}), f64({1}, {1})});
  CHECK(mixed.status.message() == "operands have different dtypes (f32, f64)");
}

TEST_CASE("logical ops: nonzero is true, broadcasting, mixed dtypes", "[kernels]") {
  // lx = np.array([0, nan, -0.0, 2], np.float32); ly = np.array([[True], [False]])
  Tensor lx = f32({4}, {0, kNan, -0.0, 2});
  Tensor ly = bools({2, 1}, {1, 0});
  checkBools(ok(run("pd_op.logical_and", "", {lx, ly})), {2, 4}, {0, 1, 0, 1, 0, 0, 0, 0});  // np.logical_and
  checkBools(ok(run("pd_op.logical_or", "", {lx, ly})), {2, 4}, {1, 1, 1, 1, 0, 1, 0, 1});   // np.logical_or
  checkBools(ok(run("pd_op.logical_xor", "", {lx, ly})), {2, 4}, {1, 0, 1, 0, 0, 1, 0, 1});  // np.logical_xor
  // np.logical_not(np.array([0, -2, 3], np.int32)); np.logical_not(np.array([0.0, nan, -0.0]))
  checkBools(ok(run("pd_op.logical_not", "", {i32({3}, {0, -2, 3})})), {3}, {1, 0, 0});
  checkBools(ok(run("pd_op.logical_not", "", {f32({3}, {0, kNan, -0.0})})), {3}, {1, 0, 1});
  auto bad = run("pd_op.logical_or", "", {bools({2}, {1, 0}), bools({3}, {1, 0, 1})});
  CHECK(bad.status.message() == "shapes [2] and [3] do not broadcast");
}

TEST_CASE("isnan and isinf", "[kernels]") {
  // v = np.array([1, nan, inf, -inf, -0.0, 3e38], np.float32); np.isnan(v); np.isinf(v)
  std::vector<double> v = {1, kNan, kInf, -kInf, -0.0, 3e38};
  checkBools(ok(run("pd_op.isnan", "", {f32({2, 3}, v)})), {2, 3}, {0, 1, 0, 0, 0, 0});
  checkBools(ok(run("pd_op.isinf", "", {f32({2, 3}, v)})), {2, 3}, {0, 0, 1, 1, 0, 0});
  checkBools(ok(run("pd_op.isnan", "", {bf16({3}, {kNan, 1, kInf})})), {3}, {1, 0, 0});
  checkBools(ok(run("pd_op.isinf", "", {f64({3}, {kNan, 1, -kInf})})), {3}, {0, 0, 1});
  checkBools(ok(run("pd_op.isinf", "", {i64({2}, {1, -9})})), {2}, {0, 0});
}

TEST_CASE("where broadcasts condition, x and y", "[kernels]") {
  // c = np.array([[True], [False]]); x = np.array([1, 2, 3], np.float32)
  // y = np.array([[10, 20, 30], [40, nan, 60]], np.float32); np.where(c, x, y)
  Tensor c = bools({2, 1}, {1, 0});
  Tensor x = f32({3}, {1, 2, 3});
  Tensor y = f32({2, 3}, {10, 20, 30, 40, kNan, 60});
  Tensor w = ok(run("pd_op.where", "", {c, x, y}));
  CHECK(w.dtype() == DataType::F32);
  checkIeee(w, {2, 3}, {1, 2, 3, 40, kNan, 60});
  // np.where(np.array([0, 2, 0]), np.array([[1.], [2.]]), np.float64(-1)): a non-bool condition, a 0-D y
  Tensor w2 = ok(run("pd_op.where", "", {i64({3}, {0, 2, 0}), f64({2, 1}, {1, 2}), f64({}, {-1})}));
  checkValues(w2, {2, 3}, {-1, 1, -1, -1, 2, -1});
  Tensor wi = ok(run("pd_op.where", "", {bools({2}, {0, 1}), i32({2}, {5, 6}), i32({2}, {7, 8})}));
  CHECK(wi.dtype() == DataType::I32);
  CHECK(values(wi) == std::vector<double>{7, 6});
  auto bad = run("pd_op.where", "", {bools({2}, {1, 0}), f32({3}, {1, 2, 3}), f32({1}, {0})});
  CHECK(bad.status.message() == "shapes [2], [3] and [1] do not broadcast");
  auto mixed = run("pd_op.where", "", {bools({1}, {1}), f32({1}, {1}), f64({1}, {0})});
  CHECK(mixed.status.message() == "operands have different dtypes (f32, f64)");
}

TEST_CASE("maximum and minimum propagate NaN and broadcast", "[kernels]") {
  // x = np.array([[1, nan, 3], [-inf, 2, 0.5]], np.float32); y = np.array([2, 1, nan], np.float32)
  Tensor x = f32({2, 3}, {1, kNan, 3, -kInf, 2, 0.5});
  Tensor y = f32({3}, {2, 1, kNan});
  checkIeee(ok(run("pd_op.maximum", "", {x, y})), {2, 3}, {2, kNan, kNan, 2, 2, kNan});      // np.maximum(x, y)
  checkIeee(ok(run("pd_op.minimum", "", {x, y})), {2, 3}, {1, kNan, kNan, -kInf, 1, kNan});  // np.minimum(x, y)
  // a = np.array([[1], [-4]], np.int32); b = np.array([0, -5, 3], np.int32); np.maximum(a, b); np.minimum(a, b)
  Tensor a = i32({2, 1}, {1, -4}), b = i32({3}, {0, -5, 3});
  Tensor mx = ok(run("pd_op.maximum", "", {a, b}));
  CHECK(mx.dtype() == DataType::I32);
  CHECK(values(mx) == std::vector<double>{1, 1, 3, 0, -4, 3});
  CHECK(values(ok(run("pd_op.minimum", "", {a, b}))) == std::vector<double>{0, -5, 1, -4, -5, -4});
  // bf16: np.maximum([1.5, nan], [2.0, 0.0])
  checkIeee(ok(run("pd_op.maximum", "", {bf16({2}, {1.5, kNan}), bf16({2}, {2, 0})})), {2}, {2, kNan});
  auto bad = run("pd_op.minimum", "", {f32({2}, {1, 2}), f32({3}, {1, 2, 3})});
  CHECK(bad.status.message() == "shapes [2] and [3] do not broadcast");
}

namespace {

/// Both grads of maximum or minimum (`op`) or of where (condition `c`
/// first) against f64 central differences; x and y drawn so that no pair
/// is within 0.05 of a tie (maximum's derivative is a step there).
void checkSelectGrads(const std::string& op, const std::vector<Tensor>& pre, Shape xs, Shape ys, uint32_t seed) {
  Tensor x, y;
  for (;; seed += 3) {  // the first draw with no near tie
    x = randomF64(xs, seed), y = randomF64(ys, seed + 1);
    std::vector<double> gaps = values(ok(run("pd_op.subtract", "", {x, y})));
    if (std::all_of(gaps.begin(), gaps.end(), [](double v) { return std::abs(v) > 0.05; })) break;
  }
  std::vector<Tensor> in = pre;
  in.push_back(x);
  in.push_back(y);
  Tensor out = ok(run(op, "", in));
  Tensor w = randomF64(shapeOf(out), seed + 2);
  std::vector<Tensor> gin = in;
  gin.push_back(w);
  auto g = run(op + "_grad", "", gin, 2);
  INFO(op << " " << g.status.message());
  REQUIRE(g.status.isOk());
  auto f = [&](const std::vector<Tensor>& xy) {
    std::vector<Tensor> all = pre;
    all.insert(all.end(), xy.begin(), xy.end());
    return ok(run(op, "", all));
  };
  checkClose(g.out(0), numericGrad(f, {x, y}, 0, w), 1e-7);
  checkClose(g.out(1), numericGrad(f, {x, y}, 1, w), 1e-7);
}

}  // namespace

TEST_CASE("maximum_grad and minimum_grad: ties to y, as Paddle's, broadcasting summed back", "[kernels][grads]") {
  // x = [1, 3, 2, nan], y = [2, 1, 2, 0], out_grad = [10, 20, 30, 40]: maximum sends 20 to x (3 > 1),
  // 10 and the tie's 30 to y; minimum sends 10 to x, 20 and the tie's 30 to y; NaN sends nothing.
  Tensor x = f32({4}, {1, 3, 2, kNan}), y = f32({4}, {2, 1, 2, 0}), d = f32({4}, {10, 20, 30, 40});
  auto mx = run("pd_op.maximum_grad", "", {x, y, d}, 2);
  REQUIRE(mx.status.isOk());
  checkValues(mx.out(0), {4}, {0, 20, 0, 0}, 0);
  checkValues(mx.out(1), {4}, {10, 0, 30, 0}, 0);
  auto mn = run("pd_op.minimum_grad", "", {x, y, d}, 2);
  REQUIRE(mn.status.isOk());
  checkValues(mn.out(0), {4}, {10, 0, 0, 0}, 0);
  checkValues(mn.out(1), {4}, {0, 20, 30, 0}, 0);
  // Broadcast by hand: x = [[1], [5]], y = [0, 4, 9], out_grad = [[1, 2, 3], [4, 5, 6]];
  // maximum: x wins at (0,0), (1,0), (1,1): x_grad = [[1], [4 + 5]]; y_grad = [0, 2, 3 + 6]
  Tensor bx = f64({2, 1}, {1, 5}), by = f64({3}, {0, 4, 9}), bd = f64({2, 3}, {1, 2, 3, 4, 5, 6});
  auto bm = run("pd_op.maximum_grad", "", {bx, by, bd}, 2);
  REQUIRE(bm.status.isOk());
  checkValues(bm.out(0), {2, 1}, {1, 9}, 0);
  checkValues(bm.out(1), {3}, {0, 2, 9}, 0);
  // ints, and a null result skipped
  KernelRun mi("pd_op.minimum_grad", "", {i32({2}, {3, -1}), i32({2}, {2, 5}), i32({2}, {7, 8})},
               {"<<NULL TYPE>>", "builtin.tensor<2xi32>"});
  REQUIRE(mi.status.isOk());
  CHECK_FALSE(mi.out(0).defined());
  CHECK(values(mi.out(1)) == std::vector<double>{7, 0});
  for (const char* op : {"pd_op.maximum", "pd_op.minimum"}) {
    checkSelectGrads(op, {}, {2, 3}, {2, 3}, 11);
    checkSelectGrads(op, {}, {2, 3, 4}, {4}, 21);
    checkSelectGrads(op, {}, {2, 1, 4}, {3, 1}, 31);
    checkSelectGrads(op, {}, {3}, {}, 41);
  }
  auto bad = run("pd_op.maximum_grad", "", {f32({2}, {1, 2}), f32({2}, {1, 2}), f32({3}, {1, 2, 3})}, 2);
  CHECK(bad.status.message() == "out_grad [3] is not the broadcast shape of [2], [2]");
}

TEST_CASE("where_grad: out_grad to x where the condition holds, to y elsewhere", "[kernels][grads]") {
  // c = [[True], [False]], x of [3], y of [2, 3], out_grad = [[1, 2, 3], [4, 5, 6]]:
  // x_grad = [1, 2, 3] (row 0 summed over the broadcast rows), y_grad = [[0, 0, 0], [4, 5, 6]]
  Tensor c = bools({2, 1}, {1, 0});
  Tensor d = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto g = run("pd_op.where_grad", "", {c, f32({3}, {0, 0, 0}), f32({2, 3}, std::vector<double>(6, 0)), d}, 2);
  REQUIRE(g.status.isOk());
  checkValues(g.out(0), {3}, {1, 2, 3}, 0);
  checkValues(g.out(1), {2, 3}, {0, 0, 0, 4, 5, 6}, 0);
  // A non-bool condition (nonzero is true) and a 0-D y: y_grad sums what x did not take.
  auto g2 =
      run("pd_op.where_grad", "", {i64({3}, {0, 2, 0}), f64({3}, {0, 0, 0}), f64({}, {0}), f64({3}, {1, 2, 4})}, 2);
  REQUIRE(g2.status.isOk());
  checkValues(g2.out(0), {3}, {0, 2, 0}, 0);
  checkValues(g2.out(1), {}, {5}, 0);
  Tensor cb = bools({2, 1, 4}, {1, 0, 0, 1, 0, 1, 1, 0});
  checkSelectGrads("pd_op.where", {cb}, {2, 3, 4}, {2, 3, 4}, 51);
  checkSelectGrads("pd_op.where", {cb}, {3, 1}, {4}, 61);
  auto bad = run("pd_op.where_grad", "", {c, f32({3}, {0, 0, 0}), f32({3}, {0, 0, 0}), f32({3}, {1, 2, 3})}, 2);
  CHECK(bad.status.message() == "out_grad [3] is not the broadcast shape of [2x1], [3], [3]");
}

TEST_CASE("max and min over an axis operand, keepdim, NaN", "[kernels]") {
  // r = np.array([[[1, 7], [nan, 2], [3, -1]], [[4, 5], [6, -inf], [0, 9]]], np.float32)
  Tensor r = f32({2, 3, 2}, {1, 7, kNan, 2, 3, -1, 4, 5, 6, -kInf, 0, 9});
  Tensor ax1 = i64({1}, {1});
  checkIeee(ok(run("pd_op.max", "keepdim:false", {r, ax1})), {2, 2}, {kNan, 7, 6, 9});       // r.max(axis=1)
  checkIeee(ok(run("pd_op.max", "keepdim:true", {r, ax1})), {2, 1, 2}, {kNan, 7, 6, 9});     // keepdims=True
  checkIeee(ok(run("pd_op.min", "keepdim:false", {r, ax1})), {2, 2}, {kNan, -1, 0, -kInf});  // r.min(axis=1)
  // An empty axis list reduces every dim: r.max(), r.min()
  Tensor none = i64({0}, {});
  checkIeee(ok(run("pd_op.max", "keepdim:false", {r, none})), {}, {kNan});
  checkIeee(ok(run("pd_op.min", "keepdim:false", {r, none})), {}, {kNan});
  // Negative axes: r.max(axis=(-1, 0)); r.min(axis=(-1, 0), keepdims=True)
  Tensor neg = i64({2}, {-1, 0});
  checkIeee(ok(run("pd_op.max", "keepdim:false", {r, neg})), {3}, {7, kNan, 9});
  checkIeee(ok(run("pd_op.min", "keepdim:true", {r, neg})), {1, 3, 1}, {1, kNan, -1});
  // rg = np.arange(6, dtype=np.float32).reshape(2, 3); rg.max(keepdims=True)
  Tensor rg = f32({2, 3}, {0, 1, 2, 3, 4, 5});
  checkValues(ok(run("pd_op.max", "keepdim:true", {rg, none})), {1, 1}, {5});
}

TEST_CASE("max and min of ints and bf16, and their errors", "[kernels]") {
  // ri = np.array([[3, -2, 8], [-7, 5, 1]], np.int32); ri.max(0); ri.min(-1)
  Tensor ri = i32({2, 3}, {3, -2, 8, -7, 5, 1});
  Tensor m = ok(run("pd_op.max", "keepdim:false", {ri, i32({1}, {0})}));
  CHECK(m.dtype() == DataType::I32);
  CHECK(values(m) == std::vector<double>{3, 5, 8});
  CHECK(values(ok(run("pd_op.min", "keepdim:false", {ri, i64({1}, {-1})}))) == std::vector<double>{-2, -7});
  // np.array([1.5, -2, 3.25]).max() (exact in bf16)
  Tensor b = ok(run("pd_op.max", "keepdim:false", {bf16({3}, {1.5, -2, 3.25}), i64({0}, {})}));
  CHECK(b.dtype() == DataType::BF16);
  checkValues(b, {}, {3.25});
  auto range = run("pd_op.max", "keepdim:false", {ri, i64({1}, {2})});
  CHECK(range.status.message() == "axis 2 is out of range for [2x3]");
  // np.zeros((0, 3)).max(axis=0) raises (zero-size array); .max(axis=1) is an empty (0,)
  Tensor empty = f32({0, 3}, {});
  auto zero = run("pd_op.max", "keepdim:false", {empty, i64({1}, {0})});
  CHECK(zero.status.message() == "reducing dim 0 of [0x3], which has no elements");
  Tensor e = ok(run("pd_op.min", "keepdim:false", {empty, i64({1}, {1})}));
  CHECK(shapeOf(e) == Shape{0});
}

TEST_CASE("cinn_op.reduce_max and reduce_sum read dim and keep_dim", "[kernels]") {
  // rf = np.array([[1, 5, 2, 4], [-3, -1, nan, 0]], np.float32); rf.max(-1, keepdims=True); rf.sum(-1, keepdims=True)
  Tensor rf = f32({2, 4}, {1, 5, 2, 4, -3, -1, kNan, 0});
  const char* attrs = "dim:[(Int64)-1],keep_dim:true,stop_gradient:[false]";
  checkIeee(ok(run("cinn_op.reduce_max", attrs, {rf})), {2, 1}, {5, kNan});
  checkIeee(ok(run("cinn_op.reduce_sum", attrs, {rf})), {2, 1}, {12, kNan});
  // rg = np.arange(6, dtype=np.float32).reshape(2, 3); rg.sum(-1); rg.max() (an empty dim list: every dim)
  Tensor rg = f32({2, 3}, {0, 1, 2, 3, 4, 5});
  checkValues(ok(run("cinn_op.reduce_sum", "dim:[(Int64)-1],keep_dim:false", {rg})), {2}, {3, 12});
  checkValues(ok(run("cinn_op.reduce_max", "dim:[],keep_dim:false", {rg})), {}, {5});
  Tensor s = ok(run("cinn_op.reduce_sum", "dim:[(Int64)0],keep_dim:false", {i32({2, 2}, {1, 2, 3, 4})}));
  CHECK(s.dtype() == DataType::I32);  // x's dtype, not sum's int64 promotion
  CHECK(values(s) == std::vector<double>{4, 6});
  CHECK(run("cinn_op.reduce_max", "keep_dim:true", {rg}).status.message() == "dim is not an int array attribute");
}

TEST_CASE("cinn_op.broadcast places x's dims at broadcast_axes", "[kernels]") {
  const char* attrs = "broadcast_axes:[(Int64)0,(Int64)1],out_shape:[(Int64)2,(Int64)3],stop_gradient:[false]";
  // np.broadcast_to(np.array([[1], [2]], np.float32), (2, 3))
  checkValues(ok(run("cinn_op.broadcast", attrs, {f32({2, 1}, {1, 2})})), {2, 3}, {1, 1, 1, 2, 2, 2});
  // np.broadcast_to(np.array([1, 2, 3]), (2, 3)): x's dim 0 at output axis 1
  checkValues(
      ok(run("cinn_op.broadcast", "broadcast_axes:[(Int64)1],out_shape:[(Int64)2,(Int64)3]", {f32({3}, {1, 2, 3})})),
      {2, 3}, {1, 2, 3, 1, 2, 3});
  // np.broadcast_to(np.array([1, 2]).reshape(2, 1), (2, 3)): x's dim 0 at output axis 0
  Tensor b =
      ok(run("cinn_op.broadcast", "broadcast_axes:[(Int64)0],out_shape:[(Int64)2,(Int64)3]", {bf16({2}, {1, 2})}));
  CHECK(b.dtype() == DataType::BF16);
  checkValues(b, {2, 3}, {1, 1, 1, 2, 2, 2});
  // np.broadcast_to(np.float32(7), (2, 2)): a 0-D x
  checkValues(ok(run("cinn_op.broadcast", "broadcast_axes:[],out_shape:[(Int64)2,(Int64)2]", {f32({}, {7})})), {2, 2},
              {7, 7, 7, 7});
  auto bad = run("cinn_op.broadcast", attrs, {f32({2, 2}, {1, 2, 3, 4})});
  CHECK(bad.status.message() == "x [2x2] does not broadcast to [2x3]");
  auto order =
      run("cinn_op.broadcast", "broadcast_axes:[(Int64)1,(Int64)0],out_shape:[(Int64)2,(Int64)3]", {f32({1, 1}, {1})});
  CHECK(order.status.message() == "broadcast_axes must increase within the output's rank 2");
  auto rank =
      run("cinn_op.broadcast", "broadcast_axes:[(Int64)0],out_shape:[(Int64)2,(Int64)3]", {f32({2, 1}, {1, 2})});
  CHECK(rank.status.message() == "1 broadcast_axes for x of rank 2");
}

TEST_CASE("fetch hands on its operand's tensor", "[kernels]") {
  Tensor x = f32({2}, {1, 2});
  Tensor out = ok(run("pd_op.fetch", "col:(Int32)0,name:\"out\"", {x}));
  CHECK(out.sharesStorageWith(x));
  CHECK(shapeOf(out) == Shape{2});
}
