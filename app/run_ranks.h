//===- run_ranks.h - every rank's body on one world --------------*- C++ -*-===//
//
// The one place pir-run runs ranks: a world of `worldSize` ranks (threads
// of this process, or one process a rank under mpirun: app/run_world.h)
// runs a body per rank; a
// failure is rendered in the failing rank's program, a deadlock as the
// report of what every rank waits on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <string_view>

#include "app/run_common.h"
#include "app/run_progress.h"

namespace pir::app {

/// A rank's work: ok, or its failure (located in that rank's program).
using RankBody = std::function<core::Status(int64_t rank, runtime::Communicator& comm)>;
/// The source a rank's errors are located in (null: the rank has none).
using SourceOf = std::function<const core::SourceFile*(int64_t rank)>;

/// Under mpirun, what a rank's process sends rank 0 after the run (its
/// results, app/run_world.h) and how rank 0 takes it in.
struct RankResults {
  std::function<std::string(int64_t rank)> pack;
  std::function<core::Status(int64_t rank, std::string_view bytes)> unpack;
};

/// Runs `body` on every rank of the world (in process, or this process's
/// rank under mpirun, then `results` gathered on rank 0); the rendered
/// failure, or ok. The bodies count into `progress`, which a progress bar
/// shows on a tty (app/run_progress.h).
core::Status runOnWorld(const RunOptions& opts, int64_t worldSize, runtime::RingTable rings, const SourceOf& sourceOf,
                        const RankBody& body, const RankResults& results, RunProgress& progress);

/// Runs every rank's plan --steps times (`runs` in any rank order, `sources`
/// beside them); the losses (`lossName`) and measurements land in `runs`.
core::Status runRanks(std::vector<RankRun>& runs, const RunOptions& opts, const std::string& lossName,
                      const std::vector<const core::SourceFile*>& sources, runtime::RingTable rings, int64_t worldSize);

}  // namespace pir::app
