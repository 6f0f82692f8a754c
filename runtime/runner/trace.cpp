//===- trace.cpp - a run's Chrome trace -----------------------------------===//
#include "runtime/runner/trace.h"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "passes/schedule/chrome_trace.h"

namespace pir::runtime::runner {

std::string eventName(const Executor& executor, const OpEvent& e) {
  return e.step == OpEvent::kWait ? "wait" : std::string(executor.stepOp(e.step).name());
}

namespace {

std::string micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", double(ns) / 1000.0);
  return buf;
}

/// One complete event; a communication op's ring and payload bytes (ring
/// >= 0) as its args, a wait's ring alone.
void event(passes::schedule::ChromeTraceWriter& w, const std::string& name, int64_t rank, int64_t startNs,
           int64_t durationNs, int64_t origin, int64_t ring = -1, uint64_t bytes = 0, bool wait = false) {
  std::string args;
  if (ring >= 0) args = "\"ring\": " + std::to_string(ring);
  if (ring >= 0 && !wait) args += ", \"bytes\": " + std::to_string(bytes);
  w.complete(name, {}, rank, micros(startNs - origin), micros(durationNs), args);
}

void opEvent(passes::schedule::ChromeTraceWriter& w, const TraceTrack& t, size_t e, int64_t origin) {
  const OpEvent& ev = t.events[e];
  event(w, t.eventNames[e], t.rank, ev.startNs, ev.durationNs, origin, ev.ring, ev.bytes, ev.step == OpEvent::kWait);
}

}  // namespace

std::string traceJson(const std::vector<TraceTrack>& tracks) {
  int64_t origin = INT64_MAX;
  for (auto& t : tracks) {
    for (auto& e : t.events) origin = std::min(origin, e.startNs);
    for (auto& s : t.spans) origin = std::min(origin, s.startNs);
  }
  passes::schedule::ChromeTraceWriter w;
  for (auto& t : tracks) {
    w.threadName(t.rank, "rank " + std::to_string(t.rank));
    // A span first, so viewers nest the ops of a job under it.
    size_t e = 0;
    for (const TraceSpan& s : t.spans) {
      for (; e < t.events.size() && t.events[e].startNs < s.startNs; ++e) opEvent(w, t, e, origin);
      event(w, s.name, t.rank, s.startNs, s.durationNs, origin);
    }
    for (; e < t.events.size(); ++e) opEvent(w, t, e, origin);
  }
  return w.take();
}

}  // namespace pir::runtime::runner
