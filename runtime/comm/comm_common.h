//===- comm_common.h - what both communicators share -------------*- C++ -*-===//
//
// The pieces of a collective that do not depend on how bytes travel, so
// that the in-process and the MPI communicator agree by construction: type
// checks and their messages, the chunks a chunked reduction cuts, how a
// result lands in a preset output, and the time a call takes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>

#include "runtime/comm/communicator.h"

namespace pir::runtime::comm_detail {

inline bool sameType(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end());
}

/// Adds the time from construction to destruction to `seconds`.
struct CommTimer {
  double& seconds;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  ~CommTimer() { seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};

/// steady_clock's now in nanoseconds (the executor's clock, for the trace).
/// The moment `timeout` from now, saturated: a timeout too long for the
/// steady clock's nanoseconds (pir-run's `--timeout inf`) never comes.
inline std::chrono::steady_clock::time_point deadlineAfter(std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point now = Clock::now();
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::time_point::max() - now);
  return timeout >= left ? Clock::time_point::max() : now + timeout;
}

inline int64_t steadyNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The first element of chunk `i` when `numel` elements are cut into `n`
/// chunks for a chunked all_reduce (each member reduces one chunk).
inline int64_t chunkBegin(int64_t numel, int64_t n, int64_t i) { return numel * i / n; }

/// Whether an all_reduce may write `out` directly: it has x's type, and is
/// either a buffer of its own or x's own (all_reduce_: each member writes
/// only its chunk, which no member reads afterwards).
inline bool writesDirectly(const Tensor& x, const Tensor& out) {
  return out.defined() && sameType(out, x) && (!out.sharesStorageWith(x) || out.raw() == x.raw());
}

/// Moves `result` to `out`: into its buffer when it is preset (in place).
inline core::Status place(Tensor result, Tensor& out) {
  if (out.defined() && out.bytes() == result.bytes() && out.dtype() == result.dtype())
    std::memcpy(out.raw(), result.raw(), result.bytes());
  else
    out = std::move(result);
  return core::Status::ok();
}

/// The shape of an all_gather's result: dim 0 times the ring's size.
inline std::vector<int64_t> gatheredShape(const Tensor& x, int64_t members) {
  std::vector<int64_t> shape(x.shape().begin(), x.shape().end());
  if (shape.empty()) shape.push_back(1);
  shape[0] *= members;
  return shape;
}

inline core::Status typesDiffer(const char* what, int64_t ring, int64_t rank, const std::string& mine, int64_t other,
                                const std::string& theirs) {
  return core::Status::error(std::string(what) + " on ring " + std::to_string(ring) + ": rank " + std::to_string(rank) +
                             " has " + mine + ", rank " + std::to_string(other) + " has " + theirs);
}

/// reduce_scatter's x, whose dim 0 does not divide by the ring's n ranks.
inline core::Status dim0NotDivisible(int64_t ring, const Tensor& x, int64_t n) {
  return core::Status::error("reduce_scatter on ring " + std::to_string(ring) + ": dim 0 of " + x.typeText() +
                             " does not divide by the ring's " + std::to_string(n) + " ranks");
}

/// all_to_all's x, whose elements do not cut into n equal chunks.
inline core::Status notEqualChunks(int64_t ring, const Tensor& x, int64_t n) {
  return core::Status::error("all_to_all on ring " + std::to_string(ring) + ": " + x.typeText() +
                             " does not cut into " + std::to_string(n) + " equal chunks");
}

inline core::Status badRoot(int64_t ring, int64_t root, int64_t n) {
  return core::Status::error("broadcast on ring " + std::to_string(ring) + ": root " + std::to_string(root) +
                             " is not a position of its " + std::to_string(n) + " ranks");
}

inline core::Status badPeer(const char* what, int64_t ring, int64_t peer, int64_t n) {
  return core::Status::error(std::string(what) + ": peer " + std::to_string(peer) + " is not a position of ring " +
                             std::to_string(ring) + "'s " + std::to_string(n) + " ranks");
}

inline core::Status notInRing(const char* what, int64_t ring, int64_t rank) {
  return core::Status::error(std::string(what) + ": rank " + std::to_string(rank) + " is not in ring " +
                             std::to_string(ring));
}

inline core::Status noRing(const char* what, int64_t ring) {
  return core::Status::error(std::string(what) + ": ring " + std::to_string(ring) + " is in no ring table");
}

inline core::Status recvTypeDiffers(int64_t ring, const Tensor& out, int64_t src, const std::string& sent) {
  return core::Status::error("recv_v2 on ring " + std::to_string(ring) + " expects " + out.typeText() + ", rank " +
                             std::to_string(src) + " sent " + sent);
}

/// What a message is called in errors: "message_index K of micro-batch M",
/// or "micro-batch M" for an ordered one.
inline std::string messageText(core::MessageKey key) {
  std::string mb = "micro-batch " + std::to_string(key.microBatch);
  return key.ordered() ? mb : "message_index " + std::to_string(key.index) + " of " + mb;
}

/// " (messageText)" for a wait's report; nothing for an ordered message of
/// micro-batch 0 (a plain run's).
inline std::string messageSuffix(core::MessageKey key) {
  return key.ordered() && key.microBatch == 0 ? std::string() : " (" + messageText(key) + ")";
}

/// An ordered receive took a message another micro-batch sent (see
/// core/message_key.h): the two ends ran their micro-batches in different
/// orders, and taking it would pair values wrongly.
inline core::Status orderedPairingBroken(int64_t ring, int64_t src, core::MessageKey mine, core::MessageKey sent) {
  return core::Status::error("recv_v2 from rank " + std::to_string(src) + " on ring " + std::to_string(ring) + " in " +
                             messageText(mine) + " would take the message rank " + std::to_string(src) + " sent in " +
                             messageText(sent) +
                             ": send_v2/recv_v2 without message_index pair in order, and the two ranks ran their "
                             "micro-batches in different orders (pipeline-split writes message_index, which pairs "
                             "them by key)");
}

}  // namespace pir::runtime::comm_detail
