//===- run_trace.h - pir-run's Chrome trace ----------------------*- C++ -*-===//
//
// One track per rank: each op's run as a complete event ("ph": "X"), named
// after the op, and for a pipeline each job's run as a span around its ops
// (named `TYPE:MICRO_BATCH`), all on one time origin.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "app/run_common.h"

namespace pir::app {

/// One job's run on a rank, for the trace.
struct TraceSpan {
  std::string name;
  int64_t startNs = 0, durationNs = 0;
};

/// A rank's track: its op events, each named by `opName(event)`, and spans.
struct TraceTrack {
  int64_t rank = 0;
  std::vector<runtime::OpEvent> events;
  std::vector<std::string> eventNames;  // beside events
  std::vector<TraceSpan> spans;
};

/// An event's name on its track: the op's, or `wait` for a wait within it.
std::string eventName(const runtime::Executor& executor, const runtime::OpEvent& e);

/// The tracks of plain runs (one plan per rank).
std::vector<TraceTrack> tracksOf(const std::vector<RankRun>& runs);

/// The trace's JSON text.
std::string traceJson(const std::vector<TraceTrack>& tracks);

}  // namespace pir::app
