//===- trace_sink.h - where a traced run's events go ---------------*- C++ -*-===//
//
// A traced run (pir-run --trace) hands a TraceSink to Executor::run (through
// RunStats). The executor reports each op's run; while a kernel runs, the
// rank's communicator reports to the same sink the ring and payload bytes of
// each of its calls and each wait for a peer. Every call comes from the
// rank's own thread, so a sink needs no locks, and nothing is written into
// the communicator's statistics for it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace pir::runtime {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  /// A communication call of the running op: its ring, its payload bytes
  /// (the tensor a collective or send takes, the tensor a receive gets).
  virtual void commCall(int64_t ring, uint64_t bytes) = 0;
  /// A wait for a peer within the running op (steady_clock nanoseconds). In
  /// process: blocked until the peer's message is there; under MPI, the time
  /// in MPI's waits (which includes the transfer).
  virtual void commWait(int64_t startNs, int64_t durationNs) = 0;
  /// The op at plan step `step` ran from `startNs` for `durationNs`.
  virtual void op(uint32_t step, int64_t startNs, int64_t durationNs) = 0;
};

/// One op's run, for --trace; or (step kWait) a wait for a peer within the
/// op before it.
struct OpEvent {
  static constexpr uint32_t kWait = UINT32_MAX;
  uint32_t step;  // index in the plan
  int64_t startNs, durationNs;
  int64_t ring = -1;   // a communicating op's ring (its last call's), else -1
  uint64_t bytes = 0;  // and the payload bytes of all its calls
};

/// A sink that appends to `events`: each op's event, then the waits within it.
class EventRecorder final : public TraceSink {
 public:
  explicit EventRecorder(std::vector<OpEvent>& events) : events_(events) {}
  void commCall(int64_t ring, uint64_t bytes) override {
    ring_ = ring;
    bytes_ += bytes;
  }
  void commWait(int64_t startNs, int64_t durationNs) override { waits_.push_back({startNs, durationNs}); }
  void op(uint32_t step, int64_t startNs, int64_t durationNs) override {
    events_.push_back({step, startNs, durationNs, ring_, bytes_});
    for (auto [start, duration] : waits_) events_.push_back({OpEvent::kWait, start, duration, ring_, 0});
    ring_ = -1;
    bytes_ = 0;
    waits_.clear();
  }

 private:
  std::vector<OpEvent>& events_;
  int64_t ring_ = -1;
  uint64_t bytes_ = 0;
  std::vector<std::pair<int64_t, int64_t>> waits_;
};

}  // namespace pir::runtime
