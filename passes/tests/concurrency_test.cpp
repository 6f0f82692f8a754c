//===- concurrency_test.cpp - several ranks' programs at once, on threads ===//
//
// Each copy of a program lives in its own Context (core/context.h: one
// thread per Context at a time), so K threads may parse, clone, run passes
// on, verify and print K copies at once. Every thread's text must equal the
// same work done serially first. scripts/tsan-test.sh runs this under
// ThreadSanitizer, where any shared mutable state is a report.
//
// Worker threads never call Catch2's assertions (they are not thread-safe):
// they return what they printed, and the main thread compares.
//
//===----------------------------------------------------------------------===//
#include <atomic>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/arena.h"
#include "core/clone.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/tests/test_files.h"

using namespace pir;
using namespace pir::core;

namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 3;

using pir::testing::readFile;

struct Case {
  std::string file;
  std::string pipeline;
  std::string text;
};

std::vector<Case> cases() {
  std::vector<Case> out = {
      {PIR_TESTDATA_DIR "/seeds/reshard_before.pir", "apply-partition", {}},
      {PIR_TESTDATA_DIR "/pipeline/16_seed_mlp_1f1b.pir", "pipeline-split{mode=1F1B}", {}},
      // scripts/gen-program's last stage of two, written at build time.
      {PIR_CONCURRENCY_INPUT, "apply-partition,pipeline-split{mode=1F1B}", {}},
  };
  for (Case& c : out) c.text = readFile(c.file);
  return out;
}

/// Verifies and prints every program of `set` (with its job line), and
/// appends the verifier's count and whatever `diag` holds.
std::string verifyAndPrint(const ProgramSet& set, DiagnosticEngine& diag) {
  std::string out;
  size_t errors = 0;
  for (const NamedProgram& p : set.programs) {
    errors += verifyProgram(*p.program, diag);
    out += "// ----- job: " + p.name + "\n" + printProgram(*p.program);
  }
  return out + "verifier errors: " + std::to_string(errors) + "\n" + diag.render();
}

/// The whole job for one rank, in a Context of its own: the program parsed
/// from the case's text (or cloned from `from`, which lives in another
/// Context and is only read; with `overSource`, into a Context made over
/// that one, as split-ranks makes its ranks), its pipeline run, every
/// result verified and printed.
std::string rankWork(const Case& c, const CloneSource* from, bool overSource = false) {
  Context ctx(from && overSource ? &from->program().context() : nullptr, nullptr);
  SourceFile src(c.file, c.text);
  DiagnosticEngine diag(&src);
  ProgramSet set;
  if (from) {
    set.programs.push_back({"", cloneProgram(*from, ctx)});
  } else {
    auto parsed = parser::parseProgram(ctx, src, diag);
    if (!parsed) return "parse failed\n" + diag.render();
    set.programs.push_back({"", std::move(parsed.value())});
  }
  std::vector<passes::PassSpec> specs;
  DiagnosticEngine pipelineDiag;
  passes::PassManager pm;
  if (!passes::parsePassPipeline(c.pipeline, specs, pipelineDiag) || !pm.addPipeline(specs, pipelineDiag))
    return "bad pipeline\n" + pipelineDiag.render();
  if (Status s = pm.run(set, diag); !s) return "pipeline failed: " + s.message() + "\n" + diag.render();
  return verifyAndPrint(set, diag);
}

/// Runs `work(thread)` on kThreads threads that start together; returns
/// what each returned.
template <class Work>
std::vector<std::string> onThreads(Work work) {
  std::vector<std::string> results(kThreads);
  std::atomic<int> waiting{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      // Start together, so the threads' work overlaps as much as it can.
      waiting.fetch_sub(1);
      while (waiting.load() > 0) std::this_thread::yield();
      results[t] = work(t);
    });
  for (std::thread& th : threads) th.join();
  return results;
}

}  // namespace

TEST_CASE("the serial results are what the passes make", "[concurrency]") {
  // What the threads are compared with must be worth comparing with: the
  // passes changed each program, and a different pipeline gives other text.
  passes::registerAllPasses();
  for (const Case& c : cases()) {
    CAPTURE(c.file);
    REQUIRE(!c.text.empty());
    std::string serial = rankWork(c, nullptr);
    CHECK(serial.find("verifier errors: 0\n") != std::string::npos);
    CHECK(serial.find("failed") == std::string::npos);
    CHECK(serial.size() > c.text.size() / 2);
    CHECK(rankWork(c, nullptr) == serial);  // the work is deterministic
    Case plain = c;
    plain.pipeline = "fold-reshard";
    CHECK(rankWork(plain, nullptr) != serial);
  }
  std::vector<Case> all = cases();
  CHECK(rankWork(all[0], nullptr).find("\"dist_op.reshard\"") != std::string::npos);
  CHECK(rankWork(all[2], nullptr).find("backward\n") != std::string::npos);  // a job line
}

TEST_CASE("K ranks parse, run passes, verify and print at once, each in its own Context", "[concurrency]") {
  passes::registerAllPasses();  // once, on this thread, before any other starts
  std::vector<Case> all = cases();
  std::vector<std::string> serial;
  for (const Case& c : all) serial.push_back(rankWork(c, nullptr));
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::string> got = onThreads([&](int t) {
      std::string mismatches;
      // Each thread goes through the cases from a different one.
      for (size_t i = 0; i < all.size(); ++i) {
        size_t k = (i + static_cast<size_t>(t)) % all.size();
        if (rankWork(all[k], nullptr) != serial[k]) mismatches += all[k].file + "\n";
      }
      return mismatches;
    });
    for (int t = 0; t < kThreads; ++t) {
      CAPTURE(round, t);
      CHECK(got[t] == "");
    }
  }
}

TEST_CASE("K ranks clone one shared program at once, then run passes, verify and print", "[concurrency]") {
  // Into Contexts of their own, and into Contexts made over the shared one
  // (which then read its tables at once, and must never write them).
  bool overShared = GENERATE(false, true);
  CAPTURE(overShared);
  passes::registerAllPasses();
  std::vector<Case> all = cases();
  Context shared;  // read by every thread at once, written by none
  std::vector<std::unique_ptr<Program>> programs;
  std::vector<std::unique_ptr<CloneSource>> sources;  // numbered here, read by every thread
  std::vector<std::string> serial;
  for (const Case& c : all) {
    SourceFile src(c.file, c.text);
    DiagnosticEngine diag(&src);
    auto parsed = parser::parseProgram(shared, src, diag);
    INFO(diag.render());
    REQUIRE(parsed.isOk());
    programs.push_back(std::move(parsed.value()));
    sources.push_back(std::make_unique<CloneSource>(*programs.back()));
    serial.push_back(rankWork(c, nullptr));
    REQUIRE(rankWork(c, sources.back().get(), overShared) == serial.back());
  }
  size_t sharedBytes = shared.arena().bytesUsed();
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::string> got = onThreads([&](int t) {
      std::string mismatches;
      for (size_t i = 0; i < all.size(); ++i) {
        size_t k = (i + static_cast<size_t>(t)) % all.size();
        if (rankWork(all[k], sources[k].get(), overShared) != serial[k]) mismatches += all[k].file + "\n";
      }
      return mismatches;
    });
    for (int t = 0; t < kThreads; ++t) {
      CAPTURE(round, t);
      CHECK(got[t] == "");
    }
  }
  CHECK(shared.arena().bytesUsed() == sharedBytes);
}

TEST_CASE("K ranks' finished programs are verified and printed at once, again and again", "[concurrency]") {
  // The walks' scratch (print numbering, scope marks) and their epochs are
  // per Context: printing rank 0 must not disturb rank 1's numbering.
  passes::registerAllPasses();
  const Case c = cases()[2];
  std::string serial = rankWork(c, nullptr);
  struct Rank {
    Context ctx;
    ProgramSet set;
  };
  std::vector<std::unique_ptr<Rank>> ranks;
  for (int t = 0; t < kThreads; ++t) {
    ranks.push_back(std::make_unique<Rank>());
    SourceFile src(c.file, c.text);
    DiagnosticEngine diag(&src);
    auto parsed = parser::parseProgram(ranks.back()->ctx, src, diag);
    REQUIRE(parsed.isOk());
    ranks.back()->set.programs.push_back({"", std::move(parsed.value())});
    std::vector<passes::PassSpec> specs;
    REQUIRE(passes::parsePassPipeline(c.pipeline, specs, diag));
    passes::PassManager pm;
    REQUIRE(pm.addPipeline(specs, diag));
    REQUIRE(pm.run(ranks.back()->set, diag).isOk());
  }
  std::vector<std::string> got = onThreads([&](int t) {
    std::string mismatches;
    for (int round = 0; round < kRounds; ++round) {
      DiagnosticEngine diag;
      if (verifyAndPrint(ranks[t]->set, diag) != serial) mismatches += "round " + std::to_string(round) + "\n";
    }
    return mismatches;
  });
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(got[t] == "");
  }
}

TEST_CASE("K arenas grow at once while their helpers fault in slabs and tables ahead", "[concurrency]") {
  // Each Context's arena has its own prefault helper thread (core/arena.cpp):
  // K of them at once, handing slabs over, faulting in a table and being
  // destroyed while a slab is still being faulted in, must be race-free.
  std::vector<std::string> got = onThreads([](int t) {
    std::string problems;
    {
      Arena arena;
      std::vector<uint64_t> table;
      table.reserve(size_t{3} << 20);  // 24 MB: big enough to be handed to the helper
      Arena::TableFaulting faulting(arena, table.data(), table.capacity() * 8, size_t{4} << 20);
      std::vector<char*> pieces;
      for (size_t i = 0; i < table.capacity(); ++i) {
        table.push_back(i * 3 + static_cast<uint64_t>(t));
        if (i % 512 == 0) {
          faulting.advance(table.size() * 8);
          auto* p = static_cast<char*>(arena.allocate(16384, 8));  // 96 MB in all: past several large slabs
          p[0] = p[16383] = static_cast<char>(i / 512);
          pieces.push_back(p);
        }
      }
      for (size_t k = 0; k < pieces.size(); ++k)
        if (pieces[k][0] != static_cast<char>(k) || pieces[k][16383] != static_cast<char>(k))
          problems += "arena piece " + std::to_string(k) + " changed\n";
      for (size_t i = 0; i < table.size(); i += 4099)
        if (table[i] != i * 3 + static_cast<uint64_t>(t)) problems += "table entry changed\n";
    }
    for (int round = 0; round < 4; ++round) {
      Arena arena;  // destroyed just into its first large slab, with the helper at work
      for (size_t used = 0; used < (size_t{3} << 20); used += 4096) static_cast<char*>(arena.allocate(4096, 8))[0] = 1;
    }
    return problems;
  });
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CHECK(got[t] == "");
  }
}

// One program read, verified and printed by several threads at once
// (--threads): the reader's chunks share the Context (Context::Concurrent,
// Context::Worker), the verifier's and printer's runs share the program.
// Chunks and runs are small here so that every thread has many.
TEST_CASE("one program read, verified and printed on several threads gives one thread's text") {
  std::string text = readFile(PIR_CONCURRENCY_INPUT);
  auto readPrint = [&](unsigned threads) {
    Context ctx;
    SourceFile src("in.pir", text);
    DiagnosticEngine diag(&src);
    parser::ParseOptions options;
    options.threads = threads;
    options.chunkBytes = 64 << 10;
    size_t before = parser::threadedReads();
    auto r = parser::parseFile(ctx, src, diag, options);
    REQUIRE(r);
    REQUIRE(parser::threadedReads() == before + (threads > 1 ? 1 : 0));
    Program& program = *(*r)[0].program;
    REQUIRE(verifyProgram(program, diag, VerifyOptions{}, threads, 200) == 0);
    std::string out;
    Status s = printProgramThreaded(
        program,
        [&](std::string_view chunk) {
          out += chunk;
          return true;
        },
        threads, 64);
    REQUIRE(s.isOk());
    return out;
  };
  std::string one = readPrint(1);
  REQUIRE(one == text);
  for (unsigned threads : {2u, unsigned{kThreads}}) REQUIRE(readPrint(threads) == one);
}

// The Context's tables while threads intern at once (Context::Concurrent):
// each is cut into shards with a lock each (core/sharded_table.h). Threads
// interning overlapping strings, string attributes, dist types and lists
// get one object for each, and each string attribute is made exactly once.
TEST_CASE("threads interning at once into one Context get one object for each thing") {
  Context ctx;
  constexpr int kNames = 3000;
  std::vector<std::vector<const void*>> got(kThreads);
  std::vector<int> madeCount(kThreads, 0);
  {
    Context::Concurrent concurrent(ctx);
    onThreads([&](int t) {
      Context::Worker worker(ctx);
      got[t].resize(3 * kNames);
      // Each thread walks the names from its own start, so that threads make different ones first.
      for (int k = 0; k < kNames; ++k) {
        int i = (k + t * kNames / kThreads) % kNames;
        std::string name = "param_" + std::to_string(i);
        bool made = false;
        const StringAttr* s = ctx.stringAttr(name, made);
        madeCount[t] += made;
        int64_t shape[] = {2};
        int64_t ids[] = {0, 1};
        int64_t mapping[] = {i % 2 - 1, -1};
        int64_t dims[] = {2 + i % 7, 8};
        const Type* type =
            ctx.distTensorType(DataType::F32, dims, ctx.tensorDistAttr(ctx.processMesh(shape, ids), mapping));
        NamedAttr list[] = {{ctx.intern("parameter_name"), s}, {ctx.intern("shape_" + std::to_string(i % 5)), s}};
        got[t][3 * i] = s;
        got[t][3 * i + 1] = type;
        got[t][3 * i + 2] = ctx.attrList(list).data();
      }
      return std::string();
    });
  }
  int made = 0;
  for (int t = 0; t < kThreads; ++t) made += madeCount[t];
  CHECK(made == kNames);
  for (int t = 1; t < kThreads; ++t) CHECK(got[t] == got[0]);
  // And the same objects once the scope is closed, from one thread.
  for (int i = 0; i < kNames; i += 7) {
    const StringAttr* s = ctx.stringAttr("param_" + std::to_string(i));
    CHECK(static_cast<const void*>(s) == got[0][3 * i]);
    CHECK(s->raw() == "param_" + std::to_string(i));
  }
}
