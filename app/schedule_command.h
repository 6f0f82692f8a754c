//===- schedule_command.h - `pir-opt schedule ...` --------------*- C++ -*-===//
#pragma once

namespace pir::app {

/// `pir-opt schedule --mode M --stages P --micro-batches N ...` builds,
/// checks and simulates a pipeline job list; `pir-opt schedule --check FILE`
/// validates one. argv[0] is "schedule". Exit codes: 0 ok, 1 bad options or
/// an invalid / deadlocking list, 2 internal error.
int runSchedule(int argc, char** argv);

}  // namespace pir::app
