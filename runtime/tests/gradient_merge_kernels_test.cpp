//===- gradient_merge_kernels_test.cpp - scale_, full_, set_value_with_tensor_ ===//
#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

Tensor i64(Shape shape, std::vector<int64_t> v) {
  Tensor t = Tensor::allocate(DataType::I64, shape);
  std::copy(v.begin(), v.end(), t.data<int64_t>());
  return t;
}

Tensor noBounds() { return i64({0}, {}); }

const char* kNoAxes = "axes:[],decrease_axes:[],none_axes:[]";

}  // namespace

TEST_CASE("scale_ writes x in place, bias before or after the scale", "[kernels]") {
  Tensor x = f32({3}, {1, -2, 4});
  Tensor k = f32({1}, {0.25});
  KernelRun r = run("pd_op.scale_", "bias:(Float)0,bias_after_scale:false", {x, k});
  REQUIRE(r.status.isOk());
  CHECK(r.out(0).sharesStorageWith(x));
  CHECK(values(x) == std::vector<double>{0.25, -0.5, 1});
  Tensor y = f32({2}, {1, 3});
  run("pd_op.scale_", "scale:(Float)2,bias:(Float)1,bias_after_scale:false", {y});
  CHECK(values(y) == std::vector<double>{4, 8});  // 2·(y + 1)
  Tensor z = f32({2}, {1, 3});
  run("pd_op.scale_", "scale:(Float)2,bias:(Float)1,bias_after_scale:true", {z});
  CHECK(values(z) == std::vector<double>{3, 7});  // 2·z + 1
}

TEST_CASE("full_ fills its output in place and refuses another dtype or size", "[kernels]") {
  Tensor out = f32({2, 2}, {1, 2, 3, 4});
  KernelRun r = run("pd_op.full_", "dtype:(pd_op.DataType)float32,shape:(pd_op.IntArray)[2,2],value:(Float)0.5", {out});
  REQUIRE(r.status.isOk());
  CHECK(r.out(0).sharesStorageWith(out));
  CHECK(values(out) == std::vector<double>{0.5, 0.5, 0.5, 0.5});
  KernelRun bad = run("pd_op.full_", "dtype:(pd_op.DataType)float64,value:(Float)1", {out});
  CHECK_FALSE(bad.status.isOk());
  KernelRun size = run("pd_op.full_", "shape:(pd_op.IntArray)[3],value:(Float)1", {out});
  CHECK_FALSE(size.status.isOk());
  CHECK(values(out) == std::vector<double>{0.5, 0.5, 0.5, 0.5});
}

TEST_CASE("set_value_with_tensor_ with no axes sets the whole tensor, as gradient merge zeroes", "[kernels]") {
  Tensor buf = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  KernelRun r = run("pd_op.set_value_with_tensor_", kNoAxes, {buf, f32({1}, {0}), noBounds(), noBounds(), noBounds()});
  REQUIRE(r.status.isOk());
  CHECK(r.out(0).sharesStorageWith(buf));
  CHECK(values(buf) == std::vector<double>(6, 0.0));
  Tensor scalar = f32({}, {7});
  run("pd_op.set_value_with_tensor_", kNoAxes, {scalar, f32({1}, {-1}), noBounds(), noBounds(), noBounds()});
  CHECK(values(scalar) == std::vector<double>{-1});
  Tensor rows = f32({2, 2}, {1, 2, 3, 4});
  run("pd_op.set_value_with_tensor_", kNoAxes, {rows, f32({2}, {8, 9}), noBounds(), noBounds(), noBounds()});
  CHECK(values(rows) == std::vector<double>{8, 9, 8, 9});  // [2] broadcast over the rows
}

TEST_CASE("set_value_with_tensor_ on a slice: steps, negative bounds, broadcast and decreased axes", "[kernels]") {
  // x[1:3, ::2] = [[10, 11]] broadcast over the two rows.
  Tensor x = f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  KernelRun r = run("pd_op.set_value_with_tensor_", "axes:[(Int64)0,(Int64)1],decrease_axes:[],none_axes:[]",
                    {x, f32({1, 2}, {10, 11}), i64({2}, {1, 0}), i64({2}, {3, 4}), i64({2}, {1, 2})});
  REQUIRE(r.status.isOk());
  CHECK(values(x) == std::vector<double>{0, 1, 2, 3, 10, 5, 11, 7, 10, 9, 11, 11});
  // x[:, -1] = [20, 21, 22]: axis 1 decreased, negative start.
  Tensor y = f32({3, 2}, {0, 1, 2, 3, 4, 5});
  run("pd_op.set_value_with_tensor_", "axes:[(Int64)1],decrease_axes:[(Int64)1],none_axes:[]",
      {y, f32({3}, {20, 21, 22}), i64({1}, {-1}), i64({1}, {2}), i64({1}, {1})});
  CHECK(values(y) == std::vector<double>{0, 20, 2, 21, 4, 22});
  // x[3:0:-2] on a 1-D x of 4: indices 3 and 1.
  Tensor z = f32({4}, {0, 1, 2, 3});
  run("pd_op.set_value_with_tensor_", "axes:[(Int64)0],decrease_axes:[],none_axes:[]",
      {z, f32({2}, {30, 31}), i64({1}, {3}), i64({1}, {0}), i64({1}, {-2})});
  CHECK(values(z) == std::vector<double>{0, 31, 2, 30});
}

TEST_CASE("set_value_with_tensor_ refuses values that do not fit, a zero step and another dtype", "[kernels]") {
  Tensor x = f32({2, 2}, {1, 2, 3, 4});
  auto setWith = [&](const std::string& attrs, std::vector<Tensor> in) {
    in.insert(in.begin(), x);
    return run("pd_op.set_value_with_tensor_", attrs, in).status;
  };
  CHECK_FALSE(setWith(kNoAxes, {f32({3}, {1, 2, 3}), noBounds(), noBounds(), noBounds()}).isOk());
  CHECK_FALSE(setWith(kNoAxes, {f64({1}, {0}), noBounds(), noBounds(), noBounds()}).isOk());
  CHECK_FALSE(setWith("axes:[(Int64)0],decrease_axes:[],none_axes:[]",
                      {f32({1}, {0}), i64({1}, {0}), i64({1}, {2}), i64({1}, {0})})
                  .isOk());
  CHECK_FALSE(
      setWith("axes:[],decrease_axes:[],none_axes:[(Int64)0]", {f32({1}, {0}), noBounds(), noBounds(), noBounds()})
          .isOk());
  CHECK(values(x) == std::vector<double>{1, 2, 3, 4});
}
