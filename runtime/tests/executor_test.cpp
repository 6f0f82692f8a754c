//===- executor_test.cpp - plans: feeds, fetches, in place, frees, errors -===//
#include <catch2/catch.hpp>

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
