//===- run_ranks.h - every rank's body on one world --------------*- C++ -*-===//
//
// The one place pir-run runs ranks: a world of `worldSize` ranks (threads
// of this process, runtime/comm/in_process.h) runs a body per rank; a
// failure is rendered in the failing rank's program, a deadlock as the
// report of what every rank waits on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>

#include "app/run_common.h"

namespace pir::app {

/// A rank's work: ok, or its failure (located in that rank's program).
using RankBody = std::function<core::Status(int64_t rank, runtime::Communicator& comm)>;
/// The source a rank's errors are located in (null: the rank has none).
using SourceOf = std::function<const core::SourceFile*(int64_t rank)>;

/// Runs `body` on every rank of the world; the rendered failure, or ok.
core::Status runOnWorld(const RunOptions& opts, int64_t worldSize, runtime::RingTable rings, const SourceOf& sourceOf,
                        const RankBody& body);

/// Runs every rank's plan --steps times (`runs` in any rank order, `sources`
/// beside them); the losses (`lossName`) and measurements land in `runs`.
core::Status runRanks(std::vector<RankRun>& runs, const RunOptions& opts, const std::string& lossName,
                      const std::vector<const core::SourceFile*>& sources, runtime::RingTable rings, int64_t worldSize);

}  // namespace pir::app
