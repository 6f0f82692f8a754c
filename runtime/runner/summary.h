//===- summary.h - summary.yaml ----------------------------------*- C++ -*-===//
//
// What pir-run writes beside the tensors: the ranks (the world size, what
// `mpirun -np` must be: 4 for a program on process_ids [2,3]; per_rank lists
// the ranks that run a program), the losses and each rank's costs; for a pipeline also each stage's job costs, the
// measured makespan and bubble, and `costs:` (what `pir-opt schedule --costs` reads).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>

#include "runtime/runner/session.h"

namespace pir::runtime::runner {

/// summary.yaml of a session's run.
std::string summaryYaml(const Session& session, int64_t steps, const SessionResults& results);

/// `v` with 9 significant digits (stdout, summary.yaml).
std::string number(double v);

/// summary.yaml's flow map of a rank's bytes (sent or received) by ring: `{0: 64, 3: 8}`.
std::string bytesByRingYaml(const std::map<int64_t, uint64_t>& bytesByRing);

}  // namespace pir::runtime::runner
