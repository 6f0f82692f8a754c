//===- validator.h - is a job list complete and well ordered ----*- C++ -*-===//
//
// Checks each stage on its own: every job names a known type, a chunk below
// vpp and a micro-batch below N; no job appears twice; each (chunk,
// micro-batch) has one forward and either one backward or one backward_b
// plus one backward_w; a backward comes after its forward, a backward_w after
// its backward_b, a recv_forward before its forward, a send_backward after
// its backward; at most one optimizer, and it is last. Whether the stages
// together can run is the dry run's question (dry_run.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "passes/schedule/job.h"

namespace pir::passes::schedule {

/// One problem with a job list (or a note on one): its message ("stage S:
/// MESSAGE") and, for a schedule read from YAML, where in the file it stands
/// (the job or list concerned; line 0: the whole file).
struct ScheduleProblem {
  bool note = false;
  SourcePos at;
  std::string message;
};

/// Every problem found; empty when the list is valid.
std::vector<ScheduleProblem> findScheduleProblems(const Schedule& schedule);

/// findScheduleProblems' messages, each "LINE:COL: MESSAGE" when it has a
/// place in the file.
std::vector<std::string> validateSchedule(const Schedule& schedule);

/// Problems with job types that name no program in `dir` (a file TYPE.pir
/// or TYPE there); empty when every type has one.
std::vector<std::string> checkProgramsExist(const Schedule& schedule, const std::string& dir);

}  // namespace pir::passes::schedule
