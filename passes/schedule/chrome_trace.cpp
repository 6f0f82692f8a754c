//===- chrome_trace.cpp - Chrome-trace JSON for Perfetto ----------------------===//
//
// The writer, and the schedule's trace: one thread per stage, one complete
// event per job with ts/dur in the simulator's time units (read as
// microseconds).
//
//===----------------------------------------------------------------------===//
#include "passes/schedule/chrome_trace.h"

#include <cstdio>

#include "passes/schedule/formats.h"

namespace pir::passes::schedule {

std::string jsonEscaped(std::string_view s) {
  std::string out;
  out.reserve(s.size());
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

ChromeTraceWriter::ChromeTraceWriter(std::string_view head) {
  out_ = "{";
  out_ += head;
  out_ += "\"traceEvents\": [\n";
}

void ChromeTraceWriter::next() {
  if (!first_) out_ += ",\n";
  first_ = false;
}

void ChromeTraceWriter::processName(std::string_view name) {
  next();
  out_ +=
      "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": \"" + jsonEscaped(name) + "\"}}";
}

void ChromeTraceWriter::threadName(int64_t tid, std::string_view name) {
  next();
  out_ += "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": " + std::to_string(tid) +
          ", \"args\": {\"name\": \"" + jsonEscaped(name) + "\"}}";
}

void ChromeTraceWriter::complete(std::string_view name, std::string_view category, int64_t tid, std::string_view ts,
                                 std::string_view dur, std::string_view args) {
  next();
  out_ += "{\"name\": \"" + jsonEscaped(name) + "\"";
  if (!category.empty()) out_ += ", \"cat\": \"" + jsonEscaped(category) + "\"";
  out_ += ", \"ph\": \"X\", \"pid\": 0, \"tid\": " + std::to_string(tid) + ", \"ts\": ";
  out_ += ts;
  out_ += ", \"dur\": ";
  out_ += dur;
  if (!args.empty()) {
    out_ += ", \"args\": {";
    out_ += args;
    out_ += "}";
  }
  out_ += "}";
}

std::string ChromeTraceWriter::take() {
  out_ += "\n]}\n";
  return std::move(out_);
}

std::string renderChromeTrace(const Schedule& schedule, const Simulation& sim) {
  ChromeTraceWriter w("\"displayTimeUnit\": \"ns\", \"otherData\": {\"mode\": \"" + jsonEscaped(schedule.mode) +
                      "\", \"stages\": " + std::to_string(schedule.stages) + ", \"micro_batches\": " +
                      std::to_string(schedule.microBatches) + ", \"vpp\": " + std::to_string(schedule.vpp) +
                      ", \"makespan\": " + std::to_string(sim.makespan) + "},\n");
  w.processName("pipeline " + schedule.mode);
  for (size_t s = 0; s < sim.stages.size(); ++s) {
    w.threadName(int64_t(s), "stage " + std::to_string(s));
    for (const TimedJob& t : sim.stages[s])
      w.complete(t.job.name(), kindName(t.job.kind), int64_t(s), std::to_string(t.start),
                 std::to_string(t.end - t.start),
                 "\"micro_batch\": " + std::to_string(t.job.microBatch) +
                     ", \"chunk\": " + std::to_string(t.job.chunkIndex()));
  }
  return w.take();
}

}  // namespace pir::passes::schedule
