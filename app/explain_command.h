//===- explain_command.h - `pir-opt explain-reshard` -------------*- C++ -*-===//
#pragma once

namespace pir::app {

/// `pir-opt explain-reshard`: the plan of each planner for one reshard
/// (--src/--dst/--mesh/--shape, or the reshard of PROGRAM at --at LINE),
/// with its steps, bytes and time; for a whole PROGRAM, each reshard's bytes
/// and the totals with each planner (passes/lowering/explain.h). argv[0] is
/// "explain-reshard". Exit codes: 0, 1 bad input or options, 2 internal.
int runExplainReshard(int argc, char** argv);

}  // namespace pir::app
