//===- communicator.h - collectives and point-to-point, one interface --*- C++ -*-===//
//
// What a rank's kernels call to talk to the other ranks. Every call names a
// ring (a `ring_id`); its ordered global ranks come from the rings table the
// lowering wrote (ring 0 is the world). `peer` and `root` are positions in
// that order, as in Paddle. Reductions combine the members' values in ring
// order, position 0 first, on every rank, so each rank gets the same bits and
// a 2-rank ring gives what MPI gives.
//
// A call fails (a Status) when the shapes disagree, when the run is being
// stopped (another rank failed: stopping() is true), or when a wait outlasts
// the timeout (every rank then reports what it waits on).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/attributes.h"
#include "core/message_key.h"
#include "core/process_group.h"
#include "core/status.h"
#include "runtime/tensor.h"
#include "runtime/trace_sink.h"

namespace pir::runtime {

/// The reduce types of partial values and of all_reduce's `reduce_type`
/// (core::ReduceType's first five are Paddle's ReduceOp numbering); ANY
/// reduces as MAX, ALL as MIN.
using ReduceType = core::ReduceType;

/// What a rank's call fails with when another rank stopped the run: a
/// Cancelled status, which the executor passes on as it is.
inline core::Status stoppedStatus() { return core::Status::cancelled("stopped: another rank failed"); }

/// Ring id -> the ring's global ranks in group order (core/process_group.h);
/// a world adds ring 0 by RingTable::addWorld.
using RingTable = core::RingTable;

/// The bytes a rank moved on one ring, counted where they move: a tensor's
/// payload (never the dtype-and-shape headers the MPI backend sends ahead
/// of it) given to MPI_Isend or received by MPI, or copied in process from
/// one rank's buffer into another's (the rank whose buffer is read sent,
/// the rank that gets the bytes received).
struct Traffic {
  uint64_t sent = 0;
  uint64_t received = 0;
  bool operator==(const Traffic&) const = default;
};
using TrafficByRing = std::map<int64_t, Traffic>;

/// The time a rank spent communicating (summary.yaml).
struct CommStats {
  double seconds = 0;  // in communication calls, waits included
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int64_t rank() const = 0;  // the global rank
  virtual int64_t worldSize() const = 0;

  /// out = x_0 op x_1 op ... over the ring's members. `out` may be `x`'s
  /// tensor (in place) or empty (allocated).
  virtual core::Status allReduce(int64_t ring, const Tensor& x, Tensor& out, ReduceType op) = 0;
  /// The members' x concatenated on dim 0 in ring order.
  virtual core::Status allGather(int64_t ring, const Tensor& x, Tensor& out) = 0;
  /// The reduction's dim-0 chunk at this rank's position (dim 0 must divide).
  virtual core::Status reduceScatter(int64_t ring, const Tensor& x, Tensor& out, ReduceType op) = 0;
  /// The root position's x.
  virtual core::Status broadcast(int64_t ring, int64_t root, const Tensor& x, Tensor& out) = 0;
  /// Flat x cut into n chunks: chunk j goes to position j, slot i of out
  /// comes from position i.
  virtual core::Status allToAll(int64_t ring, const Tensor& x, Tensor& out) = 0;
  /// Never blocks: the tensor is kept (or copied) until the peer takes it.
  /// `key` says which receive takes it (core/message_key.h).
  virtual core::Status send(int64_t ring, int64_t peer, const Tensor& x, core::MessageKey key) = 0;
  /// Waits for the peer's send with `key` on this ring (an ordered key: its
  /// next one, which must be of the key's micro-batch). `out` arrives
  /// allocated with the dtype and shape the program expects; a different
  /// one is an error naming both.
  virtual core::Status recv(int64_t ring, int64_t peer, Tensor& out, core::MessageKey key) = 0;

  /// The micro-batch the rank's running job is for: what its messages carry.
  void setMicroBatch(int64_t microBatch) { microBatch_ = microBatch; }
  /// The key of a send_v2/recv_v2 with message index `index` (-1: none) in
  /// the running job.
  core::MessageKey messageKey(int64_t index) const { return {index, microBatch_}; }

  /// Whether the run is being stopped; the executor asks between ops.
  virtual bool stopping() const = 0;

  CommStats& stats() { return stats_; }
  /// What this rank sent and received so far, by ring (rings it never
  /// moved a byte on are left out). Final for a collective once it
  /// returned: every member's copies are done by then.
  virtual TrafficByRing traffic() const = 0;

  /// Where this rank's calls report their rings, bytes and waits while a
  /// traced kernel runs (trace_sink.h); null: untraced.
  void setTraceSink(TraceSink* sink) { trace_ = sink; }
  TraceSink* traceSink() const { return trace_; }

 protected:
  /// A call on `ring` with a payload of `bytes`, for the trace.
  void note(int64_t ring, size_t bytes) {
    if (trace_) trace_->commCall(ring, bytes);
  }

  CommStats stats_;
  TraceSink* trace_ = nullptr;
  int64_t microBatch_ = 0;
};

/// The elementwise reduction of `parts` (in order) into `out` (same dtype):
/// elements [begin, begin + count) of the parts (count -1: out's element
/// count) into out's elements from `outBegin`. Shared by every communicator
/// so they agree bitwise; `out` may be one of the parts when outBegin ==
/// begin.
void reduceInto(std::span<const Tensor* const> parts, Tensor& out, ReduceType op, int64_t begin = 0, int64_t count = -1,
                int64_t outBegin = 0);
/// reduceInto over raw arrays of `count` elements of `dtype`: parts[k] and
/// `out` point at the first element (out may be one of the parts).
void reduceElements(DataType dtype, std::span<const void* const> parts, void* out, int64_t count, ReduceType op);
/// The same, the result stored to each of `outs` (block by block, after
/// every part's block is read: an out may be one of the parts).
void reduceElements(DataType dtype, std::span<const void* const> parts, std::span<void* const> outs, int64_t count,
                    ReduceType op);

}  // namespace pir::runtime
