//===- list_check.h - the one check of a job list read from a file -*- C++ -*-===//
//
// What `pir-opt schedule --check FILE` and `pir-run --schedule FILE` check
// of the list itself, before anything runs it: the validator's problems
// (validator.h), each at its job or list; when there are none, the dry run
// (dry_run.h), whose deadlock is an error for the whole file with a note per
// stuck stage at the job it is stuck at. Both tools call this, so a list one
// refuses the other refuses with the same messages.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "passes/schedule/job.h"
#include "passes/schedule/validator.h"

namespace pir::passes::schedule {

/// Every problem with `schedule`, in order (a deadlock's report is one
/// multi-line message); empty when the list is valid and runs to its end.
std::vector<ScheduleProblem> checkScheduleList(const Schedule& schedule);

/// `problems` of the list read from `file` (its text `text`) as one located
/// failure, ready to print: `FILE:LINE:COL: error: MESSAGE`, the line and a
/// caret (`note:` for notes), or `FILE: error: MESSAGE` without a place; ok
/// when there are none.
core::Status renderScheduleProblems(const std::vector<ScheduleProblem>& problems, const std::string& file,
                                    std::string_view text);

/// Reads the list at `path` (torch's CSV for `.csv`, read for `mode`'s
/// program set, "" to infer it) and checks it (checkScheduleList): a failure
/// to read, parse or check is a located, rendered error.
core::Result<Schedule> loadCheckedSchedule(const std::string& path, const std::string& mode = "");

}  // namespace pir::passes::schedule
