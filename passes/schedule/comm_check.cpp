//===- comm_check.cpp - does the real communication of the jobs work -------===//
//
// Reads every program once (comm_ops.h), lays out each rank's job list
// (its stage's list of the schedule, or its one program), checks the
// hand-over of values between jobs (comm_data_flow.h), then steps the ranks
// together (comm_simulator.h).
//
//===----------------------------------------------------------------------===//
#include "passes/schedule/comm_check.h"

#include <deque>
#include <map>
#include <string_view>
#include <unordered_map>

#include "passes/schedule/comm_data_flow.h"
#include "passes/schedule/comm_ops.h"
#include "passes/schedule/comm_report.h"
#include "passes/schedule/comm_simulator.h"

namespace pir::passes::schedule {

namespace {

core::Diagnostic unlocated(std::string message) {
  core::Diagnostic d;
  d.message = std::move(message);
  return d;
}

/// The job list of `rank`, whose programs are `codes`: its stage's list of
/// `schedule`, each job the rank's program of the job's type; or, without
/// a schedule, its one program. False (and errors) when it has none.
bool layOut(RankRun& run, const std::vector<const JobCode*>& codes, const Schedule* schedule, CommErrors& errors) {
  const std::string rank = "rank " + std::to_string(run.rank);
  if (!schedule) {
    if (codes.size() != 1) {
      errors.add(unlocated(rank + " has " + std::to_string(codes.size()) +
                           " programs; without a schedule each rank runs one (give the job list)"));
      return false;
    }
    run.jobs.push_back({run.rank, nullptr, codes[0]});
    return true;
  }
  const int stage = codes[0]->program->stage;
  for (const JobCode* c : codes)
    if (c->program->stage != stage) {
      errors.add(unlocated(rank + " has programs of stages " + std::to_string(stage) + " and " +
                           std::to_string(c->program->stage)));
      return false;
    }
  if (stage < 0 || size_t(stage) >= schedule->stageJobs.size()) {
    errors.add(unlocated(rank + " is on stage " + std::to_string(stage) + ", the schedule has " +
                         std::to_string(schedule->stageJobs.size())));
    return false;
  }
  std::unordered_map<std::string_view, const JobCode*> byType;
  for (const JobCode* c : codes)
    if (!byType.emplace(c->program->job, c).second) {
      errors.add(unlocated(rank + " has two programs for job " + c->program->job));
      return false;
    }
  const std::vector<Job>& jobs = schedule->stageJobs[size_t(stage)];
  run.jobs.reserve(jobs.size());
  std::unordered_map<std::string, const JobCode*> ofType;  // each job's type, spelled once
  bool complete = true;
  for (const Job& job : jobs) {
    std::string type = job.type();
    auto known = ofType.find(type);
    if (known == ofType.end()) {
      auto found = byType.find(type);
      known = ofType.emplace(type, found == byType.end() ? nullptr : found->second).first;
      if (!known->second) {
        errors.add(unlocated(rank + " (stage " + std::to_string(stage) + ") has no program for job " + type));
        complete = false;
      }
    }
    run.jobs.push_back({run.rank, &job, known->second});
  }
  return complete;
}

}  // namespace

CommCheckReport checkCommunication(const CommCheckInput& input) {
  static const core::RingTable kNoRings;
  const core::RingTable& rings = input.rings ? *input.rings : kNoRings;
  CommErrors errors;
  CommCheckReport report;
  std::deque<JobCode> codes;  // stable addresses
  std::map<int64_t, std::vector<const JobCode*>> byRank;
  std::vector<core::Diagnostic> unplaced;
  for (const CommProgram& p : input.programs) {
    codes.push_back(indexJob(p, rings, unplaced));
    byRank[p.rank].push_back(&codes.back());
  }
  errors.addAll(std::move(unplaced));
  std::vector<RankRun> runs;
  bool laidOut = true;
  for (const auto& [rank, programs] : byRank) {
    RankRun& run = runs.emplace_back();
    run.rank = rank;
    run.programs = programs;
    laidOut &= layOut(run, programs, input.schedule, errors);
  }
  if (errors.count() == 0 && laidOut) {
    for (const RankRun& run : runs) checkDataFlow(run, errors);
    CommCounts counts = simulateCommunication(runs, rings, errors);
    report.messages = counts.messages;
    report.collectives = counts.collectives;
  }
  report.errors = errors.take();
  return report;
}

std::string renderCommErrors(const CommCheckReport& report) {
  std::string out;
  for (const core::Diagnostic& d : report.errors) out += core::renderDiagnostic(nullptr, d);
  return out;
}

}  // namespace pir::passes::schedule
