//===- run_trace.cpp - pir-run's Chrome trace -----------------------------===//
#include "app/run_trace.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace pir::app {

std::string eventName(const runtime::Executor& executor, const runtime::OpEvent& e) {
  return e.step == runtime::OpEvent::kWait ? "wait" : std::string(executor.stepOp(e.step).name());
}

std::vector<TraceTrack> tracksOf(const std::vector<RankRun>& runs) {
  std::vector<TraceTrack> tracks;
  for (const RankRun& r : runs) {
    TraceTrack& t = tracks.emplace_back();
    t.rank = r.rank;
    t.events = r.events;
    for (const auto& e : r.events) t.eventNames.push_back(eventName(*r.executor, e));
  }
  return tracks;
}

namespace {

/// One complete event; a communication op's ring and payload bytes (ring >= 0) as its args, a
/// wait's ring alone.
std::string event(const std::string& name, int64_t rank, int64_t startNs, int64_t durationNs, int64_t origin,
                  int64_t ring = -1, uint64_t bytes = 0, bool wait = false) {
  char args[64] = "";
  if (ring >= 0 && wait)
    std::snprintf(args, sizeof args, ", \"args\": {\"ring\": %lld}", (long long)ring);
  else if (ring >= 0)
    std::snprintf(args, sizeof args, ", \"args\": {\"ring\": %lld, \"bytes\": %llu}", (long long)ring,
                  (unsigned long long)bytes);
  char buf[192];
  std::snprintf(buf, sizeof buf, "\", \"ph\": \"X\", \"pid\": 0, \"tid\": %lld, \"ts\": %.3f, \"dur\": %.3f%s}",
                (long long)rank, double(startNs - origin) / 1000.0, double(durationNs) / 1000.0, args);
  return ",\n{\"name\": \"" + name + buf;
}

std::string opEvent(const TraceTrack& t, size_t e, int64_t origin) {
  const runtime::OpEvent& ev = t.events[e];
  return event(t.eventNames[e], t.rank, ev.startNs, ev.durationNs, origin, ev.ring, ev.bytes,
               ev.step == runtime::OpEvent::kWait);
}

}  // namespace

std::string traceJson(const std::vector<TraceTrack>& tracks) {
  std::string j = "{\"traceEvents\": [\n";
  int64_t origin = INT64_MAX;
  for (auto& t : tracks) {
    for (auto& e : t.events) origin = std::min(origin, e.startNs);
    for (auto& s : t.spans) origin = std::min(origin, s.startNs);
  }
  bool first = true;
  for (auto& t : tracks) {
    j += std::string(first ? "" : ",\n") +
         "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": " + std::to_string(t.rank) +
         ", \"args\": {\"name\": \"rank " + std::to_string(t.rank) + "\"}}";
    first = false;
    // A span first, so viewers nest the ops of a job under it.
    size_t e = 0;
    for (const TraceSpan& s : t.spans) {
      for (; e < t.events.size() && t.events[e].startNs < s.startNs; ++e) j += opEvent(t, e, origin);
      j += event(s.name, t.rank, s.startNs, s.durationNs, origin);
    }
    for (; e < t.events.size(); ++e) j += opEvent(t, e, origin);
  }
  return j + "\n]}\n";
}

}  // namespace pir::app
