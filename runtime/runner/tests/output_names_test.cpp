// What a run's results are called (output_names.h): one tensor per name,
// and with --output-dir one file name each.
#include <catch2/catch.hpp>

#include "runtime/runner/output_names.h"
#include "runtime/tests/run_helpers.h"

namespace pir::runtime::runner {
namespace {

using testing::block;
using testing::parse;

/// A program reading parameter w and data x (persistable when `stateX`),
/// writing x as OUT1 and w as OUT2.
std::string program(const std::string& out1, const std::string& out2, bool stateX = false) {
  std::string persist = stateX ? ",persistable:[true]" : "";
  return block({
      R"((%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true])" +
          persist + R"(} : () -> builtin.tensor<2xf32>)",
      R"((%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true]} : () -> builtin.tensor<2xf32>)",
      R"(() = "builtin.shadow_output" (%0) {output_name:")" + out1 + R"("} : (builtin.tensor<2xf32>) -> )",
      R"(() = "builtin.shadow_output" (%1) {output_name:")" + out2 + R"("} : (builtin.tensor<2xf32>) -> )",
  });
}

core::Status check(const std::string& text, OutputNameRules rules = {}) {
  auto p = parse(text);
  REQUIRE(p->program);
  return checkOutputNames(*p->program, rules);
}

}  // namespace

TEST_CASE("outputs of distinct names pass", "[runner][outputs]") {
  CHECK(check(program("a", "b")));
  CHECK(check(program("a", "b"), {true, nullptr}));
}

TEST_CASE("two outputs of one name are an error at the second", "[runner][outputs]") {
  core::Status s = check(program("a", "a"));
  REQUIRE_FALSE(s);
  CHECK(s.message() == "a second output named 'a': a run's results are one tensor per name");
  std::string text = program("a", "a");
  CHECK(s.offset() == int64_t(text.rfind("() = \"builtin.shadow_output\"")));
}

TEST_CASE("an output named like a parameter, persistable data or another rank's state", "[runner][outputs]") {
  CHECK(check(program("a", "w")).message().find("output 'w' is named like a parameter or state") == 0);
  CHECK(check(program("x", "b")));              // x is a feed, not state: fine
  CHECK_FALSE(check(program("x", "b", true)));  // persistable x is state
  std::unordered_set<std::string> others{"b"};
  CHECK_FALSE(check(program("a", "b"), {false, &others}));
}

TEST_CASE("names that cannot be file names are refused only as files", "[runner][outputs]") {
  for (const std::string& bad :
       std::vector<std::string>{"../../x", "a/b", ".", "..", "", std::string("a\tb"), std::string(251, 'n')}) {
    INFO(bad);
    CHECK_FALSE(fileNameProblem(bad).empty());
  }
  for (const std::string& good :
       std::vector<std::string>{"loss_0", "linear_0.w_0", "x@GRAD", "...", "a b", std::string(250, 'n')}) {
    INFO(good);
    CHECK(fileNameProblem(good).empty());
  }
  CHECK(check(program("../x", "b")));
  core::Status s = check(program("../x", "b"), {true, nullptr});
  REQUIRE_FALSE(s);
  CHECK(s.message() == "'../x' cannot name a file in --output-dir (a '/')");
}

}  // namespace pir::runtime::runner
