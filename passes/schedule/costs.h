//===- costs.h - job costs for the simulator and ZBVPP ----------*- C++ -*-===//
//
// Costs per job kind in abstract time units. A full `backward` costs
// backward_b + backward_w; `recv_forward` and `send_backward` cost 0;
// `communication` is added on every cross-stage dependency. Memory terms are
// used only by ZBVPP's VScheduleCreator (zero and unlimited by default).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <limits>
#include <string>

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

  /// Paddle's ZBVPP defaults (pipeline_zero_bubble.py): F 50, B 55, W 45, comm 5.
  static Costs paddleZbvppDefaults();
  int64_t of(JobKind kind) const;
};

/// Reads a costs YAML file: any of forward, backward_b, backward_w,
/// communication, optimizer (integers), memory: {forward, backward_b,
/// backward_w}, max_memory. Keys not given keep their defaults. A pir-run
/// summary.yaml (it has `per_rank`) is read through its `costs` map.
core::Result<Costs> loadCosts(const std::string& path);
/// The same from YAML text (`what` names the source in errors).
core::Result<Costs> parseCosts(const std::string& text, const std::string& what);

/// The job costs as the map parseCosts reads, under the key `costs:` with
/// `comment` after it, indented by two spaces (pir-run's summary.yaml: the
/// one writer of the format).
std::string writeCostsEntry(const Costs& costs, const std::string& comment);

}  // namespace pir::passes::schedule
