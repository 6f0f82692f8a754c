//===- op_result_types_test.cpp - result specs against hand-computed shapes ===//
#include <catch2/catch.hpp>

#include <string>

#include "core/builder.h"
#include "core/op_table.h"
#include "core/program.h"

using namespace pir::core;

namespace {

using Dims = std::vector<int64_t>;

ValueSpec t(Dims dims, DataType dtype = DataType::F32) { return ValueSpec::tensor(dtype, std::move(dims)); }

struct Fixture {
  Context ctx;
  Program prog{ctx};
  Builder b{ctx};
  Fixture() { b.setInsertionPointToEnd(prog.body()); }

  const Attribute* num(std::string_view tag, int64_t v) { return ctx.numberAttr(tag, std::to_string(v)); }
  const Attribute* ints(const Dims& vs, std::string_view tag = "Int64") {
    std::vector<const Attribute*> elems;
    for (int64_t v : vs) elems.push_back(num(tag, v));
    return ctx.arrayAttr(elems);
  }
  const Attribute* intArray(const Dims& vs) {
    std::vector<const Attribute*> elems;
    for (int64_t v : vs) elems.push_back(ctx.numberAttr("", std::to_string(v)));
    return ctx.taggedAttr("pd_op.IntArray", ctx.arrayAttr(elems));
  }
  const Attribute* dtype(std::string_view name) { return ctx.taggedAttr("pd_op.DataType", ctx.symbolAttr(name)); }
  NamedAttr attr(std::string_view key, const Attribute* a) { return {ctx.intern(key), a}; }

  /// An operand made by `full_int_array` holding `vs`.
  ValueSpec intArrayOperand(const Dims& vs) {
    NamedAttr attrs[] = {attr("value", ints(vs))};
    int64_t n[] = {static_cast<int64_t>(vs.size())};
    const Type* ty[] = {ctx.denseTensorType("builtin.tensor", DataType::I64, n)};
    ValueSpec s = t({static_cast<int64_t>(vs.size())}, DataType::I64);
    s.definingOp = b.create("pd_op.full_int_array", {}, ty, attrs);
    return s;
  }
  /// An operand made by `full` of shape [1] holding `v` (an axis).
  ValueSpec scalarOperand(int64_t v) {
    NamedAttr attrs[] = {attr("value", ctx.numberAttr("Float", std::to_string(v)))};
    int64_t n[] = {1};
    const Type* ty[] = {ctx.denseTensorType("builtin.tensor", DataType::I32, n)};
    ValueSpec s = t({1}, DataType::I32);
    s.definingOp = b.create("pd_op.full", {}, ty, attrs);
    return s;
  }

  Result<std::vector<ValueSpec>> infer(std::string_view op, std::vector<ValueSpec> operands,
                                       std::vector<NamedAttr> attrs = {}) {
    const OpInfo* info = lookupOp(op);
    REQUIRE(info != nullptr);
    return inferResultTypes(*info, operands, attrs);
  }
  /// The one tensor result of `op`.
  Dims dims(std::string_view op, std::vector<ValueSpec> operands, std::vector<NamedAttr> attrs = {}) {
    auto r = infer(op, std::move(operands), std::move(attrs));
    INFO((r ? std::string() : r.status().message()));
    REQUIRE(r);
    REQUIRE(r->size() == 1);
    REQUIRE((*r)[0].isTensor());
    return (*r)[0].tensors[0].dims;
  }
  std::string error(std::string_view op, std::vector<ValueSpec> operands, std::vector<NamedAttr> attrs = {}) {
    auto r = infer(op, std::move(operands), std::move(attrs));
    REQUIRE_FALSE(r);
    return r.status().message();
  }
};

std::vector<Dims> listDims(const Result<std::vector<ValueSpec>>& r) {
  REQUIRE(r);
  const std::vector<ValueSpec>& specs = r.value();
  REQUIRE(specs.size() == 1);
  REQUIRE(specs[0].isList);
  std::vector<Dims> out;
  for (const TensorSpec& e : specs[0].tensors) out.push_back(e.dims);
  return out;
}

}  // namespace

TEST_CASE("matmul: transposes, 1-D operands, batch broadcast", "[core][op_table]") {
  Fixture f;
  auto tr = [&](bool x, bool y) {
    return std::vector<NamedAttr>{f.attr("transpose_x", f.ctx.boolAttr(x)), f.attr("transpose_y", f.ctx.boolAttr(y))};
  };
  REQUIRE(f.dims("pd_op.matmul", {t({4, 8}), t({8, 16})}, tr(false, false)) == Dims{4, 16});
  REQUIRE(f.dims("pd_op.matmul", {t({8, 4}), t({8, 16})}, tr(true, false)) == Dims{4, 16});
  REQUIRE(f.dims("pd_op.matmul", {t({4, 8}), t({16, 8})}, tr(false, true)) == Dims{4, 16});
  REQUIRE(f.dims("pd_op.matmul", {t({8, 4}), t({16, 8})}, tr(true, true)) == Dims{4, 16});
  REQUIRE(f.dims("pd_op.matmul", {t({2, 3, 4, 8}), t({8, 5})}) == Dims{2, 3, 4, 5});  // flags absent: false
  REQUIRE(f.dims("pd_op.matmul", {t({2, 1, 4, 8}), t({3, 8, 5})}) == Dims{2, 3, 4, 5});
  REQUIRE(f.dims("pd_op.matmul", {t({8}), t({8, 5})}) == Dims{5});
  REQUIRE(f.dims("pd_op.matmul", {t({4, 8}), t({8})}) == Dims{4});
  REQUIRE(f.dims("pd_op.matmul", {t({8}), t({8})}) == Dims{});
  REQUIRE(f.dims("pd_op.matmul", {t({-1, 8}), t({-1, 16})}) == Dims{-1, 16});
  auto r = f.infer("pd_op.matmul", {t({4, 8}, DataType::BF16), t({8, 2}, DataType::BF16)});
  REQUIRE((*r)[0].tensors[0].dtype == DataType::BF16);
  REQUIRE(f.error("pd_op.matmul", {t({4, 8}), t({7, 16})}) == "pd_op.matmul: contracted dims differ: 8 and 7");
  REQUIRE(f.error("pd_op.matmul", {t({2, 4, 8}), t({3, 8, 5})}).find("do not broadcast") != std::string::npos);
  REQUIRE(f.error("pd_op.matmul", {t({}), t({8, 5})}).find("rank 1 or more") != std::string::npos);
  REQUIRE(f.error("pd_op.matmul", {t({4, 8})}).find("operand 1 is not a tensor") != std::string::npos);
  std::vector<NamedAttr> bad{f.attr("transpose_x", f.num("Int32", 1))};
  REQUIRE(f.error("pd_op.matmul", {t({4, 8}), t({8, 2})}, bad).find("not a boolean") != std::string::npos);
}

TEST_CASE("transpose: perm, negative axes, bad perms", "[core][op_table]") {
  Fixture f;
  auto perm = [&](const Dims& p) { return std::vector<NamedAttr>{f.attr("perm", f.ints(p, "Int32"))}; };
  REQUIRE(f.dims("pd_op.transpose", {t({2, 3, 4})}, perm({2, 0, 1})) == Dims{4, 2, 3});
  REQUIRE(f.dims("pd_op.transpose", {t({2, 3})}, perm({-1, 0})) == Dims{3, 2});
  REQUIRE(f.error("pd_op.transpose", {t({2, 3})}, perm({0, 0})).find("repeats an axis") != std::string::npos);
  REQUIRE(f.error("pd_op.transpose", {t({2, 3})}, perm({0, 2})).find("out of range") != std::string::npos);
  REQUIRE(f.error("pd_op.transpose", {t({2, 3})}, perm({1, 0, 2})) ==
          "pd_op.transpose: perm [1,0,2] has 3 entries for rank 2");
  REQUIRE(f.error("pd_op.transpose", {t({2, 3})}).find("perm is not") != std::string::npos);
}

TEST_CASE("reshape: the shape a full_int_array holds, 0 and -1", "[core][op_table]") {
  Fixture f;
  REQUIRE(f.dims("pd_op.reshape", {t({2, 4, 16}), f.intArrayOperand({8, 16})}) == Dims{8, 16});
  REQUIRE(f.dims("pd_op.reshape", {t({2, 4, 16}), f.intArrayOperand({-1, 16})}) == Dims{8, 16});
  REQUIRE(f.dims("pd_op.reshape", {t({2, 4, 16}), f.intArrayOperand({0, -1})}) == Dims{2, 64});
  REQUIRE(f.dims("pd_op.reshape", {t({-1, 4, 16}), f.intArrayOperand({-1, 16})}) == Dims{-1, 16});
  // A shape computed at run time: only its length is known.
  REQUIRE(f.dims("pd_op.reshape", {t({2, 4, 16}), t({3}, DataType::I64)}) == Dims{-1, -1, -1});
  REQUIRE(f.error("pd_op.reshape", {t({2, 4, 16}), f.intArrayOperand({5, 16})}) ==
          "pd_op.reshape: cannot reshape [2,4,16] (128 elements) into [5,16]");
  REQUIRE(f.error("pd_op.reshape", {t({2, 4, 16}), f.intArrayOperand({-1, 5})}).find("cannot reshape") !=
          std::string::npos);
  REQUIRE(f.error("pd_op.reshape", {t({2, 4}), f.intArrayOperand({-1, -1})}).find("more than one -1") !=
          std::string::npos);
  REQUIRE(f.error("pd_op.reshape", {t({2, 4}), f.intArrayOperand({8, 0, 0})}).find("copies dim 2") !=
          std::string::npos);
}

TEST_CASE("slice: bounds from full_int_arrays, clamped, decrease_axis", "[core][op_table]") {
  Fixture f;
  auto attrs = [&](const Dims& axes, const Dims& decrease = {}) {
    return std::vector<NamedAttr>{f.attr("axes", f.ints(axes)), f.attr("decrease_axis", f.ints(decrease)),
                                  f.attr("infer_flags", f.ints(Dims(axes.size(), 1)))};
  };
  auto sl = [&](Dims x, Dims starts, Dims ends, const std::vector<NamedAttr>& a) {
    return f.dims("pd_op.slice", {t(std::move(x)), f.intArrayOperand(starts), f.intArrayOperand(ends)}, a);
  };
  REQUIRE(sl({8, 8}, {4}, {8}, attrs({1})) == Dims{8, 4});  // rank 1's half of R->S
  REQUIRE(sl({4, 2, 3}, {1}, {4}, attrs({0})) == Dims{3, 2, 3});
  REQUIRE(sl({10}, {-3}, {100}, attrs({0})) == Dims{3});
  REQUIRE(sl({10}, {6}, {2}, attrs({0})) == Dims{0});
  REQUIRE(sl({5, 4}, {2, 0}, {3, -1}, attrs({0, -1}, {0})) == Dims{3});
  REQUIRE(sl({-1, 4}, {0}, {2}, attrs({0})) == Dims{-1, 4});
  // Bounds computed at run time make the sliced dims dynamic.
  REQUIRE(f.dims("pd_op.slice", {t({8, 8}), t({1}, DataType::I64), t({1}, DataType::I64)}, attrs({1})) == Dims{8, -1});
  REQUIRE(f.error("pd_op.slice", {t({8, 8}), f.intArrayOperand({0}), f.intArrayOperand({2})}, attrs({2}))
              .find("out of range") != std::string::npos);
  REQUIRE(f.error("pd_op.slice", {t({8, 8}), f.intArrayOperand({0}), f.intArrayOperand({2})}, attrs({0}, {0}))
              .find("decrease_axis drops axis 0 of size 2") != std::string::npos);
  REQUIRE(f.error("pd_op.slice", {t({8, 8}), f.intArrayOperand({0, 1}), f.intArrayOperand({2})}, attrs({0}))
              .find("one entry per axis") != std::string::npos);
}

TEST_CASE("split and split_with_num: one vec result", "[core][op_table]") {
  Fixture f;
  using L = std::vector<Dims>;
  REQUIRE(listDims(f.infer("pd_op.split", {t({9, 4}), f.intArrayOperand({5, 4}), f.scalarOperand(0)})) ==
          L{{5, 4}, {4, 4}});
  REQUIRE(listDims(f.infer("pd_op.split", {t({9, 6}), f.intArrayOperand({2, -1}), f.scalarOperand(-1)})) ==
          L{{9, 2}, {9, 4}});
  REQUIRE(f.error("pd_op.split", {t({9, 4}), f.intArrayOperand({5, 5}), f.scalarOperand(0)})
              .find("do not add up to dim 9") != std::string::npos);
  REQUIRE(f.error("pd_op.split", {t({9, 4}), f.intArrayOperand({-1, -1}), f.scalarOperand(0)}).find("bad size") !=
          std::string::npos);
  REQUIRE(f.error("pd_op.split", {t({9, 4}), f.intArrayOperand({9}), t({1}, DataType::I32)})
              .find("axis is not a constant") != std::string::npos);

  std::vector<NamedAttr> two{f.attr("num", f.num("Int32", 2))};
  REQUIRE(listDims(f.infer("pd_op.split_with_num", {t({4, 8}), f.scalarOperand(0)}, two)) == L{{2, 8}, {2, 8}});
  REQUIRE(listDims(f.infer("pd_op.split_with_num", {t({4, -1}), f.scalarOperand(1)}, two)) == L{{4, -1}, {4, -1}});
  REQUIRE(f.error("pd_op.split_with_num", {t({5, 8}), f.scalarOperand(0)}, two) ==
          "pd_op.split_with_num: dim 5 does not split into 2");
  REQUIRE(f.error("pd_op.split_with_num", {t({4, 8}), f.scalarOperand(2)}, two).find("out of range") !=
          std::string::npos);
}

TEST_CASE("concat: a vec operand and an axis", "[core][op_table]") {
  Fixture f;
  ValueSpec parts = ValueSpec::list({{DataType::F32, {2, 8}}, {DataType::F32, {3, 8}}});
  REQUIRE(f.dims("pd_op.concat", {parts, f.scalarOperand(0)}) == Dims{5, 8});
  ValueSpec cols = ValueSpec::list({{DataType::F32, {4, 2}}, {DataType::F32, {4, 6}}, {DataType::F32, {4, -1}}});
  REQUIRE(f.dims("pd_op.concat", {cols, f.scalarOperand(-1)}) == Dims{4, -1});
  REQUIRE(f.error("pd_op.concat", {parts, f.scalarOperand(1)}).find("off axis 1") != std::string::npos);
  ValueSpec ranks = ValueSpec::list({{DataType::F32, {2, 8}}, {DataType::F32, {8}}});
  REQUIRE(f.error("pd_op.concat", {ranks, f.scalarOperand(0)}).find("has rank 1") != std::string::npos);
  REQUIRE(f.error("pd_op.concat", {t({2, 8}), f.scalarOperand(0)}).find("not a non-empty vec") != std::string::npos);
}

TEST_CASE("full, full_int_array, full_like, recv_v2: shapes from attributes", "[core][op_table]") {
  Fixture f;
  auto r = f.infer("pd_op.full", {}, {f.attr("dtype", f.dtype("int32")), f.attr("shape", f.intArray({1}))});
  REQUIRE(r);
  REQUIRE((*r)[0] == t({1}, DataType::I32));
  REQUIRE(f.dims("pd_op.full", {}, {f.attr("shape", f.ints({4, 16}))}) == Dims{4, 16});
  REQUIRE(f.error("pd_op.full", {}, {f.attr("shape", f.intArray({1})), f.attr("dtype", f.dtype("float99"))})
              .find("not a data type") != std::string::npos);
  r = f.infer("pd_op.full_int_array", {}, {f.attr("dtype", f.dtype("int64")), f.attr("value", f.ints({2, 6}))});
  REQUIRE((*r)[0] == t({2}, DataType::I64));
  r = f.infer("pd_op.full_like", {t({2, 2}, DataType::BF16), t({1})}, {f.attr("dtype", f.dtype("undefined"))});
  REQUIRE((*r)[0] == t({2, 2}, DataType::BF16));
  r = f.infer("pd_op.full_like", {t({2, 2}), t({1})}, {f.attr("dtype", f.ctx.symbolAttr("int32"))});
  REQUIRE((*r)[0] == t({2, 2}, DataType::I32));
  r = f.infer("pd_op.recv_v2", {}, {f.attr("dtype", f.dtype("float32")), f.attr("out_shape", f.ints({4, 4}, "Int32"))});
  REQUIRE((*r)[0] == t({4, 4}));
  REQUIRE(f.error("pd_op.recv_v2", {}).find("out_shape") != std::string::npos);
}

TEST_CASE("collectives: all_gather multiplies dim 0, reduce_scatter divides it", "[core][op_table]") {
  Fixture f;
  std::vector<NamedAttr> two{f.attr("nranks", f.num("Int32", 2)), f.attr("ring_id", f.num("Int32", 12))};
  REQUIRE(f.dims("pd_op.all_gather", {t({2, 8})}, two) == Dims{4, 8});
  REQUIRE(f.dims("pd_op.all_gather", {t({-1, 8})}, two) == Dims{-1, 8});
  REQUIRE(f.dims("pd_op.reduce_scatter", {t({4, 8})}, two) == Dims{2, 8});
  REQUIRE(f.error("pd_op.reduce_scatter", {t({5, 8})}, two) ==
          "pd_op.reduce_scatter: dim 0 (5) is not divisible by nranks (2)");
  REQUIRE(f.error("pd_op.reduce_scatter", {t({})}, two).find("0-D") != std::string::npos);
  REQUIRE(f.error("pd_op.all_gather", {t({2, 8})}).find("nranks") != std::string::npos);
  for (std::string_view same : {"pd_op.all_reduce", "pd_op.all_to_all", "pd_op.broadcast", "pd_op.assign"})
    REQUIRE(f.dims(same, {t({4, 16})}) == Dims{4, 16});
  auto sent = f.infer("pd_op.send_v2", {t({4, 4})});
  REQUIRE(sent);
  REQUIRE(sent->empty());
  REQUIRE_FALSE(f.infer("pd_op.send_v2", {}));
}

TEST_CASE("result types of an op as built, and of ops without a function", "[core][op_table]") {
  Fixture f;
  int64_t xd[] = {4, 8}, yd[] = {8, 2};
  const Type* xt[] = {f.ctx.denseTensorType("builtin.tensor", DataType::F32, xd)};
  const Type* yt[] = {f.ctx.denseTensorType("builtin.tensor", DataType::F32, yd)};
  Value* ins[] = {f.b.create("test.x", {}, xt)->result(0), f.b.create("test.y", {}, yt)->result(0)};
  Operation* mm = f.b.create("pd_op.matmul", ins, xt);
  auto r = inferResultTypes(*mm);
  REQUIRE(r);
  REQUIRE((*r)[0] == t({4, 2}));
  Operation* relu = f.b.create("pd_op.relu", std::span<Value* const>(ins, 1), xt);
  REQUIRE(inferResultTypes(*relu).status().message() == "the op table has no result-type function for 'pd_op.relu'");
  Operation* other = f.b.create("custom.group", {}, {});
  REQUIRE(inferResultTypes(*other).status().message() == "the op table has no entry for 'custom.group'");
  // A vec operand is a list spec; a null operand an empty one.
  const Type* vec[] = {f.ctx.vectorType(std::vector<const Type*>{xt[0], yt[0]})};
  Operation* combine = f.b.create("builtin.combine", ins, vec);
  auto spec = operandSpec(combine->result(0));
  REQUIRE(spec);
  REQUIRE(spec->isList);
  REQUIRE(spec->tensors.size() == 2);
  REQUIRE(spec->definingOp == combine);
  auto none = operandSpec(nullptr);
  REQUIRE(none);
  REQUIRE(none->tensors.empty());
}

TEST_CASE("result types refuse what would overflow int64 or make absurdly many pieces", "[core][op_table]") {
  Fixture f;
  // 2^32 x 2^32 x 4 elements: the element count passes int64.
  REQUIRE(f.error("pd_op.reshape", {t({4294967296, 4294967296, 4}), f.intArrayOperand({-1})}) ==
          "pd_op.reshape: input [4294967296,4294967296,4] overflows int64");
  REQUIRE(f.error("pd_op.reshape", {t({4}), f.intArrayOperand({4294967296, 4294967296, 4})}) ==
          "pd_op.reshape: shape [4294967296,4294967296,4] overflows int64");
  REQUIRE(f.error("pd_op.all_gather", {t({4611686018427387904, 2})}, {f.attr("nranks", f.num("Int32", 4))}) ==
          "pd_op.all_gather: dim 0 times nranks overflows int64");
  // A dynamic or zero dim passes any divisibility check; the count is still bounded.
  REQUIRE(
      f.error("pd_op.split_with_num", {t({-1, 4}), f.scalarOperand(0)}, {f.attr("num", f.num("Int32", 2000000000))}) ==
      "pd_op.split_with_num: num 2000000000 is more pieces than dim -1 allows");
  REQUIRE(f.error("pd_op.split_with_num", {t({4, 4}), f.scalarOperand(0)}, {f.attr("num", f.num("Int32", 8))}) ==
          "pd_op.split_with_num: num 8 is more pieces than dim 4 allows");
  // A float that is no int64 (1e300, nan) is no axis or count, not undefined behaviour.
  NamedAttr huge[] = {f.attr("num", f.ctx.numberAttr("Double", "1e300"))};
  REQUIRE_FALSE(f.infer("pd_op.split_with_num", {t({4, 4}), f.scalarOperand(0)}, {huge[0]}));
  NamedAttr nan[] = {f.attr("num", f.ctx.numberAttr("Double", "nan"))};
  REQUIRE_FALSE(f.infer("pd_op.split_with_num", {t({4, 4}), f.scalarOperand(0)}, {nan[0]}));
}
