//===- in_process.h - every rank a thread of this process --------*- C++ -*-===//
//
// One thread per rank; a FIFO mailbox per (ring, src, dst) for collectives
// and ordered messages, and one per message key for keyed ones
// (core/message_key.h). A send posts its tensor and returns; a receive waits
// for the message with its key (an ordered one: the next from that peer on
// that ring). A keyed message still in a mailbox when the run ends is an error. Collectives post a reference to the
// input to each member (no copy), combine what the others posted, then exchange acknowledgements, so no rank writes its
// input (an in-place all_reduce_) while another reads it. all_reduce also posts its result buffer: each member stores
// the chunk it reduced into every member's result, and the acknowledgements say all are in.
//
// A taker whose message is not there spins for up to 50 us (when every rank
// has a core of its own) before it sleeps on the inbox's condition variable:
// a peer's message is usually microseconds away, and each wake-up of a
// sleeping thread costs a context switch (a 1-float all_reduce took 13-16 us
// with two of them). Waits poll every 20 ms: a failing rank (fail()) stops
// every rank within a poll, and a wait longer than the timeout turns the run into a deadlock
// report: every rank that waits, or later would, fails with what it waits on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "runtime/comm/communicator.h"

namespace pir::runtime {

/// How a run of every rank ended.
struct WorldOutcome {
  enum class Kind { Ok, Failed, Deadlock } kind = Kind::Ok;
  int64_t failedRank = -1;            // Failed: the first rank that failed
  std::vector<core::Status> perRank;  // each rank's own result (Deadlock: what it waits on)
};

class InProcessWorld {
 public:
  InProcessWorld(int64_t worldSize, RingTable rings, std::chrono::milliseconds timeout);
  ~InProcessWorld();
  InProcessWorld(const InProcessWorld&) = delete;
  InProcessWorld& operator=(const InProcessWorld&) = delete;

  int64_t size() const { return size_; }
  Communicator& comm(int64_t rank);

  /// Runs `body(rank, comm)` on one thread per rank and joins them. A rank
  /// whose body fails stops the others; their own failures (stopped, or
  /// deadlock reports) are kept in perRank.
  WorldOutcome run(const std::function<core::Status(int64_t, Communicator&)>& body);

  /// Stops every rank: `rank` failed.
  void fail(int64_t rank);
  bool stopping() const { return stop_.load(std::memory_order_relaxed); }
  bool deadlocked() const { return deadlock_.load(std::memory_order_relaxed); }

 private:
  friend class InProcessComm;
  struct Message {
    Tensor tensor;
    bool ack = false;
    Tensor result;           // all_reduce: the sender's result, which members write their chunk into
    core::MessageKey key{};  // a send_v2's; collectives' are ordered
  };
  /// (ring, src, message index, micro-batch); ordered messages and
  /// collectives share (ring, src, -1, -1).
  using Lane = std::tuple<int64_t, int64_t, int64_t, int64_t>;
  struct Inbox {
    std::mutex mutex;
    std::condition_variable cv;
    std::atomic<uint64_t> posts{0};              // messages posted so far, read without the mutex by a spinning taker
    std::map<Lane, std::deque<Message>> queues;  // FIFO per lane
  };
  /// Posts `m` from `src` to `dst` on `ring`, in the lane of `key` (ordered
  /// by default).
  void post(int64_t ring, int64_t src, int64_t dst, Message m, core::MessageKey key = {});
  /// The next message from `src` on `ring` to `dst` in the lane of `key`;
  /// `what` describes the wait for a deadlock report.
  core::Result<Message> take(int64_t ring, int64_t src, int64_t dst, const std::string& what,
                             core::MessageKey key = {});
  static Lane lane(int64_t ring, int64_t src, core::MessageKey key) {
    return key.ordered() ? Lane{ring, src, -1, -1} : Lane{ring, src, key.index, key.microBatch};
  }
  /// Counts `bytes` copied from rank `from`'s buffer into rank `to`'s on
  /// `ring` (the copying thread counts both ends).
  void moved(int64_t ring, int64_t from, int64_t to, uint64_t bytes);
  TrafficByRing trafficOf(int64_t rank) const;
  /// The first keyed message nobody took, as the sender's error.
  core::Status leftOverMessages(int64_t& sender) const;
  void stopAll(bool deadlock);

  int64_t size_;
  bool spin_;  // every rank has a core: a taker spins briefly before it sleeps
  RingTable rings_;
  std::chrono::milliseconds timeout_;
  std::vector<std::unique_ptr<Inbox>> inboxes_;
  std::vector<std::unique_ptr<Communicator>> comms_;
  struct Counter {
    std::atomic<uint64_t> sent{0}, received{0};
  };
  std::vector<std::map<int64_t, Counter>> counters_;  // per rank, one per ring of rings_, made up front
  std::atomic<bool> stop_{false};
  std::atomic<bool> deadlock_{false};
  std::mutex failMutex_;
  int64_t firstFailed_ = -1;
};

}  // namespace pir::runtime
