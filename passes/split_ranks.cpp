//===- split_ranks.cpp - the dense program of every rank -------------------===//
//
// `split-ranks` (a splitting pass): for every global rank of the program's
// meshes, in ascending order, a copy of the program in a Context of its own
// through lower-reshard{rank=R}, partition-rank{rank=R}, dist-to-dense{rank=R}
// and remove-unuseful-comm (each made by name through the registry), as the
// program `rankR` with rank R. Ranks are made on all cores, one Context per
// thread (the input is numbered once, core::CloneSource, and then only read
// by cloneProgram); each is handed on as soon as it is done, so with
// `--output-dir` memory holds the input plus one rank per core. A rank's
// Context is made over the input's, so the copy shares the input's strings,
// types and attributes instead of making its own. The input's Context is
// only read while ranks are made, and outlives them: a rank's Context holds
// it when the input's NamedProgram owns it, else its owner (pir-opt's
// session, a caller's) keeps it longer than the pieces.
//
// Each rank's pipeline gets the copy's reshards as a result
// (passes/known_reshards.h), found once in the input, so lower-reshard does
// not walk the copy to find them.
//
// The ring table is planRings over the distributed input, plus the rings
// `rings=FILE` (a ranks.yaml) gives: those of communication ops the input
// already holds, whose ranks the text does not say. An op with a `ring_id`
// the file does not give is a located error, and lower-reshard fails on a
// ring the planned ones lack: so every ring id of a rank's program is in the
// table handed on, which remove-unuseful-comm relies on. The pass leaves
// `ranks.yaml` (passes/rank_layout.h) for `--output-dir`, and gives each
// rank program its stage from it (rankStages). `rank=R` makes rank R's
// program only.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <atomic>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "core/attr_access.h"
#include "core/clone.h"
#include "core/context.h"
#include "core/threads.h"
#include "core/verifier.h"
#include "passes/known_reshards.h"
#include "passes/lowering/cost_model.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"
#include "passes/rank_option.h"
#include "passes/ring_plan.h"

namespace pir::passes {

namespace {

using namespace pir::core;

/// What every rank runs, in order.
constexpr std::string_view kRankPipeline[] = {"lower-reshard", "partition-rank", "dist-to-dense",
                                              "remove-unuseful-comm"};
// The copy's reshards are handed to the first pass: found before any pass
// ran, they hold only while nothing has changed the copy.
static_assert(kRankPipeline[0] == "lower-reshard");

using Counters = std::vector<std::pair<std::string, int64_t>>;

class SplitRanksPass : public SplittingPass {
 public:
  std::string_view name() const override { return "split-ranks"; }
  std::string_view description() const override {
    return "make each rank's dense program (lower-reshard, partition-rank, dist-to-dense, remove-unuseful-comm "
           "per rank) and ranks.yaml";
  }

  Status split(NamedProgram& program, ProgramSet& pieces, DiagnosticEngine& diag) override {
    std::mutex mutex;
    std::vector<NamedProgram> made;
    Status s = splitInto(
        program,
        [&](size_t index, NamedProgram piece) {
          std::lock_guard<std::mutex> lock(mutex);
          if (made.size() <= index) made.resize(index + 1);
          made[index] = std::move(piece);
          return Status::ok();
        },
        diag);
    if (!s) return s;
    for (NamedProgram& p : made) pieces.programs.push_back(std::move(p));
    return Status::ok();
  }

  Status splitInto(NamedProgram& named, const PieceSink& sink, DiagnosticEngine& diag) override {
    const Program& program = *named.program;
    std::vector<int64_t> ranks = programRanks(program);
    if (ranks.empty()) return Status::error("split-ranks: the program has no process mesh, so no ranks");
    if (rank_ >= 0) {
      if (!std::binary_search(ranks.begin(), ranks.end(), int64_t{rank_}))
        return Status::error("split-ranks: rank " + std::to_string(rank_) + " is in no mesh of the program");
      ranks = {rank_};
    }
    Result<RingTable> rings = ringTable(program, diag);
    if (!rings) return rings.takeStatus();
    // The layout (0.37 s at 1M ops, a value's pieces on every rank) is
    // described on a thread of its own while the input is numbered and the
    // first ranks are made: the ranks wait for it only to be handed on.
    std::shared_future<Status> layout;
    auto describe = [this, &program, &rings, &ranks] { return describeLayout(program, *rings, ranks); };
    if (core::workerThreads() > 1) {
      try {
        layout = std::async(std::launch::async, describe).share();
      } catch (const std::system_error&) {  // no thread to be had: described here
      }
    }
    if (!layout.valid()) {
      std::promise<Status> now;
      now.set_value(describe());
      layout = now.get_future().share();
    }
    Status made = makeRanks(named, ranks, *rings, layout, sink, diag);
    // A layout that cannot be described fails the pass whatever the ranks did, as when it came first.
    if (const Status& described = layout.get(); !described) {
      diag.error(described.offset(), described.message());
      return Status::error("split-ranks could not describe the layout");
    }
    return made;
  }

 private:
  /// The rings of `rings=FILE` and planRings; an error at an op on a ring
  /// neither gives.
  Result<RingTable> ringTable(const Program& program, DiagnosticEngine& diag) {
    RingTable table;
    if (!ringsFile_.value().empty()) {
      Result<RankLayout> given = loadRankLayout(ringsFile_.value());
      if (!given) return Status::error(given.status().message());  // located in the file, not the program
      table = given->rings;
    }
    size_t unknown = 0;
    walk(program.body(), [&](const Operation& op) {
      const Attribute* ring = op.attr("ring_id");
      std::optional<int64_t> id = getInt64(ring);
      if (!ring || (id && table.find(*id))) return;
      if (unknown++ == 0)
        diag.error(reportLocation(&op), "op '" + std::string(op.name()) + "' communicates on ring " +
                                            (id ? std::to_string(*id) : std::string("?")) +
                                            ", whose ranks are unknown; give them with split-ranks{rings=FILE}");
    });
    if (unknown) return Status::error("split-ranks needs the ranks of the input's rings");
    Result<lowering::PlanRequest> request = lowering::planRequestOf(planner_, costModel_.value(), model_);
    if (!request) return request.takeStatus();
    Result<ProcessGroupTable> planned = planRings(program, *request);
    if (!planned) return planned.takeStatus();
    if (Status s = table.addAll(*planned); !s) return s;
    planned_ = std::make_shared<const ProcessGroupTable>(std::move(*planned));
    return table;
  }

  /// ranks.yaml's layout of `program`, published for the caller; `stages_`
  /// from it. A failure is returned, for the caller to report on its thread.
  Status describeLayout(const Program& program, const RingTable& rings, const std::vector<int64_t>& ranks) {
    Result<RankLayout> layout = describeRankLayout(program, rings);
    if (!layout) return layout.takeStatus();
    layout->planner = planner_;  // so that a check re-plans the rings as they were
    layout->costModel = costModel_.value();
    stages_.assign(ranks.size(), -1);
    for (size_t i = 0; i < ranks.size() && !layout->stages.empty(); ++i) {
      auto at = std::lower_bound(layout->ranks.begin(), layout->ranks.end(), ranks[i]) - layout->ranks.begin();
      stages_[i] = static_cast<int>(layout->stages[static_cast<size_t>(at)]);
    }
    publish(std::move(*layout));  // what ranks.yaml says, written only with --output-dir
    return Status::ok();
  }

  /// Makes every rank of `ranks` on all cores, handing each to `sink` once
  /// `layout` is described (a failed one stops them).
  Status makeRanks(const NamedProgram& named, const std::vector<int64_t>& ranks, const RingTable& ringTable,
                   const std::shared_future<Status>& layout, const PieceSink& sink, DiagnosticEngine& diag) {
    auto rings = std::make_shared<const RingTable>(ringTable);
    size_t workers = std::min<size_t>(ranks.size(), core::workerThreads());
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    // One thread would stop at the first rank that fails and report its
    // diagnostics alone: so the lowest failing rank's are kept, whichever
    // thread gets there first.
    size_t failedAt = ranks.size();
    Status first;
    std::vector<Diagnostic> found;
    std::vector<Counters> counters(ranks.size());  // added in rank order, whichever thread finishes first
    CloneSource source(*named.program);            // before the threads: it writes the input's scratch
    std::vector<uint32_t> reshards;                // the input's, by walk index: each rank's copy's are handed on
    for (uint32_t i = 0; i < source.ops().size(); ++i)
      if (isReshard(*source.ops()[i])) reshards.push_back(i);
    std::shared_ptr<const Context> inputOwner;  // the input's Context, when the input owns it
    if (named.context.get() == &named.program->context()) inputOwner = named.context;
    auto pool = std::make_shared<SlabPool>();  // a finished rank's pages serve the next
    auto work = [&] {
      for (size_t i; !stop && (i = next++) < ranks.size();) {
        DiagnosticEngine local(diag.source());
        Status s;
        try {
          Result<NamedProgram> piece =
              makeRank(source, reshards, inputOwner, pool, ranks[i], rings, local, counters[i]);
          if (piece && !layout.get()) {  // reported by splitInto
            stop = true;
            break;
          }
          if (piece) piece->stage = stages_[i];
          s = piece ? sink(i, std::move(*piece)) : piece.takeStatus();
        } catch (const std::bad_alloc&) {
          s = Status::error("out of memory making rank " + std::to_string(ranks[i]));
        } catch (const std::exception& e) {
          s = Status::internal(std::string("making rank ") + std::to_string(ranks[i]) + ": " + e.what());
        }
        if (s) continue;
        std::lock_guard<std::mutex> lock(mutex);
        stop = true;
        if (i > failedAt) continue;
        failedAt = i;
        found.assign(local.diagnostics().begin(), local.diagnostics().end());
        first = s;
      }
    };
    std::vector<std::thread> threads;
    for (size_t t = 1; t < workers; ++t) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    if (const Status& described = layout.get(); !described) return described;  // splitInto reports it alone
    for (Diagnostic& d : found) diag.add(std::move(d));
    for (const Counters& c : counters)
      for (const auto& [counter, value] : c) stats_.add(counter, value);
    return first;
  }

  /// Rank `rank`'s program: a copy of `program` in its own Context through
  /// the rank pipeline, run by a pass manager of its own whose results hold
  /// the ring table and the planned rings (what lower-reshard and
  /// remove-unuseful-comm read). The outer manager verifies the pieces.
  Result<NamedProgram> makeRank(const CloneSource& program, const std::vector<uint32_t>& reshards,
                                const std::shared_ptr<const Context>& inputOwner, const std::shared_ptr<SlabPool>& pool,
                                int64_t rank, const std::shared_ptr<const RingTable>& rings, DiagnosticEngine& diag,
                                Counters& counters) {
    ProgramSet one;
    NamedProgram& piece = one.programs.emplace_back();
    piece.name = "rank" + std::to_string(rank);
    piece.rank = static_cast<int>(rank);
    piece.context = std::make_shared<Context>(&program.program().context(), pool, inputOwner);
    auto known = std::make_shared<KnownReshards>();
    {
      std::vector<Operation*> copies;  // of every op of the input, by walk index
      piece.program = cloneProgram(program, *piece.context, copies);
      known->program = piece.program.get();
      known->ops.reserve(reshards.size());
      for (uint32_t i : reshards) known->ops.push_back(copies[i]);
    }
    PassManagerOptions o;
    o.verifyEach = false;
    o.nameFailures = false;
    PassManager pm(o);
    pm.results().share(rings);
    pm.results().set(RingTableCoversProgram{});  // remove-unuseful-comm may skip its walk
    pm.results().share(planned_);
    pm.results().share<KnownReshards>(std::move(known));  // lower-reshard, first, finds them without a walk
    std::vector<PassSpec> specs;
    for (std::string_view passName : kRankPipeline) {
      PassSpec& spec = specs.emplace_back();
      spec.name = std::string(passName);
      std::unique_ptr<Pass> probe = PassRegistry::instance().create(passName);
      if (!probe) return Status::internal("split-ranks needs the pass '" + spec.name + "'");
      for (const PassOption* opt : probe->options())
        if (opt->name() == "rank") spec.options.values["rank"] = std::to_string(rank);
      if (passName == "lower-reshard") {  // the planner the rings were planned with
        spec.options.values["planner"] = std::string(lowering::plannerName(planner_));
        if (!costModel_.value().empty()) spec.options.values["cost-model"] = costModel_.value();
      }
    }
    if (!pm.addPipeline(specs, diag)) return Status::internal("split-ranks could not build its rank pipeline");
    if (Status s = pm.run(one, diag); !s)
      return s.withMessage("rank " + std::to_string(rank) + ": " + std::string(pm.failedPass()) + ": " + s.message());
    for (const auto& pass : pm.passes())
      for (const auto& [counter, value] : pass->statistics().entries())
        counters.emplace_back(std::string(pass->name()) + ": " + counter, value);
    return std::move(piece);
  }

  std::vector<int> stages_;  // per rank made, its stage (ranks.yaml's), or -1
  Option<int> rank_{this, "rank", "make only this rank's program (-1: every rank)", -1, -1, kMaxRank};
  Option<std::string> ringsFile_{this, "rings", "a ranks.yaml giving the ranks of rings the input already uses", ""};
  EnumOption<lowering::Planner> planner_{this, "planner", "planner (lower-reshard's: paddle or cost)",
                                         lowering::Planner::Paddle, lowering::kPlannerNames};
  Option<std::string> costModel_{this, "cost-model", "the cost planner's alpha-beta model (YAML); defaults if empty",
                                 ""};
  std::shared_ptr<lowering::CostModel> model_;
  std::shared_ptr<const ProcessGroupTable> planned_;  // planRings of the input, which every rank's copy has too
};

}  // namespace

void registerSplitRanksPass() { registerPass<SplitRanksPass>(); }

}  // namespace pir::passes
