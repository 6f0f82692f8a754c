//===- run_trace.cpp - pir-run's Chrome trace -----------------------------===//
#include "runtime/runner/trace.h"

#include <algorithm>
#include <climits>
#include <cstdio>

namespace pir::runtime::runner {

std::string eventName(const Executor& executor, const OpEvent& e) {
  return e.step == OpEvent::kWait ? "wait" : std::string(executor.stepOp(e.step).name());
}

namespace {

/// `s` as the inside of a JSON string.
std::string jsonEscaped(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

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
  return ",\n{\"name\": \"" + jsonEscaped(name) + buf;
}

std::string opEvent(const TraceTrack& t, size_t e, int64_t origin) {
  const OpEvent& ev = t.events[e];
  return event(t.eventNames[e], t.rank, ev.startNs, ev.durationNs, origin, ev.ring, ev.bytes,
               ev.step == OpEvent::kWait);
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

}  // namespace pir::runtime::runner
