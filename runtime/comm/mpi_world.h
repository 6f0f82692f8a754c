//===- mpi_world.h - this process is one rank, over MPI ---------*- C++ -*-===//
//
// The Communicator for a process that mpirun started (Debian's OpenMPI):
// this process runs one rank of the world, its peers are the other
// processes. It keeps the in-process communicator's meaning (in_process.h):
//
// - One MPI communicator per ring, made with MPI_Comm_split (collective over
//   MPI_COMM_WORLD) in ascending ring id order on every process, so the
//   creation cannot deadlock; a member's MPI rank is its ring position.
// - Every message is a header (dtype and shape) followed by its payload, on
//   one tag, so (ring, src, dst) is one FIFO as in-process: MPI does not let
//   two messages of one sender and tag overtake each other.
// - A send never blocks: MPI_Isend of a copy kept until the send completes.
// - A collective first exchanges every member's type (a mismatch fails
//   every member before any payload moves), then moves only what each
//   member needs, received in place where it can be. A reduction combines
//   in ring order with reduceElements, in the chunks in-process cuts: the
//   bits are the same, never MPI_Allreduce's own order. all_reduce's chunks
//   are received into a buffer the ring keeps across calls.
// - traffic() counts payload bytes where they move: those given to
//   MPI_Isend, and those MPI_Get_count says a completed receive got (not
//   the headers).
// - Waits poll: a wait longer than the timeout fails with what this rank
//   waits on; the processes then send theirs to rank 0 (gatherReports),
//   which reports them all and aborts the job (mpiAbort).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/communicator.h"
#include "runtime/comm/in_process.h"  // WorldOutcome

namespace pir::runtime {

/// Joins MPI (MPI_Init_thread, once per process; MPI_Finalize at exit).
/// MPI_THREAD_SERIALIZED: the rank runs on a thread of its own, and one
/// thread at a time calls MPI.
core::Status mpiInit();
/// MPI_Finalize, when MPI was joined and not yet left.
void mpiFinalize();
/// Ends every process of the job with exit code `code` (MPI_Abort).
[[noreturn]] void mpiAbort(int code);

class MpiComm;

class MpiWorld {
 public:
  /// Collective: every process calls it with the same rings, after mpiInit().
  MpiWorld(RingTable rings, std::chrono::milliseconds timeout);
  ~MpiWorld();
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int64_t rank() const;  // this process's rank in MPI_COMM_WORLD
  int64_t size() const;
  Communicator& comm();

  /// Runs `body(rank(), comm())` on a thread and waits for its sends to be
  /// received. perRank has size() entries; only this rank's is filled.
  WorldOutcome run(const std::function<core::Status(int64_t, Communicator&)>& body);

  /// Every process's `mine` on rank 0, by rank (its own slot included);
  /// the other ranks get an empty vector.
  core::Result<std::vector<std::string>> gather(std::string mine);

  /// After run(), on every process, so that rank 0 can report every rank's
  /// wait of a deadlock (each process sees only its own): `failure` is this
  /// process's report (empty: its rank finished). Rank 0 gets each rank's
  /// (its own slot included): it waits for every other process as long as
  /// it takes until a rank (or itself) failed, from then on `grace` at most;
  /// a process that did not answer by then is left unanswered. Another
  /// process sends its own: having finished, it returns at once (empty);
  /// having failed, it waits for rank 0 to end the job, and returns (empty)
  /// only when rank 0 did not take its report within `timeout` + `grace` or
  /// did not end the job soon after.
  struct Report {
    bool answered = false;
    std::string failure;  // empty: finished
  };
  std::vector<Report> gatherReports(const std::string& failure, std::chrono::milliseconds grace);

 private:
  std::unique_ptr<MpiComm> comm_;
};

}  // namespace pir::runtime
