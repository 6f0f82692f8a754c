//===- chrome_trace.h - Chrome-trace JSON, the one writer --------*- C++ -*-===//
//
// The Chrome trace format (Perfetto, chrome://tracing) as `pir-opt schedule`
// and `pir-run --trace` write it: optional keys, then `traceEvents`, a list
// of metadata ("M") and complete ("X") events of process 0. Every name is
// escaped as a JSON string; numbers are written as the caller formats them
// (the simulator's integer units, the runner's microseconds).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pir::passes::schedule {

/// `s` as the inside of a JSON string: `"`, `\` and control bytes escaped.
std::string jsonEscaped(std::string_view s);

class ChromeTraceWriter {
 public:
  /// `head`: top-level keys written before `traceEvents`, each with its
  /// trailing separator (`"displayTimeUnit": "ns", ...,\n`); may be empty.
  explicit ChromeTraceWriter(std::string_view head = {});
  /// Process 0's name.
  void processName(std::string_view name);
  /// Thread `tid`'s name.
  void threadName(int64_t tid, std::string_view name);
  /// A complete event on thread `tid` of process 0: `ts` and `dur` as
  /// written; `category` and `args` (the inside of the args object) are
  /// left out when empty.
  void complete(std::string_view name, std::string_view category, int64_t tid, std::string_view ts,
                std::string_view dur, std::string_view args = {});
  /// The JSON text; the writer is spent.
  std::string take();

 private:
  void next();
  std::string out_;
  bool first_ = true;
};

}  // namespace pir::passes::schedule
