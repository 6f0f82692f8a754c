//===- costs.h - job costs for the simulator and ZBVPP ----------*- C++ -*-===//
//
// Costs per job kind in abstract time units. A full `backward` costs
// backward_b + backward_w; `recv_forward` and `send_backward` cost 0;
// `communication` is added on every cross-stage dependency. Memory terms are
// used only by ZBVPP's VScheduleCreator (zero and unlimited by default).
//
// Per stage, a cost per job type (`forward1`) or kind (`forward`) overrides
// the kind's (what pir-run measured: summary.yaml's `stage_costs_us`), and
// the bytes a job type sends, divided by `bytes_per_us`, are added to a
// dependency on it from another stage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

struct Costs {
  int64_t forward = 1;
  int64_t backwardB = 1;
  int64_t backwardW = 1;
  int64_t communication = 0;
  int64_t optimizer = 0;
  double memForward = 0, memBackwardB = 0, memBackwardW = 0;
  double maxMemory = std::numeric_limits<double>::infinity();
  bool fromFile = false;  ///< set by loadCosts
  /// Per stage: a job type's or kind's cost, and the bytes a job type sends a run.
  std::vector<std::map<std::string, int64_t>> stageCosts, stageBytes;
  double bytesPerUs = 0;  ///< 0: bytes cost nothing

  /// Paddle's ZBVPP defaults (pipeline_zero_bubble.py): F 50, B 55, W 45, comm 5.
  static Costs paddleZbvppDefaults();
  int64_t of(JobKind kind) const;
  /// `job`'s cost on `stage`: its type's, else its kind's there (a full
  /// backward: its two halves'), else of(kind).
  int64_t of(int stage, const Job& job) const;
  /// What a dependency of another stage on `job` of `stage` waits past its
  /// end: `communication` plus the bytes the job sends over bytesPerUs.
  int64_t communicationAfter(int stage, const Job& job) const;
};

/// Reads a costs YAML file: any of forward, backward_b, backward_w,
/// communication, optimizer (integers), memory: {forward, backward_b,
/// backward_w}, max_memory, bytes_per_us, and `stages`: a list of
/// {stage: S, jobs: {TYPE: COST}, bytes_sent: {TYPE: BYTES}}. Keys not given
/// keep their defaults. A pir-run summary.yaml (it has `per_rank`) is read
/// through its `costs` map and its `stage_costs_us` (the same list).
core::Result<Costs> loadCosts(const std::string& path);
/// The same from YAML text (`what` names the source in errors).
core::Result<Costs> parseCosts(const std::string& text, const std::string& what);

/// The job costs as the map parseCosts reads, under the key `costs:` with
/// `comment` after it, indented by two spaces (pir-run's summary.yaml: the
/// one writer of the format).
std::string writeCostsEntry(const Costs& costs, const std::string& comment);

}  // namespace pir::passes::schedule
