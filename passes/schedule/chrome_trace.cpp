//===- chrome_trace.cpp - Chrome-trace JSON for Perfetto ----------------------===//
//
// One process, one thread per stage, one complete ("X") event per job with
// ts/dur in the simulator's time units (read as microseconds).
//
//===----------------------------------------------------------------------===//
#include <sstream>

#include "passes/schedule/formats.h"

namespace pir::passes::schedule {

std::string renderChromeTrace(const Schedule& schedule, const Simulation& sim) {
  std::ostringstream out;
  out << "{\"displayTimeUnit\": \"ns\", \"otherData\": {\"mode\": \"" << schedule.mode
      << "\", \"stages\": " << schedule.stages << ", \"micro_batches\": " << schedule.microBatches
      << ", \"vpp\": " << schedule.vpp << ", \"makespan\": " << sim.makespan << "},\n";
  out << "\"traceEvents\": [\n";
  out << "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": \"pipeline " << schedule.mode
      << "\"}}";
  for (size_t s = 0; s < sim.stages.size(); ++s) {
    out << ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": " << s
        << ", \"args\": {\"name\": \"stage " << s << "\"}}";
    for (const TimedJob& t : sim.stages[s]) {
      // Job names are [a-z_0-9:] only: no JSON escaping needed.
      out << ",\n{\"name\": \"" << t.job.name() << "\", \"cat\": \"" << kindName(t.job.kind)
          << "\", \"ph\": \"X\", \"pid\": 0, \"tid\": " << s << ", \"ts\": " << t.start
          << ", \"dur\": " << (t.end - t.start) << ", \"args\": {\"micro_batch\": " << t.job.microBatch
          << ", \"chunk\": " << t.job.chunkIndex() << "}}";
    }
  }
  out << "\n]}\n";
  return out.str();
}

}  // namespace pir::passes::schedule
