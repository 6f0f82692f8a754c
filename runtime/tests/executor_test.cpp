//===- executor_test.cpp - plans: feeds, fetches, in place, frees, errors -===//
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "runtime/finite.h"
#include "runtime/tests/run_helpers.h"

using namespace pir::runtime;
using namespace pir::runtime::testing;
using pir::core::Status;

namespace {

// Test kernels, so the executor is tested apart from the math kernels.
Status negate(KernelContext& ctx) {
  Tensor out = ctx.out(0).defined() ? ctx.out(0) : Tensor::allocate(ctx.in(0).dtype(), ctx.in(0).shape());
  for (int64_t i = 0; i < out.numel(); ++i) out.data<float>()[i] = -ctx.in(0).data<float>()[i];
  ctx.setOut(0, out);
  return Status::ok();
}

Status fails(KernelContext&) { return Status::error("bad things"); }
Status throws(KernelContext&) { throw std::runtime_error("boom"); }

KernelRegistry testRegistry() {
  KernelRegistry r = kernelRegistry();
  r.add("pd_op.relu", negate);  // "relu" negates here: easy to see it ran
  r.add("pd_op.add_", negate);  // in place (x -> out): negates x here
  r.add("pd_op.gelu", fails);
  r.add("pd_op.tanh", throws);
  return r;
}

constexpr std::string_view kData =
    R"((%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>)";
constexpr std::string_view kParam =
    R"((%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true]} : () -> builtin.tensor<2xf32>)";

}  // namespace

TEST_CASE("feeds in, kernels run in order, shadow outputs out", "[executor]") {
  auto p =
      parse(block({kData, kParam, R"((%2) = "pd_op.relu" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
                   R"(() = "builtin.shadow_output" (%2) {output_name:"y"} : (builtin.tensor<2xf32>) -> )",
                   R"(() = "builtin.shadow_output" (%1) {output_name:"w_out"} : (builtin.tensor<2xf32>) -> )"}));
  REQUIRE(p->program);
  auto reg = testRegistry();
  auto ex = Executor::compile(*p->program, reg);
  REQUIRE(ex);
  auto& inputs = (*ex)->inputs();
  REQUIRE(inputs.size() == 2);
  CHECK(inputs[0].name == "x");
  CHECK(inputs[0].kind == ProgramInput::Kind::Data);
  CHECK(inputs[1].name == "w");
  CHECK(inputs[1].kind == ProgramInput::Kind::Parameter);
  CHECK((*ex)->outputNames() == std::vector<std::string>{"y", "w_out"});
  TensorMap feeds{{"x", f32({2}, {1, -2})}, {"w", f32({2}, {5, 6})}}, fetches;
  RunStats stats;
  std::vector<OpEvent> events;
  EventRecorder recorder(events);
  stats.trace = &recorder;
  REQUIRE((*ex)->run(feeds, fetches, nullptr, &stats));
  CHECK(values(fetches["y"]) == std::vector<float>{-1, 2});
  CHECK(fetches["w_out"].sharesStorageWith(feeds["w"]));
  REQUIRE(events.size() == 1);
  CHECK(events[0].ring == -1);  // no communication
  // run again: the same plan, the same answer
  TensorMap again;
  REQUIRE((*ex)->run(feeds, again));
  CHECK(values(again["y"]) == std::vector<float>{-1, 2});
}

TEST_CASE("an in-place op writes its operand's buffer, a parameter carries over", "[executor]") {
  auto p = parse(block(
      {kParam,
       R"((%2) = "pd_op.add_" (%1, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)"}));
  REQUIRE(p->program);
  auto reg = testRegistry();
  auto ex = Executor::compile(*p->program, reg);
  REQUIRE(ex);
  TensorMap feeds{{"w", f32({2}, {5, -6})}}, fetches;
  REQUIRE((*ex)->run(feeds, fetches));
  CHECK(values(feeds["w"]) == std::vector<float>{-5, 6});
  REQUIRE((*ex)->run(feeds, fetches));
  CHECK(values(feeds["w"]) == std::vector<float>{5, -6});
}

TEST_CASE("null types are not kept, null values arrive absent", "[executor]") {
  // builtin.combine of an absent value: its vec holds an empty tensor
  auto p = parse(block({kData, R"((%2) = "pd_op.relu" (%0) {} : (builtin.tensor<2xf32>) -> <<NULL TYPE>>)",
                        R"((%3) = "pd_op.assign" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
                        R"(() = "builtin.shadow_output" (%3) {output_name:"y"} : (builtin.tensor<2xf32>) -> )"}));
  REQUIRE(p->program);
  auto reg = testRegistry();
  auto ex = Executor::compile(*p->program, reg);
  REQUIRE(ex);
  TensorMap feeds{{"x", f32({2}, {1, 2})}}, fetches;
  REQUIRE((*ex)->run(feeds, fetches));
  CHECK(values(fetches["y"]) == std::vector<float>{1, 2});
  CHECK(!fetches["y"].sharesStorageWith(feeds["x"]));
}

namespace {
// Records KernelContext::reusable(0) of each pd_op.sin it runs, then copies x.
std::vector<bool> gReusable;
Status recordReusable(KernelContext& ctx) {
  gReusable.push_back(ctx.reusable(0));
  ctx.setOut(0, ctx.in(0).clone());
  return Status::ok();
}
}  // namespace

TEST_CASE("an operand is reusable where its value dies and nothing else holds its storage", "[executor]") {
  KernelRegistry reg = testRegistry();
  reg.add("pd_op.sin", recordReusable);
  auto p = parse(block(
      {kData,
       // %2 dies at the first sin: reusable
       R"((%2) = "pd_op.relu" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"((%3) = "pd_op.sin" (%2) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       // %3 is read again later: not at this sin
       R"((%4) = "pd_op.sin" (%3) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"((%5) = "pd_op.assign" (%3) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       // a feed (the caller's tensor shares it)
       R"((%6) = "pd_op.sin" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       // %5 dies here but is also fetched (its tensor is in the fetches)
       R"(() = "builtin.shadow_output" (%5) {output_name:"y"} : (builtin.tensor<2xf32>) -> )",
       R"((%7) = "pd_op.sin" (%5) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       // %8 dies at the sin, but its reshape %10 shares its storage and lives on
       R"((%8) = "pd_op.relu" (%4) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"((%9) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)2]} : () -> builtin.tensor<1xi64>)",
       R"((%10) = "pd_op.reshape" (%8, %9) {} : (builtin.tensor<2xf32>, builtin.tensor<1xi64>) -> builtin.tensor<2xf32>)",
       R"((%11) = "pd_op.sin" (%8) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(() = "builtin.shadow_output" (%10) {output_name:"z"} : (builtin.tensor<2xf32>) -> )"}));
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program, reg);
  REQUIRE(ex);
  TensorMap feeds{{"x", f32({2}, {1, 2})}}, fetches;
  gReusable.clear();
  REQUIRE((*ex)->run(feeds, fetches));
  CHECK(gReusable == std::vector<bool>{true, false, false, false, false});
}

TEST_CASE("a missing kernel is a located error of compile", "[executor]") {
  auto p =
      parse(block({kData, R"((%2) = "pd_op.frobnicate" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)"}));
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program, kernelRegistry());
  REQUIRE(!ex);
  CHECK(ex.status().message() == "pd_op.frobnicate: no kernel for this op");
  CHECK(ex.status().offset() == int64_t(p->text.find("(%2)")));
}

TEST_CASE("dist types are refused", "[executor]") {
  auto p = parse(
      block({R"((%0) = "pd_op.data" () {name:"x"} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[0]>)"}));
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program, kernelRegistry());
  REQUIRE(!ex);
  CHECK(ex.status().message() ==
        "pd_op.data: a dist tensor type: the executor runs dense programs (split-ranks first)");
}

TEST_CASE("feed errors and kernel failures name the op", "[executor]") {
  auto p = parse(block({kData, R"((%2) = "pd_op.gelu" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
                        R"((%3) = "pd_op.tanh" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)"}));
  REQUIRE(p->program);
  auto reg = testRegistry();
  auto ex = Executor::compile(*p->program, reg);
  REQUIRE(ex);
  TensorMap fetches;
  Status missing = (*ex)->run({}, fetches);
  CHECK(missing.message() == "pd_op.data: no tensor fed for 'x'");
  Status shape = (*ex)->run({{"x", f32({3}, {1, 2, 3})}}, fetches);
  CHECK(shape.message() == "pd_op.data: 'x' is tensor<2xf32>, the fed tensor tensor<3xf32>");
  CHECK(shape.offset() == int64_t(p->text.find("(%0)")));
  Status failed = (*ex)->run({{"x", f32({2}, {1, 2})}}, fetches);
  CHECK(failed.message() == "pd_op.gelu: bad things");
  CHECK(failed.offset() == int64_t(p->text.find("(%2)")));
  reg.add("pd_op.gelu", negate);
  auto ex2 = Executor::compile(*p->program, reg);
  REQUIRE(ex2);
  CHECK((*ex2)->run({{"x", f32({2}, {1, 2})}}, fetches).message() == "pd_op.tanh: the kernel threw: boom");
}

// Found by fuzz_executor: a math kernel's error (kernelError names the op)
// came out as "pd_op.subtract: pd_op.subtract: ...".
TEST_CASE("a kernel error that names its op is not prefixed twice", "[executor]") {
  auto p = parse(block(
      {kData,
       R"((%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[3],value:(Float)1} : () -> builtin.tensor<3xf32>)",
       R"((%2) = "pd_op.subtract" (%0, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<3xf32>) -> builtin.tensor<2xf32>)"}));
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program);
  REQUIRE(ex);
  TensorMap fetches;
  Status s = (*ex)->run({{"x", f32({2}, {1, 2})}}, fetches);
  CHECK(s.message() == "pd_op.subtract: shapes [2] and [3] do not broadcast");
  CHECK(s.offset() == int64_t(p->text.find("(%2)")));
}

namespace {

// Test kernels whose result is not what the op declares.
Status emptyRows(KernelContext& ctx) {  // [0x2] for a declared [2]: the newcomer's `out_grad [0x8]`
  ctx.setOut(0, Tensor::allocate(DataType::F32, {0, 2}));
  return Status::ok();
}
Status makesF64(KernelContext& ctx) {
  ctx.setOut(0, Tensor::zeros(DataType::F64, ctx.in(0).shape()));
  return Status::ok();
}
Status makesNothing(KernelContext&) { return Status::ok(); }

}  // namespace

TEST_CASE("a kernel's result that is not its op's declared type is an error at that op", "[executor]") {
  auto p = parse(block({kData, R"((%2) = "pd_op.exp" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
                        R"((%3) = "pd_op.relu" (%2) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
                        R"(() = "builtin.shadow_output" (%3) {output_name:"y"} : (builtin.tensor<2xf32>) -> )"}));
  REQUIRE(p->program);
  const int64_t at = int64_t(p->text.find("(%2)"));
  auto check = [&](KernelFn exp, const std::string& message) {
    KernelRegistry reg = testRegistry();
    reg.add("pd_op.exp", exp);
    auto ex = Executor::compile(*p->program, reg);
    REQUIRE(ex);
    TensorMap fetches;
    Status s = (*ex)->run({{"x", f32({2}, {1, 2})}}, fetches);
    CHECK(s.message() == message);
    CHECK(s.offset() == at);  // at the op that made it, not at relu, its consumer
    CHECK(fetches.empty());
  };
  check(emptyRows, "pd_op.exp: result 0 is declared tensor<2xf32>, the kernel made tensor<0x2xf32>");
  check(makesF64, "pd_op.exp: result 0 is declared tensor<2xf32>, the kernel made tensor<2xf64>");
  check(makesNothing, "pd_op.exp: result 0 is declared tensor<2xf32>, the kernel made no tensor");
}

TEST_CASE("the real kernels against a program whose declared types are wrong for its inputs", "[executor]") {
  std::string error;
  // add of two [2] declared [3].
  runText(
      block(
          {kData,
           R"((%2) = "pd_op.add" (%0, %0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<3xf32>)",
           R"(() = "builtin.shadow_output" (%2) {output_name:"y"} : (builtin.tensor<3xf32>) -> )"}),
      {{"x", f32({2}, {1, 2})}}, &error);
  CHECK(error == "pd_op.add: result 0 is declared tensor<3xf32>, the kernel made tensor<2xf32>");
  // A vec's element.
  error.clear();
  runText(
      block(
          {kData,
           R"((%2) = "builtin.combine" (%0, %0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> vec[builtin.tensor<2xf32>,builtin.tensor<3xf32>])"}),
      {{"x", f32({2}, {1, 2})}}, &error);
  CHECK(error == "builtin.combine: result 0 element 1 is declared tensor<3xf32>, the kernel made tensor<2xf32>");
  // -1 takes any size; the right types run.
  error.clear();
  auto out = runText(
      block(
          {kData,
           R"((%2) = "pd_op.add" (%0, %0) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<-1xf32>)",
           R"((%3) = "builtin.combine" (%2, %0) {} : (builtin.tensor<-1xf32>, builtin.tensor<2xf32>) -> vec[builtin.tensor<-1xf32>,builtin.tensor<2xf32>])",
           R"(() = "builtin.shadow_output" (%2) {output_name:"y"} : (builtin.tensor<-1xf32>) -> )"}),
      {{"x", f32({2}, {1, 2})}}, &error);
  CHECK(error.empty());
  CHECK(values(out.at("y")) == std::vector<float>{2, 4});
}

TEST_CASE("checkFinite: a non-finite feed, then the first op that makes one from finite operands", "[executor]") {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  auto p = parse(block(
      {kData, kParam,
       R"((%2) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],value:(Float)0} : () -> builtin.tensor<2xf32>)",
       R"((%3) = "pd_op.divide" (%0, %2) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"((%4) = "pd_op.add" (%3, %1) {} : (builtin.tensor<2xf32>, builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
       R"(() = "builtin.shadow_output" (%4) {output_name:"y"} : (builtin.tensor<2xf32>) -> )"}));
  REQUIRE(p->program);
  auto ex = Executor::compile(*p->program);
  REQUIRE(ex);
  RunStats checked;
  checked.checkFinite = true;
  TensorMap fetches;
  // Unchecked, x / 0 runs: inf and, for 0 / 0, NaN.
  REQUIRE((*ex)->run({{"x", f32({2}, {1, 0})}, {"w", f32({2}, {0, 0})}}, fetches).isOk());
  CHECK(std::isinf(values(fetches.at("y"))[0]));
  Status feed = (*ex)->run({{"x", f32({2}, {1, kNaN})}, {"w", f32({2}, {0, 0})}}, fetches, nullptr, &checked);
  CHECK(feed.message() == "pd_op.data: 'x' tensor<2xf32> holds nan at flat index 1 (--check-finite)");
  CHECK(feed.offset() == int64_t(p->text.find("(%0)")));
  Status param = (*ex)->run({{"x", f32({2}, {1, 1})}, {"w", f32({2}, {0, -INFINITY})}}, fetches, nullptr, &checked);
  CHECK(param.message() == "builtin.parameter: 'w' tensor<2xf32> holds -inf at flat index 1 (--check-finite)");
  CHECK(param.offset() == int64_t(p->text.find("(%1)")));
  Status made = (*ex)->run({{"x", f32({2}, {1, 1})}, {"w", f32({2}, {0, 0})}}, fetches, nullptr, &checked);
  CHECK(made.message() ==
        "pd_op.divide: result 0 tensor<2xf32> holds inf at flat index 0, made from finite operands (--check-finite)");
  CHECK(made.offset() == int64_t(p->text.find("(%3)")));
  // Finite throughout: it runs.
  auto ok = parse(block({kData, R"((%2) = "pd_op.exp" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>)",
                         R"(() = "builtin.shadow_output" (%2) {output_name:"y"} : (builtin.tensor<2xf32>) -> )"}));
  auto ex2 = Executor::compile(*ok->program);
  REQUIRE(ex2);
  CHECK((*ex2)->run({{"x", f32({2}, {0, 1})}}, fetches, nullptr, &checked).isOk());
}

TEST_CASE("firstNonFinite reads f32, f64 and bf16; ints are finite", "[executor]") {
  CHECK(!firstNonFinite(f32({3}, {1, 2, 3})));
  auto nf = firstNonFinite(f32({3}, {1, INFINITY, NAN}));
  REQUIRE(nf);
  CHECK(nf->index == 1);
  CHECK(nonFiniteText(*nf) == "inf at flat index 1");
  Tensor d = Tensor::allocate(DataType::F64, {2});
  d.data<double>()[0] = 0;
  d.data<double>()[1] = -HUGE_VAL;
  CHECK(nonFiniteText(*firstNonFinite(d)) == "-inf at flat index 1");
  Tensor b = Tensor::allocate(DataType::BF16, {1});
  b.data<BFloat16>()[0] = BFloat16::fromFloat(NAN);
  CHECK(nonFiniteText(*firstNonFinite(b)) == "nan at flat index 0");
  CHECK(!firstNonFinite(Tensor::zeros(DataType::I64, std::vector<int64_t>{4})));
}
