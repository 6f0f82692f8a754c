//===- world.h - where a run's ranks run: threads or MPI ---------*- C++ -*-===//
//
// A World runs one body per rank. In process, every rank is a thread of this
// process (runtime/comm/in_process.h); under mpirun this process runs only
// its own rank over MPI (runtime/comm/mpi_world.h), and gatherToRoot brings
// every rank's results to rank 0, which reports for the job.
//
// Nothing here ends the process: a failed or finished non-root rank returns
// to its caller, which decides how the process ends (abort() under MPI, a
// plain exit otherwise).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "runtime/comm/communicator.h"
#include "runtime/comm/in_process.h"  // WorldOutcome
#include "runtime/comm/mpi_world.h"   // MpiWorld::Report

namespace pir::runtime::runner {

using RankBody = std::function<core::Status(int64_t rank, Communicator& comm)>;

class World {
 public:
  virtual ~World() = default;
  virtual int64_t size() const = 0;
  virtual bool isMpi() const = 0;
  /// Whether this process runs `rank` (and so knows its outcome).
  virtual bool runsRank(int64_t rank) const = 0;
  /// Runs `body` for every rank of this process and joins them.
  virtual WorldOutcome run(const RankBody& body) = 0;
  /// Under MPI: rank 0 receives `pack(r)` of every other rank r and hands it
  /// to `unpack(r, bytes)`; every other rank sends its own. In process:
  /// nothing (every rank's results are here already).
  virtual core::Status gatherToRoot(
      const std::function<std::string(int64_t rank)>& pack,
      const std::function<core::Status(int64_t rank, std::string_view bytes)>& unpack) = 0;
  /// Under MPI, after run(): every process's failure report (empty: its
  /// rank finished) on rank 0, by rank, so that rank 0 reports every rank's
  /// wait of a deadlock (MpiWorld::gatherReports: rank 0 waits `grace` for
  /// the rest once one failed; an unanswered slot is a process that did
  /// not answer by then). Another process gets none; a failed one returns
  /// only when rank 0 did not end the job. In process: none (every
  /// outcome is here already).
  using RankReport = MpiWorld::Report;
  virtual std::vector<RankReport> gatherReports(const std::string& failure, std::chrono::milliseconds grace) = 0;
  /// Whether this process reports for the job (in process: always).
  virtual bool isRoot() const = 0;
  /// Ends every process of the job with `code` (MPI_Abort); in process,
  /// nothing. Only the CLI calls it, after rendering the failure.
  virtual void abort(int code) = 0;
};

/// In-process: `size` threads.
std::unique_ptr<World> inProcessWorld(int64_t size, RingTable rings, std::chrono::milliseconds timeout);

/// Under mpirun: this process's rank over MPI, joining MPI first. mpirun's
/// process count must be `size` (else a user error: run it with -np N).
core::Result<std::unique_ptr<World>> mpiWorld(int64_t size, RingTable rings, std::chrono::milliseconds timeout);

/// Whether mpirun started this process (OMPI_COMM_WORLD_SIZE is set).
bool launchedByMpirun();
/// This process's rank under mpirun (OMPI_COMM_WORLD_RANK), 0 otherwise.
int64_t mpirunRank();
/// Whether this process joined MPI (an MPI world was opened).
bool mpiJoined();
/// MPI_Finalize when MPI was joined: a non-root rank's last step.
void leaveMpi();

}  // namespace pir::runtime::runner
