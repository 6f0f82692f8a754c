//===- world.cpp - where a run's ranks run: threads or MPI ----------------===//
#include "runtime/runner/world.h"

#include <cstdlib>

#include "runtime/comm/mpi_world.h"

namespace pir::runtime::runner {

using core::Status;

namespace {

bool gMpiJoined = false;

int64_t envInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  return *end ? fallback : int64_t(n);
}

class LocalWorld final : public World {
 public:
  LocalWorld(int64_t size, RingTable rings, std::chrono::milliseconds timeout)
      : world_(size, std::move(rings), timeout) {}
  int64_t size() const override { return world_.size(); }
  bool isMpi() const override { return false; }
  bool runsRank(int64_t) const override { return true; }
  WorldOutcome run(const RankBody& body) override { return world_.run(body); }
  Status gatherToRoot(const std::function<std::string(int64_t)>&,
                      const std::function<Status(int64_t, std::string_view)>&) override {
    return Status::ok();
  }
  std::vector<RankReport> gatherReports(const std::string&, std::chrono::milliseconds) override { return {}; }
  bool isRoot() const override { return true; }
  void abort(int) override {}

 private:
  InProcessWorld world_;
};

class MpiRankWorld final : public World {
 public:
  MpiRankWorld(RingTable rings, std::chrono::milliseconds timeout) : world_(std::move(rings), timeout) {}
  int64_t size() const override { return world_.size(); }
  bool isMpi() const override { return true; }
  bool runsRank(int64_t rank) const override { return rank == world_.rank(); }
  WorldOutcome run(const RankBody& body) override { return world_.run(body); }
  Status gatherToRoot(const std::function<std::string(int64_t)>& pack,
                      const std::function<Status(int64_t, std::string_view)>& unpack) override {
    int64_t me = world_.rank();
    auto all = world_.gather(me == 0 ? std::string() : pack(me));
    if (!all) return all.status();
    if (me != 0) return Status::ok();
    for (size_t r = 1; r < all->size(); ++r)
      if (Status s = unpack(int64_t(r), (*all)[r]); !s) return s;
    return Status::ok();
  }
  std::vector<RankReport> gatherReports(const std::string& failure, std::chrono::milliseconds grace) override {
    return world_.gatherReports(failure, grace);
  }
  bool isRoot() const override { return world_.rank() == 0; }
  void abort(int code) override { mpiAbort(code); }

 private:
  MpiWorld world_;
};

}  // namespace

std::unique_ptr<World> inProcessWorld(int64_t size, RingTable rings, std::chrono::milliseconds timeout) {
  return std::make_unique<LocalWorld>(size, std::move(rings), timeout);
}

core::Result<std::unique_ptr<World>> mpiWorld(int64_t size, RingTable rings, std::chrono::milliseconds timeout) {
  // Checked before MPI is joined: every process fails alike.
  int64_t processes = envInt("OMPI_COMM_WORLD_SIZE", -1);
  if (processes != size)
    return Status::error("mpirun started " + std::to_string(processes) + " processes, the program has " +
                         std::to_string(size) + " rank" + (size == 1 ? "" : "s") + " (run it with -np " +
                         std::to_string(size) + ")");
  if (gMpiJoined) return Status::internal("MPI is joined once per process; a second MPI world was asked for");
  if (Status s = mpiInit(); !s) return s;
  gMpiJoined = true;
  return std::unique_ptr<World>(std::make_unique<MpiRankWorld>(std::move(rings), timeout));
}

bool launchedByMpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

int64_t mpirunRank() { return envInt("OMPI_COMM_WORLD_RANK", 0); }

bool mpiJoined() { return gMpiJoined; }

void leaveMpi() {
  if (gMpiJoined) mpiFinalize();
}

}  // namespace pir::runtime::runner
