//===- program_splitter.h - one program into named jobs ---------*- C++ -*-===//
//
// Given where each top-level op goes (one or more jobs), builds the jobs'
// programs: ops are cloned in program order; a value a job reads from an
// earlier job becomes a kwarg under `^kw:` (kwargs sorted by name), and the
// job that makes it exports it with a `builtin.shadow_output` right after
// its producer, unless it already has a name: a `pd_op.data`'s `name`, a
// `builtin.parameter`'s `parameter_name`, or the `output_name` of an
// existing shadow_output. Other values are named `var_{idx}_{op}_{result}`
// (idx: the producer's index among the program's top-level ops).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"
#include "passes/pass.h"

namespace pir::passes {

struct SplitPlan {
  std::vector<std::string> jobs;
  /// Per top-level op, the job it is made in, where readers in other jobs
  /// get it from.
  std::vector<int> home;
  /// A job that holds copies of the ops marked in `copied` too (ZBH1's
  /// `backward`): it exports only to jobs outside `copyReaders`, which read
  /// the originals instead.
  int copyJob = -1;
  std::vector<int> copyReaders;
  std::vector<uint8_t> copied;  // per top-level op; empty without copyJob
};

core::Status splitProgram(core::Program& program, const std::vector<core::Operation*>& ops, const SplitPlan& plan,
                          core::ProgramSet& out, core::DiagnosticEngine& diag, PassStatistics& stats);

}  // namespace pir::passes
