//===- test_passes.cpp - passes that exist for tests ----------------------===//
//
// Registered by registerTestPasses() only (pir-opt: PIR_OPT_TEST_PASSES=1),
// never listed otherwise, as mlir-opt keeps its test passes apart:
//   test-split-ranks{ranks=N}  a splitting pass: each program becomes N
//       copies `rank0` .. `rankN-1`, rank and stage i (one rank a stage, as
//       pure pipeline parallelism has it), to test what runs after a split
//       on a set of programs before a real split-ranks pass exists;
//   test-internal-error  breaks an invariant on purpose (the first op whose
//       result is used moves to the end of the program, so a use comes
//       before its definition), for the path of an internal error (exit 2).
//
//===----------------------------------------------------------------------===//
#include "core/clone.h"
#include "core/context.h"
#include "passes/pass_registry.h"

namespace pir::passes {

namespace {

using namespace pir::core;

class TestSplitRanksPass : public SplittingPass {
 public:
  std::string_view name() const override { return "test-split-ranks"; }
  std::string_view description() const override { return "(test) copy each program into one program per rank"; }

  Status split(NamedProgram& named, ProgramSet& pieces, DiagnosticEngine&) override {
    const Program& from = *named.program;
    Context& ctx = from.context();
    for (int r = 0; r < ranks_; ++r) {
      auto copy = std::make_unique<Program>(ctx);
      copy->style() = from.style();
      ValueMapping map;
      for (const BlockArgument* a : from.body().arguments()) map[a] = copy->body().addArgument(ctx, a->type());
      for (const BlockArgument* k : from.body().kwargs()) {
        BlockArgument* kw = copy->body().addInternedKwarg(ctx, k->name(), k->type());
        kw->setAttributes(ctx.arena(), k->attributes());
        map[k] = kw;
      }
      for (const Operation& op : from.body()) copy->body().pushBack(cloneOperation(ctx, op, map, nullptr));
      NamedProgram piece("rank" + std::to_string(r), std::move(copy));
      piece.rank = r;
      piece.stage = r;
      pieces.programs.push_back(std::move(piece));
    }
    return Status::ok();
  }

 private:
  Option<int> ranks_{this, "ranks", "number of ranks", 2, 1, 64};
};

class TestInternalErrorPass : public ProgramPass {
 public:
  std::string_view name() const override { return "test-internal-error"; }
  std::string_view description() const override { return "(test) break the IR, as a pass with a bug would"; }

  Status runOnProgram(NamedProgram& named, DiagnosticEngine&) override {
    Block& body = named.program->body();
    for (Operation& op : body)
      for (uint32_t i = 0; i < op.numResults(); ++i)
        if (!op.result(i)->useEmpty()) {
          body.remove(&op);
          body.pushBack(&op);
          return Status::ok();  // the verifier after the pass finds the broken order
        }
    return Status::internal("test-internal-error found no used result to break the program with");
  }
};

}  // namespace

void registerTestPasses() {
  registerPass<TestSplitRanksPass>();
  registerPass<TestInternalErrorPass>();
}

}  // namespace pir::passes
