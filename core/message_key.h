//===- message_key.h - which send a receive takes ---------------*- C++ -*-===//
//
// The one rule pairing a pd_op.recv_v2 with a pd_op.send_v2, kept by the
// runtime's communicators and by the static communication check alike.
//
// A channel is (ring, sending rank, receiving rank). In a stage's whole-step
// program the k-th send on a channel pairs with the k-th receive on it in the
// peer's program: that is the order the lowering writes both ends in, and a
// dense per-rank program runs them in it. Once pipeline-split cuts the step
// into jobs that run per micro-batch in any order a schedule gives, that
// order is gone, so pipeline-split writes k on both ends first, as
// `message_index:(Int64)k`. A message is then taken by its key: channel,
// message index and micro-batch. It cannot pair with another value's or
// another micro-batch's, whatever order the two sides run in.
//
// A send_v2/recv_v2 without `message_index` (a program pir-opt did not
// split) pairs in order on its channel, as before; the micro-batch still
// travels with the message, and a receive that takes another micro-batch's
// message is an error, not a wrong number.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <compare>
#include <cstdint>

#include "core/attr_access.h"
#include "core/operation.h"

namespace pir::core {

/// The attribute pipeline-split writes on every top-level send_v2/recv_v2.
inline constexpr std::string_view kMessageIndexAttr = "message_index";

/// What identifies a message on its channel: the message index (-1 when the
/// ops carry none: the next one in order) and the micro-batch.
struct MessageKey {
  int64_t index = -1;
  int64_t microBatch = 0;

  bool ordered() const { return index < 0; }
  auto operator<=>(const MessageKey&) const = default;
};

/// The op's `message_index`, or -1 when it has none.
inline int64_t messageIndex(const Operation& op) { return getInt64(op, kMessageIndexAttr).value_or(-1); }

}  // namespace pir::core
