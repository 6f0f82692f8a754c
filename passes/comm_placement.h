//===- comm_placement.h - where pipeline-split runs a reshard's steps -*- C++ -*-===//
//
// A lowered cross-stage reshard is a chain of steps on each side: on the
// source, the ops that cut or reduce the value and the send_v2; on the
// destination, the recv_v2 and the ops that join or reduce what arrived.
// The lowering gives them the op_role and chunk of the op that reads the
// value, as Paddle's does: a backward op reading a forward activation of an
// earlier stage makes the source stage send it in its backward, which waits
// for the later stage's gradient, which waits for that activation. So the
// steps are placed by their data, not by their marks:
//
//   - a source step (a send_v2, or a step whose every user is a source
//     step) runs in the latest job that makes one of its operands: as soon
//     as its data is there (a send never blocks);
//   - a destination step (a recv_v2, a step whose operands all come from
//     destination steps or constants, and a constant only they use) runs
//     in the earliest job that reads it: as late as the data is needed.
//
// A send then goes to the job's send job (1F1B/VPP: a backward's
// send_backward) and a recv_v2 to its receive job (a forward's
// recv_forward), as Paddle names them. Steps are the op table's
// kReshardStep ops. Every placement keeps each op after what it reads, so
// the split stays valid; the ops keep their attributes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

#include "core/operation.h"
#include "core/program.h"
#include "passes/program_splitter.h"

namespace pir::passes {

/// Per job of a plan: where a send of data made in it goes, and where a
/// recv_v2 whose data it needs first goes (the job itself, or e.g.
/// send_backward / recv_forward).
struct StepJobs {
  std::vector<int> sendJob, recvJob;
};

/// Moves the reshard steps among `ops` (top-level, passIndex() = position)
/// to the jobs their data says, in plan.home; a job of copies (ZBH1) then
/// copies exactly the ops homed in its copyReaders. Returns how many moved.
size_t placeReshardSteps(const std::vector<core::Operation*>& ops, const StepJobs& jobs, SplitPlan& plan);

/// Writes `message_index` (core/message_key.h) on every top-level send_v2
/// and recv_v2: its position among the program's sends (receives) on its
/// (ring_id, peer). Returns how many ops it wrote.
size_t writeMessageIndices(core::Program& program, const std::vector<core::Operation*>& ops);

}  // namespace pir::passes
