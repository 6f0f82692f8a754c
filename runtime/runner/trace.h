//===- trace.h - a run's Chrome trace --------------------------*- C++ -*-===//
//
// One track per rank: each op's run as a complete event ("ph": "X"), named
// after the op, each step's run as a span around its ops (named `step K`,
// from 1) and for a pipeline each job's run as a span around its ops inside
// its step's (named `TYPE:MICRO_BATCH`), all on one time origin.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "runtime/executor.h"

namespace pir::runtime::runner {

/// One step's or job's run on a rank, for the trace.
struct TraceSpan {
  std::string name;
  int64_t startNs = 0, durationNs = 0;
};

/// A rank's track: its op events, each named by `opName(event)`, and spans.
struct TraceTrack {
  int64_t rank = 0;
  std::vector<OpEvent> events;
  std::vector<std::string> eventNames;  // beside events
  std::vector<TraceSpan> spans;         // by start; a step's before its jobs'
};

/// An event's name on its track: the op's, or `wait` for a wait within it.
std::string eventName(const Executor& executor, const OpEvent& e);

/// The trace's JSON text (names escaped as JSON strings).
std::string traceJson(const std::vector<TraceTrack>& tracks);

}  // namespace pir::runtime::runner
