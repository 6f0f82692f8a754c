//===- pass_manager_test.cpp - passes on program sets, typed options -------===//
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "core/clone.h"
#include "core/context.h"
#include "core/printer.h"
#include "parser/parser.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "passes/tests/test_files.h"

using namespace pir;
using namespace pir::core;
using namespace pir::passes;

namespace {

using pir::testing::readFile;

const char* kDense = PIR_TESTDATA_DIR "/pipeline/01_dense_fthenb.pir";
const char* kSeed = PIR_TESTDATA_DIR "/seeds/reshard_before.pir";

/// A program set of one parsed program, and a pass manager over it.
struct Fixture {
  Context ctx;
  std::string text;
  SourceFile src;
  DiagnosticEngine diag;
  ProgramSet set;

  explicit Fixture(const char* path, std::string name = "") : text(readFile(path)), src("t.pir", text), diag(&src) {
    registerAllPasses();
    registerTestPasses();
    auto p = parser::parseProgram(ctx, src, diag);
    REQUIRE(p.isOk());
    set.programs.emplace_back(std::move(name), std::move(p.value()));
  }

  Status run(const std::string& pipeline, PassManagerOptions options = {}) {
    std::vector<PassSpec> specs;
    REQUIRE(parsePassPipeline(pipeline, specs, diag));
    PassManager pm(options);
    REQUIRE(pm.addPipeline(specs, diag));
    return pm.run(set, diag);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const NamedProgram& p : set.programs) out.push_back(p.name);
    return out;
  }
};

/// Records what it saw of each program (name, rank, stage, job).
class RecordingPass : public ProgramPass {
 public:
  explicit RecordingPass(std::vector<std::string>& seen) : seen_(seen) {}
  std::string_view name() const override { return "record"; }
  std::string_view description() const override { return "note each program's name and place"; }
  Status runOnProgram(NamedProgram& p, DiagnosticEngine&) override {
    seen_.push_back(p.name + " r" + std::to_string(p.rank) + " s" + std::to_string(p.stage) + " " + p.job);
    return Status::ok();
  }

 private:
  std::vector<std::string>& seen_;
};

/// Splits each program into pieces named by `names`, each a copy of the
/// parent's body (empty), setting rank `setRank` when >= 0.
class PiecesPass : public SplittingPass {
 public:
  PiecesPass(std::vector<std::string> names, int setRank) : names_(std::move(names)), rank_(setRank) {}
  std::string_view name() const override { return "pieces"; }
  std::string_view description() const override { return "split into named empty pieces"; }
  Status split(NamedProgram& p, ProgramSet& pieces, DiagnosticEngine&) override {
    for (const std::string& n : names_) {
      NamedProgram piece(n, std::make_unique<Program>(p.program->context()));
      piece.rank = rank_;
      pieces.programs.push_back(std::move(piece));
    }
    return Status::ok();
  }

 private:
  std::vector<std::string> names_;
  int rank_;
};

/// Options of every type, and a check between them.
enum class Color { Red, Green };
class OptionsPass : public ProgramPass {
 public:
  std::string_view name() const override { return "opts"; }
  std::string_view description() const override { return "has options"; }
  Status runOnProgram(NamedProgram&, DiagnosticEngine&) override { return Status::ok(); }
  Status checkOptions(const PassOptionValues& values) override {
    if (count_ > 3 && !flag_) return values.errorAtKey("count", "count above 3 needs flag=true");
    return Status::ok();
  }

  Option<bool> flag_{this, "flag", "a flag", false};
  Option<int> count_{this, "count", "a count", 2, 1, 10};
  Option<std::string> label_{this, "label", "a label", "none"};
  EnumOption<Color> color_{this, "color", "color", Color::Red, {{"red", Color::Red}, {"green", Color::Green}}};
};

PassOptionValues valuesOf(std::map<std::string, std::string> values) {
  PassOptionValues v;
  int64_t at = 0;
  for (const auto& [key, value] : values) {
    v.keyOffsets[key] = at;
    v.valueOffsets[key] = at + static_cast<int64_t>(key.size()) + 1;
    at += static_cast<int64_t>(key.size() + value.size()) + 2;
  }
  v.values = std::move(values);
  return v;
}

}  // namespace

TEST_CASE("a splitting pass names its pieces after their parent", "[passes][manager]") {
  Fixture f(kDense);
  PassManager pm;
  pm.addPass(std::make_unique<PiecesPass>(std::vector<std::string>{"a", "b"}, -1));
  pm.addPass(std::make_unique<PiecesPass>(std::vector<std::string>{"x", "y"}, 5));
  REQUIRE(pm.run(f.set, f.diag).isOk());
  CHECK(f.names() == std::vector<std::string>{"a.x", "a.y", "b.x", "b.y"});
  for (const NamedProgram& p : f.set.programs) CHECK(p.rank == 5);
}

TEST_CASE("a piece without a rank, stage, job or context takes its parent's", "[passes][manager]") {
  Fixture f(kDense, "in");
  f.set.programs[0].rank = 3;
  f.set.programs[0].stage = 1;
  f.set.programs[0].job = "whole";
  std::vector<std::string> seen;
  PassManager pm;
  pm.addPass(std::make_unique<PiecesPass>(std::vector<std::string>{"p", ""}, -1));
  pm.addPass(std::make_unique<RecordingPass>(seen));
  REQUIRE(pm.run(f.set, f.diag).isOk());
  // An unnamed piece of a named parent is the parent's name.
  CHECK(seen == std::vector<std::string>{"in.p r3 s1 whole", "in r3 s1 whole"});
}

TEST_CASE("a 1-to-1 pass after a splitting pass runs on every piece", "[passes][manager]") {
  Fixture f(kDense);
  std::vector<PassSpec> specs;
  REQUIRE(parsePassPipeline("pipeline-split", specs, f.diag));
  std::vector<std::string> seen;
  PassManager pm;
  REQUIRE(pm.addPipeline(specs, f.diag));
  pm.addPass(std::make_unique<RecordingPass>(seen));
  REQUIRE(pm.run(f.set, f.diag).isOk());
  CHECK(seen == std::vector<std::string>{"forward r-1 s-1 forward", "backward r-1 s-1 backward",
                                         "optimizer r-1 s-1 optimizer"});
}

TEST_CASE("split-ranks then pipeline-split: rank0.forward, ..., with rank, stage and job", "[passes][manager]") {
  Fixture f(kDense);
  REQUIRE(f.run("test-split-ranks{ranks=2},pipeline-split{mode=FThenB}").isOk());
  CHECK(f.names() == std::vector<std::string>{"rank0.forward", "rank0.backward", "rank0.optimizer", "rank1.forward",
                                              "rank1.backward", "rank1.optimizer"});
  for (size_t i = 0; i < f.set.programs.size(); ++i) {
    const NamedProgram& p = f.set.programs[i];
    CHECK(p.rank == static_cast<int>(i / 3));
    CHECK(p.stage == static_cast<int>(i / 3));
    CHECK(p.job == std::vector<std::string>{"forward", "backward", "optimizer"}[i % 3]);
  }
  // Both ranks' programs are the same split of the same program.
  CHECK(printProgram(*f.set.programs[1].program) == printProgram(*f.set.programs[4].program));
}

TEST_CASE("a splitting pass after a splitting pass splits every program", "[passes][manager]") {
  Fixture f(kDense);
  REQUIRE(f.run("pipeline-split,pipeline-split").isOk());
  REQUIRE(f.set.programs.size() == 9);
  CHECK(f.set.programs[0].name == "forward.forward");
  CHECK(f.set.programs[0].job == "forward");
  CHECK(f.set.programs[5].name == "backward.optimizer");
  CHECK(f.set.programs[5].rank == -1);
}

TEST_CASE("typed options: defaults, values, errors at the value, checks between them", "[passes][options]") {
  OptionsPass pass;
  REQUIRE(pass.options().size() == 4);
  CHECK(pass.options()[0]->name() == "flag");
  CHECK(pass.options()[1]->syntax() == "1..10");
  CHECK(pass.options()[1]->defaultText() == "2");
  CHECK(pass.options()[3]->syntax() == "red|green");
  CHECK(pass.options()[3]->defaultText() == "red");
  CHECK_FALSE(pass.flag_);
  CHECK(pass.count_ == 2);

  REQUIRE(pass.setOptions(valuesOf({{"flag", "true"}, {"count", "7"}, {"label", "x y"}, {"color", "green"}})).isOk());
  CHECK(pass.flag_);
  CHECK(pass.count_ == 7);
  CHECK(pass.label_.value() == "x y");
  CHECK(static_cast<Color>(pass.color_) == Color::Green);

  OptionsPass a;
  Status s = a.setOptions(valuesOf({{"flag", "yes"}}));
  CHECK(s.message() == "option 'flag' of 'opts' takes true or false, not 'yes'");
  CHECK(s.offset() == 5);  // the value, after "flag="
  CHECK_FALSE(s.isInternal());
  for (const char* bad : {"0", "11", "3x", "-1", "", " 3", "99999999999999999999"}) {
    OptionsPass b;
    Status e = b.setOptions(valuesOf({{"count", bad}}));
    CHECK(e.message() == "option 'count' of 'opts' takes a whole number from 1 to 10, not '" + std::string(bad) + "'");
    CHECK(e.offset() == 6);
  }
  OptionsPass c;
  CHECK(c.setOptions(valuesOf({{"color", "blue"}})).message() == "unknown color 'blue' (expected red or green)");
  OptionsPass d;
  Status unknown = d.setOptions(valuesOf({{"colour", "red"}}));
  CHECK(unknown.message() == "pass 'opts' has no option 'colour'");
  CHECK(unknown.offset() == 0);  // the key
  OptionsPass e;
  Status cross = e.setOptions(valuesOf({{"count", "4"}}));
  CHECK(cross.message() == "count above 3 needs flag=true");
  CHECK(cross.offset() == 0);
}

TEST_CASE("the registry knows each pass by its own name", "[passes][registry]") {
  registerAllPasses();
  const auto& entries = PassRegistry::instance().entries();
  REQUIRE_FALSE(entries.empty());
  for (const auto& e : entries) CHECK(e.factory()->name() == e.name);
  CHECK(PassRegistry::instance().contains("pipeline-split"));
  std::unique_ptr<Pass> p = PassRegistry::instance().create("pipeline-split");
  REQUIRE(p);
  CHECK(dynamic_cast<SplittingPass*>(p.get()) != nullptr);
  CHECK(dynamic_cast<ProgramPass*>(PassRegistry::instance().create("fold-reshard").get()) != nullptr);
}

TEST_CASE("a pass whose output fails the verifier is an internal error", "[passes][manager][status]") {
  Fixture f(kDense);
  Status s = f.run("test-internal-error");
  REQUIRE_FALSE(s.isOk());
  CHECK(s.isInternal());
  CHECK(s.message() == "pass 'test-internal-error' broke the IR: its output fails the verifier");
  CHECK(f.diag.hasErrors());  // the verifier's located errors

  // Without verifying, nobody notices (the caller asked for no checks).
  Fixture g(kDense);
  PassManagerOptions none;
  none.verifyEach = false;
  CHECK(g.run("test-internal-error", none).isOk());
}

TEST_CASE("the dist-consistency check failing after a pass is the input's fault", "[passes][manager][status]") {
  Fixture f(kSeed);
  PassManagerOptions verifyDist;
  verifyDist.verifyDist = true;
  Status s = f.run("fold-reshard", verifyDist);
  REQUIRE_FALSE(s.isOk());
  CHECK_FALSE(s.isInternal());
  CHECK(s.message() == "verification failed after pass 'fold-reshard'");
  REQUIRE(f.diag.size() == 2);
  CHECK(f.diag.diagnostics()[0].message.rfind("after pass 'fold-reshard': operand 0 of 'pd_op.relu'", 0) == 0);
  // fold-reshard only removes reshards: it asks for no dist check itself.
  Fixture quiet(kSeed);
  CHECK(quiet.run("fold-reshard").isOk());
  // A pass refusing its input is a user error, under the pass's name.
  Fixture g(PIR_TESTDATA_DIR "/pipeline/12_err_multi_mesh.pir");
  Status refused = g.run("pipeline-split");
  REQUIRE_FALSE(refused.isOk());
  CHECK_FALSE(refused.isInternal());
  CHECK(refused.message() == "pass 'pipeline-split' failed: several meshes");
}

TEST_CASE("statistics say one in the singular", "[passes][statistics]") {
  PassStatistics stats;
  stats.add("reshard(s) inserted: P→R");
  stats.add("plain counter");
  REQUIRE(stats.entries().size() == 2);
  CHECK(stats.entries()[0] == std::make_pair(std::string("reshard inserted: P→R"), int64_t{1}));
  stats.add("reshard(s) inserted: P→R");
  CHECK(stats.entries()[0] == std::make_pair(std::string("reshards inserted: P→R"), int64_t{2}));
  stats.add("reshard(s) inserted: P→R", -1);
  CHECK(stats.entries()[0].first == "reshard inserted: P→R");
  stats.add("reshard(s) left", 0);
  CHECK(stats.entries()[2].first == "reshards left");
  CHECK(stats.entries()[1].first == "plain counter");
}

TEST_CASE("pass results: keyed by type, shared, replaced", "[passes][results]") {
  PassResults r;
  CHECK(r.get<int>() == nullptr);
  r.set(41);
  r.set(std::string("layout"));
  REQUIRE(r.get<int>());
  CHECK(*r.get<int>() == 41);
  r.set(42);
  CHECK(*r.get<int>() == 42);
  CHECK(*r.get<std::string>() == "layout");
  auto shared = std::make_shared<const double>(0.5);
  r.share(shared);
  CHECK(r.get<double>() == shared.get());  // shared, never copied
  PassResults copy = r;
  CHECK(copy.get<double>() == shared.get());
}

/// Leaves `value` for the next pass only, and an int for all.
class FactPass : public ProgramPass {
 public:
  explicit FactPass(std::string value) : value_(std::move(value)) {}
  std::string_view name() const override { return "fact"; }
  std::string_view description() const override { return "leave a fact for the next pass"; }
  Status runOnProgram(NamedProgram&, DiagnosticEngine&) override {
    publishForNextPass(value_);
    publish(7);
    return Status::ok();
  }

 private:
  std::string value_;
};

/// Notes the string result it finds ("-" for none) and the int's presence.
class FactReader : public ProgramPass {
 public:
  explicit FactReader(std::vector<std::string>& seen) : seen_(seen) {}
  std::string_view name() const override { return "read-fact"; }
  std::string_view description() const override { return "note the fact left"; }
  Status runOnProgram(NamedProgram&, DiagnosticEngine&) override {
    const std::string* fact = result<std::string>();
    seen_.push_back((fact ? *fact : std::string("-")) + (result<int>() ? "+int" : ""));
    return Status::ok();
  }

 private:
  std::vector<std::string>& seen_;
};

TEST_CASE("a result left for the next pass is gone when the pass after it begins", "[passes][results]") {
  Fixture f(kDense);
  std::vector<std::string> seen;
  PassManager pm;
  pm.addPass(std::make_unique<FactReader>(seen));
  pm.addPass(std::make_unique<FactPass>("a"));
  pm.addPass(std::make_unique<FactReader>(seen));
  pm.addPass(std::make_unique<FactReader>(seen));
  pm.addPass(std::make_unique<FactPass>("b"));
  pm.addPass(std::make_unique<FactPass>("c"));
  pm.addPass(std::make_unique<FactReader>(seen));
  REQUIRE(pm.run(f.set, f.diag));
  // The int, left with publish(), stays for every later pass.
  CHECK(seen == std::vector<std::string>{"-", "a+int", "-+int", "c+int"});
  // Run again, the first pass does not get what the last one left for a next pass.
  PassManager twice;
  twice.addPass(std::make_unique<FactReader>(seen));
  twice.addPass(std::make_unique<FactPass>("z"));
  seen.clear();
  REQUIRE(twice.run(f.set, f.diag));
  REQUIRE(twice.run(f.set, f.diag));
  CHECK(seen == std::vector<std::string>{"-", "-+int"});
  // A copy keeps a result for the next pass as that: gone once the pass after it begins.
  PassResults r;
  r.setForNextPass(std::string("x"));
  PassResults copy = r;
  copy.beginPass();
  REQUIRE(copy.get<std::string>());
  copy.beginPass();
  CHECK(copy.get<std::string>() == nullptr);
}

TEST_CASE("split-ranks leaves its layout and pipeline-split its schedule keys as results", "[passes][results]") {
  registerAllPasses();
  std::string text = pir::testing::readFile(PIR_TESTDATA_DIR "/gradient_merge/05_dist_two_stages.pir");
  core::Context ctx;
  core::SourceFile src("two_stages.pir", text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseProgram(ctx, src, diag);
  REQUIRE(parsed.isOk());
  core::ProgramSet set;
  set.programs.emplace_back("", std::move(*parsed));
  std::vector<PassSpec> specs;
  REQUIRE(parsePassPipeline("apply-partition,split-ranks,pipeline-split{mode=1F1B}", specs, diag));
  PassManager pm;
  REQUIRE(pm.addPipeline(specs, diag));
  core::Status s = pm.run(set, diag);
  INFO(diag.render() + s.message());
  REQUIRE(s.isOk());
  const RankLayout* layout = pm.results().get<RankLayout>();
  REQUIRE(layout);
  CHECK(layout->worldSize == 2);
  const PipelineSplitResult* split = pm.results().get<PipelineSplitResult>();
  REQUIRE(split);
  CHECK(split->mode == "1F1B");
  Manifest m;
  annotateManifest(m, pm.results());
  CHECK(m.mode == "1F1B");
  CHECK(m.vpp == 1);
  CHECK(m.splitBw == 0);
}

TEST_CASE("a failing pass is named once, or left to a nested manager's caller", "[passes][results]") {
  registerAllPasses();
  std::string text = "{\n}\n";
  core::Context ctx;
  core::SourceFile src("empty.pir", text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseProgram(ctx, src, diag);
  REQUIRE(parsed.isOk());
  for (bool named : {true, false}) {
    core::ProgramSet set;
    set.programs.emplace_back("", core::cloneProgram(**parsed, ctx));
    std::vector<PassSpec> specs;
    REQUIRE(parsePassPipeline("split-ranks", specs, diag));
    PassManagerOptions o;
    o.nameFailures = named;
    PassManager pm(o);
    REQUIRE(pm.addPipeline(specs, diag));
    core::Status s = pm.run(set, diag);
    REQUIRE_FALSE(s.isOk());
    CHECK(pm.failedPass() == "split-ranks");
    CHECK(s.message().starts_with("pass 'split-ranks' failed: ") == named);
  }
}
