//===- comm_check.h - does the real communication of the jobs work -*- C++ -*-===//
//
// The dry run (dry_run.h) checks a job list against a dependency model of
// job names; this check follows what the job programs themselves send and
// receive. Every rank steps through its stage's job list, each job being
// the top-level ops of that rank's program of the job's type, run for the
// job's micro-batch; ops other than communication are skipped.
//
//   - pd_op.send_v2 never blocks (buffered); pd_op.recv_v2 blocks until its
//     message is there, paired as core/message_key.h says (the one rule:
//     by message_index and micro-batch on its channel, else in order);
//   - a collective (all_reduce, c_allreduce_sum, all_gather, reduce_scatter,
//     all_to_all, broadcast and their spellings) blocks until every member
//     of its ring has reached its next collective on that ring.
//
// It reports, each at the op in its job program (FILE:LINE:COL, with notes
// at the other ops involved): a receive whose message has another dtype or
// shape; a receive taking another micro-batch's message (in-order pairing),
// or pairing an op with message_index with one without; two messages with
// one key in flight; members of a collective disagreeing on kind, reduce
// type, root, dtype or shape; a deadlock (no rank can move, some are not
// done), with the cycle of waits first and every blocked rank's wait; a
// message never received; and a kwarg that a job of the rank makes but that
// no earlier job of the rank made for the same micro-batch (the runner's
// scope rule, runtime/runner/session.h). The work is linear in the job
// list's length times the ops of each job.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/process_group.h"
#include "core/program.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

/// One program a rank runs: a job program ("forward1") or, with no
/// schedule, the rank's one program (job "").
struct CommProgram {
  int64_t rank = 0;
  int stage = -1;   ///< with a schedule: the stage whose job list the rank runs
  std::string job;  ///< the job type; "" for a plain per-rank program
  const core::Program* program = nullptr;
  const core::SourceFile* source = nullptr;  ///< where its ops' offsets point
};

struct CommCheckInput {
  std::vector<CommProgram> programs;
  /// Null: each rank runs its one program once, as micro-batch 0.
  const Schedule* schedule = nullptr;
  /// Every ring the programs name (ring 0 too when they use the world:
  /// core::RingTable::addWorld).
  const core::RingTable* rings = nullptr;
};

/// At most this many errors are reported; a last one says how many more.
inline constexpr size_t kMaxCommErrors = 20;

struct CommCheckReport {
  /// Each located in its own source (Diagnostic::source), in the order
  /// found; empty when the communication is valid.
  std::vector<core::Diagnostic> errors;
  int64_t messages = 0;     ///< sends paired with a receive
  int64_t collectives = 0;  ///< collectives completed (once per ring, not per member)

  bool valid() const { return errors.empty(); }
};

CommCheckReport checkCommunication(const CommCheckInput& input);

/// Every error rendered: `FILE:LINE:COL: error: ...`, the source line and a
/// caret, then its notes the same way.
std::string renderCommErrors(const CommCheckReport& report);

}  // namespace pir::passes::schedule
