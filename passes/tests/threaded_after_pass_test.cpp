//===- threaded_after_pass_test.cpp - runs cut by landmarks a pass outlived -===//
//
// The threaded printer and verifier cut a program's body into runs by the
// landmarks of core/op_runs.h, which stay in use while ops are only linked
// in. Here ops are linked into hand-written programs (control flow with
// global value numbering, block arguments, kwargs; Paddle's own seed through
// apply-partition) after the landmarks were taken, and the programs are
// printed and verified on 2 and 3 threads in runs of 1-3 ops: the text must
// be the one-thread printer's, byte for byte, and the verifier must agree.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/builder.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/tests/parse_file.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes;

namespace {

std::unique_ptr<Program> parseOne(Context& ctx, const std::string& path) {
  std::vector<std::unique_ptr<Program>> programs = pir::testing::parseAll(ctx, path);
  REQUIRE(programs.size() == 1);
  return std::move(programs[0]);
}

/// Prints and verifies `program` on threads in short runs against one thread.
void checkThreaded(const Program& program) {
  std::string serial = printProgram(program);
  DiagnosticEngine one(nullptr);
  size_t serialErrors = verifyProgram(program, one);
  for (unsigned threads : {2u, 3u})
    for (size_t opsPerRun : {1, 2, 3}) {
      CAPTURE(threads, opsPerRun);
      std::string text;
      REQUIRE(printProgramThreaded(
                  program, [&](std::string_view s) { return text += s, true; }, threads, opsPerRun)
                  .isOk());
      CHECK(text == serial);
      DiagnosticEngine diag(nullptr);
      CHECK(verifyProgram(program, diag, {}, threads, 1) == serialErrors);
    }
}

/// A `pd_op.assign` of each tensor result of every other top-level op,
/// linked in right after it and read by nothing: later values number one
/// higher at each, inside regions too.
size_t linkAssigns(Program& program) {
  std::vector<Operation*> ops;
  for (Operation& op : program.body()) ops.push_back(&op);
  size_t linked = 0;
  for (size_t i = 0; i < ops.size(); i += 2)
    for (uint32_t r = 0; r < ops[i]->numResults(); ++r) {
      Value* v = ops[i]->result(r);
      if (!tensorShape(v->type())) continue;
      Builder b(program.context());
      b.setInsertionPointAfter(ops[i]);
      Value* in[] = {v};
      const Type* types[] = {v->type()};
      b.create("pd_op.assign", in, types, {});
      ++linked;
    }
  return linked;
}

}  // namespace

TEST_CASE("ops linked into hand-written control flow print and verify on threads as on one", "[passes][threads]") {
  for (const char* name :
       {"04_if_else_nested_two_results", "05_while_two_block_args", "15_nested_if_while_global_numbering",
        "17_generic_region_inside_if", "19_nested_while_newest_arg_attrs", "20_kwargs_of_if_branch_and_while_body"}) {
    CAPTURE(name);
    Context ctx;
    std::unique_ptr<Program> program = parseOne(ctx, std::string(PIR_TESTDATA_DIR "/roundtrip/") + name + ".pir");
    Block& body = program->body();
    program->bodyLandmarks().runs(body, 4);  // the landmarks, taken before anything is linked in
    size_t before = body.numOps();
    size_t linked = linkAssigns(*program);
    REQUIRE(linked > 0);
    REQUIRE(body.numOps() <= before + before / 2);
    REQUIRE(program->bodyLandmarks().usable(body));  // the case under test: runs cut by the old landmarks
    checkThreaded(*program);
  }
}

TEST_CASE("Paddle's seed after apply-partition prints and verifies on threads as on one", "[passes][threads]") {
  registerAllPasses();
  Context ctx;
  ProgramSet set;
  set.programs.emplace_back("", parseOne(ctx, PIR_TESTDATA_DIR "/seeds/reshard_before.pir"));
  Program& program = *set.programs[0].program;
  program.bodyLandmarks().runs(program.body(), 4);
  size_t before = program.body().numOps();
  std::string none;
  SourceFile src("seed", none);
  DiagnosticEngine diag(&src);
  std::vector<PassSpec> specs;
  REQUIRE(parsePassPipeline("apply-partition", specs, diag));
  PassManager pm;
  REQUIRE(pm.addPipeline(specs, diag));
  REQUIRE(pm.run(set, diag).isOk());
  REQUIRE(program.body().numOps() > before);  // reshards linked in
  REQUIRE(program.bodyLandmarks().usable(program.body()));
  checkThreaded(program);
}
