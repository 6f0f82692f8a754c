//===- job.cpp - job names ------------------------------------------------===//
#include "passes/schedule/job.h"

#include <array>
#include <charconv>
#include <utility>

namespace pir::passes::schedule {

namespace {

// Longest stems first so "backward_b" is not read as "backward" + "_b".
constexpr std::array<std::pair<std::string_view, JobKind>, 7> kStems = {{
    {"recv_forward", JobKind::RecvForward},
    {"send_backward", JobKind::SendBackward},
    {"backward_b", JobKind::BackwardB},
    {"backward_w", JobKind::BackwardW},
    {"optimizer", JobKind::Optimizer},
    {"backward", JobKind::Backward},
    {"forward", JobKind::Forward},
}};

bool parseInt(std::string_view text, int& out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

}  // namespace

std::string_view kindName(JobKind kind) {
  for (const auto& [stem, k] : kStems)
    if (k == kind) return stem;
  return "?";
}

std::string Job::type() const {
  std::string text(kindName(kind));
  if (chunk >= 0) text += std::to_string(chunk);
  return text;
}

std::string Job::name() const { return type() + ":" + std::to_string(microBatch); }

core::Result<Job> parseJob(std::string_view text) {
  std::string_view type = text;
  Job job;
  if (size_t colon = text.find(':'); colon != std::string_view::npos) {
    type = text.substr(0, colon);
    if (!parseInt(text.substr(colon + 1), job.microBatch))
      return core::Status::error("bad micro-batch in job '" + std::string(text) + "'");
  }
  for (const auto& [stem, kind] : kStems) {
    if (type.substr(0, stem.size()) != stem) continue;
    std::string_view rest = type.substr(stem.size());
    if (!rest.empty() && !parseInt(rest, job.chunk)) continue;
    job.kind = kind;
    return job;
  }
  return core::Status::error("unknown job type '" + std::string(type) +
                             "' (expected recv_forward, forward, backward, backward_b, "
                             "backward_w, send_backward or optimizer, with an optional chunk)");
}

bool hasSplitBackward(const Schedule& schedule) {
  for (const auto& jobs : schedule.stageJobs)
    for (const Job& job : jobs)
      if (job.kind == JobKind::BackwardB) return true;
  return false;
}

Schedule withBackwardHalves(Schedule schedule, const std::function<bool(int, const std::string&)>& hasProgram) {
  for (size_t s = 0; s < schedule.stageJobs.size(); ++s) {
    const int stage = static_cast<int>(s);
    std::vector<Job> jobs;
    std::vector<SourcePos> positions;
    const bool placed = schedule.source.read && s < schedule.source.jobs.size();
    for (size_t i = 0; i < schedule.stageJobs[s].size(); ++i) {
      const Job& job = schedule.stageJobs[s][i];
      Job b = job, w = job;
      b.kind = JobKind::BackwardB;
      w.kind = JobKind::BackwardW;
      w.overlapsPrevious = false;
      const bool halves = job.kind == JobKind::Backward && !hasProgram(stage, job.type()) &&
                          hasProgram(stage, b.type()) && hasProgram(stage, w.type());
      for (const Job& piece : halves ? std::vector<Job>{b, w} : std::vector<Job>{job}) {
        jobs.push_back(piece);
        if (placed) positions.push_back(schedule.source.jobs[s][i]);
      }
    }
    schedule.stageJobs[s] = std::move(jobs);
    if (placed) schedule.source.jobs[s] = std::move(positions);
  }
  return schedule;
}

}  // namespace pir::passes::schedule
