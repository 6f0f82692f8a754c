//===- kernels_binary_test.cpp - add, subtract, multiply, divide ----------===//
#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

TEST_CASE("add of equal shapes, a broadcast row, a column and a scalar", "[kernels]") {
  auto same = run("pd_op.add", "", {f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {10, 20, 30, 40})});
  REQUIRE(same.status.isOk());
  checkValues(same.out(0), {2, 2}, {11, 22, 33, 44});
  auto row = run("pd_op.add", "", {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {10, 20, 30})});
  checkValues(row.out(0), {2, 3}, {11, 22, 33, 14, 25, 36});
  auto outer = run("pd_op.add", "", {f32({2, 1}, {1, 2}), f32({1, 3}, {10, 20, 30})});
  checkValues(outer.out(0), {2, 3}, {11, 21, 31, 12, 22, 32});
  auto scalar = run("pd_op.add", "", {f32({}, {5}), f32({3}, {1, 2, 3})});
  checkValues(scalar.out(0), {3}, {6, 7, 8});
  // A middle dim broadcast: [2,1,2] + [3,1] -> [2,3,2].
  auto mid = run("pd_op.add", "", {f64({2, 1, 2}, {1, 2, 3, 4}), f64({3, 1}, {10, 20, 30})});
  checkValues(mid.out(0), {2, 3, 2}, {11, 12, 21, 22, 31, 32, 13, 14, 23, 24, 33, 34});
}

TEST_CASE("add works on ints and refuses shapes that do not broadcast", "[kernels]") {
  auto ints = run("pd_op.add", "", {tensorOf(DataType::I64, {2}, {1, -2}), tensorOf(DataType::I64, {2}, {3, 4})});
  REQUIRE(ints.status.isOk());
  CHECK(ints.out(0).dtype() == DataType::I64);
  CHECK(ints.out(0).data<int64_t>()[1] == 2);
  auto bad = run("pd_op.add", "", {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})});
  REQUIRE_FALSE(bad.status.isOk());
  CHECK(bad.status.message() == "shapes [2x3] and [2] do not broadcast");
  auto mixed = run("pd_op.add", "", {f32({2}, {1, 2}), f64({2}, {1, 2})});
  CHECK_FALSE(mixed.status.isOk());
}

TEST_CASE("add_ writes its first operand's buffer", "[kernels]") {
  Tensor x = f32({3}, {1, 2, 3});
  auto r = run("pd_op.add_", "", {x, f32({3}, {1, 1, 1})});
  REQUIRE(r.status.isOk());
  CHECK(r.out(0).sharesStorageWith(x));
  checkValues(x, {3}, {2, 3, 4});
}

TEST_CASE("subtract, multiply and divide broadcast", "[kernels]") {
  auto s = run("pd_op.subtract", "", {f32({2, 2}, {1, 2, 3, 4}), f32({2}, {1, 10})});
  checkValues(s.out(0), {2, 2}, {0, -8, 2, -6});
  auto m = run("pd_op.multiply", "", {f32({2, 2}, {1, 2, 3, 4}), f32({2, 1}, {2, 3})});
  checkValues(m.out(0), {2, 2}, {2, 4, 9, 12});
  auto d = run("pd_op.divide", "", {f64({2}, {1, 3}), f64({}, {4})});
  checkValues(d.out(0), {2}, {0.25, 0.75});
  auto i = run("pd_op.divide", "", {tensorOf(DataType::I32, {2}, {7, -7}), tensorOf(DataType::I32, {2}, {2, 2})});
  CHECK(values(i.out(0)) == std::vector<double>{3, -3});
  auto zero = run("pd_op.divide", "", {tensorOf(DataType::I32, {1}, {7}), tensorOf(DataType::I32, {1}, {0})});
  CHECK(zero.status.message() == "integer division by zero");
}

TEST_CASE("bf16 add is computed in f32 and rounded once", "[kernels]") {
  auto r = run("pd_op.add", "", {tensorOf(DataType::BF16, {2}, {1, 256}), tensorOf(DataType::BF16, {2}, {0.5, 1})});
  REQUIRE(r.status.isOk());
  CHECK(r.out(0).dtype() == DataType::BF16);
  // 256 + 1 = 257 is not a bf16 (8 bits of mantissa): it rounds to even, 256.
  CHECK(values(r.out(0)) == std::vector<double>{1.5, 256});
}

namespace {

Tensor forward(const std::string& op, const std::vector<Tensor>& in) {
  auto r = run(op, "", in);
  REQUIRE(r.status.isOk());
  return r.out(0);
}

/// Checks both grads of a binary op against central differences (f64,
/// step 1e-6, tolerance 1e-7 absolute: the error of a central difference of
/// a product is rounding, about 1e-10 here).
void checkBinaryGrad(const std::string& op, Shape xs, Shape ys, bool withOut) {
  Tensor x = randomF64(xs, 1), y = randomF64(ys, 2, 0.5, 2.0);
  Tensor out = forward(op, {x, y});
  Tensor w = randomF64(shapeOf(out), 3);
  std::vector<Tensor> gin = withOut ? std::vector<Tensor>{x, y, out, w} : std::vector<Tensor>{x, y, w};
  auto g = run(op + "_grad", "axis:(Int32)-1", gin, 2);
  REQUIRE(g.status.isOk());
  auto f = [&](const std::vector<Tensor>& in) { return forward(op, in); };
  checkClose(g.out(0), numericGrad(f, {x, y}, 0, w), 1e-7);
  checkClose(g.out(1), numericGrad(f, {x, y}, 1, w), 1e-7);
}

}  // namespace

TEST_CASE("add_grad, subtract_grad, multiply_grad and divide_grad match finite differences", "[kernels]") {
  for (const char* op : {"pd_op.add", "pd_op.subtract", "pd_op.multiply", "pd_op.divide"}) {
    INFO(op);
    bool withOut = std::string(op) == "pd_op.divide";
    checkBinaryGrad(op, {2, 3}, {2, 3}, withOut);
    checkBinaryGrad(op, {2, 3, 4}, {4}, withOut);
    checkBinaryGrad(op, {2, 1, 4}, {3, 1}, withOut);
    checkBinaryGrad(op, {3}, {}, withOut);
  }
}

TEST_CASE("add_grad sums broadcast dims by hand and skips a null result", "[kernels]") {
  Tensor dout = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  KernelRun r("pd_op.subtract_grad", "", {f32({2, 3}, std::vector<double>(6, 0)), f32({3}, {0, 0, 0}), dout},
              {"builtin.tensor<2x3xf32>", "builtin.tensor<3xf32>"});
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 3}, {1, 2, 3, 4, 5, 6});
  checkValues(r.out(1), {3}, {-5, -7, -9});
  KernelRun n("pd_op.add_grad", "", {f32({2, 3}, std::vector<double>(6, 0)), f32({3}, {0, 0, 0}), dout},
              {"<<NULL TYPE>>", "builtin.tensor<3xf32>"});
  REQUIRE(n.status.isOk());
  CHECK_FALSE(n.out(0).defined());
  checkValues(n.out(1), {3}, {5, 7, 9});
}

TEST_CASE("integer add and divide wrap instead of overflowing", "[kernels]") {
  auto add = run("pd_op.add", "", {tensorOf(DataType::I32, {1}, {2147483647}), tensorOf(DataType::I32, {1}, {1})});
  CHECK(add.out(0).data<int32_t>()[0] == -2147483647 - 1);
  auto div =
      run("pd_op.divide", "", {tensorOf(DataType::I32, {1}, {-2147483648.0}), tensorOf(DataType::I32, {1}, {-1})});
  CHECK(div.out(0).data<int32_t>()[0] == -2147483647 - 1);
}

TEST_CASE("add_n sums a vec of tensors", "[kernels]") {
  // KernelRun hands a tensor operand; the vec (builtin.combine's) is set here and the kernel called again.
  KernelRun r("pd_op.add_n", "", {f64({1}, {0})}, {"builtin.tensor<1xf32>"});
  auto addN = [&](std::vector<Tensor> xs) {
    r.operandValues[0].isList = true;
    r.operandValues[0].elements = std::move(xs);
    r.results[0] = RuntimeValue{};
    const RuntimeValue* ptrs[] = {&r.operandValues[0]};
    KernelContext kc{*r.op, ptrs, r.results};
    return kernelRegistry().find("pd_op.add_n")(kc);
  };
  REQUIRE(addN({f64({2}, {1, 2}), f64({2}, {10, 20}), f64({2}, {100, 200})}).isOk());
  checkValues(r.out(0), {2}, {111, 222}, 0);
  Tensor a = f32({2}, {1, 2});
  REQUIRE(addN({a}).isOk());
  checkValues(r.out(0), {2}, {1, 2}, 0);
  CHECK_FALSE(r.out(0).sharesStorageWith(a));  // a copy: the sum never writes an input
  REQUIRE(addN({tensorOf(DataType::I64, {1}, {3}), tensorOf(DataType::I64, {1}, {4})}).isOk());
  checkValues(r.out(0), {1}, {7}, 0);
  CHECK(addN({f64({2}, {1, 2}), f64({3}, {1, 2, 3})}).message() ==
        "input 1 tensor<3xf64> differs from input 0 tensor<2xf64>");
  CHECK(addN({}).message() == "add_n of no tensors");
}
