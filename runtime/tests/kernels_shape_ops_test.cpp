//===- kernels_shape_ops_test.cpp - squeeze, expand, tile, stack, tri ----===//
#include <tuple>

#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;
namespace core = pir::core;
namespace parser = pir::parser;

namespace {

Tensor i64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }

Tensor forward(const std::string& op, const std::string& attrs, const std::vector<Tensor>& in, size_t results = 1) {
  auto r = run(op, attrs, in, results);
  INFO(r.status.message());
  REQUIRE(r.status.isOk());
  return r.out(0);
}

Tensor iota(Shape shape, double from = 0) {
  std::vector<double> v(size_t(numElements(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = from + double(i);
  return f64(std::move(shape), v);
}

/// An op whose operand 0 is a vec (builtin.combine's), run through its
/// kernel; operands after it are tensors.
struct ListRun {
  core::Context ctx;
  std::unique_ptr<core::SourceFile> src;
  std::unique_ptr<core::DiagnosticEngine> diag;
  std::unique_ptr<core::Program> program;
  std::vector<RuntimeValue> operands, results;
  core::Status status;

  ListRun(const std::string& opName, const std::string& attrs, const std::vector<Tensor>& list,
          const std::vector<Tensor>& rest, bool listResult) {
    std::string t = "builtin.tensor<1xf32>", vec = "vec[" + t + "]";
    std::string text = "{\n    (%0) = \"pd_op.data\" () {} : () -> " + t + "\n";
    text += "    (%1) = \"builtin.combine\" (%0) {} : (" + t + ") -> " + vec + "\n";
    std::string ops = "%1", types = vec;
    for (size_t i = 0; i < rest.size(); ++i) {
      ops += ", %0";
      types += ", " + t;
    }
    text += "    (%r) = \"" + opName + "\" (" + ops + ") {" + attrs + "} : (" + types + ") -> " +
            (listResult ? vec : t) + "\n}\n";
    src = std::make_unique<core::SourceFile>("k.pir", text);
    diag = std::make_unique<core::DiagnosticEngine>(src.get());
    auto p = parser::parseProgram(ctx, *src, *diag);
    REQUIRE(p.isOk());
    program = std::move(p.value());
    const core::Operation* op = program->body().back();
    operands.resize(1 + rest.size());
    operands[0].isList = true;
    operands[0].elements = list;
    for (size_t i = 0; i < rest.size(); ++i) operands[i + 1].tensor = rest[i];
    std::vector<const RuntimeValue*> ptrs;
    for (RuntimeValue& v : operands) ptrs.push_back(&v);
    results.resize(1);
    KernelFn fn = kernelRegistry().find(core::lookupOp(*op));
    REQUIRE(fn);
    KernelContext kc{*op, ptrs, results};
    status = fn(kc);
  }
};

}  // namespace

TEST_CASE("unsqueeze and squeeze are views, with xshape when asked", "[kernels][shape_ops]") {
  Tensor x = iota({2, 3});
  // np.expand_dims(x, (0, 3)).shape == (1, 2, 3, 1); axes apply in turn
  CHECK(shapeOf(forward("pd_op.unsqueeze", "", {x, i64({2}, {0, -1})})) == Shape{1, 2, 3, 1});
  auto two = run("pd_op.unsqueeze", "", {x, i64({1}, {1})}, 2);
  REQUIRE(two.status.isOk());
  CHECK(shapeOf(two.out(0)) == Shape{2, 1, 3});
  CHECK(shapeOf(two.out(1)) == Shape{0, 2, 3});
  CHECK(values(two.out(0)) == values(x));
  Tensor y = iota({1, 3, 1});
  CHECK(shapeOf(forward("pd_op.squeeze", "", {y, i64({0}, {})})) == Shape{3});
  CHECK(shapeOf(forward("pd_op.squeeze", "", {y, i64({1}, {-1})})) == Shape{1, 3});
  CHECK(shapeOf(forward("pd_op.squeeze", "", {y, i64({1}, {1})})) == Shape{1, 3, 1});  // not size 1: kept
  CHECK(run("pd_op.squeeze", "", {y, i64({1}, {3})}).status.message() == "axis 3 is out of range for [1x3x1]");
  CHECK(run("pd_op.unsqueeze", "", {x, i64({1}, {4})}).status.message() ==
        "axis 4 is out of range for unsqueezing [2x3]");
}

TEST_CASE("flatten between start_axis and stop_axis", "[kernels][shape_ops]") {
  Tensor x = iota({2, 3, 4, 5});
  auto r = run("pd_op.flatten", "start_axis:(Int32)1,stop_axis:(Int32)2", {x}, 2);
  REQUIRE(r.status.isOk());
  CHECK(shapeOf(r.out(0)) == Shape{2, 12, 5});
  CHECK(shapeOf(r.out(1)) == Shape{0, 2, 3, 4, 5});
  CHECK(shapeOf(forward("pd_op.flatten", "start_axis:(Int32)0,stop_axis:(Int32)-1", {x})) == Shape{120});
  CHECK(shapeOf(forward("pd_op.flatten", "start_axis:(Int32)0,stop_axis:(Int32)-1", {f64({}, {7})})) == Shape{1});
  CHECK(!run("pd_op.flatten", "start_axis:(Int32)2,stop_axis:(Int32)1", {x}).status.isOk());
  // The grads take x (or xshape) for its shape.
  Tensor g = iota({2, 12, 5});
  CHECK(shapeOf(forward("pd_op.flatten_grad", "", {r.out(1), g})) == Shape{2, 3, 4, 5});
  CHECK(shapeOf(forward("pd_op.flatten_grad", "", {x, g})) == Shape{2, 3, 4, 5});
  CHECK(shapeOf(forward("pd_op.squeeze_grad", "", {iota({1, 3, 1}), iota({3}), i64({0}, {})})) == Shape{1, 3, 1});
  CHECK(shapeOf(forward("pd_op.unsqueeze_grad", "", {iota({3}), iota({1, 3}), i64({1}, {0})})) == Shape{3});
}

TEST_CASE("expand is numpy's broadcast_to, tile numpy's tile", "[kernels][shape_ops]") {
  // np.broadcast_to([[1], [2]], (3, 2, 4)); -1 keeps x's dim
  Tensor col = f64({2, 1}, {1, 2});
  std::vector<double> want;
  for (int k = 0; k < 3; ++k)
    for (double v : {1.0, 2.0}) want.insert(want.end(), 4, v);
  checkValues(forward("pd_op.expand", "", {col, i64({3}, {3, 2, 4})}), {3, 2, 4}, want, 0);
  checkValues(forward("pd_op.expand", "", {col, i64({3}, {3, -1, 4})}), {3, 2, 4}, want, 0);
  CHECK(run("pd_op.expand", "", {col, i64({2}, {3, 4})}).status.message() == "x [2x1] does not expand to [3,4]");
  // np.tile([[1, 2], [3, 4]], (2, 3)), np.tile([1, 2, 3], (2, 2))
  checkValues(forward("pd_op.tile", "", {f64({2, 2}, {1, 2, 3, 4}), i64({2}, {2, 3})}), {4, 6},
              {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}, 0);
  checkValues(forward("pd_op.tile", "", {f64({3}, {1, 2, 3}), i64({2}, {2, 2})}), {2, 6},
              {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}, 0);
  Tensor b = forward("pd_op.tile", "", {tensorOf(DataType::Bool, {2}, {1, 0}), i64({1}, {2})});
  CHECK(values(b) == std::vector<double>{1, 0, 1, 0});
  CHECK(!run("pd_op.tile", "", {col, i64({1}, {-1})}).status.isOk());
}

TEST_CASE("triu and tril keep a triangle of the last two dims", "[kernels][shape_ops]") {
  Tensor m = iota({3, 4}, 1);
  // np.triu(m, 1), np.tril(m, -1)
  checkValues(forward("pd_op.triu", "diagonal:(Int32)1", {m}), {3, 4}, {0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}, 0);
  checkValues(forward("pd_op.tril", "diagonal:(Int32)-1", {m}), {3, 4}, {0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}, 0);
  CHECK(run("pd_op.triu", "diagonal:(Int32)0", {f64({3}, {1, 2, 3})}).status.message() ==
        "x [3] has fewer than 2 dims");
}

TEST_CASE("stack joins a vec along a new axis; stack_grad cuts it back", "[kernels][shape_ops]") {
  Tensor a = iota({2, 3}), b = iota({2, 3}, 10);
  // np.stack([a, b], axis=1)
  ListRun s("pd_op.stack", "axis:(Int32)1", {a, b}, {}, false);
  REQUIRE(s.status.isOk());
  checkValues(s.results[0].tensor, {2, 2, 3}, {0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15}, 0);
  ListRun g("pd_op.stack_grad", "axis:(Int32)1", {a, b}, {s.results[0].tensor}, true);
  REQUIRE(g.status.isOk());
  REQUIRE(g.results[0].elements.size() == 2);
  checkValues(g.results[0].elements[0], {2, 3}, values(a), 0);
  checkValues(g.results[0].elements[1], {2, 3}, values(b), 0);
  ListRun bad("pd_op.stack", "axis:(Int32)0", {a, iota({3, 2})}, {}, false);
  CHECK(bad.status.message() == "cannot stack tensor<2x3xf64> and tensor<3x2xf64>");
  ListRun far("pd_op.stack", "axis:(Int32)3", {a, b}, {}, false);
  CHECK(!far.status.isOk());
}

// Finite differences: f64, central, step 1e-6, tolerance 1e-7 absolute.
TEST_CASE("expand, tile, triu and tril grads match finite differences", "[kernels][shape_ops]") {
  Tensor x = randomF64({2, 1, 3}, 51);
  struct Case {
    const char* op;
    const char* attrs;
    Tensor arg;
  };
  for (const Case& c : {Case{"pd_op.expand", "", i64({4}, {2, 2, 4, 3})}, Case{"pd_op.tile", "", i64({2}, {3, 2})},
                        Case{"pd_op.tile", "", i64({4}, {2, 1, 2, 1})}}) {
    INFO(c.op);
    Tensor out = forward(c.op, c.attrs, {x, c.arg});
    Tensor w = randomF64(shapeOf(out), 52);
    auto g = run(std::string(c.op) + "_grad", c.attrs, {x, w, c.arg});
    REQUIRE(g.status.isOk());
    checkClose(g.out(0), numericGrad([&](auto& in) { return forward(c.op, c.attrs, in); }, {x, c.arg}, 0, w), 1e-7);
  }
  Tensor m = randomF64({2, 3, 4}, 53);
  for (const char* op : {"pd_op.triu", "pd_op.tril"}) {
    Tensor w = randomF64({2, 3, 4}, 54);
    auto g = run(std::string(op) + "_grad", "diagonal:(Int32)1", {w});
    checkClose(g.out(0), numericGrad([&](auto& in) { return forward(op, "diagonal:(Int32)1", in); }, {m}, 0, w), 1e-7);
  }
}

namespace {

std::string sliceAttrs(const std::string& axes, const std::string& decrease = "") {
  return "axes:[" + axes + "],decrease_axis:[" + decrease + "],infer_flags:[(Int64)1]";
}

/// A vec op's result: the tensor, or with `list` the elements.
std::vector<Tensor> listRun(const std::string& op, const std::vector<Tensor>& list, const std::vector<Tensor>& rest,
                            bool listResult) {
  ListRun r(op, "", list, rest, listResult);
  INFO(op << ": " << r.status.message());
  REQUIRE(r.status.isOk());
  return listResult ? r.results[0].elements : std::vector<Tensor>{r.results[0].tensor};
}

}  // namespace

TEST_CASE("slice_grad, concat_grad, split_grad and transpose_grad by hand", "[kernels][shape_ops]") {
  Tensor x = iota({2, 4});
  // g = np.zeros((2, 4)); g[:, 1:3] = [[1, 2], [3, 4]]
  checkValues(
      forward("pd_op.slice_grad", sliceAttrs("(Int64)1"), {x, f64({2, 2}, {1, 2, 3, 4}), i64({1}, {1}), i64({1}, {3})}),
      {2, 4}, {0, 1, 2, 0, 0, 3, 4, 0}, 0);
  // x[1] (axis 0 decreased): out_grad is [4]; g[1, :] = [1, 2, 3, 4]
  checkValues(forward("pd_op.slice_grad", sliceAttrs("(Int64)0", "(Int64)0"),
                      {x, f64({4}, {1, 2, 3, 4}), i64({1}, {1}), i64({1}, {2})}),
              {2, 4}, {0, 0, 0, 0, 1, 2, 3, 4}, 0);
  // x[:, -2:10]: a negative start wraps, an end past the dim clamps; g[:, 2:4] = out_grad
  checkValues(forward("pd_op.slice_grad", sliceAttrs("(Int64)1"),
                      {x, f64({2, 2}, {5, 6, 7, 8}), i64({1}, {-2}), i64({1}, {10})}),
              {2, 4}, {0, 0, 5, 6, 0, 0, 7, 8}, 0);
  CHECK(run("pd_op.slice_grad", sliceAttrs("(Int64)1"), {x, f64({3}, {1, 2, 3}), i64({1}, {1}), i64({1}, {3})})
            .status.message() == "out_grad tensor<3xf64> is not the slice [2,2] of tensor<2x4xf64>");

  // transpose_grad of perm [1, 0]: [[1, 2], [3, 4], [5, 6]].T
  checkValues(forward("pd_op.transpose_grad", "perm:[(Int32)1,(Int32)0]", {f64({3, 2}, {1, 2, 3, 4, 5, 6})}), {2, 3},
              {1, 3, 5, 2, 4, 6}, 0);
  // perm [1, 2, 0] and back: np.transpose(np.transpose(t, (1, 2, 0)), (2, 0, 1)) == t
  Tensor t = iota({2, 3, 4});
  std::string perm = "perm:[(Int32)1,(Int32)2,(Int32)-3]";
  Tensor out = forward("pd_op.transpose", perm, {t});
  CHECK(shapeOf(out) == Shape{3, 4, 2});
  checkValues(forward("pd_op.transpose_grad", perm, {out}), {2, 3, 4}, values(t), 0);
  CHECK(run("pd_op.transpose_grad", "perm:[(Int32)0,(Int32)0]", {iota({2, 2})}).status.message() ==
        "perm [0,0] is not a permutation");

  // concat_grad of [2x1] and [2x2] along axis 1: np.split(d, [1], axis=1)
  Tensor d = f64({2, 3}, {1, 2, 3, 4, 5, 6});
  auto pieces = listRun("pd_op.concat_grad", {iota({2, 1}), iota({2, 2})}, {d, i64({}, {1})}, true);
  REQUIRE(pieces.size() == 2);
  checkValues(pieces[0], {2, 1}, {1, 4}, 0);
  checkValues(pieces[1], {2, 2}, {2, 3, 5, 6}, 0);
  ListRun short_("pd_op.concat_grad", "", {iota({2, 1}), iota({2, 1})}, {d, i64({}, {1})}, true);
  CHECK(short_.status.message() == "out_grad tensor<2x3xf64> is not the 2 x joined along axis 1");
  // split_grad joins the pieces along axis -1: np.concatenate(pieces, axis=-1)
  checkValues(listRun("pd_op.split_grad", pieces, {i64({1}, {-1})}, false)[0], {2, 3}, {1, 2, 3, 4, 5, 6}, 0);
  checkValues(listRun("pd_op.split_grad", {iota({1, 2}), iota({2, 2}, 2)}, {i64({}, {0})}, false)[0], {3, 2},
              {0, 1, 2, 3, 4, 5}, 0);
  ListRun missing("pd_op.split_grad", "", {iota({1, 2}), Tensor()}, {i64({}, {0})}, false);
  CHECK(missing.status.message() == "cannot join a missing tensor");
}

// Central differences in f64, step 1e-6, tolerance 1e-7 absolute.
TEST_CASE("slice, concat, split and transpose grads match finite differences", "[kernels][shape_ops]") {
  Tensor x = randomF64({3, 4, 5}, 61);
  // slice: x[1:3, :, -4:-1], and x[:, 2, :] with axis 1 decreased
  for (auto [attrs, starts, ends] : std::vector<std::tuple<std::string, Tensor, Tensor>>{
           {sliceAttrs("(Int64)0,(Int64)2"), i64({2}, {1, -4}), i64({2}, {3, -1})},
           {sliceAttrs("(Int64)1", "(Int64)1"), i64({1}, {2}), i64({1}, {3})}}) {
    INFO(attrs);
    Tensor out = forward("pd_op.slice", attrs, {x, starts, ends});
    Tensor w = randomF64(shapeOf(out), 62);
    Tensor g = forward("pd_op.slice_grad", attrs, {x, w, starts, ends});
    // clang 14 cannot capture a structured binding: through a named reference.
    auto fwd = [&, &attrText = attrs](const std::vector<Tensor>& in) { return forward("pd_op.slice", attrText, in); };
    checkClose(g, numericGrad(fwd, {x, starts, ends}, 0, w), 1e-7);
  }
  // transpose
  std::string perm = "perm:[(Int32)2,(Int32)0,(Int32)1]";
  Tensor w = randomF64({5, 3, 4}, 63);
  checkClose(forward("pd_op.transpose_grad", perm, {w}),
             numericGrad([&](auto& in) { return forward("pd_op.transpose", perm, in); }, {x}, 0, w), 1e-7);
  // concat along axis 1 of [3x4x5] and [3x2x5]; its grad in each x
  Tensor y = randomF64({3, 2, 5}, 64), axis = i64({1}, {1});
  auto concat = [&](const std::vector<Tensor>& in) {
    return listRun("pd_op.concat", {in[0], in[1]}, {in[2]}, false)[0];
  };
  Tensor wc = randomF64({3, 6, 5}, 65);
  auto grads = listRun("pd_op.concat_grad", {x, y}, {wc, axis}, true);
  REQUIRE(grads.size() == 2);
  checkClose(grads[0], numericGrad(concat, {x, y, axis}, 0, wc), 1e-7);
  checkClose(grads[1], numericGrad(concat, {x, y, axis}, 1, wc), 1e-7);
  // split into [3x1x5], [3x3x5] along axis 1; split_grad(out_grads) is the grad of sum(split(x)·w)
  Tensor sections = i64({2}, {1, 3}), splitAxis = i64({1}, {1});
  Tensor wa = randomF64({3, 1, 5}, 66), wb = randomF64({3, 3, 5}, 67);
  Tensor wJoined = listRun("pd_op.concat", {wa, wb}, {splitAxis}, false)[0];
  auto split = [&](const std::vector<Tensor>& in) {
    KernelRun r("pd_op.split", "", {in[0], sections, splitAxis}, {"vec[builtin.tensor<1xf32>,builtin.tensor<1xf32>]"});
    REQUIRE(r.status.isOk());
    return listRun("pd_op.concat", r.results[0].elements, {splitAxis}, false)[0];  // the pieces, flattened in order
  };
  Tensor xs = randomF64({3, 4, 5}, 68);
  checkClose(listRun("pd_op.split_grad", {wa, wb}, {splitAxis}, false)[0], numericGrad(split, {xs}, 0, wJoined), 1e-7);
}
