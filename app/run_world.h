//===- run_world.h - where pir-run's ranks run: threads or MPI --*- C++ -*-===//
//
// pir-run runs a program's ranks either all in this process (one thread per
// rank, runtime/comm/in_process.h) or, when mpirun started the process
// (OMPI_COMM_WORLD_SIZE is set), only this process's rank over MPI
// (runtime/comm/mpi_world.h). RunWorld hides which: the runner opens it,
// runs its rank body, stops it on a failure and gathers the ranks' results.
//
// Under mpirun every process reads, splits and compiles the whole program
// (the same work, so the same plans and inputs), runs its own rank, and
// sends what it computed to rank 0, which prints, checks and writes the
// output folder exactly as an in-process run does; the other processes
// print nothing (quietUnlessRank0) and exit 0 after their send.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/status.h"
#include "runtime/comm/in_process.h"
#include "runtime/executor.h"

namespace pir::runtime {
class MpiWorld;
}

namespace pir::app {

/// Whether mpirun started this process.
bool launchedByMpirun();

/// Under mpirun, on every process but rank 0: stdout and stderr go to
/// /dev/null (rank 0 speaks for the job: every process meets the same
/// errors before the run), until the rank runs and may fail on its own.
void quietUnlessRank0();

/// The exit code of this process for the job's code `rc`: under mpirun,
/// before MPI is joined, only rank 0 exits with a failure. Every process
/// meets the same errors up to there and rank 0 reports them; were another
/// process to exit 1 first, mpirun would kill rank 0 before it printed.
int processExitCode(int rc);

class RunWorld {
 public:
  RunWorld();
  ~RunWorld();
  RunWorld(const RunWorld&) = delete;
  RunWorld& operator=(const RunWorld&) = delete;

  /// A world of `worldSize` ranks. The process's first world under mpirun
  /// is the MPI one: mpirun's process count must be worldSize (else the
  /// error, rendered). Later ones (--check's serial run) are in-process.
  core::Status open(int64_t worldSize, runtime::RingTable rings, std::chrono::milliseconds timeout);
  bool isMpi() const { return mpi_ != nullptr; }

  /// Runs `body` for every rank of this process (in-process: all of them).
  runtime::WorldOutcome run(const std::function<core::Status(int64_t, runtime::Communicator&)>& body);
  /// Whether outcome.perRank[rank] is known here (under MPI: only ours).
  bool knows(int64_t rank) const;

  /// A failed run's rendered `failure`: returned in-process; under MPI this
  /// process prints it and aborts the job with exit 1.
  core::Status stop(core::Status failure);

  /// Under MPI, after a run that succeeded: rank 0 receives `pack(r)` of
  /// every other rank r and hands it to `unpack(r, bytes)`; every other
  /// process sends its own and exits 0 here. In-process: nothing.
  core::Status gather(const std::function<std::string(int64_t rank)>& pack,
                      const std::function<core::Status(int64_t rank, std::string_view bytes)>& unpack);

 private:
  std::unique_ptr<runtime::InProcessWorld> local_;
  std::unique_ptr<runtime::MpiWorld> mpi_;
};

/// The bytes a rank's process sends rank 0 (RunWorld::gather): plain values,
/// vectors of them, strings, tensors and tensor maps, in order.
class BlobWriter {
 public:
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void put(const T& v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void put(const std::vector<T>& v) {
    put(uint64_t(v.size()));
    if (!v.empty()) bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void put(const std::string& s);
  void put(const runtime::Tensor& t);
  void put(const std::vector<runtime::Tensor>& v);
  void put(const runtime::TensorMap& m);
  void put(const std::map<int64_t, uint64_t>& m);
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

/// Reads what a BlobWriter wrote, in the same order. ok(): every byte read,
/// none missing (a short or malformed blob makes every later read a no-op).
class BlobReader {
 public:
  explicit BlobReader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void get(T& v) {
    if (need(sizeof v)) std::memcpy(&v, next(sizeof v), sizeof v);
  }
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void get(std::vector<T>& v) {
    uint64_t n = 0;
    get(n);
    if (!ok_ || n > bytes_.size() / (sizeof(T) ? sizeof(T) : 1) || !need(n * sizeof(T))) return void(ok_ = false);
    v.resize(n);
    if (n) std::memcpy(v.data(), next(n * sizeof(T)), n * sizeof(T));
  }
  void get(std::string& s);
  void get(runtime::Tensor& t);
  void get(std::vector<runtime::Tensor>& v);
  void get(runtime::TensorMap& m);
  void get(std::map<int64_t, uint64_t>& m);
  bool ok() const { return ok_ && at_ == bytes_.size(); }

 private:
  bool need(size_t n) {
    if (ok_ && bytes_.size() - at_ >= n) return true;
    ok_ = false;
    return false;
  }
  const char* next(size_t n) {
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::string_view bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace pir::app
