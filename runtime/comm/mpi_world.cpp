//===- mpi_world.cpp - this process is one rank, over MPI -----------------===//
#include "runtime/comm/mpi_world.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <deque>
#include <thread>

namespace pir::runtime {

using core::Result;
using core::Status;

namespace {

constexpr int kTag = 7;        // every rank message: a header, then its payload
constexpr int kGatherTag = 8;  // gather(): the size, then the bytes
constexpr size_t kMaxDims = 16;
constexpr size_t kMaxMessage = size_t(1) << 30;  // one MPI_BYTE message (counts are ints)

/// What a payload is: the receiver allocates from it and checks it.
struct Header {
  int64_t dtype = 0;
  int64_t rank = 0;
  int64_t dims[kMaxDims] = {};
};

bool sameType(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end());
}

/// Adds the time from construction to destruction to `seconds`.
struct CommTimer {
  double& seconds;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  ~CommTimer() { seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

bool gJoined = false;

// Tensor memory is counted as the in-process world counts it, so that
// summary.yaml's peak_tensor_bytes is the same under both. There a rank
// reads its peers' collective inputs where they lie (no buffer of its own),
// and a received tensor is the sender's copy: the sender's thread counted
// it and is never credited back, the receiver's thread is debited when it
// frees it. Here receive buffers are allocated uncounted, a collective's
// are credited back when they go (Credit), and so is a sent copy.

/// A tensor the calling thread's MemoryStats do not count.
Tensor allocateUncounted(DataType dtype, std::span<const int64_t> shape) {
  MemoryStats saved = threadMemory();
  Tensor t = Tensor::allocate(dtype, shape);
  threadMemory() = saved;
  return t;
}

/// Credits the calling thread's live bytes back with `bytes` when it goes:
/// declared before the uncounted tensors, it outlives them.
struct Credit {
  int64_t bytes = 0;
  ~Credit() { threadMemory().live += bytes; }
};

}  // namespace

Status mpiInit() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return Status::ok();
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    return Status::error("error: MPI_Init_thread failed");
  if (provided < MPI_THREAD_SERIALIZED) return Status::error("error: this MPI has no MPI_THREAD_SERIALIZED");
  gJoined = true;
  std::atexit(mpiFinalize);
  return Status::ok();
}

void mpiFinalize() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (gJoined && !finalized) MPI_Finalize();
}

void mpiAbort(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; should it, the process still ends
}

class MpiComm final : public Communicator {
 public:
  MpiComm(RingTable rings, std::chrono::milliseconds timeout) : timeout_(timeout) {
    int r = 0, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    rank_ = r;
    size_ = n;
    if (!rings.count(0))
      for (int64_t i = 0; i < size_; ++i) rings[0].push_back(i);
    // MPI_Comm_split is collective: every process splits every ring, in the
    // map's (ascending) order, members with their position as the key.
    for (auto& [id, ranks] : rings) {
      Ring& g = rings_[id];
      g.id = id;
      g.ranks = ranks;
      auto pos = std::find(ranks.begin(), ranks.end(), rank_);
      g.position = pos == ranks.end() ? -1 : pos - ranks.begin();
      MPI_Comm_split(MPI_COMM_WORLD, g.position < 0 ? MPI_UNDEFINED : 0, int(std::max<int64_t>(g.position, 0)),
                     &g.comm);
    }
  }
  ~MpiComm() override {
    for (auto& [id, g] : rings_)
      if (g.comm != MPI_COMM_NULL) MPI_Comm_free(&g.comm);
  }

  int64_t rank() const override { return rank_; }
  int64_t worldSize() const override { return size_; }
  bool stopping() const override { return false; }  // a failing process aborts the job
  bool deadlocked() const { return deadlocked_; }

  Status allReduce(int64_t ring, const Tensor& x, Tensor& out, ReduceOp op) override {
    CommTimer t{stats_.seconds};
    Credit credit;
    auto parts = collect(ring, x, "all_reduce", credit);
    if (!parts) return parts.takeStatus();
    bool direct = out.defined() && !out.sharesStorageWith(x) && sameType(out, x);
    Tensor result = direct ? out : Tensor::allocate(x.dtype(), x.shape());
    std::vector<const Tensor*> ptrs;
    for (auto& p : *parts) ptrs.push_back(&p);
    reduceInto(ptrs, result, op);
    return direct ? Status::ok() : place(std::move(result), out);
  }

  Status allGather(int64_t ring, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Credit credit;
    auto parts = collect(ring, x, "all_gather", credit);
    if (!parts) return parts.takeStatus();
    std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
    if (shape.empty()) shape.push_back(1);
    shape[0] *= int64_t(parts->size());
    Tensor result = Tensor::allocate(x.dtype(), shape);
    auto* dst = static_cast<char*>(result.raw());
    for (auto& p : *parts) dst = static_cast<char*>(std::memcpy(dst, p.raw(), p.bytes())) + p.bytes();
    return place(std::move(result), out);
  }

  Status reduceScatter(int64_t ring, const Tensor& x, Tensor& out, ReduceOp op) override {
    CommTimer t{stats_.seconds};
    const Ring* g = nullptr;
    if (Status s = group(ring, "reduce_scatter", g); !s) return s;
    int64_t n = int64_t(g->ranks.size());
    if (x.rank() == 0 || x.dim(0) % n != 0)
      return Status::error("reduce_scatter on ring " + std::to_string(ring) + ": dim 0 of " + x.typeText() +
                           " does not divide by the ring's " + std::to_string(n) + " ranks");
    Credit credit;
    auto parts = collect(ring, x, "reduce_scatter", credit);
    if (!parts) return parts.takeStatus();
    std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
    shape[0] /= n;
    Tensor result = Tensor::allocate(x.dtype(), shape);
    std::vector<const Tensor*> ptrs;
    for (auto& p : *parts) ptrs.push_back(&p);
    reduceInto(ptrs, result, op, result.numel() * g->position, result.numel());
    return place(std::move(result), out);
  }

  Status broadcast(int64_t ring, int64_t root, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    const Ring* g = nullptr;
    if (Status s = group(ring, "broadcast", g); !s) return s;
    if (root < 0 || root >= int64_t(g->ranks.size()))
      return Status::error("broadcast on ring " + std::to_string(ring) + ": root " + std::to_string(root) +
                           " is not a position of its " + std::to_string(g->ranks.size()) + " ranks");
    Credit credit;
    auto parts = collect(ring, x, "broadcast", credit);
    if (!parts) return parts.takeStatus();
    return place((*parts)[root].clone(), out);
  }

  Status allToAll(int64_t ring, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    const Ring* g = nullptr;
    if (Status s = group(ring, "all_to_all", g); !s) return s;
    int64_t n = int64_t(g->ranks.size());
    if (x.numel() % n != 0)
      return Status::error("all_to_all on ring " + std::to_string(ring) + ": " + x.typeText() + " does not cut into " +
                           std::to_string(n) + " equal chunks");
    Credit credit;
    auto parts = collect(ring, x, "all_to_all", credit);
    if (!parts) return parts.takeStatus();
    Tensor result = Tensor::allocate(x.dtype(), x.shape());
    size_t chunk = x.bytes() / size_t(n);
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(static_cast<char*>(result.raw()) + i * chunk,
                  static_cast<const char*>((*parts)[i].raw()) + g->position * chunk, chunk);
    return place(std::move(result), out);
  }

  Status send(int64_t ring, int64_t peer, const Tensor& x) override {
    CommTimer t{stats_.seconds};
    const Ring* g = nullptr;
    if (Status s = group(ring, "send_v2", g); !s) return s;
    if (Status s = checkPeer(*g, peer, "send_v2"); !s) return s;
    reapSends();
    // A copy: the program may write x in place before the peer takes it.
    auto p = std::make_unique<PendingSend>();
    p->tensor = x.clone();
    p->what =
        "send_v2 to rank " + std::to_string(g->ranks[peer]) + " on ring " + std::to_string(ring) + " (not received)";
    if (Status s = post(*g, peer, p->tensor, p->header, p->requests); !s) return s;
    pending_.push_back(std::move(p));
    stats_.bytesByRing[ring] += x.bytes();
    return Status::ok();
  }

  Status recv(int64_t ring, int64_t peer, Tensor& out) override {
    CommTimer t{stats_.seconds};
    const Ring* g = nullptr;
    if (Status s = group(ring, "recv_v2", g); !s) return s;
    if (Status s = checkPeer(*g, peer, "recv_v2"); !s) return s;
    std::string what = "recv_v2 from rank " + std::to_string(g->ranks[peer]) + " on ring " + std::to_string(ring);
    Header h;
    std::vector<Wait> waits(1);
    MPI_Irecv(&h, sizeof h, MPI_BYTE, int(peer), kTag, g->comm, &waits[0].request);
    waits[0].what = what;
    if (Status s = waitAll(waits); !s) return s;
    Tensor got;
    if (Status s = allocateFor(h, got, g->ranks[peer]); !s) return s;
    waits[0].request = MPI_REQUEST_NULL;
    MPI_Irecv(got.raw(), int(got.bytes()), MPI_BYTE, int(peer), kTag, g->comm, &waits[0].request);
    if (Status s = waitAll(waits); !s) return s;
    if (out.defined() && !sameType(got, out))
      return Status::error("recv_v2 on ring " + std::to_string(ring) + " expects " + out.typeText() + ", rank " +
                           std::to_string(g->ranks[peer]) + " sent " + got.typeText());
    out = std::move(got);
    return Status::ok();
  }

  /// Waits for every send still in flight (the run's end).
  Status flushSends() {
    std::vector<Wait> waits;
    for (auto& p : pending_)
      for (MPI_Request r : p->requests) waits.push_back({r, p->what});
    Status s = waitAll(waits);
    if (s)
      while (!pending_.empty()) {
        Credit credit{int64_t(pending_.front()->tensor.storageBytes())};
        pending_.pop_front();
      }
    return s;
  }

 private:
  friend class MpiWorld;
  struct Ring {
    int64_t id = 0;
    std::vector<int64_t> ranks;
    int64_t position = -1;  // this rank's, -1 when not a member
    MPI_Comm comm = MPI_COMM_NULL;
  };
  struct PendingSend {
    Tensor tensor;
    Header header;
    std::vector<MPI_Request> requests;
    std::string what;
  };
  struct Wait {
    MPI_Request request = MPI_REQUEST_NULL;
    std::string what;  // for the timeout's report
  };

  Status group(int64_t ring, const char* what, const Ring*& g) const {
    auto it = rings_.find(ring);
    if (it == rings_.end())
      return Status::error(std::string(what) + ": ring " + std::to_string(ring) + " is in no ring table");
    if (it->second.position < 0)
      return Status::error(std::string(what) + ": rank " + std::to_string(rank_) + " is not in ring " +
                           std::to_string(ring));
    g = &it->second;
    return Status::ok();
  }

  static Status checkPeer(const Ring& g, int64_t peer, const char* what) {
    if (peer < 0 || peer >= int64_t(g.ranks.size()))
      return Status::error(std::string(what) + ": peer " + std::to_string(peer) + " is not a position of ring " +
                           std::to_string(g.id) + "'s " + std::to_string(g.ranks.size()) + " ranks");
    return Status::ok();
  }

  /// Starts sending x's header and payload to ring position `peer`; x and
  /// `h` must live until `requests` complete.
  static Status post(const Ring& g, int64_t peer, const Tensor& x, Header& h, std::vector<MPI_Request>& requests) {
    if (x.rank() > kMaxDims) return Status::error("a tensor of rank " + std::to_string(x.rank()) + " is over MPI's 16");
    if (x.bytes() > kMaxMessage) return Status::error(x.typeText() + " is over the 1 GiB an MPI message may carry");
    h.dtype = int64_t(x.dtype());
    h.rank = int64_t(x.rank());
    for (size_t i = 0; i < x.rank(); ++i) h.dims[i] = x.dim(i);
    requests.resize(requests.size() + 2);
    MPI_Request* r = &requests[requests.size() - 2];
    MPI_Isend(&h, sizeof h, MPI_BYTE, int(peer), kTag, g.comm, &r[0]);
    MPI_Isend(x.raw(), int(x.bytes()), MPI_BYTE, int(peer), kTag, g.comm, &r[1]);
    return Status::ok();
  }

  Status allocateFor(const Header& h, Tensor& t, int64_t from) const {
    DataType dtype = DataType(h.dtype);
    if (h.rank < 0 || h.rank > int64_t(kMaxDims) || !isRunnable(dtype))
      return Status::error("rank " + std::to_string(from) + " sent a message this rank cannot read");
    t = allocateUncounted(dtype, std::span<const int64_t>(h.dims, size_t(h.rank)));
    return Status::ok();
  }

  /// Every member's x by position (each member sends its x to every other
  /// one), after the shapes are checked to agree.
  Result<std::vector<Tensor>> collect(int64_t ring, const Tensor& x, const char* what, Credit& credit) {
    const Ring* g = nullptr;
    if (Status s = group(ring, what, g); !s) return s;
    size_t n = g->ranks.size();
    Header mine;
    std::vector<MPI_Request> sends;
    for (size_t p = 0; p < n; ++p)
      if (int64_t(p) != g->position) {
        if (Status s = post(*g, int64_t(p), x, mine, sends); !s) return s;
        stats_.bytesByRing[ring] += x.bytes();
      }
    std::vector<Header> headers(n);
    std::vector<Wait> waits;
    std::vector<Tensor> parts(n);
    auto waitFor = [&](size_t p) {
      return std::string(what) + " on ring " + std::to_string(ring) + ", for rank " + std::to_string(g->ranks[p]);
    };
    for (size_t p = 0; p < n; ++p)
      if (int64_t(p) != g->position) {
        waits.push_back({MPI_REQUEST_NULL, waitFor(p)});
        MPI_Irecv(&headers[p], sizeof(Header), MPI_BYTE, int(p), kTag, g->comm, &waits.back().request);
      }
    if (Status s = waitAll(waits); !s) return s;
    waits.clear();
    for (size_t p = 0; p < n; ++p) {
      if (int64_t(p) == g->position) {
        parts[p] = x;
        continue;
      }
      if (Status s = allocateFor(headers[p], parts[p], g->ranks[p]); !s) return s;
      credit.bytes += int64_t(parts[p].storageBytes());
      waits.push_back({MPI_REQUEST_NULL, waitFor(p)});
      MPI_Irecv(parts[p].raw(), int(parts[p].bytes()), MPI_BYTE, int(p), kTag, g->comm, &waits.back().request);
    }
    // x may be written again (an in-place all_reduce_) once its sends are done.
    for (MPI_Request r : sends) waits.push_back({r, std::string(what) + " on ring " + std::to_string(ring)});
    if (Status s = waitAll(waits); !s) return s;
    const Tensor& me = parts[g->position];
    for (size_t i = 0; i < n; ++i)
      if (!sameType(parts[i], me))
        return Status::error(std::string(what) + " on ring " + std::to_string(ring) + ": rank " +
                             std::to_string(rank_) + " has " + me.typeText() + ", rank " + std::to_string(g->ranks[i]) +
                             " has " + parts[i].typeText());
    return parts;
  }

  /// Polls until every request completes; past the timeout, the first one
  /// still open is what this rank waits on.
  Status waitAll(std::vector<Wait>& waits) {
    auto deadline = std::chrono::steady_clock::now() + timeout_;
    for (int spins = 0;; ++spins) {
      bool done = true;
      for (Wait& w : waits) {
        if (w.request == MPI_REQUEST_NULL) continue;
        int flag = 0;
        MPI_Test(&w.request, &flag, MPI_STATUS_IGNORE);
        if (!flag) done = false;
      }
      if (done) return Status::ok();
      if (std::chrono::steady_clock::now() >= deadline) {
        deadlocked_ = true;
        for (Wait& w : waits)
          if (w.request != MPI_REQUEST_NULL)
            return Status::error("rank " + std::to_string(rank_) + " waits on " + w.what);
      }
      // Poll hard for a quick peer, then sleep briefly so that a peer on the
      // same core runs (a sched_yield on a loaded machine can give the core
      // away for a whole time slice: measured 30x slower).
      if (spins >= 4096) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  /// Frees the sends that completed, oldest first.
  void reapSends() {
    while (!pending_.empty()) {
      int flag = 0;
      MPI_Testall(int(pending_.front()->requests.size()), pending_.front()->requests.data(), &flag,
                  MPI_STATUSES_IGNORE);
      if (!flag) return;
      Credit credit{int64_t(pending_.front()->tensor.storageBytes())};
      pending_.pop_front();
    }
  }

  /// Moves `result` to `out`: into its buffer when it is preset (in place).
  static Status place(Tensor result, Tensor& out) {
    if (out.defined() && out.bytes() == result.bytes() && out.dtype() == result.dtype())
      std::memcpy(out.raw(), result.raw(), result.bytes());
    else
      out = std::move(result);
    return Status::ok();
  }

  std::chrono::milliseconds timeout_;
  int64_t rank_ = 0, size_ = 0;
  std::map<int64_t, Ring> rings_;
  std::deque<std::unique_ptr<PendingSend>> pending_;
  bool deadlocked_ = false;
};

MpiWorld::MpiWorld(RingTable rings, std::chrono::milliseconds timeout)
    : comm_(std::make_unique<MpiComm>(std::move(rings), timeout)) {}

MpiWorld::~MpiWorld() = default;

int64_t MpiWorld::rank() const { return comm_->rank(); }
int64_t MpiWorld::size() const { return comm_->worldSize(); }
Communicator& MpiWorld::comm() { return *comm_; }

WorldOutcome MpiWorld::run(const std::function<Status(int64_t, Communicator&)>& body) {
  WorldOutcome out;
  out.perRank.resize(size_t(size()));
  Status s;
  // A thread of its own, as in-process: the rank's memory is counted alone.
  std::thread t([&] {
    s = body(rank(), *comm_);
    if (s) s = comm_->flushSends();
  });
  t.join();
  if (!s) {
    out.kind = comm_->deadlocked() ? WorldOutcome::Kind::Deadlock : WorldOutcome::Kind::Failed;
    out.failedRank = rank();
  }
  out.perRank[rank()] = std::move(s);
  return out;
}

Result<std::vector<std::string>> MpiWorld::gather(std::string mine) {
  std::vector<std::string> all;
  if (rank() != 0) {
    uint64_t n = mine.size();
    MPI_Send(&n, 1, MPI_UINT64_T, 0, kGatherTag, MPI_COMM_WORLD);
    for (size_t at = 0; at < mine.size(); at += kMaxMessage)
      MPI_Send(mine.data() + at, int(std::min(kMaxMessage, mine.size() - at)), MPI_BYTE, 0, kGatherTag, MPI_COMM_WORLD);
    return all;
  }
  all.resize(size_t(size()));
  all[0] = std::move(mine);
  for (int r = 1; r < size(); ++r) {
    uint64_t n = 0;
    MPI_Recv(&n, 1, MPI_UINT64_T, r, kGatherTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    all[r].resize(n);
    for (size_t at = 0; at < n; at += kMaxMessage)
      MPI_Recv(all[r].data() + at, int(std::min<size_t>(kMaxMessage, n - at)), MPI_BYTE, r, kGatherTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  }
  return all;
}

}  // namespace pir::runtime
