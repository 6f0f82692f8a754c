//===- mpi_world.cpp - this process is one rank, over MPI -----------------===//
#include "runtime/comm/mpi_world.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <deque>
#include <optional>
#include <thread>

#include "runtime/comm/comm_common.h"

namespace pir::runtime {

using core::Result;
using core::Status;
using namespace comm_detail;

namespace {

constexpr int kTag = 7;        // collectives and ordered messages: a header, then its payload
constexpr int kGatherTag = 8;  // gather(): the size, then the bytes
constexpr int kReportTag = 9;  // gatherReports(): 'F' and a failure, or 'O'
// A keyed message (core/message_key.h) travels under its own tag, so MPI's
// matching on (communicator, source, tag) takes it by key.
constexpr int64_t kKeyedTagBase = 16;
constexpr int64_t kTagMicroBatches = 4096;  // micro-batches a message index's tags cover
constexpr size_t kMaxDims = 16;
constexpr size_t kMaxMessage = size_t(1) << 30;  // one MPI_BYTE message (counts are ints)

/// What a payload is: the receiver allocates from it and checks it.
struct Header {
  int64_t dtype = 0;
  int64_t rank = 0;
  int64_t dims[kMaxDims] = {};
  core::MessageKey key{};  // checked by an ordered receive
};

/// The largest tag this MPI allows (at least 32767 by the standard).
int64_t tagBound() {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  return found && value ? int64_t(*static_cast<int*>(value)) : 32767;
}

/// The tag of a message with `key`: kTag for an ordered one.
Result<int> tagOf(core::MessageKey key) {
  if (key.ordered()) return kTag;
  int64_t tag = kKeyedTagBase + key.index * kTagMicroBatches + key.microBatch;
  if (key.microBatch >= kTagMicroBatches || key.index > (tagBound() - kKeyedTagBase) / kTagMicroBatches)
    return Status::error("message_index " + std::to_string(key.index) + " of micro-batch " +
                         std::to_string(key.microBatch) + " is past the " + std::to_string(tagBound()) +
                         " tags this MPI allows");
  return int(tag);
}

bool gJoined = false;

// Tensor memory is counted as the in-process world counts it, so that
// summary.yaml's peak_tensor_bytes is the same under both. There a rank
// reads its peers' collective inputs where they lie (no buffer of its own),
// and a received tensor is the sender's copy: the sender's thread counted
// it and is never credited back, the receiver's thread is debited when it
// frees it. Here a received tensor is allocated uncounted, a collective
// receives into its result or the ring's buffer (not a tensor), and a sent
// copy is credited back when it goes (Credit).

/// A tensor the calling thread's MemoryStats do not count.
Tensor allocateUncounted(DataType dtype, std::span<const int64_t> shape) {
  MemoryStats saved = threadMemory();
  Tensor t = Tensor::allocate(dtype, shape);
  threadMemory() = saved;
  return t;
}

/// Credits the calling thread's live bytes back with `bytes` when it goes:
/// declared before the tensor it credits, it outlives it.
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
    return Status::error("MPI_Init_thread failed");
  if (provided < MPI_THREAD_SERIALIZED) return Status::error("this MPI has no MPI_THREAD_SERIALIZED");
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
    rings.addWorld(size_);
    // MPI_Comm_split is collective: every process splits every ring, in the
    // table's (ascending) order, members with their position as the key.
    for (const core::ProcessGroup& ring : rings.rings()) {
      const int64_t id = ring.ringId;
      const std::vector<int64_t>& ranks = ring.ranks;
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
  std::chrono::milliseconds timeout() const { return timeout_; }
  bool stopping() const override { return false; }  // a failing process aborts the job
  bool deadlocked() const { return deadlocked_; }
  TrafficByRing traffic() const override {
    TrafficByRing out;
    for (const auto& [ring, t] : traffic_)
      if (t.sent || t.received) out[ring] = t;
    return out;
  }

  /// Chunked as in-process: member i receives chunk i of every other
  /// member's x (into the ring's receive buffer), reduces it in ring order
  /// (the bits in-process gives), and sends the reduced chunk to every other
  /// member, which receives it straight into its result. Each member sends
  /// and receives (n-1)/n of x twice, as a ring all_reduce does.
  Status allReduce(int64_t ring, const Tensor& x, Tensor& out, ReduceType op) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "all_reduce", g); !s) return s;
    if (Status s = agree(*g, x, "all_reduce"); !s) return s;
    note(g->id, x.bytes());
    bool direct = writesDirectly(x, out);
    Tensor result = direct ? out : Tensor::allocate(x.dtype(), x.shape());
    int64_t n = int64_t(g->ranks.size()), numel = x.numel(), me = g->position;
    size_t elem = elementSize(x.dtype());
    auto offset = [&](int64_t i) { return size_t(chunkBegin(numel, n, i)) * elem; };
    auto length = [&](int64_t i) { return offset(i + 1) - offset(i); };
    size_t slotBytes = size_t(numel / n + 1) * elem;  // the largest chunk
    std::byte* staging = g->staging.reserve(size_t(n - 1) * slotBytes);
    if (!staging) return Status::error("all_reduce on ring " + std::to_string(ring) + ": out of memory");
    std::vector<const void*> parts(g->ranks.size());
    std::vector<Transfer> moves;
    for (int64_t p = 0, slot = 0; p < n; ++p) {
      if (p == me) {
        parts[p] = bytesOf(x) + offset(me);
        continue;
      }
      std::byte* into = staging + size_t(slot++) * slotBytes;
      parts[p] = into;
      moves.push_back({p, bytesOf(x) + offset(p), length(p), into, length(me)});
    }
    // x's chunks are sent once this returns: an in-place result may be written.
    if (Status s = exchange(*g, moves, "all_reduce"); !s) return s;
    std::byte* reduced = bytesOf(result) + offset(me);
    reduceElements(x.dtype(), parts, reduced, int64_t(length(me) / elem), op);
    moves.clear();
    for (int64_t p = 0; p < n; ++p)
      if (p != me) moves.push_back({p, reduced, length(me), bytesOf(result) + offset(p), length(p)});
    if (Status s = exchange(*g, moves, "all_reduce"); !s) return s;
    return direct ? Status::ok() : place(std::move(result), out);
  }

  Status allGather(int64_t ring, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "all_gather", g); !s) return s;
    if (Status s = agree(*g, x, "all_gather"); !s) return s;
    note(g->id, x.bytes());
    int64_t n = int64_t(g->ranks.size());
    Tensor result = Tensor::allocate(x.dtype(), gatheredShape(x, n));
    std::memcpy(bytesOf(result) + size_t(g->position) * x.bytes(), x.raw(), x.bytes());
    std::vector<Transfer> moves;
    for (int64_t p = 0; p < n; ++p)
      if (p != g->position)
        moves.push_back({p, bytesOf(x), x.bytes(), bytesOf(result) + size_t(p) * x.bytes(), x.bytes()});
    if (Status s = exchange(*g, moves, "all_gather"); !s) return s;
    return place(std::move(result), out);
  }

  /// Member i receives chunk i of every other member's x and reduces them.
  Status reduceScatter(int64_t ring, const Tensor& x, Tensor& out, ReduceType op) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "reduce_scatter", g); !s) return s;
    int64_t n = int64_t(g->ranks.size()), me = g->position;
    if (x.rank() == 0 || x.dim(0) % n != 0) return dim0NotDivisible(ring, x, n);
    if (Status s = agree(*g, x, "reduce_scatter"); !s) return s;
    note(g->id, x.bytes());
    std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
    shape[0] /= n;
    Tensor result = Tensor::allocate(x.dtype(), shape);
    size_t chunk = result.bytes();
    std::byte* staging = g->staging.reserve(size_t(n - 1) * chunk);
    if (!staging) return Status::error("reduce_scatter on ring " + std::to_string(ring) + ": out of memory");
    std::vector<const void*> parts(g->ranks.size());
    std::vector<Transfer> moves;
    for (int64_t p = 0, slot = 0; p < n; ++p) {
      if (p == me) {
        parts[p] = bytesOf(x) + size_t(me) * chunk;
        continue;
      }
      std::byte* into = staging + size_t(slot++) * chunk;
      parts[p] = into;
      moves.push_back({p, bytesOf(x) + size_t(p) * chunk, chunk, into, chunk});
    }
    if (Status s = exchange(*g, moves, "reduce_scatter"); !s) return s;
    reduceElements(x.dtype(), parts, result.raw(), result.numel(), op);
    return place(std::move(result), out);
  }

  Status broadcast(int64_t ring, int64_t root, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "broadcast", g); !s) return s;
    int64_t n = int64_t(g->ranks.size());
    if (root < 0 || root >= n) return badRoot(ring, root, n);
    if (Status s = agree(*g, x, "broadcast"); !s) return s;
    note(g->id, x.bytes());
    Tensor result = Tensor::allocate(x.dtype(), x.shape());
    std::vector<Transfer> moves;
    if (g->position == root) {
      std::memcpy(result.raw(), x.raw(), x.bytes());
      for (int64_t p = 0; p < n; ++p)
        if (p != root) moves.push_back({p, bytesOf(x), x.bytes(), nullptr, 0, true, false});
    } else {
      moves.push_back({root, nullptr, 0, bytesOf(result), x.bytes(), false, true});
    }
    if (Status s = exchange(*g, moves, "broadcast"); !s) return s;
    return place(std::move(result), out);
  }

  /// Chunk p of x goes to member p; slot p of the result comes from it.
  Status allToAll(int64_t ring, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "all_to_all", g); !s) return s;
    int64_t n = int64_t(g->ranks.size()), me = g->position;
    if (x.numel() % n != 0) return notEqualChunks(ring, x, n);
    if (Status s = agree(*g, x, "all_to_all"); !s) return s;
    note(g->id, x.bytes());
    Tensor result = Tensor::allocate(x.dtype(), x.shape());
    size_t chunk = x.bytes() / size_t(n);
    std::memcpy(bytesOf(result) + size_t(me) * chunk, bytesOf(x) + size_t(me) * chunk, chunk);
    std::vector<Transfer> moves;
    for (int64_t p = 0; p < n; ++p)
      if (p != me)
        moves.push_back({p, bytesOf(x) + size_t(p) * chunk, chunk, bytesOf(result) + size_t(p) * chunk, chunk});
    if (Status s = exchange(*g, moves, "all_to_all"); !s) return s;
    return place(std::move(result), out);
  }

  Status send(int64_t ring, int64_t peer, const Tensor& x, core::MessageKey key) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "send_v2", g); !s) return s;
    if (Status s = checkPeer(*g, peer, "send_v2"); !s) return s;
    note(ring, x.bytes());
    reapSends();
    // A copy: the program may write x in place before the peer takes it.
    auto p = std::make_unique<PendingSend>();
    p->tensor = x.clone();
    p->what = "send_v2 to rank " + std::to_string(g->ranks[peer]) + " on ring " + std::to_string(ring) +
              messageSuffix(key) + " (not received)";
    auto tag = tagOf(key);
    if (!tag) return tag.takeStatus();
    p->header.key = key;
    if (Status s = post(*g, peer, p->tensor, p->header, p->requests, *tag); !s) return s;
    pending_.push_back(std::move(p));
    traffic_[ring].sent += x.bytes();
    return Status::ok();
  }

  Status recv(int64_t ring, int64_t peer, Tensor& out, core::MessageKey key) override {
    CommTimer t{stats_.seconds};
    Ring* g = nullptr;
    if (Status s = group(ring, "recv_v2", g); !s) return s;
    if (Status s = checkPeer(*g, peer, "recv_v2"); !s) return s;
    std::string what =
        "recv_v2 from rank " + std::to_string(g->ranks[peer]) + " on ring " + std::to_string(ring) + messageSuffix(key);
    auto tag = tagOf(key);
    if (!tag) return tag.takeStatus();
    Header h;
    std::vector<Wait> waits(1);
    MPI_Irecv(&h, sizeof h, MPI_BYTE, int(peer), *tag, g->comm, &waits[0].request);
    waits[0].what = what;
    if (Status s = waitAll(waits); !s) return s;
    if (h.key != key) return orderedPairingBroken(ring, g->ranks[peer], key, h.key);
    Tensor got;
    if (Status s = allocateFor(h, got, g->ranks[peer]); !s) return s;
    waits[0].request = MPI_REQUEST_NULL;
    waits[0].received = &traffic_[ring].received;
    MPI_Irecv(got.raw(), int(got.bytes()), MPI_BYTE, int(peer), *tag, g->comm, &waits[0].request);
    if (Status s = waitAll(waits); !s) return s;
    if (out.defined() && !sameType(got, out)) return recvTypeDiffers(ring, out, g->ranks[peer], got.typeText());
    out = std::move(got);
    note(ring, out.bytes());
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
  /// A receive buffer a ring keeps across calls: a fresh one per call faults
  /// its pages in every time (38-43 ms of a 64 MiB all_reduce, measured).
  struct Staging {
    std::unique_ptr<std::byte, void (*)(void*)> data{nullptr, std::free};
    size_t bytes = 0;
    /// At least `n` bytes (never none), 64-byte aligned; null when out of memory.
    std::byte* reserve(size_t n) {
      if (n > bytes || !data) {
        size_t rounded = std::max<size_t>(64, (n + 63) / 64 * 64);  // a ring of one member asks for 0
        data.reset(static_cast<std::byte*>(std::aligned_alloc(64, rounded)));
        bytes = data ? rounded : 0;
      }
      return data.get();
    }
  };
  struct Ring {
    int64_t id = 0;
    std::vector<int64_t> ranks;
    int64_t position = -1;  // this rank's, -1 when not a member
    MPI_Comm comm = MPI_COMM_NULL;
    Staging staging;
  };
  struct PendingSend {
    Tensor tensor;
    Header header;
    std::vector<MPI_Request> requests;
    std::string what;
  };
  struct Wait {
    MPI_Request request = MPI_REQUEST_NULL;
    std::string what;              // for the timeout's report
    uint64_t* received = nullptr;  // a payload's receive: where its bytes are counted once it completes
  };
  /// One leg of a collective with ring position `peer`: bytes to send and a
  /// buffer to receive into.
  struct Transfer {
    int64_t peer = 0;
    const std::byte* send = nullptr;
    size_t sendBytes = 0;
    std::byte* recv = nullptr;
    size_t recvBytes = 0;
    bool sends = true, receives = true;
  };

  static std::byte* bytesOf(Tensor& t) { return static_cast<std::byte*>(t.raw()); }
  static const std::byte* bytesOf(const Tensor& t) { return static_cast<const std::byte*>(t.raw()); }

  Status group(int64_t ring, const char* what, Ring*& g) {
    auto it = rings_.find(ring);
    if (it == rings_.end()) return noRing(what, ring);
    if (it->second.position < 0) return notInRing(what, ring, rank_);
    g = &it->second;
    return Status::ok();
  }

  static Status checkPeer(const Ring& g, int64_t peer, const char* what) {
    if (peer < 0 || peer >= int64_t(g.ranks.size())) return badPeer(what, g.id, peer, int64_t(g.ranks.size()));
    return Status::ok();
  }

  static Status describe(const Tensor& x, Header& h) {
    if (x.rank() > kMaxDims) return Status::error("a tensor of rank " + std::to_string(x.rank()) + " is over MPI's 16");
    if (x.bytes() > kMaxMessage) return Status::error(x.typeText() + " is over the 1 GiB an MPI message may carry");
    h.dtype = int64_t(x.dtype());
    h.rank = int64_t(x.rank());
    for (size_t i = 0; i < x.rank(); ++i) h.dims[i] = x.dim(i);
    return Status::ok();
  }

  /// Starts sending x's header and payload to ring position `peer`; x and
  /// `h` must live until `requests` complete.
  static Status post(const Ring& g, int64_t peer, const Tensor& x, Header& h, std::vector<MPI_Request>& requests,
                     int tag) {
    if (Status s = describe(x, h); !s) return s;
    requests.resize(requests.size() + 2);
    MPI_Request* r = &requests[requests.size() - 2];
    MPI_Isend(&h, sizeof h, MPI_BYTE, int(peer), tag, g.comm, &r[0]);
    MPI_Isend(x.raw(), int(x.bytes()), MPI_BYTE, int(peer), tag, g.comm, &r[1]);
    return Status::ok();
  }

  Status allocateFor(const Header& h, Tensor& t, int64_t from) const {
    DataType dtype = DataType(h.dtype);
    if (h.rank < 0 || h.rank > int64_t(kMaxDims) || !isRunnable(dtype))
      return Status::error("rank " + std::to_string(from) + " sent a message this rank cannot read");
    t = allocateUncounted(dtype, std::span<const int64_t>(h.dims, size_t(h.rank)));
    return Status::ok();
  }

  /// Posts every receive, then every send, and waits for all of them. A
  /// payload's bytes (`payload`; not agree()'s headers) are counted: those
  /// given to MPI_Isend, and those MPI says arrived.
  Status exchange(const Ring& g, std::span<const Transfer> moves, const char* what, bool payload = true) {
    std::vector<Wait> waits;
    waits.reserve(2 * moves.size());
    Traffic& counted = payload ? traffic_[g.id] : headerTraffic_;
    for (const Transfer& m : moves)
      if (m.receives) {
        waits.push_back(
            {MPI_REQUEST_NULL,
             std::string(what) + " on ring " + std::to_string(g.id) + ", for rank " + std::to_string(g.ranks[m.peer]),
             &counted.received});
        MPI_Irecv(m.recv, int(m.recvBytes), MPI_BYTE, int(m.peer), kTag, g.comm, &waits.back().request);
      }
    for (const Transfer& m : moves)
      if (m.sends) {
        waits.push_back({MPI_REQUEST_NULL, std::string(what) + " on ring " + std::to_string(g.id)});
        MPI_Isend(m.send, int(m.sendBytes), MPI_BYTE, int(m.peer), kTag, g.comm, &waits.back().request);
        counted.sent += m.sendBytes;
      }
    return waitAll(waits);
  }

  /// A collective's first step: x's type to every other member and theirs
  /// back, so that a mismatch fails every member before any payload moves.
  Status agree(const Ring& g, const Tensor& x, const char* what) {
    Header mine;
    if (Status s = describe(x, mine); !s) return s;
    size_t n = g.ranks.size();
    std::vector<Header> theirs(n);
    std::vector<Transfer> moves;
    for (size_t p = 0; p < n; ++p)
      if (int64_t(p) != g.position)
        moves.push_back({int64_t(p), reinterpret_cast<const std::byte*>(&mine), sizeof mine,
                         reinterpret_cast<std::byte*>(&theirs[p]), sizeof(Header)});
    if (Status s = exchange(g, moves, what, false); !s) return s;
    for (size_t p = 0; p < n; ++p) {
      const Header& h = theirs[p];
      if (int64_t(p) == g.position) continue;
      if (h.rank < 0 || h.rank > int64_t(kMaxDims) || !isRunnable(DataType(h.dtype)))
        return Status::error("rank " + std::to_string(g.ranks[p]) + " sent a message this rank cannot read");
      std::span<const int64_t> dims(h.dims, size_t(h.rank));
      if (DataType(h.dtype) != x.dtype() || !std::equal(dims.begin(), dims.end(), x.shape().begin(), x.shape().end()))
        return typesDiffer(what, g.id, rank_, x.typeText(), g.ranks[p], typeText(DataType(h.dtype), dims));
    }
    return Status::ok();
  }

  /// Polls until every request completes; past the timeout, the first one
  /// still open is what this rank waits on.
  Status waitAll(std::vector<Wait>& waits) {
    auto deadline = deadlineAfter(timeout_);
    int64_t start = steadyNs();
    struct WaitEnd {  // a wait that did not complete at the first test, for the trace
      TraceSink* trace;
      int64_t start;
      bool waited = false;
      ~WaitEnd() {
        if (waited && trace) trace->commWait(start, steadyNs() - start);
      }
    } end{trace_, start};
    for (int spins = 0;; ++spins) {
      bool done = true;
      for (Wait& w : waits) {
        if (w.request == MPI_REQUEST_NULL) continue;
        int flag = 0;
        MPI_Status status;
        MPI_Test(&w.request, &flag, &status);
        if (!flag) {
          done = false;
        } else if (w.received) {
          int got = 0;
          MPI_Get_count(&status, MPI_BYTE, &got);
          *w.received += uint64_t(std::max(got, 0));
        }
      }
      if (done) return Status::ok();
      end.waited = true;
      if (std::chrono::steady_clock::now() >= deadline) {
        deadlocked_ = true;
        for (Wait& w : waits)
          if (w.request != MPI_REQUEST_NULL)
            return Status::timeout("rank " + std::to_string(rank_) + " waits on " + w.what);
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

  std::chrono::milliseconds timeout_;
  int64_t rank_ = 0, size_ = 0;
  std::map<int64_t, Ring> rings_;
  std::deque<std::unique_ptr<PendingSend>> pending_;
  bool deadlocked_ = false;
  TrafficByRing traffic_;  // payload bytes, by ring
  Traffic headerTraffic_;  // agree()'s type headers: not reported
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

std::vector<MpiWorld::Report> MpiWorld::gatherReports(const std::string& failure, std::chrono::milliseconds grace) {
  using Clock = std::chrono::steady_clock;
  std::vector<Report> all;
  if (rank() != 0) {
    std::string msg = (failure.empty() ? "O" : "F") + failure;
    // A synchronous send: it completes once rank 0 took the report.
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Issend(msg.data(), int(msg.size()), MPI_BYTE, 0, kReportTag, MPI_COMM_WORLD, &req);
    if (failure.empty()) {
      MPI_Wait(&req, MPI_STATUS_IGNORE);  // as long as rank 0 runs, as the results' gather does
      return all;
    }
    auto deadline = Clock::now() + comm_->timeout() + grace;
    int done = 0;
    while (!done && Clock::now() < deadline) {
      MPI_Test(&req, &done, MPI_STATUS_IGNORE);
      if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    // Taken: rank 0 reports and ends the job within its grace.
    if (done) std::this_thread::sleep_for(grace + std::chrono::seconds(2));
    return all;  // rank 0 did not: the caller reports its own
  }
  all.resize(size_t(size()));
  all[0] = {true, failure};
  std::vector<int> pending;
  for (int r = 1; r < size(); ++r) pending.push_back(r);
  std::optional<Clock::time_point> deadline;
  if (!failure.empty()) deadline = Clock::now() + grace;
  while (!pending.empty() && (!deadline || Clock::now() < *deadline)) {
    bool got = false;
    for (size_t i = 0; i < pending.size();) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(pending[i], kReportTag, MPI_COMM_WORLD, &flag, &st);
      if (!flag) {
        ++i;
        continue;
      }
      int n = 0;
      MPI_Get_count(&st, MPI_BYTE, &n);
      std::string msg(size_t(std::max(n, 0)), '\0');
      MPI_Recv(msg.data(), n, MPI_BYTE, pending[i], kReportTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      Report& rep = all[size_t(pending[i])];
      rep.answered = true;
      if (!msg.empty() && msg[0] == 'F') rep.failure = msg.substr(1);
      if (!rep.failure.empty() && !deadline) deadline = Clock::now() + grace;
      pending.erase(pending.begin() + std::ptrdiff_t(i));
      got = true;
    }
    if (!got) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return all;
}

}  // namespace pir::runtime
