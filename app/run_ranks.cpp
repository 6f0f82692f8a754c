//===- run_ranks.cpp - every rank's body on one world ---------------------===//
#include "app/run_ranks.h"

#include <chrono>

#include "app/run_timing.h"
#include "app/run_world.h"

namespace pir::app {

using core::Status;

Status runOnWorld(const RunOptions& opts, int64_t worldSize, runtime::RingTable rings, const SourceOf& sourceOf,
                  const RankBody& body, const RankResults& results, RunProgress& progress) {
  RunWorld world;  // in-process, or this process's rank under mpirun
  if (Status s = world.open(worldSize, std::move(rings), std::chrono::milliseconds(int64_t(opts.timeout * 1000))); !s)
    return s;
  runtime::WorldOutcome outcome;
  {
    ProgressBar bar(progress, !world.isMpi() || world.knows(0));  // under mpirun, rank 0's process only
    PhaseTimer timer("run");
    outcome = world.run(body);
  }
  using Kind = runtime::WorldOutcome::Kind;
  if (outcome.kind == Kind::Failed) {
    int64_t r = outcome.failedRank;
    std::string prefix = "rank " + std::to_string(r) + ": ";
    if (const core::SourceFile* src = sourceOf(r))
      return world.stop(Status::error(render(*src, outcome.perRank[r], prefix)));
    return world.stop(Status::error("error: " + prefix + outcome.perRank[r].message() + "\n"));
  }
  if (outcome.kind == Kind::Deadlock) {
    std::string msg = "error: deadlock: a rank waited longer than --timeout " + std::to_string(int64_t(opts.timeout)) +
                      " s; what every rank waits on:\n";
    for (size_t r = 0; r < outcome.perRank.size(); ++r) {
      const Status& s = outcome.perRank[r];
      if (!world.knows(int64_t(r))) continue;
      if (s.isOk())
        msg += "rank " + std::to_string(r) + ": finished\n";
      else if (const core::SourceFile* src = sourceOf(int64_t(r)))
        msg += render(*src, s, "");
      else
        msg += "rank " + std::to_string(r) + ": " + s.message() + "\n";
    }
    return world.stop(Status::error(msg));
  }
  // Under mpirun: every rank's results to rank 0 (the other processes end here).
  return world.gather(results.pack, results.unpack);
}

namespace {

/// Under mpirun, what a rank's process sends rank 0: every field of a
/// RankRun but the plan, which rank 0 has too.
std::string packRun(const RankRun& r) {
  BlobWriter w;
  w.put(r.state), w.put(r.fetches), w.put(r.losses), w.put(r.lossPieces), w.put(r.stats.kernelSeconds);
  w.put(r.events), w.put(r.seconds), w.put(r.commSeconds), w.put(r.peakBytes), w.put(r.bytesByRing);
  return w.take();
}

Status unpackRun(std::string_view bytes, RankRun& r) {
  BlobReader in(bytes);
  r.state.clear();
  in.get(r.state), in.get(r.fetches), in.get(r.losses), in.get(r.lossPieces), in.get(r.stats.kernelSeconds);
  in.get(r.events), in.get(r.seconds), in.get(r.commSeconds), in.get(r.peakBytes), in.get(r.bytesByRing);
  return in.ok() ? Status::ok()
                 : Status::internal("internal error: rank " + std::to_string(r.rank) + "'s results are cut short\n");
}

}  // namespace

Status runRanks(std::vector<RankRun>& runs, const RunOptions& opts, const std::string& lossName,
                const std::vector<const core::SourceFile*>& sources, runtime::RingTable rings, int64_t worldSize) {
  // Each rank's errors are located in its own program.
  auto sourceOf = [&](int64_t rank) -> const core::SourceFile* {
    for (size_t i = 0; i < runs.size(); ++i)
      if (runs[i].rank == rank) return sources[i];
    return nullptr;
  };
  auto runOf = [&](int64_t rank) -> RankRun* {
    for (auto& r : runs)
      if (r.rank == rank) return &r;
    return nullptr;
  };
  RankResults results{[&](int64_t rank) { return runOf(rank) ? packRun(*runOf(rank)) : std::string(); },
                      [&](int64_t rank, std::string_view bytes) {
                        return runOf(rank) ? unpackRun(bytes, *runOf(rank)) : Status::ok();
                      }};
  RunProgress progress("steps");
  return runOnWorld(
      opts, worldSize, std::move(rings), sourceOf,
      [&](int64_t rank, runtime::Communicator& comm) {
        RankRun* mine = nullptr;
        for (auto& r : runs)
          if (r.rank == rank) mine = &r;
        if (!mine) return Status::ok();  // a rank in no mesh idles
        runtime::threadMemory() = {};
        if (!opts.trace.empty()) mine->stats.events = &mine->events;
        auto start = std::chrono::steady_clock::now();
        const int64_t ops = int64_t(mine->executor->numSteps());
        progress.expect(opts.steps, opts.steps * ops);
        for (int64_t step = 0; step < opts.steps; ++step) {
          mine->fetches.clear();
          if (Status s = mine->executor->run(mine->state, mine->fetches, &comm, &mine->stats); !s) return s;
          progress.done(1, ops);
          if (auto it = mine->fetches.find(lossName); it != mine->fetches.end()) {
            if (auto v = scalarOf(it->second)) mine->losses.push_back(*v);
            mine->lossPieces.push_back(it->second.clone());
          }
        }
        mine->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        mine->commSeconds = comm.stats().seconds;
        mine->bytesByRing = comm.stats().bytesByRing;
        mine->peakBytes = runtime::threadMemory().peak;
        return Status::ok();
      },
      results, progress);
}

}  // namespace pir::app
