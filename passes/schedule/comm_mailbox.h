//===- comm_mailbox.h - messages in flight, paired by message_key.h -*- C++ -*-===//
//
// The communication check's buffered sends: one channel per (ring, sending
// rank, receiving rank), and on it the messages not yet received. Which
// message a receive takes is core/message_key.h's rule: a receive with a
// message_index takes exactly the message of its key (index, micro-batch);
// one without takes the oldest message without an index, whatever its
// micro-batch (the caller reports a micro-batch that differs). A message
// with an index is never what a receive without one takes, nor the other
// way round: takeMispaired() names such a pair once nothing else can move.
// Every operation is O(1) but takeMispaired and inFlight.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/message_key.h"
#include "passes/schedule/comm_report.h"

namespace pir::passes::schedule {

/// A channel: ring, sending and receiving global rank.
struct ChannelId {
  int64_t ring = 0, src = 0, dst = 0;
  bool operator==(const ChannelId&) const = default;
};

struct Message {
  core::MessageKey key;
  JobSite from;                ///< the sender, in its job
  const CommOp* op = nullptr;  ///< its send_v2
  uint64_t seq = 0;            ///< the order messages were sent in, over all channels
};

enum class Pairing {
  Match,            ///< the message the receive is for
  OtherMicroBatch,  ///< in-order pairing took another micro-batch's message
  OneEndIndexed,    ///< one end has a message_index, the other none
};

struct Taken {
  Message message;
  Pairing pairing = Pairing::Match;
};

class Mailbox {
 public:
  /// Posts `m` on `channel`. When a message with the same index and
  /// micro-batch is in flight there already, that one stays, `m` is dropped
  /// and the one in flight is returned (two sends with one key).
  const Message* post(const ChannelId& channel, Message m);
  /// What a receive with `key` takes now, or nullopt while nothing it pairs
  /// with has been sent.
  std::optional<Taken> take(const ChannelId& channel, core::MessageKey key);
  /// For a receive that waits while no rank can move: the channel's oldest
  /// message of the other kind (a message_index on one end only), taken.
  std::optional<Taken> takeMispaired(const ChannelId& channel, core::MessageKey key);
  /// Every message in flight, in the order sent.
  std::vector<Message> inFlight() const;

 private:
  struct ChannelHash {
    size_t operator()(const ChannelId& c) const;
  };
  struct KeyHash {
    size_t operator()(const core::MessageKey& k) const;
  };
  struct Channel {
    std::deque<Message> ordered;                                   // no message_index, in order
    std::unordered_map<core::MessageKey, Message, KeyHash> keyed;  // by index and micro-batch
  };
  std::unordered_map<ChannelId, Channel, ChannelHash> channels_;
};

}  // namespace pir::passes::schedule
