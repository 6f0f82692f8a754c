//===- pir_bench.cpp - Google Benchmark: lexer, parser, printer, passes ----===//
//
// Inputs are made by scripts/gen-program at build time (see CMakeLists.txt):
// PIR_BENCH_DIR/ops_N.pir (plain) and ops_N_stages.pir (`--stages 4`) for
// N in 10000 and 100000. Each benchmark reads one into memory first; passes
// get a freshly parsed program per iteration (parsing is not timed). Items
// processed are the input's ops, bytes processed its size.
//
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "core/context.h"
#include "core/diagnostics.h"
#include "core/printer.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"

using namespace pir;

namespace {

/// The text of a generated input, read once.
const std::string& input(int64_t ops, bool stages) {
  static std::map<std::pair<int64_t, bool>, std::string> cache;
  auto key = std::make_pair(ops, stages);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  std::string path = std::string(PIR_BENCH_DIR) + "/ops_" + std::to_string(ops) + (stages ? "_stages" : "") + ".pir";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "pir-bench: cannot read %s (build the pir-bench-inputs target)\n", path.c_str());
    std::exit(1);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return cache[key] = s.str();
}

std::unique_ptr<core::Program> parse(core::Context& ctx, const std::string& text) {
  core::SourceFile source("bench.pir", text);
  core::DiagnosticEngine diag(&source);
  auto r = parser::parseProgram(ctx, source, diag);
  if (!r) {
    std::fprintf(stderr, "pir-bench: parse failed:\n%s", diag.render().c_str());
    std::exit(1);
  }
  return std::move(*r);
}

void setCounters(benchmark::State& state, const std::string& text) {
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}

void BM_Lexer(benchmark::State& state) {
  const std::string& text = input(state.range(0), false);
  for (auto _ : state) {
    parser::Lexer lexer(text);
    int64_t tokens = 0;
    for (;;) {
      parser::Token t = lexer.next();
      if (t.kind == parser::TokenKind::Eof || t.kind == parser::TokenKind::Error) break;
      ++tokens;
    }
    benchmark::DoNotOptimize(tokens);
  }
  setCounters(state, text);
}

void BM_Parser(benchmark::State& state) {
  const std::string& text = input(state.range(0), false);
  for (auto _ : state) {
    core::Context ctx;
    auto program = parse(ctx, text);
    benchmark::DoNotOptimize(program.get());
    state.PauseTiming();  // freeing the IR is not parsing
    program.reset();
    state.ResumeTiming();
  }
  setCounters(state, text);
}

void BM_Printer(benchmark::State& state) {
  const std::string& text = input(state.range(0), false);
  core::Context ctx;
  auto program = parse(ctx, text);
  for (auto _ : state) {
    size_t bytes = 0;
    (void)core::printProgram(*program, [&](std::string_view chunk) {
      bytes += chunk.size();
      return true;
    });
    benchmark::DoNotOptimize(bytes);
  }
  setCounters(state, text);
}

/// Runs `pipeline` (without verification) on a fresh parse of the input,
/// after `prepare` (not timed) when given.
void runPass(benchmark::State& state, const char* pipeline, bool stages, const char* prepare = nullptr) {
  passes::registerAllPasses();
  const std::string& text = input(state.range(0), stages);
  auto makeManager = [](const char* spec) {
    std::vector<passes::PassSpec> specs;
    core::DiagnosticEngine diag;
    passes::PassManagerOptions options;
    options.verifyEach = false;
    auto pm = std::make_unique<passes::PassManager>(options);
    if (!passes::parsePassPipeline(spec, specs, diag) || !pm->addPipeline(specs, diag)) {
      std::fprintf(stderr, "pir-bench: bad pipeline '%s':\n%s", spec, diag.render().c_str());
      std::exit(1);
    }
    return pm;
  };
  for (auto _ : state) {
    state.PauseTiming();
    auto ctx = std::make_unique<core::Context>();
    core::ProgramSet set;
    set.programs.push_back({"", parse(*ctx, text)});
    core::DiagnosticEngine diag;
    if (prepare && !makeManager(prepare)->run(set, diag)) std::exit(1);
    auto pm = makeManager(pipeline);
    state.ResumeTiming();
    core::Status s = pm->run(set, diag);
    state.PauseTiming();
    if (!s) {
      std::fprintf(stderr, "pir-bench: '%s' failed: %s\n%s", pipeline, s.message().c_str(), diag.render().c_str());
      std::exit(1);
    }
    set.programs.clear();
    ctx.reset();
    state.ResumeTiming();
  }
  setCounters(state, text);
}

void BM_ApplyPartition(benchmark::State& state) { runPass(state, "apply-partition", false); }
void BM_FoldReshard(benchmark::State& state) { runPass(state, "fold-reshard", false, "apply-partition"); }
void BM_SplitMatmulGrad(benchmark::State& state) { runPass(state, "split-matmul-grad", false); }
void BM_PipelineSplit1F1B(benchmark::State& state) { runPass(state, "pipeline-split{mode=1F1B}", true); }

}  // namespace

#define PIR_SIZES ->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_Lexer) PIR_SIZES;
BENCHMARK(BM_Parser) PIR_SIZES;
BENCHMARK(BM_Printer) PIR_SIZES;
BENCHMARK(BM_ApplyPartition) PIR_SIZES;
BENCHMARK(BM_FoldReshard) PIR_SIZES;
BENCHMARK(BM_SplitMatmulGrad) PIR_SIZES;
BENCHMARK(BM_PipelineSplit1F1B) PIR_SIZES;

BENCHMARK_MAIN();
