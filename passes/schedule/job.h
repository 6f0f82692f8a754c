//===- job.h - pipeline jobs and per-stage job lists ------------*- C++ -*-===//
//
// A job is "JOB_TYPE:MICRO_BATCH", the type being one of Paddle's program
// names (`forward`, `backward_b1`, `recv_forward0`, `optimizer`, ...): a kind
// plus an optional chunk suffix. A Schedule is one job list per stage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace pir::passes::schedule {

enum class JobKind { RecvForward, Forward, Backward, BackwardB, BackwardW, SendBackward, Optimizer };

/// The program-name stem of a kind ("recv_forward", "backward_b", ...).
std::string_view kindName(JobKind kind);

struct Job {
  JobKind kind = JobKind::Forward;
  int chunk = -1;  ///< chunk suffix of the type, -1 when the type has none
  int microBatch = 0;
  /// DualPipeV's overlapped F&B pair: this job (the B) overlaps the one
  /// before it (the F). On CPU the two run one after the other; the mark
  /// keeps the pair for the formats (YAML `"F & B"`, torch's OVERLAP_F_B).
  bool overlapsPrevious = false;

  /// The job type, e.g. "forward", "backward_w1".
  std::string type() const;
  /// "TYPE:MICRO_BATCH".
  std::string name() const;
  /// The chunk a dependency model uses (no suffix means chunk 0).
  int chunkIndex() const { return chunk < 0 ? 0 : chunk; }
  bool operator==(const Job& other) const = default;
};

/// Parses "TYPE:MICRO_BATCH" (a missing ":N" means micro-batch 0).
core::Result<Job> parseJob(std::string_view text);

/// How an overlapped pair is spelled in a job-list file: "forward0:7 & backward1:3".
inline constexpr std::string_view kOverlapSeparator = " & ";

/// Which dependency model a mode uses (see dependency.h).
enum class Placement { Interleaved, VShape };

/// Whether `mode` places its two chunks a stage in a V (chunk 0 of stage s
/// is part s, chunk 1 part 2P-1-s): ZBVPP, ZBV and DualPipeV.
inline bool vPlacedMode(std::string_view mode) { return mode == "ZBVPP" || mode == "ZBV" || mode == "DualPipeV"; }

/// What a schedule may hold, generated or read. The dry run keeps a cell
/// per stage and step, and a step per job at worst: past these bounds a few
/// options or a small file would ask for gigabytes and hours.
inline constexpr int64_t kMaxScheduleStages = 1024;
inline constexpr int64_t kMaxScheduleJobs = int64_t{1} << 20;   // over all stages
inline constexpr int64_t kMaxScheduleCells = int64_t{1} << 26;  // stages x jobs
inline constexpr int64_t kMaxJobCost = int64_t{1} << 40;        // so that sums cannot overflow

/// Where a schedule file says something: 1-based line and column.
struct SourcePos {
  int line = 0;
  int column = 0;
  /// "LINE:COL".
  std::string str() const { return std::to_string(line) + ":" + std::to_string(column); }
};

/// Where each part of a schedule read from YAML stands (empty for a
/// generated one), so that errors point into the file.
struct ScheduleSource {
  bool read = false;
  SourcePos root, stages;                    ///< the file's start, the `stages` value
  std::vector<SourcePos> stageEntries;       ///< each stage's `jobs` list
  std::vector<std::vector<SourcePos>> jobs;  ///< each job's string, per stage
};

struct Schedule {
  std::string mode;
  int stages = 0;
  int microBatches = 0;
  int vpp = 1;
  std::vector<std::vector<Job>> stageJobs;  ///< one list per stage
  ScheduleSource source = {};

  Placement placement() const { return vPlacedMode(mode) ? Placement::VShape : Placement::Interleaved; }
};

/// Whether any job of `schedule` is a backward_b (a split backward).
bool hasSplitBackward(const Schedule& schedule);

/// `schedule` with every full backward (`backward{c}`) whose stage has no
/// program of its type, but both halves, replaced by its backward_b{c} then
/// its backward_w{c}: the same work, so DualPipeV's full B (and torch's,
/// which merges an I and its W) runs on the split program sets (ZBVPP's,
/// VPP split-bw's). `hasProgram(stage, type)` says what a stage has.
Schedule withBackwardHalves(Schedule schedule, const std::function<bool(int, const std::string&)>& hasProgram);

}  // namespace pir::passes::schedule
