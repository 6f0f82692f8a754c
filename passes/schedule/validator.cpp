//===- validator.cpp - is a job list complete and well ordered --------------===//
#include "passes/schedule/validator.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

namespace pir::passes::schedule {

namespace {

using Key = std::tuple<JobKind, int, int>;  // kind, chunk index, micro-batch

class StageChecker {
 public:
  StageChecker(const Schedule& schedule, int stage, std::vector<ScheduleProblem>& errors)
      : schedule_(schedule), stage_(stage), errors_(errors) {}

  void run();

 private:
  /// Reports at job `at` of the stage, or at its list when -1 (a schedule
  /// read from a file: "LINE:COL: stage S: ...").
  void report(const std::string& message, int at = -1) {
    SourcePos where;
    if (const ScheduleSource& src = schedule_.source; src.read) {
      const auto& jobs = src.jobs[stage_];
      where = at >= 0 && at < int(jobs.size()) ? jobs[at] : src.stageEntries[stage_];
    }
    errors_.push_back({false, where, "stage " + std::to_string(stage_) + ": " + message});
  }
  int position(JobKind kind, int chunk, int mb) const {
    auto it = positions_.find(Key{kind, chunk, mb});
    return it == positions_.end() ? -1 : it->second;
  }
  std::string name(JobKind kind, int chunk, int mb) const {
    return Job{kind, schedule_.vpp > 1 ? chunk : -1, mb}.name();
  }
  bool indexJobs();
  void checkPair(int chunk, int mb);
  void before(JobKind first, JobKind second, int chunk, int mb);

  const Schedule& schedule_;
  int stage_;
  std::vector<ScheduleProblem>& errors_;
  std::map<Key, int> positions_;
};

bool StageChecker::indexJobs() {
  const auto& jobs = schedule_.stageJobs[stage_];
  bool ok = true;
  for (int i = 0; i < int(jobs.size()); ++i) {
    const Job& job = jobs[i];
    if (job.kind == JobKind::Optimizer) {
      if (positions_.count(Key{job.kind, 0, 0}))
        report("duplicate job optimizer", i);
      else if (i + 1 != int(jobs.size()))
        report("optimizer is not the last job", i);
      positions_[Key{job.kind, 0, 0}] = i;
      continue;
    }
    if (job.chunkIndex() >= std::max(1, schedule_.vpp)) {
      report("job " + job.name() + " names chunk " + std::to_string(job.chunkIndex()) + " but vpp is " +
                 std::to_string(schedule_.vpp),
             i);
      ok = false;
    } else if (job.microBatch >= schedule_.microBatches) {
      report("job " + job.name() + " names micro-batch " + std::to_string(job.microBatch) + " but there are " +
                 std::to_string(schedule_.microBatches),
             i);
      ok = false;
    }
    if (job.overlapsPrevious && (i == 0 || jobs[i - 1].kind != JobKind::Forward ||
                                 (job.kind != JobKind::Backward && job.kind != JobKind::BackwardB))) {
      report("job " + job.name() + " overlaps " + (i == 0 ? std::string("nothing") : jobs[i - 1].name()) +
                 ": an overlapped pair is a forward, then a backward",
             i);
      ok = false;
    }
    if (!positions_.emplace(Key{job.kind, job.chunkIndex(), job.microBatch}, i).second) {
      report("duplicate job " + job.name(), i);
      ok = false;
    }
  }
  return ok;
}

void StageChecker::before(JobKind first, JobKind second, int chunk, int mb) {
  int a = position(first, chunk, mb), b = position(second, chunk, mb);
  if (a >= 0 && b >= 0 && b < a) report(name(second, chunk, mb) + " comes before " + name(first, chunk, mb), b);
}

void StageChecker::checkPair(int chunk, int mb) {
  const bool f = position(JobKind::Forward, chunk, mb) >= 0;
  const bool full = position(JobKind::Backward, chunk, mb) >= 0;
  const bool b = position(JobKind::BackwardB, chunk, mb) >= 0;
  const bool w = position(JobKind::BackwardW, chunk, mb) >= 0;
  if (!f) report("missing job " + name(JobKind::Forward, chunk, mb));
  if (full && (b || w))
    report(name(JobKind::Backward, chunk, mb) + " and a split backward for the same micro-batch");
  else if (!full && !b && !w)
    report("missing job " + name(JobKind::Backward, chunk, mb) + " (or backward_b and backward_w)");
  else if (b && !w)
    report("missing job " + name(JobKind::BackwardW, chunk, mb));
  else if (w && !b)
    report("missing job " + name(JobKind::BackwardB, chunk, mb));
  before(JobKind::Forward, JobKind::Backward, chunk, mb);
  before(JobKind::Forward, JobKind::BackwardB, chunk, mb);
  before(JobKind::Forward, JobKind::BackwardW, chunk, mb);
  before(JobKind::BackwardB, JobKind::BackwardW, chunk, mb);
  before(JobKind::RecvForward, JobKind::Forward, chunk, mb);
  before(JobKind::Backward, JobKind::SendBackward, chunk, mb);
  before(JobKind::BackwardB, JobKind::SendBackward, chunk, mb);
}

void StageChecker::run() {
  if (!indexJobs()) return;
  for (int c = 0; c < std::max(1, schedule_.vpp); ++c)
    for (int mb = 0; mb < schedule_.microBatches; ++mb) checkPair(c, mb);
}

}  // namespace

std::vector<ScheduleProblem> findScheduleProblems(const Schedule& schedule) {
  std::vector<ScheduleProblem> errors;
  // Whole-file problems stand at `stages:` (or the file's start).
  const ScheduleSource& src = schedule.source;
  const SourcePos at = src.read ? (src.stages.line ? src.stages : src.root) : SourcePos{};
  if (schedule.stages < 1) errors.push_back({false, at, "stages must be at least 1"});
  if (schedule.microBatches < 1) errors.push_back({false, at, "micro_batches must be at least 1"});
  if (schedule.vpp < 1) errors.push_back({false, at, "vpp must be at least 1"});
  if (int(schedule.stageJobs.size()) != schedule.stages)
    errors.push_back({false, at,
                      "stages is " + std::to_string(schedule.stages) + " but " +
                          std::to_string(schedule.stageJobs.size()) + " stage lists are given"});
  if (!errors.empty()) return errors;
  for (int s = 0; s < schedule.stages; ++s) StageChecker(schedule, s, errors).run();
  return errors;
}

std::vector<std::string> validateSchedule(const Schedule& schedule) {
  std::vector<std::string> out;
  for (const ScheduleProblem& p : findScheduleProblems(schedule))
    out.push_back(p.at.line ? p.at.str() + ": " + p.message : p.message);
  return out;
}

std::vector<std::string> checkProgramsExist(const Schedule& schedule, const std::string& dir) {
  std::vector<std::string> errors;
  std::set<std::string> seen;
  for (const auto& jobs : schedule.stageJobs)
    for (const Job& job : jobs) {
      std::string type = job.type();
      if (!seen.insert(type).second) continue;
      std::error_code ec;
      std::filesystem::path base(dir);
      if (std::filesystem::exists(base / (type + ".pir"), ec) || std::filesystem::exists(base / type, ec)) continue;
      errors.push_back("job type '" + type + "' names no program in " + dir + " (no " + type + ".pir)");
    }
  return errors;
}

}  // namespace pir::passes::schedule
