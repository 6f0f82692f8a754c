//===- update_fusion_test.cpp - sgd_ made by its matmul_grad's GEMM -------===//
//
// Hand-written programs of one matmul_grad and the sgd_ of its y, with and
// without what forbids the fusion (runtime/update_fusion.h). Every run is
// checked against naive loops in double (not the GEMM the kernel calls), at
// f32's tolerance, 1e-6 + 1e-5 relative; a case the rule refuses must also
// be refused (numFusedUpdates) and give the op-by-op answer.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "runtime/tests/run_helpers.h"

using namespace pir;
using namespace pir::runtime;
using namespace pir::runtime::testing;

namespace {

constexpr double kLr = 0.1;

/// The shapes of one matmul_grad: x is [rows.., K] (or [K, M] with tx), y
/// [K, N] (or [N, K] with ty).
struct Shapes {
  std::vector<int64_t> x, y, out;
  bool tx = false, ty = false;
  const char* dtype = "f32";
};

std::string typeOf(const std::vector<int64_t>& dims, const char* dtype) {
  std::string s = "tensor<";
  for (int64_t d : dims) s += std::to_string(d) + "x";
  return s + dtype + ">";
}

/// lr %0, W %1 ("w"), x %2, out_grad %3; (%4, %5) = matmul_grad; LINES
/// between it and (%6, %7) = sgd_; dx and the updated W fetched; TAIL after.
std::string program(const Shapes& s, std::vector<std::string> between = {}, std::vector<std::string> tail = {},
                    std::string lrLine = "") {
  std::string tx = typeOf(s.x, s.dtype), ty = typeOf(s.y, s.dtype), to = typeOf(s.out, s.dtype);
  std::string lrType = std::string("tensor<") + s.dtype + ">";
  std::vector<std::string> lines;
  if (lrLine.empty()) lines.push_back(R"((%0) = "pd_op.data" () {dtype:float32,name:"lr",shape:[]} : () -> )" + lrType);
  lines.push_back(R"((%1) = "builtin.parameter" () {parameter_name:"w"} : () -> )" + ty);
  lines.push_back(R"((%2) = "pd_op.data" () {name:"x"} : () -> )" + tx);
  lines.push_back(R"((%3) = "pd_op.data" () {name:"dout"} : () -> )" + to);
  lines.push_back(R"((%4, %5) = "pd_op.matmul_grad" (%2, %1, %3) {transpose_x:)" +
                  std::string(s.tx ? "true" : "false") + ",transpose_y:" + (s.ty ? "true" : "false") + "} : (" + tx +
                  ", " + ty + ", " + to + ") -> " + tx + ", " + ty);
  if (!lrLine.empty()) lines.push_back(lrLine);
  lines.insert(lines.end(), between.begin(), between.end());
  lines.push_back(R"((%6, %7) = "pd_op.sgd_" (%1, %0, %5, <<NULL VALUE>>) {multi_precision:false} : ()" + ty + ", " +
                  lrType + ", " + ty + ", <<NULL TYPE>>) -> " + ty + ", <<NULL TYPE>>");
  lines.push_back(R"(() = "builtin.shadow_output" (%4) {output_name:"dx"} : ()" + tx + ") -> ");
  lines.push_back(R"(() = "builtin.shadow_output" (%6) {output_name:"w_out"} : ()" + ty + ") -> ");
  lines.insert(lines.end(), tail.begin(), tail.end());
  std::string text = "{\n";
  for (const auto& l : lines) text += "    " + l + "\n";
  return text + "}\n";
}

/// The feeds of `s`: x, dout, w and lr, random but fixed.
TensorMap feedsFor(const Shapes& s) {
  DataType dt = std::string(s.dtype) == "f32" ? DataType::F32 : DataType::F64;
  TensorMap f{{"x", randomTensor(s.x, dt, 1)}, {"dout", randomTensor(s.out, dt, 2)}, {"w", randomTensor(s.y, dt, 3)}};
  Tensor lr = Tensor::allocate(dt, {});
  if (dt == DataType::F32)
    lr.data<float>()[0] = float(kLr);
  else
    lr.data<double>()[0] = kLr;
  f["lr"] = lr;
  return f;
}

/// dx and W - lr·dy by naive loops in double, from the feeds, one batch
/// of x and out_grad at a time (y is one matrix).
struct Expected {
  std::vector<double> dx, w;
};
Expected expected(const Shapes& s, const TensorMap& feeds, double lr) {
  const Tensor &x = feeds.at("x"), &w = feeds.at("w"), &d = feeds.at("dout");
  const int64_t xr = s.x[s.x.size() - 2], xc = s.x.back(), batches = x.numel() / (xr * xc);
  const int64_t M = s.tx ? xc : xr, K = s.tx ? xr : xc, N = s.ty ? s.y[0] : s.y[1];
  auto W = [&](int64_t k, int64_t j) { return s.ty ? at(w, j * K + k) : at(w, k * N + j); };
  Expected e;
  e.dx.assign(size_t(x.numel()), 0);
  std::vector<double> dw(size_t(K * N), 0);
  for (int64_t b = 0; b < batches; ++b) {
    const int64_t xo = b * xr * xc, dout = b * M * N;
    auto X = [&](int64_t i, int64_t k) { return s.tx ? at(x, xo + k * xc + i) : at(x, xo + i * xc + k); };
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) {
        double sum = 0;
        for (int64_t j = 0; j < N; ++j) sum += at(d, dout + i * N + j) * W(k, j);
        e.dx[size_t(xo + (s.tx ? k * xc + i : i * xc + k))] = sum;
      }
    for (int64_t k = 0; k < K; ++k)
      for (int64_t j = 0; j < N; ++j)
        for (int64_t i = 0; i < M; ++i) dw[size_t(k * N + j)] += X(i, k) * at(d, dout + i * N + j);
  }
  e.w.assign(size_t(w.numel()), 0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t j = 0; j < N; ++j) e.w[size_t(s.ty ? j * K + k : k * N + j)] = W(k, j) - lr * dw[size_t(k * N + j)];
  return e;
}

/// Compiles `text` (fusing unless told not to), runs it once on the feeds
/// of `s` and checks dx and the updated W (by learning rate `lr`, as sgd_
/// reads it) against the loops; the number of updates fused.
size_t runAndCheck(const Shapes& s, const std::string& text, CompileOptions options = {}, TensorMap* out = nullptr,
                   double lr = kLr, void (*prepare)(TensorMap&) = nullptr) {
  auto p = parse(text);
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program, kernelRegistry(), options);
  REQUIRE(ex);
  TensorMap feeds = feedsFor(s), fetches;
  if (prepare) prepare(feeds);
  Expected e = expected(s, feeds, lr);
  core::Status st = (*ex)->run(feeds, fetches);
  INFO(st.message());
  REQUIRE(st);
  CHECK(close(fetches.at("dx"), e.dx));
  CHECK(close(fetches.at("w_out"), e.w));
  CHECK(close(feeds.at("w"), e.w));  // the fed parameter itself, as sgd_ leaves it
  if (out) *out = fetches;
  return (*ex)->numFusedUpdates();
}

/// `text` with every `from` replaced by `to`.
std::string replaced(std::string text, std::string_view from, std::string_view to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// `text` (of program()) with W a kwarg, fed by keyword "w", instead of a
/// builtin.parameter.
std::string withKwargW(std::string text) {
  size_t line = text.find("    (%1) = \"builtin.parameter\"");
  text.erase(line, text.find('\n', line) + 1 - line);
  text = replaced(replaced(std::move(text), "(%2, %1, %3)", "(%2, %kwarg_w, %3)"), "(%1, %0,", "(%kwarg_w, %0,");
  return text.insert(2, "    ^kw:\n        %kwarg_w {}\n");
}

/// The line `(%OUT) = pd_op.scale_ (%IN, %30)` for a value of `type`: IN
/// doubled in place, %30 being `kTwo`.
constexpr const char* kTwo = R"((%30) = "pd_op.full" () {dtype:float32,shape:[1],value:2} : () -> tensor<1xf32>)";
std::string doubledInPlace(std::string_view out, std::string_view in, std::string_view type = "tensor<f32>") {
  return "(%" + std::string(out) + R"() = "pd_op.scale_" (%)" + std::string(in) +
         R"(, %30) {bias:0,bias_after_scale:true} : ()" + std::string(type) + ", tensor<1xf32>) -> " +
         std::string(type);
}

std::vector<float> reluOf(const Tensor& t) {
  std::vector<float> v = values(t);
  for (float& x : v) x = std::max(0.0f, x);
  return v;
}

}  // namespace

TEST_CASE("an sgd_ of a matmul_grad's y_grad is made by the GEMM, every transpose, f32 and f64", "[update_fusion]") {
  for (bool tx : {false, true})
    for (bool ty : {false, true})
      for (const char* dtype : {"f32", "f64"}) {
        // M = 5, K = 7, N = 3: no dim equals another, so a wrong flag is a wrong shape
        Shapes s{tx ? std::vector<int64_t>{7, 5} : std::vector<int64_t>{5, 7},
                 ty ? std::vector<int64_t>{3, 7} : std::vector<int64_t>{7, 3},
                 {5, 3},
                 tx,
                 ty,
                 dtype};
        INFO("tx " << tx << " ty " << ty << " " << dtype);
        CHECK(runAndCheck(s, program(s)) == 1);
        CHECK(runAndCheck(s, program(s), CompileOptions{.fuseUpdates = false}) == 0);
      }
}

TEST_CASE("a batch of x folded into its rows is fused; a transposed batch is not", "[update_fusion]") {
  Shapes folded{{2, 3, 4}, {4, 6}, {2, 3, 6}};
  CHECK(runAndCheck(folded, program(folded)) == 1);
  // transpose_x with a batch: dy is a sum over the batch, not one GEMM
  Shapes batchT{{2, 4, 3}, {4, 6}, {2, 3, 6}, true};
  CHECK(runAndCheck(batchT, program(batchT)) == 0);
}

TEST_CASE("the update is not fused where anything could see it early", "[update_fusion]") {
  Shapes s{{5, 7}, {7, 3}, {5, 3}};
  const std::string tw = "tensor<7x3xf32>";
  SECTION("the gradient is also fetched") {
    TensorMap out;
    CHECK(runAndCheck(s, program(s, {}, {R"(() = "builtin.shadow_output" (%5) {output_name:"dw"} : ()" + tw + ") -> "}),
                      {}, &out) == 0);
    CHECK(out.count("dw"));
  }
  SECTION("the parameter is read between the matmul_grad and the sgd_") {
    // relu(W) after the matmul_grad must see W before its update
    TensorMap out;
    CHECK(runAndCheck(s,
                      program(s, {R"((%10) = "pd_op.relu" (%1) {} : ()" + tw + ") -> " + tw,
                                  R"(() = "builtin.shadow_output" (%10) {output_name:"relu_w"} : ()" + tw + ") -> "}),
                      {}, &out) == 0);
    CHECK(values(out.at("relu_w")) == reluOf(feedsFor(s).at("w")));
  }
  SECTION("a view of the parameter made before is read after") {
    const std::string flat = "tensor<21xf32>";
    std::string viewed =
        program(s, {R"((%12) = "pd_op.relu" (%11) {} : ()" + flat + ") -> " + flat,
                    R"(() = "builtin.shadow_output" (%12) {output_name:"relu_view"} : ()" + flat + ") -> "});
    // the reshape after W's definition, before the matmul_grad
    viewed.insert(viewed.find("    (%2) ="),
                  "    (%20) = \"pd_op.full_int_array\" () {dtype:int64,value:[21]} : () -> tensor<1xi64>\n"
                  "    (%11) = \"pd_op.reshape\" (%1, %20) {} : (" +
                      tw + ", tensor<1xi64>) -> " + flat + "\n");
    TensorMap out;
    CHECK(runAndCheck(s, viewed, {}, &out) == 0);
    CHECK(values(out.at("relu_view")) == reluOf(feedsFor(s).at("w")));
  }
  SECTION("the learning rate is made after the matmul_grad") {
    CHECK(runAndCheck(s, program(s, {}, {},
                                 R"((%0) = "pd_op.full" () {dtype:float32,shape:[],value:0.1} : () -> tensor<f32>)")) ==
          0);
  }
  SECTION("the learning rate is doubled in place between the two") {
    // sgd_ reads the buffer scale_ wrote: 0.2
    TensorMap out;
    CHECK(runAndCheck(s, program(s, {kTwo, doubledInPlace("31", "0")}), {}, &out, 2 * kLr) == 0);
  }
  SECTION("another op reads the same fed parameter") {
    std::string twice = program(s, {R"((%22) = "pd_op.relu" (%21) {} : ()" + tw + ") -> " + tw,
                                    R"(() = "builtin.shadow_output" (%22) {output_name:"relu_w"} : ()" + tw + ") -> "});
    twice.insert(twice.find("    (%2) ="),
                 "    (%21) = \"builtin.parameter\" () {parameter_name:\"w\"} : () -> " + tw + "\n");
    TensorMap out;
    CHECK(runAndCheck(s, twice, {}, &out) == 0);
    CHECK(values(out.at("relu_w")) == reluOf(feedsFor(s).at("w")));
  }
  SECTION("x or out_grad is the parameter itself") {
    // the GEMM would write the buffer it reads
    Shapes sq{{6, 6}, {6, 6}, {6, 6}};
    CHECK(runAndCheck(sq, replaced(program(sq), "(%2, %1, %3)", "(%1, %1, %3)"), {}, nullptr, kLr,
                      [](TensorMap& f) { f["x"] = f.at("w").clone(); }) == 0);
    CHECK(runAndCheck(sq, replaced(program(sq), "(%2, %1, %3)", "(%2, %1, %1)"), {}, nullptr, kLr,
                      [](TensorMap& f) { f["dout"] = f.at("w").clone(); }) == 0);
  }
  auto beforeMatmulGrad = [](std::string text, const std::string& lines) {
    return text.insert(text.find("    (%4, %5) ="), lines);
  };
  SECTION("the learning rate is doubled in place through an in-place result made before") {
    std::string text = beforeMatmulGrad(program(s, {doubledInPlace("41", "40")}),
                                        std::string("    ") + kTwo + "\n    " + doubledInPlace("40", "0") + "\n");
    CHECK(runAndCheck(s, text, {}, nullptr, 4 * kLr) == 0);
  }
  SECTION("the learning rate is doubled in place through a view made before") {
    std::string text = beforeMatmulGrad(
        program(s, {doubledInPlace("44", "43", "tensor<1xf32>")}),
        std::string("    ") + kTwo + "\n" +
            R"(    (%42) = "pd_op.full_int_array" () {dtype:int64,value:[1]} : () -> tensor<1xi64>)"
            "\n" +
            R"(    (%43) = "pd_op.reshape" (%0, %42) {} : (tensor<f32>, tensor<1xi64>) -> tensor<1xf32>)"
            "\n");
    CHECK(runAndCheck(s, text, {}, nullptr, 2 * kLr) == 0);
  }
  SECTION("the learning rate is doubled in place through another value fed by its name") {
    std::string text =
        beforeMatmulGrad(program(s, {doubledInPlace("46", "45")}),
                         std::string("    ") + kTwo + "\n" +
                             R"(    (%45) = "pd_op.data" () {name:"lr",shape:[]} : () -> tensor<f32>)" + "\n");
    CHECK(runAndCheck(s, text, {}, nullptr, 2 * kLr) == 0);
  }
  SECTION("a kwarg parameter is fused alone, not beside a builtin.parameter of its name") {
    CHECK(runAndCheck(s, withKwargW(program(s))) == 1);
    std::string shared =
        withKwargW(program(s, {R"((%22) = "pd_op.relu" (%21) {} : ()" + tw + ") -> " + tw,
                               R"(() = "builtin.shadow_output" (%22) {output_name:"relu_w"} : ()" + tw + ") -> "}));
    shared.insert(shared.find("    (%2) ="),
                  "    (%21) = \"builtin.parameter\" () {parameter_name:\"w\"} : () -> " + tw + "\n");
    TensorMap out;
    CHECK(runAndCheck(s, shared, {}, &out) == 0);
    CHECK(values(out.at("relu_w")) == reluOf(feedsFor(s).at("w")));
  }
}

TEST_CASE("a run whose feeds hold the parameter under a second name runs without the fusion", "[update_fusion]") {
  // x fed the parameter's own tensor, as a builtin.set_parameter of an
  // earlier step can leave it: fused, the GEMM would read what it writes
  // (64x64: large enough for OpenBLAS to write C before it has read all of x)
  Shapes sq{{64, 64}, {64, 64}, {64, 64}};
  CHECK(runAndCheck(sq, program(sq), {}, nullptr, kLr, [](TensorMap& f) { f["x"] = f.at("w"); }) == 1);
  // the learning rate fed under a second name too
  std::string lrTwice = program(sq);
  lrTwice.insert(lrTwice.find("    (%2) ="), "    (%50) = \"pd_op.data\" () {name:\"lr_copy\"} : () -> tensor<f32>\n");
  CHECK(runAndCheck(sq, lrTwice, {}, nullptr, kLr, [](TensorMap& f) { f["lr_copy"] = f.at("lr"); }) == 1);
}

TEST_CASE("a fused update keeps sgd_'s NaN: a learning rate of 0, an empty batch at an infinite one",
          "[update_fusion]") {
  auto run = [](const std::string& text, TensorMap& feeds) {
    auto p = parse(text);
    REQUIRE(p->program);
    auto ex = Executor::compile(*p->program);
    REQUIRE(ex);
    CHECK((*ex)->numFusedUpdates() == 1);
    TensorMap fetches;
    REQUIRE((*ex)->run(feeds, fetches));
  };
  // Column 0 of W (of 3) is NaN after the update, the others W as it was:
  // what sgd_ makes of a NaN at out_grad[0][0] with a learning rate that
  // leaves finite steps unseen.
  auto nanColumnOnly = [](const std::vector<float>& before, const std::vector<float>& after) {
    for (size_t i = 0; i < after.size(); ++i) {
      INFO("element " << i);
      if (i % 3 == 0)
        CHECK(std::isnan(after[i]));
      else
        CHECK(after[i] == before[i]);
    }
  };
  SECTION("lr 0, a NaN in out_grad: column 0 of W's update is NaN, the rest W as it was") {
    Shapes s{{5, 7}, {7, 3}, {5, 3}};
    TensorMap feeds = feedsFor(s);
    feeds["lr"].data<float>()[0] = 0;
    feeds["dout"].data<float>()[0] = std::nanf("");
    const std::vector<float> before = values(feeds.at("w"));
    run(program(s), feeds);
    nanColumnOnly(before, values(feeds.at("w")));
  }
  SECTION("an f64 lr of 1e-50 on an f32 param: 0 as the GEMM's alpha, still NaN where out_grad is") {
    Shapes s{{5, 7}, {7, 3}, {5, 3}};
    TensorMap feeds = feedsFor(s);
    Tensor lr = Tensor::allocate(DataType::F64, {});
    lr.data<double>()[0] = 1e-50;
    feeds["lr"] = lr;
    feeds["dout"].data<float>()[0] = std::nanf("");
    std::string text =
        replaced(replaced(program(s), "() -> tensor<f32>\n", "() -> tensor<f64>\n"),
                 ", tensor<f32>, tensor<7x3xf32>, <<NULL TYPE>>", ", tensor<f64>, tensor<7x3xf32>, <<NULL TYPE>>");
    const std::vector<float> before = values(feeds.at("w"));
    run(text, feeds);
    nanColumnOnly(before, values(feeds.at("w")));  // 1e-50·g rounds away
  }
  SECTION("an empty batch at lr = inf: dy is 0, inf·0 is NaN everywhere") {
    Shapes s{{0, 7}, {7, 3}, {0, 3}};
    TensorMap feeds = feedsFor(s);
    feeds["lr"].data<float>()[0] = std::numeric_limits<float>::infinity();
    run(program(s), feeds);
    for (float v : values(feeds.at("w"))) CHECK(std::isnan(v));
  }
}
