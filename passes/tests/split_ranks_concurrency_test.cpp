//===- split_ranks_concurrency_test.cpp - split-ranks' threads ------------===//
//
// split-ranks lowers its ranks on several threads, each into a Context of
// its own, all reading the one input. Its programs must be what the
// per-rank pipeline makes one rank at a time; scripts/tsan-test.sh runs this
// under ThreadSanitizer (label concurrency), where shared mutable state is a
// report.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/printer.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "passes/tests/test_files.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes;

namespace {

/// What `pipeline` prints of the seed, each program after its name.
std::string runSeed(const std::string& pipeline, const RingTable* rings = nullptr) {
  Context ctx;
  std::string text = pir::testing::readFile(PIR_TESTDATA_DIR "/seeds/reshard_before.pir");
  SourceFile src("seed.pir", text);
  DiagnosticEngine diag(&src);
  auto parsed = parser::parseProgram(ctx, src, diag);
  REQUIRE(parsed.isOk());
  ProgramSet set;
  set.programs.emplace_back("", std::move(*parsed));
  std::vector<PassSpec> specs;
  REQUIRE(parsePassPipeline(pipeline, specs, diag));
  PassManager pm;
  REQUIRE(pm.addPipeline(specs, diag));
  if (rings) pm.results().set(*rings);  // as split-ranks hands it to remove-unuseful-comm
  Status s = pm.run(set, diag);
  INFO(diag.render() + s.message());
  REQUIRE(s.isOk());
  std::string out;
  for (const NamedProgram& p : set.programs) out += "// " + p.name + "\n" + printProgram(*p.program);
  return out;
}

}  // namespace

TEST_CASE("split-ranks on threads makes what the per-rank pipeline makes rank by rank") {
  registerAllPasses();
  RingTable rings;
  REQUIRE(rings.add(12, {0, 1}).isOk());
  std::string serial;
  for (int r : {0, 1}) {
    std::string o = "{rank=" + std::to_string(r) + "}";
    serial += "// rank" + std::to_string(r) + "\n" +
              runSeed("apply-partition,lower-reshard" + o + ",partition-rank" + o + ",dist-to-dense" + o +
                          ",remove-unuseful-comm",
                      &rings)
                  .substr(4);  // its unnamed program's "// \n"
  }
  for (int round = 0; round < 4; ++round) CHECK(runSeed("apply-partition,split-ranks") == serial);
}
