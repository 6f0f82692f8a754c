//===- fuzz_executor.cpp - programs run on 1-4 in-process ranks -----------===//
//
// Parse; if the program verifies, run it with real tensors. A distributed
// program goes through apply-partition,split-ranks as pir-run does and runs
// each rank's program on its world (at most 4 ranks; rings from ranks.yaml);
// a dense one runs on 1-4 ranks (the input's last byte picks), every rank
// the same program, each ring id it names standing for all of them. Every
// feed gets seeded values at its local shape (a -1 dim is 1). Before running,
// a program whose results and feeds hold more than kMaxElements elements in
// all is refused; while running, one tensor past kMaxElements f64 is refused
// at allocation (the op's error), and a wait past 250 ms is a deadlock
// report. Errors are fine; crashes, hangs, leaks and sanitizer reports are
// not. Each program runs twice (in-place ops write the feeds in between).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "runtime/comm/in_process.h"
#include "runtime/executor.h"
#include "runtime/runner/session.h"

using namespace pir;
using runtime::Tensor;

namespace {

namespace runner = pir::runtime::runner;

constexpr int64_t kMaxElements = int64_t(1) << 20;
constexpr int64_t kMaxRanks = 4;
constexpr auto kTimeout = std::chrono::milliseconds(250);

/// FUZZ_EXECUTOR_VERBOSE=1: say how each input ended (to keep the corpus
/// one that runs, not one that is refused early).
void note(const std::string& what) {
  static const bool verbose = std::getenv("FUZZ_EXECUTOR_VERBOSE") != nullptr;
  if (verbose) std::fprintf(stderr, "fuzz_executor: %s\n", what.c_str());
}

/// Elements of a type (vectors: their elements), -1 dims as 1; saturates.
int64_t elementsOf(const core::Type* t) {
  if (!t) return 0;
  if (auto* v = t->dynCast<core::VectorType>()) {
    int64_t n = 0;
    for (const core::Type* e : v->elements()) n += elementsOf(e);
    return n;
  }
  auto shape = core::tensorShape(t);
  if (!shape) return 0;
  int64_t n = 1;
  for (int64_t d : shape->dims) {
    if (d > kMaxElements) return kMaxElements + 1;
    n *= d < 0 ? 1 : d;
    if (n > kMaxElements) return kMaxElements + 1;
  }
  return n;
}

bool small(const core::Program& p) {
  int64_t total = 0;
  bool ok = true;
  core::walk(p.body(), [&](const core::Operation& op) {
    for (uint32_t i = 0; i < op.numResults(); ++i) total += elementsOf(op.result(i)->type());
    if (total > kMaxElements) ok = false;
  });
  return ok;
}

/// A feed of `in`'s dtype and shape with values from `seed`: floats in
/// [-2, 2), integers in [0, 3), bools alternating.
Tensor seededFeed(const runtime::ProgramInput& in, uint64_t seed) {
  std::vector<int64_t> shape = in.shape;
  for (int64_t& d : shape)
    if (d < 0) d = 1;
  Tensor t = Tensor::allocate(in.dtype, shape);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < t.numel(); ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    double u = double(s >> 11) / double(uint64_t(1) << 53);
    switch (in.dtype) {
      case core::DataType::F32:
        t.data<float>()[i] = float(4 * u - 2);
        break;
      case core::DataType::F64:
        t.data<double>()[i] = 4 * u - 2;
        break;
      case core::DataType::BF16:
        t.data<runtime::BFloat16>()[i] = runtime::BFloat16::fromFloat(float(4 * u - 2));
        break;
      case core::DataType::I32:
        t.data<int32_t>()[i] = int32_t(s % 3);
        break;
      case core::DataType::I64:
        t.data<int64_t>()[i] = int64_t(s % 3);
        break;
      case core::DataType::Bool:
        t.data<bool>()[i] = (i & 1) != 0;
        break;
      default:
        break;
    }
  }
  return t;
}

/// Runs every rank of `session` twice on an in-process world of `world`
/// ranks, through the runner's session (runtime/runner/session.h).
void runWorld(runner::Session& session, int64_t world, runtime::RingTable rings) {
  session.pipelined = false;
  session.schedule = runner::plainSchedule();
  session.worldSize = world;
  auto w = runner::inProcessWorld(world, std::move(rings), kTimeout);
  runner::SessionOptions opts;
  opts.steps = 2;
  opts.trace = true;
  opts.timeout = kTimeout;
  opts.maxLoopIterations = 1000;  // a while that never ends is an error, not a hang
  core::Status s = runner::runSession(session, *w, opts);
  std::string how = s ? "ran" : s.isTimeout() ? "deadlocked" : "failed";
  if (!s) how += "; " + s.message();
  for (const core::Status& n : s.notes()) how += "; " + n.message();
  note(how + " on " + std::to_string(world) + " ranks");
}

/// Compiles `program` for `rank` and draws its feeds; false when it does
/// not compile (a missing kernel, a dist type left, ...).
bool addRank(runner::Session& session, const core::Program& program, int64_t rank) {
  auto compiled = runtime::Executor::compile(program);
  if (!compiled) return note("does not compile: " + compiled.status().message()), false;
  runner::RankSession& r = session.rankOf(rank, 0);
  r.jobs.push_back({std::string(passes::schedule::Job{}.type()), std::move(compiled.value()), nullptr});
  r.feeds.assign(1, {});
  int64_t total = 0;
  uint64_t seed = uint64_t(rank) + 1;
  for (const runtime::ProgramInput& in : r.jobs.back().executor->inputs()) {
    int64_t n = 1;
    for (int64_t d : in.shape) n *= d < 0 ? 1 : d;
    total += n;
    if (total > kMaxElements || !runtime::isRunnable(in.dtype)) return note("feeds refused"), false;
    r.feeds[0][in.name] = seededFeed(in, seed++);
  }
  return true;
}

/// The ring ids a dense program's ops name.
std::vector<int64_t> ringIds(const core::Program& p) {
  std::vector<int64_t> ids;
  core::walk(p.body(), [&](const core::Operation& op) {
    if (auto id = core::getInt64(op, "ring_id")) ids.push_back(*id);
  });
  return ids;
}

void runDense(const core::Program& program, int64_t world) {
  runner::Session ranks;
  for (int64_t r = 0; r < world; ++r)
    if (!addRank(ranks, program, r)) return;
  runtime::RingTable rings;
  std::vector<int64_t> all;
  for (int64_t r = 0; r < world; ++r) all.push_back(r);
  for (int64_t id : ringIds(program)) {
    std::vector<int64_t> order = all;
    if (id % 2) std::reverse(order.begin(), order.end());  // an order other than ascending, too
    (void)rings.add(id, std::move(order));
  }
  runWorld(ranks, world, std::move(rings));
}

void runDistributed(std::unique_ptr<core::Program> program, core::DiagnosticEngine& diag) {
  std::vector<passes::PassSpec> specs;
  passes::PassManager pm;
  if (!passes::parsePassPipeline("apply-partition,split-ranks", specs, diag) || !pm.addPipeline(specs, diag)) {
    std::fprintf(stderr, "fuzz_executor: the split pipeline does not build\n%s", diag.render().c_str());
    std::abort();
  }
  core::ProgramSet set;
  set.programs.emplace_back("", std::move(program));
  core::Status s = pm.run(set, diag);
  if (s.isInternal()) {
    std::fprintf(stderr, "fuzz_executor: split-ranks: an internal error: %s\n", s.message().c_str());
    std::abort();
  }
  if (!s) return note("split-ranks refuses it: " + s.message());
  runtime::RingTable rings;
  int64_t world = 0;
  if (const passes::RankLayout* made = pm.results().get<passes::RankLayout>()) {
    // What ranks.yaml would say must read back as it is.
    std::string content = passes::writeRankLayout(*made);
    auto layout = passes::parseRankLayout(content);
    if (!layout || !(*layout == *made)) {
      std::fprintf(stderr, "fuzz_executor: split-ranks' ranks.yaml does not read back: %s\n%s\n",
                   layout ? "another layout" : layout.status().message().c_str(), content.c_str());
      std::abort();
    }
    world = layout->worldSize;
    rings = layout->rings;
  }
  if (world < 1 || world > kMaxRanks) return note("world of " + std::to_string(world) + " ranks refused");
  runner::Session ranks;
  for (core::NamedProgram& np : set.programs) {
    if (np.rank < 0 || np.rank >= world || !np.program || !small(*np.program)) return note("a rank program refused");
    if (!addRank(ranks, *np.program, np.rank)) return;
  }
  runWorld(ranks, world, std::move(rings));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  passes::registerAllPasses();
  runtime::setTensorByteLimit(size_t(kMaxElements) * 8);
  (void)runtime::kernelRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  core::Context ctx;
  core::SourceFile src("input.pir", text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseProgram(ctx, src, diag);
  if (!parsed) return note("does not parse"), 0;
  if (core::verifyProgram(**parsed, diag) != 0) return note("does not verify"), 0;
  if (!small(**parsed)) return note("too large"), 0;
  if (core::hasDistTypes(**parsed))
    runDistributed(std::move(*parsed), diag);
  else
    runDense(**parsed, 1 + int64_t(data[size - 1] % kMaxRanks));
  return 0;
}
