//===- run_trace.cpp - pir-run's Chrome trace -----------------------------===//
#include "app/run_trace.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace pir::app {

std::vector<TraceTrack> tracksOf(const std::vector<RankRun>& runs) {
  std::vector<TraceTrack> tracks;
  for (const RankRun& r : runs) {
    TraceTrack& t = tracks.emplace_back();
    t.rank = r.rank;
    t.events = r.events;
    for (const auto& e : r.events) t.eventNames.emplace_back(r.executor->stepOp(e.step).name());
  }
  return tracks;
}

namespace {

std::string event(const std::string& name, int64_t rank, int64_t startNs, int64_t durationNs, int64_t origin) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "\", \"ph\": \"X\", \"pid\": 0, \"tid\": %lld, \"ts\": %.3f, \"dur\": %.3f}",
                (long long)rank, double(startNs - origin) / 1000.0, double(durationNs) / 1000.0);
  return ",\n{\"name\": \"" + name + buf;
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
      for (; e < t.events.size() && t.events[e].startNs < s.startNs; ++e)
        j += event(t.eventNames[e], t.rank, t.events[e].startNs, t.events[e].durationNs, origin);
      j += event(s.name, t.rank, s.startNs, s.durationNs, origin);
    }
    for (; e < t.events.size(); ++e)
      j += event(t.eventNames[e], t.rank, t.events[e].startNs, t.events[e].durationNs, origin);
  }
  return j + "\n]}\n";
}

}  // namespace pir::app
