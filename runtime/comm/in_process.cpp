//===- in_process.cpp - every rank a thread of this process ---------------===//
#include "runtime/comm/in_process.h"

#include <algorithm>
#include <thread>

#include "core/threads.h"
#include "runtime/comm/comm_common.h"

namespace pir::runtime {

using core::Result;
using core::Status;
using namespace comm_detail;

namespace {

constexpr auto kPoll = std::chrono::milliseconds(20);
constexpr auto kSpin = std::chrono::microseconds(50);

}  // namespace

class InProcessComm final : public Communicator {
 public:
  InProcessComm(InProcessWorld& world, int64_t rank) : world_(world), rank_(rank) {}
  int64_t rank() const override { return rank_; }
  int64_t worldSize() const override { return world_.size_; }
  bool stopping() const override { return world_.stopping(); }
  TrafficByRing traffic() const override { return world_.trafficOf(rank_); }

  /// Chunked: member i reduces chunk i of the members' inputs (the parts in
  /// ring order, so every chunk has the bits a whole reduction gives) and
  /// stores it into every member's result, so each element is written once
  /// per member and never copied again; the acknowledgements then say that
  /// every chunk is in and that no input is read any more.
  Status allReduce(int64_t ring, const Tensor& x, Tensor& out, ReduceType op) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "all_reduce", g); !s) return s;
    note(ring, x.bytes());
    // Into `out` when it has x's type, x's own buffer included (all_reduce_):
    // a member writes only its chunk, which only it reads.
    bool direct = writesDirectly(x, out);
    Tensor result = direct ? out : Tensor::allocate(x.dtype(), x.shape());
    std::vector<Tensor> results;
    auto parts = exchange(g, x, "all_reduce", &result, &results);
    if (!parts) return parts.takeStatus();
    if (Status s = sameShapes(g, *parts, "all_reduce"); !s) return s;
    for (size_t i = 0; i < results.size(); ++i)
      if (!results[i].defined() || !sameType(results[i], x))  // a send_v2's message, not an all_reduce's
        return Status::error("all_reduce on ring " + std::to_string(ring) + ": rank " + std::to_string((*g.ranks)[i]) +
                             " sent a tensor where its all_reduce was due");
    int64_t n = int64_t(g.ranks->size()), numel = x.numel();
    int64_t begin = chunkBegin(numel, n, g.position), count = chunkBegin(numel, n, g.position + 1) - begin;
    size_t offset = size_t(begin) * elementSize(x.dtype());
    std::vector<const void*> from;
    for (const Tensor& p : *parts) from.push_back(static_cast<const char*>(p.raw()) + offset);
    std::vector<void*> into;  // a buffer two members were fed is written once
    for (Tensor& r : results)
      if (void* at = static_cast<char*>(r.raw()) + offset; std::find(into.begin(), into.end(), at) == into.end())
        into.push_back(at);
    reduceElements(x.dtype(), from, into, count, op);
    // Read chunk `position` of every other member's x, and wrote it reduced
    // into every other member's result.
    for (int64_t r : *g.ranks) {
      world_.moved(ring, r, rank_, uint64_t(count) * elementSize(x.dtype()));
      world_.moved(ring, rank_, r, uint64_t(count) * elementSize(x.dtype()));
    }
    parts->clear();
    results.clear();
    if (Status s = finish(g, "all_reduce"); !s) return s;
    return direct ? Status::ok() : place(std::move(result), out);
  }

  Status allGather(int64_t ring, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "all_gather", g); !s) return s;
    note(ring, x.bytes());
    auto parts = exchange(g, x, "all_gather");
    if (!parts) return parts.takeStatus();
    if (Status s = sameShapes(g, *parts, "all_gather"); !s) return s;
    Tensor result = Tensor::allocate(x.dtype(), gatheredShape(x, int64_t(g.ranks->size())));
    auto* dst = static_cast<char*>(result.raw());
    for (size_t i = 0; i < parts->size(); ++i) {
      const Tensor& p = (*parts)[i];
      dst = static_cast<char*>(std::memcpy(dst, p.raw(), p.bytes())) + p.bytes();
      world_.moved(ring, (*g.ranks)[i], rank_, p.bytes());
    }
    parts->clear();
    if (Status s = finish(g, "all_gather"); !s) return s;
    return place(std::move(result), out);
  }

  Status reduceScatter(int64_t ring, const Tensor& x, Tensor& out, ReduceType op) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "reduce_scatter", g); !s) return s;
    note(ring, x.bytes());
    int64_t n = int64_t(g.ranks->size());
    if (x.rank() == 0 || x.dim(0) % n != 0) return dim0NotDivisible(ring, x, n);
    auto parts = exchange(g, x, "reduce_scatter");
    if (!parts) return parts.takeStatus();
    if (Status s = sameShapes(g, *parts, "reduce_scatter"); !s) return s;
    std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
    shape[0] /= n;
    Tensor result = Tensor::allocate(x.dtype(), shape);
    std::vector<const Tensor*> ptrs;
    for (auto& p : *parts) ptrs.push_back(&p);
    reduceInto(ptrs, result, op, result.numel() * g.position, result.numel());
    for (int64_t r : *g.ranks) world_.moved(ring, r, rank_, result.bytes());
    parts->clear();
    if (Status s = finish(g, "reduce_scatter"); !s) return s;
    return place(std::move(result), out);
  }

  Status broadcast(int64_t ring, int64_t root, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "broadcast", g); !s) return s;
    note(ring, x.bytes());
    if (root < 0 || root >= int64_t(g.ranks->size())) return badRoot(ring, root, int64_t(g.ranks->size()));
    auto parts = exchange(g, x, "broadcast");
    if (!parts) return parts.takeStatus();
    if (Status s = sameShapes(g, *parts, "broadcast"); !s) return s;
    Tensor result = (*parts)[root].clone();
    world_.moved(ring, (*g.ranks)[root], rank_, result.bytes());
    parts->clear();
    if (Status s = finish(g, "broadcast"); !s) return s;
    return place(std::move(result), out);
  }

  Status allToAll(int64_t ring, const Tensor& x, Tensor& out) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "all_to_all", g); !s) return s;
    note(ring, x.bytes());
    int64_t n = int64_t(g.ranks->size());
    if (x.numel() % n != 0) return notEqualChunks(ring, x, n);
    auto parts = exchange(g, x, "all_to_all");
    if (!parts) return parts.takeStatus();
    if (Status s = sameShapes(g, *parts, "all_to_all"); !s) return s;
    Tensor result = Tensor::allocate(x.dtype(), x.shape());
    size_t chunk = x.bytes() / size_t(n);
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(static_cast<char*>(result.raw()) + i * chunk,
                  static_cast<const char*>((*parts)[i].raw()) + g.position * chunk, chunk);
    for (int64_t r : *g.ranks) world_.moved(ring, r, rank_, chunk);
    parts->clear();
    if (Status s = finish(g, "all_to_all"); !s) return s;
    return place(std::move(result), out);
  }

  Status send(int64_t ring, int64_t peer, const Tensor& x, core::MessageKey key) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "send_v2", g); !s) return s;
    note(ring, x.bytes());
    auto dst = peerRank(g, peer, "send_v2");
    if (!dst) return dst.takeStatus();
    // A copy: the program may write x in place before the peer takes it.
    // Counted before it is posted: the peer may take it and report at once.
    world_.moved(ring, rank_, *dst, x.bytes());
    world_.post(ring, rank_, *dst, {x.clone(), false, Tensor(), key}, key);
    return Status::ok();
  }

  Status recv(int64_t ring, int64_t peer, Tensor& out, core::MessageKey key) override {
    CommTimer t{stats_.seconds};
    Group g;
    if (Status s = group(ring, "recv_v2", g); !s) return s;
    auto src = peerRank(g, peer, "recv_v2");
    if (!src) return src.takeStatus();
    auto m = world_.take(
        ring, *src, rank_,
        "recv_v2 from rank " + std::to_string(*src) + " on ring " + std::to_string(ring) + messageSuffix(key), key);
    if (!m) return m.takeStatus();
    if (!m->ack && m->key != key) return orderedPairingBroken(ring, *src, key, m->key);
    if (m->ack || (out.defined() && !sameType(m->tensor, out)))
      return recvTypeDiffers(ring, out, *src, m->ack ? "a collective's acknowledgement" : m->tensor.typeText());
    out = std::move(m->tensor);
    note(ring, out.bytes());
    return Status::ok();
  }

 private:
  struct Group {
    int64_t ring = 0;
    const std::vector<int64_t>* ranks = nullptr;
    int64_t position = 0;
  };

  Status group(int64_t ring, const char* what, Group& g) {
    const core::ProcessGroup* found = world_.rings_.find(ring);
    if (!found) return noRing(what, ring);
    g.ring = ring;
    g.ranks = &found->ranks;
    auto pos = std::find(found->ranks.begin(), found->ranks.end(), rank_);
    if (pos == found->ranks.end()) return notInRing(what, ring, rank_);
    g.position = pos - found->ranks.begin();
    return Status::ok();
  }

  Result<int64_t> peerRank(const Group& g, int64_t peer, const char* what) {
    if (peer < 0 || peer >= int64_t(g.ranks->size())) return badPeer(what, g.ring, peer, int64_t(g.ranks->size()));
    return (*g.ranks)[peer];
  }

  std::string waitText(const Group& g, int64_t src, const char* what) {
    return std::string(what) + " on ring " + std::to_string(g.ring) + ", for rank " + std::to_string(src);
  }

  /// Posts x (and `result`, when given) to every other member; the members'
  /// tensors by position (their results into `results`).
  Result<std::vector<Tensor>> exchange(const Group& g, const Tensor& x, const char* what,
                                       const Tensor* result = nullptr, std::vector<Tensor>* results = nullptr) {
    for (int64_t r : *g.ranks)
      if (r != rank_) {
        world_.post(g.ring, rank_, r, {x, false, result ? *result : Tensor()});  // a reference: no copy
      }
    std::vector<Tensor> parts(g.ranks->size());
    if (results) results->assign(g.ranks->size(), Tensor());
    for (size_t i = 0; i < g.ranks->size(); ++i) {
      int64_t r = (*g.ranks)[i];
      if (r == rank_) {
        parts[i] = x;
        if (results) (*results)[i] = *result;
        continue;
      }
      auto m = world_.take(g.ring, r, rank_, waitText(g, r, what));
      if (!m) return m.takeStatus();
      if (m->ack)
        return Status::error(std::string(what) + " on ring " + std::to_string(g.ring) + ": rank " + std::to_string(r) +
                             " is in another collective");
      parts[i] = std::move(m->tensor);
      if (results) (*results)[i] = std::move(m->result);
    }
    return parts;
  }

  /// Every member has read every input: inputs may be written again.
  Status finish(const Group& g, const char* what) {
    for (int64_t r : *g.ranks)
      if (r != rank_) world_.post(g.ring, rank_, r, {Tensor(), true, Tensor()});
    for (int64_t r : *g.ranks) {
      if (r == rank_) continue;
      auto m = world_.take(g.ring, r, rank_, waitText(g, r, what));
      if (!m) return m.takeStatus();
      if (!m->ack)
        return Status::error(std::string(what) + " on ring " + std::to_string(g.ring) + ": rank " + std::to_string(r) +
                             " sent data where its acknowledgement was due");
    }
    return Status::ok();
  }

  Status sameShapes(const Group& g, const std::vector<Tensor>& parts, const char* what) {
    const Tensor& mine = parts[g.position];
    for (size_t i = 0; i < parts.size(); ++i)
      if (!sameType(parts[i], mine))
        return typesDiffer(what, g.ring, rank_, mine.typeText(), (*g.ranks)[i], parts[i].typeText());
    return Status::ok();
  }

  InProcessWorld& world_;
  int64_t rank_;
};

InProcessWorld::InProcessWorld(int64_t worldSize, RingTable rings, std::chrono::milliseconds timeout)
    : size_(worldSize),
      spin_(worldSize <= int64_t(std::thread::hardware_concurrency())),
      rings_(std::move(rings)),
      timeout_(timeout) {
  rings_.addWorld(size_);
  counters_.resize(size_t(size_));
  for (auto& byRing : counters_)
    for (const core::ProcessGroup& g : rings_.rings()) byRing[g.ringId];
  for (int64_t r = 0; r < size_; ++r) {
    inboxes_.push_back(std::make_unique<Inbox>());
    comms_.push_back(std::make_unique<InProcessComm>(*this, r));
  }
}

InProcessWorld::~InProcessWorld() = default;

Communicator& InProcessWorld::comm(int64_t rank) { return *comms_[rank]; }

void InProcessWorld::post(int64_t ring, int64_t src, int64_t dst, Message m, core::MessageKey key) {
  Inbox& in = *inboxes_[dst];
  {
    std::lock_guard<std::mutex> lock(in.mutex);
    in.queues[lane(ring, src, key)].push_back(std::move(m));
    in.posts.fetch_add(1, std::memory_order_release);
  }
  in.cv.notify_all();
}

Result<InProcessWorld::Message> InProcessWorld::take(int64_t ring, int64_t src, int64_t dst, const std::string& what,
                                                     core::MessageKey key) {
  Inbox& in = *inboxes_[dst];
  auto deadline = deadlineAfter(timeout_);
  std::unique_lock<std::mutex> lock(in.mutex);
  auto& q = in.queues[lane(ring, src, key)];
  TraceSink* trace = q.empty() ? comms_[dst]->traceSink() : nullptr;
  struct WaitEnd {  // the wait's duration, however the loop ends
    TraceSink* trace;
    int64_t start;
    ~WaitEnd() {
      if (trace) trace->commWait(start, steadyNs() - start);
    }
  } end{trace, trace ? steadyNs() : 0};
  if (spin_) {
    auto until = std::chrono::steady_clock::now() + kSpin;
    for (bool late = false; q.empty() && !late && !stopping();) {
      uint64_t seen = in.posts.load(std::memory_order_acquire);
      lock.unlock();
      for (int i = 1; in.posts.load(std::memory_order_acquire) == seen; ++i) {
        core::cpuRelax();
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) {
          late = true;
          break;
        }
      }
      lock.lock();
    }
  }
  while (q.empty()) {
    if (deadlocked()) return Status::timeout("rank " + std::to_string(dst) + " waits on " + what);
    if (stopping()) return stoppedStatus();
    if (std::chrono::steady_clock::now() >= deadline) {
      lock.unlock();
      stopAll(true);
      return Status::timeout("rank " + std::to_string(dst) + " waits on " + what);
    }
    in.cv.wait_for(lock, kPoll);
  }
  Message m = std::move(q.front());
  q.pop_front();
  return m;
}

void InProcessWorld::moved(int64_t ring, int64_t from, int64_t to, uint64_t bytes) {
  if (from == to || bytes == 0) return;
  // Rings are known up front (a call on another fails before it copies).
  counters_[size_t(from)].at(ring).sent.fetch_add(bytes, std::memory_order_relaxed);
  counters_[size_t(to)].at(ring).received.fetch_add(bytes, std::memory_order_relaxed);
}

TrafficByRing InProcessWorld::trafficOf(int64_t rank) const {
  TrafficByRing out;
  for (const auto& [ring, c] : counters_[size_t(rank)]) {
    Traffic t{c.sent.load(std::memory_order_relaxed), c.received.load(std::memory_order_relaxed)};
    if (t.sent || t.received) out[ring] = t;
  }
  return out;
}

Status InProcessWorld::leftOverMessages(int64_t& sender) const {
  for (int64_t dst = 0; dst < size_; ++dst)
    for (const auto& [l, q] : inboxes_[size_t(dst)]->queues)
      for (const Message& m : q) {
        if (m.ack || m.result.defined()) continue;  // a collective's, which every member takes
        auto [ring, src, index, mb] = l;
        sender = src;
        return Status::error("rank " + std::to_string(src) + "'s send_v2 to rank " + std::to_string(dst) + " on ring " +
                             std::to_string(ring) + " (" + messageText(m.key) + ") was never received");
      }
  return Status::ok();
}

void InProcessWorld::stopAll(bool deadlock) {
  if (deadlock) deadlock_.store(true);
  stop_.store(true);
  for (auto& in : inboxes_) {
    std::lock_guard<std::mutex> lock(in->mutex);  // so no waiter misses the wake-up
    in->cv.notify_all();
  }
}

void InProcessWorld::fail(int64_t rank) {
  {
    std::lock_guard<std::mutex> lock(failMutex_);
    if (firstFailed_ < 0 && !deadlocked()) firstFailed_ = rank;
  }
  stopAll(false);
}

WorldOutcome InProcessWorld::run(const std::function<Status(int64_t, Communicator&)>& body) {
  WorldOutcome out;
  out.perRank.resize(size_);
  std::vector<std::thread> threads;
  for (int64_t r = 0; r < size_; ++r)
    threads.emplace_back([&, r] {
      Status s = body(r, *comms_[r]);
      if (!s && !s.isCancelled() && !deadlocked()) fail(r);
      out.perRank[r] = std::move(s);
    });
  for (auto& t : threads) t.join();
  if (deadlocked()) {
    out.kind = WorldOutcome::Kind::Deadlock;
  } else if (firstFailed_ >= 0) {
    out.kind = WorldOutcome::Kind::Failed;
    out.failedRank = firstFailed_;
  } else {
    int64_t sender = -1;
    if (Status s = leftOverMessages(sender); !s) {
      out.kind = WorldOutcome::Kind::Failed;
      out.failedRank = sender;
      out.perRank[size_t(sender)] = std::move(s);
    }
  }
  return out;
}

}  // namespace pir::runtime
