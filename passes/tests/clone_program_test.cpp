//===- clone_program_test.cpp - copying a program into another Context ---===//
//
// core::cloneProgram, tested here rather than in core/tests: its inputs are
// read with the parser and made by passes (pipeline-split's jobs), which a
// core test may not include.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "core/clone.h"
#include "core/printer.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/tests/parse_file.h"

using namespace pir;
using namespace pir::core;

namespace {

using pir::testing::parseAll;

/// Runs `pipeline` on `set`, which must succeed.
void runOn(ProgramSet& set, const std::string& pipeline) {
  passes::registerAllPasses();
  DiagnosticEngine diag;
  std::vector<passes::PassSpec> specs;
  REQUIRE(passes::parsePassPipeline(pipeline, specs, diag));
  passes::PassManager pm;
  REQUIRE(pm.addPipeline(specs, diag));
  bool ok = pm.run(set, diag).isOk();
  INFO(diag.render());
  REQUIRE(ok);
}

/// What `pipeline` prints of `program` alone.
std::string runOnOne(std::unique_ptr<Program> program, const std::string& pipeline) {
  ProgramSet set;
  set.programs.push_back({"", std::move(program)});
  runOn(set, pipeline);
  return printProgram(*set.programs[0].program);
}

/// The programs `pipeline` makes of the one program in `path`, in `ctx`.
ProgramSet runPipeline(Context& ctx, const std::string& path, const std::string& pipeline) {
  std::vector<std::unique_ptr<Program>> in = parseAll(ctx, path);
  REQUIRE(in.size() == 1);
  ProgramSet set;
  set.programs.push_back({"", std::move(in[0])});
  runOn(set, pipeline);
  return set;
}

/// Each pointer a program holds: its IR objects, the types and attributes
/// they reference (and those nested in them), and the strings they spell.
class PointerCollector {
 public:
  std::set<const void*> all;
  std::set<const void*> interned;  // of them, the strings, types, attributes and attribute lists

  void program(const Program& p) {
    all.insert(p.style().tensorSpelling.data());
    block(p.body());
  }

 private:
  void str(std::string_view s) {
    if (!s.empty()) all.insert(s.data()), interned.insert(s.data());
  }
  /// An op's list is interned; a block argument's is its own.
  void attrs(std::span<const NamedAttr> list, bool internedList = true) {
    if (!list.empty()) all.insert(list.data());
    if (!list.empty() && internedList) interned.insert(list.data());
    for (const NamedAttr& a : list) {
      str(a.key);
      attr(a.value);
    }
  }
  void block(const Block& b) {
    all.insert(&b);
    for (const BlockArgument* a : b.arguments()) value(a);
    for (const BlockArgument* k : b.kwargs()) value(k);
    for (const Operation& op : b) {
      all.insert(&op);
      str(op.name());
      attrs(op.attributes());
      for (std::string_view k : op.operandKeywords()) str(k);
      for (uint32_t i = 0; i < op.numResults(); ++i) value(op.result(i));
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (const Block* nested : op.region(r).blocks()) block(*nested);
    }
  }
  void value(const Value* v) {
    all.insert(v);
    type(v->type());
    if (v->kind() != ValueKind::OpResult) {
      str(static_cast<const BlockArgument*>(v)->name());
      attrs(static_cast<const BlockArgument*>(v)->attributes(), /*internedList=*/false);
    }
  }
  void type(const Type* t) {
    if (!t || !all.insert(t).second) return;
    interned.insert(t);
    if (auto* d = t->dynCast<DenseTensorType>()) str(d->spelling());
    if (auto* d = t->dynCast<DistTensorType>()) attr(d->distAttr());
    if (auto* v = t->dynCast<VectorType>())
      for (const Type* e : v->elements()) type(e);
    if (auto* o = t->dynCast<OpaqueType>()) str(o->text());
  }
  void attr(const Attribute* a) {
    if (!a || !all.insert(a).second) return;
    interned.insert(a);
    if (auto* s = a->dynCast<StringAttr>()) str(s->raw());
    if (auto* n = a->dynCast<NumberAttr>()) str(n->tag()), str(n->text());
    if (auto* arr = a->dynCast<ArrayAttr>())
      for (const Attribute* e : arr->elements()) attr(e);
    if (auto* t = a->dynCast<TaggedAttr>()) str(t->tag()), attr(t->inner());
    if (auto* s = a->dynCast<SymbolAttr>()) str(s->text());
    if (auto* o = a->dynCast<OpaqueAttr>()) str(o->text());
    if (auto* t = a->dynCast<TypeAttr>()) type(t->type());
    if (auto* m = a->dynCast<ProcessMesh>())
      for (std::string_view n : m->dimNames()) str(n);
    if (auto* t = a->dynCast<TensorDistAttr>()) attr(t->mesh()), attr(t->placements());
    if (auto* od = a->dynCast<OpDistAttr>()) {
      attr(od->mesh());
      for (const Attribute* e : od->operands()) attr(e);
      for (const Attribute* e : od->results()) attr(e);
    }
  }
};

size_t sharedPointers(const Program& a, const Program& b) {
  PointerCollector pa, pb;
  pa.program(a);
  pb.program(b);
  size_t shared = 0;
  for (const void* p : pb.all) shared += pa.all.count(p);
  return shared;
}

/// Each value's uses in list order, as (op number in walk order, operand index).
std::vector<std::vector<std::pair<int, uint32_t>>> useLists(const Program& p) {
  std::map<const Operation*, int> ids;
  std::vector<const Value*> values;
  auto blockValues = [&](const Block& b) {
    for (const BlockArgument* a : b.arguments()) values.push_back(a);
    for (const BlockArgument* k : b.kwargs()) values.push_back(k);
  };
  blockValues(p.body());
  walk(p.body(), [&](const Operation& op) {
    ids.emplace(&op, static_cast<int>(ids.size()));
    for (uint32_t i = 0; i < op.numResults(); ++i) values.push_back(op.result(i));
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (const Block* b : op.region(r).blocks()) blockValues(*b);
  });
  std::vector<std::vector<std::pair<int, uint32_t>>> out;
  for (const Value* v : values) {
    out.emplace_back();
    for (const OpOperand* u = v->firstUse(); u; u = u->nextUse())
      out.back().push_back({ids.at(u->owner()), u->index()});
  }
  return out;
}

/// The roundtrip cases, the seeds and a pipeline test's input.
std::vector<std::string> cloneCases() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(PIR_TESTDATA_DIR "/roundtrip"))
    if (e.path().extension() == ".pir") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  files.push_back(PIR_TESTDATA_DIR "/seeds/reshard_before.pir");
  files.push_back(PIR_TESTDATA_DIR "/seeds/reshard_after.pir");
  files.push_back(PIR_TESTDATA_DIR "/pipeline/19_seed_mlp_vpp_split_bw.pir");
  files.push_back(PIR_TESTDATA_DIR "/gradient_merge/03_pipeline_rank1.pir");  // a null operand
  return files;
}

}  // namespace

TEST_CASE("a program cloned into another Context prints as the source, after the source is gone", "[passes][clone]") {
  std::vector<std::string> files = cloneCases();
  REQUIRE(files.size() >= 27);  // 23 roundtrip cases, two seeds, a pipeline input, a null operand
  for (const std::string& file : files) {
    CAPTURE(file);
    auto srcCtx = std::make_unique<Context>();
    std::vector<std::unique_ptr<Program>> programs = parseAll(*srcCtx, file);
    Context dst;
    std::vector<std::string> printed;
    std::vector<std::unique_ptr<Program>> clones;
    for (const auto& p : programs) {
      printed.push_back(printProgram(*p));
      clones.push_back(cloneProgram(*p, dst));
      CHECK(&clones.back()->context() == &dst);
      CHECK(sharedPointers(*p, *clones.back()) == 0);
      CHECK(useLists(*clones.back()) == useLists(*p));
    }
    programs.clear();
    srcCtx.reset();  // whatever the clones still pointed into is freed now
    for (size_t i = 0; i < clones.size(); ++i) CHECK(printProgram(*clones[i]) == printed[i]);
  }
}

TEST_CASE("a program cloned into a Context made over its own shares every interned object and writes none",
          "[passes][clone]") {
  std::vector<std::string> files = cloneCases();
  for (const std::string& file : files) {
    CAPTURE(file);
    Context parent;
    std::vector<std::unique_ptr<Program>> programs = parseAll(parent, file);
    size_t parentBytes = parent.arena().bytesUsed();
    Context child(&parent, nullptr);
    for (const auto& p : programs) {
      std::unique_ptr<Program> copy = cloneProgram(*p, child);
      CHECK(printProgram(*copy) == printProgram(*p));
      CHECK(useLists(*copy) == useLists(*p));
      PointerCollector from, to;
      from.program(*p);
      to.program(*copy);
      size_t notShared = 0;
      for (const void* q : to.interned) notShared += from.interned.count(q) == 0;
      CHECK(notShared == 0);
      CHECK(sharedPointers(*p, *copy) == to.interned.size());  // the IR objects are the copy's own
    }
    CHECK(parent.arena().bytesUsed() == parentBytes);
  }
}

TEST_CASE("passes run on a copy in a Context over the source's make what they make on an independent copy",
          "[passes][clone]") {
  // The rank pipeline (but remove-unuseful-comm, which needs split-ranks'
  // ring table) on the partitioned seed, in a child of the input's
  // Context and in a Context of its own: the same text, and the input's
  // Context is never written (split-ranks reads it from every rank at once).
  Context ctx;
  ProgramSet once = runPipeline(ctx, PIR_TESTDATA_DIR "/seeds/reshard_before.pir", "apply-partition");
  const Program& partitioned = *once.programs[0].program;
  size_t parentBytes = ctx.arena().bytesUsed();
  auto ranked = [](std::unique_ptr<Program> p, int rank) {
    std::string r = std::to_string(rank);
    return runOnOne(std::move(p),
                    "lower-reshard{rank=" + r + "},partition-rank{rank=" + r + "},dist-to-dense{rank=" + r + "}");
  };
  for (int rank : {0, 1}) {
    CAPTURE(rank);
    Context own, child(&ctx, nullptr);
    std::string independent = ranked(cloneProgram(partitioned, own), rank);
    std::string shared = ranked(cloneProgram(partitioned, child), rank);
    CHECK(shared == independent);
    CHECK(independent.find("dist_op") == std::string::npos);
  }
  CHECK(ctx.arena().bytesUsed() == parentBytes);
}

TEST_CASE("split-ranks' pieces hold the input's Context when the input owns it", "[passes][clone]") {
  auto owned = std::make_shared<Context>();
  std::vector<std::unique_ptr<Program>> in = parseAll(*owned, PIR_TESTDATA_DIR "/seeds/reshard_before.pir");
  REQUIRE(in.size() == 1);
  Context elsewhere;  // the same pipeline on the same input, in a Context that outlives everything
  ProgramSet expected =
      runPipeline(elsewhere, PIR_TESTDATA_DIR "/seeds/reshard_before.pir", "apply-partition,split-ranks");
  ProgramSet set;
  set.programs.emplace_back("", std::move(in[0]));
  set.programs[0].context = owned;
  std::weak_ptr<Context> input = owned;
  owned.reset();  // the input program holds the last reference
  runOn(set, "apply-partition,split-ranks");
  // The input program is gone; its Context is the ranks' parent, held by them.
  REQUIRE(set.programs.size() == expected.programs.size());
  CHECK_FALSE(input.expired());
  for (size_t i = 0; i < set.programs.size(); ++i) {
    CAPTURE(set.programs[i].name);
    CHECK(set.programs[i].context->readsFrom(input.lock().get()));
    CHECK(printProgram(*set.programs[i].program) == printProgram(*expected.programs[i].program));
  }
  set.programs.clear();
  CHECK(input.expired());  // and freed with the last of them
}

TEST_CASE("pipeline-split's jobs cloned into another Context print as they do", "[passes][clone]") {
  Context src;
  ProgramSet jobs = runPipeline(src, PIR_TESTDATA_DIR "/pipeline/16_seed_mlp_1f1b.pir", "pipeline-split{mode=1F1B}");
  REQUIRE(jobs.programs.size() >= 4);
  Context dst;
  for (const NamedProgram& job : jobs.programs) {
    CAPTURE(job.name);
    std::unique_ptr<Program> copy = cloneProgram(*job.program, dst);
    CHECK(printProgram(*copy) == printProgram(*job.program));
    CHECK(sharedPointers(*job.program, *copy) == 0);
  }
}

TEST_CASE("a clone keeps use-list order, so a pass does on it what it does on the source", "[passes][clone]") {
  // apply-partition rewires uses, so the lists are no longer in creation
  // order; pipeline-split then reads them (a combine's first user).
  Context ctx;
  ProgramSet once = runPipeline(ctx, PIR_TESTDATA_DIR "/seeds/reshard_before.pir", "apply-partition");
  const Program& partitioned = *once.programs[0].program;
  Context dst;
  std::unique_ptr<Program> copy = cloneProgram(partitioned, dst);
  REQUIRE(useLists(*copy) == useLists(partitioned));
  REQUIRE(printProgram(*copy) == printProgram(partitioned));
  // Run the same pass again on the source and on the copy.
  auto again = [](std::unique_ptr<Program> p) { return runOnOne(std::move(p), "apply-partition"); };
  std::string fromSource = again(std::move(once.programs[0].program));
  CHECK(again(std::move(copy)) == fromSource);
}

TEST_CASE("cloning into the program's own Context gives an independent copy", "[passes][clone]") {
  Context ctx;
  std::vector<std::unique_ptr<Program>> programs =
      parseAll(ctx, PIR_TESTDATA_DIR "/roundtrip/05_while_two_block_args.pir");
  std::unique_ptr<Program> copy = cloneProgram(*programs[0], ctx);
  std::string text = printProgram(*programs[0]);
  CHECK(printProgram(*copy) == text);
  // Same Context: types and attributes are the same pointers, IR objects not.
  CHECK(copy->body().front() != programs[0]->body().front());
  CHECK(copy->body().front()->result(0)->type() == programs[0]->body().front()->result(0)->type());
  copy->body().front()->setAttr(ctx, "zz", ctx.boolAttr(true));
  CHECK(printProgram(*copy) != text);
  CHECK(printProgram(*programs[0]) == text);
}

TEST_CASE("a CloneSource numbers values and ops in walk order, and copies from it print as the source",
          "[passes][clone]") {
  Context ctx;
  std::vector<std::unique_ptr<Program>> programs =
      parseAll(ctx, PIR_TESTDATA_DIR "/roundtrip/05_while_two_block_args.pir");
  const Program& src = *programs[0];
  CloneSource numbered(src);
  // The walk by hand: an op, its results, then what its regions hold.
  std::vector<const Value*> values;
  std::vector<const Operation*> ops;
  std::function<void(const Block&)> visit = [&](const Block& b) {
    for (const BlockArgument* a : b.arguments()) values.push_back(a);
    for (const BlockArgument* k : b.kwargs()) values.push_back(k);
    for (const Operation& op : b) {
      ops.push_back(&op);
      for (uint32_t i = 0; i < op.numResults(); ++i) values.push_back(op.result(i));
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (const Block* inner : op.region(r).blocks()) visit(*inner);
    }
  };
  visit(src.body());
  REQUIRE(ops.size() > src.body().numOps());  // the while's body is numbered too
  CHECK(std::vector<const Value*>(numbered.values().begin(), numbered.values().end()) == values);
  CHECK(std::vector<const Operation*>(numbered.ops().begin(), numbered.ops().end()) == ops);
  for (size_t i = 0; i < values.size(); ++i) CHECK(values[i]->passIndex == i);
  // Each op's operands, in walk order, as the indices of their values.
  std::vector<uint32_t> operandValues;
  for (const Operation* op : ops)
    for (uint32_t i = 0; i < op->numOperands(); ++i) {
      const Value* v = op->operandValue(i);
      operandValues.push_back(v ? v->passIndex : CloneSource::kNoValue);
    }
  CHECK(std::vector<uint32_t>(numbered.operandValues().begin(), numbered.operandValues().end()) == operandValues);
  Context a, b;
  std::unique_ptr<Program> one = cloneProgram(numbered, a);
  std::unique_ptr<Program> two = cloneProgram(numbered, b);
  CHECK(printProgram(*one) == printProgram(src));
  CHECK(printProgram(*two) == printProgram(src));
  CHECK(useLists(*one) == useLists(src));
  // The copy of each op, by the source op's walk index: the copy's own walk.
  Context c;
  std::vector<Operation*> copies;
  std::unique_ptr<Program> three = cloneProgram(numbered, c, copies);
  std::vector<Operation*> walked;
  walk(three->body(), [&](Operation& op) { walked.push_back(&op); });
  CHECK(copies == walked);
  REQUIRE(copies.size() == ops.size());
  for (size_t i = 0; i < ops.size(); ++i) CHECK(copies[i]->name() == ops[i]->name());
}

TEST_CASE("a copy sets operands as it goes when the source's use lists run in walk order, else links them after",
          "[passes][clone]") {
  // 15 has ops in nested ifs and whiles using outer values; the seed has
  // values used several times, one twice by one op.
  for (const char* name : {"/roundtrip/15_nested_if_while_global_numbering.pir", "/seeds/reshard_before.pir"}) {
    CAPTURE(name);
    Context ctx;
    std::vector<std::unique_ptr<Program>> programs = parseAll(ctx, std::string(PIR_TESTDATA_DIR) + name);
    Program& src = *programs[0];
    CHECK(CloneSource(src).usesInWalkOrder());  // as the parser made them
    Context dst;
    std::unique_ptr<Program> copy = cloneProgram(src, dst);
    CHECK(useLists(*copy) == useLists(src));
    CHECK(printProgram(*copy) == printProgram(src));
    // Re-set the first use in walk order of a value used twice or more: it
    // goes to the head of the list, which no longer runs backwards.
    Operation* reset = nullptr;
    uint32_t index = 0;
    walk(src.body(), [&](Operation& op) {
      for (uint32_t i = 0; i < op.numOperands() && !reset; ++i) {
        Value* v = op.operandValue(i);
        size_t uses = 0;
        for (const OpOperand* u = v ? v->firstUse() : nullptr; u; u = u->nextUse()) ++uses;
        if (uses >= 2) reset = &op, index = i;
      }
    });
    REQUIRE(reset);
    Value* value = reset->operandValue(index);
    reset->operand(index).set(nullptr);
    reset->operand(index).set(value);
    CHECK_FALSE(CloneSource(src).usesInWalkOrder());
    Context other;
    std::unique_ptr<Program> linked = cloneProgram(src, other);
    CHECK(useLists(*linked) == useLists(src));
    CHECK(useLists(*linked) != useLists(*copy));  // the lists were not all rebuilt in walk order
    CHECK(printProgram(*linked) == printProgram(src));
  }
}
