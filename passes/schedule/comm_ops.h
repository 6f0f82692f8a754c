//===- comm_ops.h - what a job program communicates, read once ---*- C++ -*-===//
//
// The communication check (comm_check.h) reads each job program once into a
// JobCode: its top-level communication ops in program order, each with its
// ring, its peer as a global rank, its message index and the tensor it
// carries; the kwargs it reads and the names it exports. The ops and the
// attributes are the ones the runtime's kernels read (runtime/kernels/
// comm.cpp): `ring_id`, `peer` and `root` (positions in the ring's order,
// core::RingTable), `reduce_type` (0 SUM .. 4 AVG; the c_* spellings are
// SUM), `dynamic_shape` of a recv_v2 (it takes any shape).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/attributes.h"
#include "core/diagnostics.h"
#include "core/process_group.h"
#include "core/types.h"
#include "passes/schedule/comm_check.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

enum class CommOpKind : uint8_t { Send, Recv, Collective };
enum class CollectiveKind : uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast };

/// "all_reduce", "all_gather", ...
std::string_view collectiveKindName(CollectiveKind kind);

/// The tensor an op sends, receives or contributes, as its types state it.
struct CommType {
  bool known = false;  ///< false: no tensor type to compare with
  core::DataType dtype = core::DataType::Undefined;
  std::vector<int64_t> dims;  ///< -1: any size
  bool anyShape = false;      ///< a dynamic_shape recv_v2: any dims at all
};

/// Whether the two can be one tensor: same dtype, same rank, equal dims
/// where neither is -1 (an unknown type agrees with everything).
bool compatible(const CommType& a, const CommType& b);
/// "4x8xf32", "f32" (0-D), "?" (unknown).
std::string typeText(const CommType& t);

struct CommOp {
  CommOpKind kind = CommOpKind::Send;
  const core::Operation* op = nullptr;
  int64_t ring = 0;
  int64_t peer = -1;          ///< send/recv: the peer's global rank
  int64_t messageIndex = -1;  ///< core::messageIndex
  CollectiveKind collective = CollectiveKind::AllReduce;
  core::ReduceType reduce = core::ReduceType::Sum;  ///< all_reduce, reduce_scatter
  int64_t root = 0;                                 ///< broadcast: a position in the ring
  CommType type;
};

/// A kwarg a job reads that may be another job's value (not persistable),
/// and where it is first read (the op using it; -1: nowhere).
struct JobKwarg {
  std::string_view name;
  int64_t readAt = -1;
};

/// One job program, read for the check.
struct JobCode {
  const CommProgram* program = nullptr;
  std::vector<CommOp> ops;           ///< top-level communication, in order
  std::vector<JobKwarg> kwargs;      ///< non-persistable kwargs
  std::vector<std::string> exports;  ///< top-level builtin.shadow_output names
};

/// Where a rank is in its job list: a job of the schedule, or (job null)
/// its one program.
struct JobSite {
  int64_t rank = 0;
  const Job* job = nullptr;
  const JobCode* code = nullptr;

  int microBatch() const { return job ? job->microBatch : 0; }
  /// "rank R, job TYPE:MB" or "rank R".
  std::string name() const;
};

/// One rank's job list as the check runs it.
struct RankRun {
  int64_t rank = 0;
  std::vector<JobSite> jobs;             ///< in the order run
  std::vector<const JobCode*> programs;  ///< every program of the rank
};

/// `program`'s JobCode. An op the check cannot place (no ring_id, a ring
/// the table lacks or that does not hold the rank, a peer or root outside
/// the ring, a reduce_type outside 0..4) is an error appended to `errors`,
/// and the op is left out.
JobCode indexJob(const CommProgram& program, const core::RingTable& rings, std::vector<core::Diagnostic>& errors);

/// indexJob's errors for every communication op of `program`, in regions
/// too: what pir-run checks of each program before it computes (a ring
/// missing from ranks.yaml would otherwise stop it only when the op runs).
void checkCommRings(const CommProgram& program, const core::RingTable& rings, std::vector<core::Diagnostic>& errors);

}  // namespace pir::passes::schedule
