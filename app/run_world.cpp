//===- run_world.cpp - where pir-run's ranks run: threads or MPI ----------===//
#include "app/run_world.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "runtime/comm/mpi_world.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;

namespace {

bool gMpiUsed = false;  // the process's one MPI world was opened
int gSpeakFd = 2;       // this process's own stderr, kept by quietUnlessRank0

int64_t envInt(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  return *end ? fallback : int64_t(n);
}

void speak(const std::string& text) {
  std::fflush(stderr);
  for (size_t at = 0; at < text.size();) {
    ssize_t n = ::write(gSpeakFd, text.data() + at, text.size() - at);
    if (n <= 0) break;
    at += size_t(n);
  }
}

}  // namespace

bool launchedByMpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

void quietUnlessRank0() {
  if (!launchedByMpirun() || envInt("OMPI_COMM_WORLD_RANK", 0) == 0) return;
  int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return;
  gSpeakFd = ::dup(2);
  if (gSpeakFd < 0) gSpeakFd = 2;
  std::fflush(stdout);
  std::fflush(stderr);
  ::dup2(null, 1);
  ::dup2(null, 2);
  ::close(null);
}

int processExitCode(int rc) {
  if (rc != 0 && launchedByMpirun() && !gMpiUsed && envInt("OMPI_COMM_WORLD_RANK", 0) != 0) return 0;
  return rc;
}

RunWorld::RunWorld() = default;
RunWorld::~RunWorld() = default;

Status RunWorld::open(int64_t worldSize, runtime::RingTable rings, std::chrono::milliseconds timeout) {
  if (!launchedByMpirun() || gMpiUsed) {
    local_ = std::make_unique<runtime::InProcessWorld>(worldSize, std::move(rings), timeout);
    return Status::ok();
  }
  // Checked before MPI is joined: every process fails alike, rank 0 reports
  // it and exits 1 (processExitCode).
  int64_t processes = envInt("OMPI_COMM_WORLD_SIZE", -1);
  if (processes != worldSize)
    return Status::error("error: mpirun started " + std::to_string(processes) + " processes, the program has " +
                         std::to_string(worldSize) + " rank" + (worldSize == 1 ? "" : "s") + " (run it with -np " +
                         std::to_string(worldSize) + ")\n");
  if (Status s = runtime::mpiInit(); !s) return Status::error(s.message() + "\n");
  gMpiUsed = true;
  mpi_ = std::make_unique<runtime::MpiWorld>(std::move(rings), timeout);
  return Status::ok();
}

runtime::WorldOutcome RunWorld::run(const std::function<Status(int64_t, runtime::Communicator&)>& body) {
  if (!mpi_) return local_->run(body);
  // This rank may fail on its own from here: its stderr is its own again.
  if (gSpeakFd != 2) ::dup2(gSpeakFd, 2);
  return mpi_->run(body);
}

bool RunWorld::knows(int64_t rank) const { return !mpi_ || rank == mpi_->rank(); }

Status RunWorld::stop(Status failure) {
  if (!mpi_) return failure;
  speak(failure.message());
  std::fflush(stdout);
  runtime::mpiAbort(1);
}

Status RunWorld::gather(const std::function<std::string(int64_t)>& pack,
                        const std::function<Status(int64_t, std::string_view)>& unpack) {
  if (!mpi_) return Status::ok();
  int64_t me = mpi_->rank();
  auto all = mpi_->gather(me == 0 ? std::string() : pack(me));
  if (!all) return stop(Status::error("error: " + all.status().message() + "\n"));
  if (me != 0) {
    // Rank 0 prints and writes for the job.
    mpi_.reset();
    runtime::mpiFinalize();
    std::exit(0);
  }
  for (size_t r = 1; r < all->size(); ++r)
    if (Status s = unpack(int64_t(r), (*all)[r]); !s) return s;
  return Status::ok();
}

void BlobWriter::put(const std::string& s) {
  put(uint64_t(s.size()));
  bytes_ += s;
}

void BlobWriter::put(const Tensor& t) {
  put(int64_t(t.defined() ? int64_t(t.dtype()) : -1));
  if (!t.defined()) return;
  put(std::vector<int64_t>(t.shape().begin(), t.shape().end()));
  bytes_.append(static_cast<const char*>(t.raw()), t.bytes());
}

void BlobWriter::put(const std::vector<Tensor>& v) {
  put(uint64_t(v.size()));
  for (const Tensor& t : v) put(t);
}

void BlobWriter::put(const runtime::TensorMap& m) {
  put(uint64_t(m.size()));
  for (const auto& [name, t] : m) {
    put(name);
    put(t);
  }
}

void BlobWriter::put(const std::map<int64_t, uint64_t>& m) {
  put(uint64_t(m.size()));
  for (const auto& [k, v] : m) {
    put(k);
    put(v);
  }
}

void BlobReader::get(std::string& s) {
  uint64_t n = 0;
  get(n);
  if (!need(n)) return;
  s.assign(next(n), n);
}

void BlobReader::get(Tensor& t) {
  int64_t dtype = -1;
  get(dtype);
  if (!ok_ || dtype < 0) return;
  std::vector<int64_t> shape;
  get(shape);
  if (!ok_ || !runtime::isRunnable(core::DataType(dtype))) return void(ok_ = false);
  for (int64_t d : shape)
    if (d < 0) return void(ok_ = false);
  size_t bytes = size_t(runtime::numElements(shape)) * runtime::elementSize(core::DataType(dtype));
  if (!need(bytes)) return;
  t = Tensor::allocate(core::DataType(dtype), shape);
  std::memcpy(t.raw(), next(bytes), bytes);
}

void BlobReader::get(std::vector<Tensor>& v) {
  uint64_t n = 0;
  get(n);
  if (n > bytes_.size()) return void(ok_ = false);
  v.assign(n, Tensor());
  for (Tensor& t : v) get(t);
}

void BlobReader::get(runtime::TensorMap& m) {
  uint64_t n = 0;
  get(n);
  for (uint64_t i = 0; ok_ && i < n; ++i) {
    std::string name;
    get(name);
    get(m[name]);
  }
}

void BlobReader::get(std::map<int64_t, uint64_t>& m) {
  uint64_t n = 0;
  get(n);
  for (uint64_t i = 0; ok_ && i < n; ++i) {
    int64_t k = 0;
    get(k);
    get(m[k]);
  }
}

}  // namespace pir::app
