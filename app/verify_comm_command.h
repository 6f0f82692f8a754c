//===- verify_comm_command.h - `pir-opt verify-comm DIR` ----------*- C++ -*-===//
#pragma once

#include <string>

#include "passes/schedule/comm_check.h"
#include "passes/schedule/job.h"

namespace pir::app {

/// `pir-opt verify-comm DIR [--schedule S.yaml]`: the communication check
/// (passes/schedule/comm_check.h) of a folder `pir-opt --output-dir` wrote:
/// per-rank programs (split-ranks), each run once; or job programs
/// (pipeline-split) run as the job lists of S.yaml say. Prints `DIR:
/// communication valid (N messages, M collectives)`. argv[0] is
/// "verify-comm". Exit codes: 0 valid, 1 an error (printed), 2 internal.
int runVerifyComm(int argc, char** argv);

/// The check of folder `dir` with `schedule` (null: one program per rank):
/// its errors rendered on stderr and 1, else 0 with `report` filled in.
/// `tool` names the command in a failure of its own.
int checkFolderComm(const char* tool, const std::string& dir, const passes::schedule::Schedule* schedule,
                    passes::schedule::CommCheckReport& report);

}  // namespace pir::app
