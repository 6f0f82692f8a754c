//===- list_check.cpp - the one check of a job list read from a file ------===//
#include "passes/schedule/list_check.h"

#include <fstream>
#include <sstream>

#include "core/diagnostics.h"
#include "passes/schedule/dry_run.h"
#include "passes/schedule/formats.h"

namespace pir::passes::schedule {

std::vector<ScheduleProblem> checkScheduleList(const Schedule& schedule) {
  std::vector<ScheduleProblem> problems = findScheduleProblems(schedule);
  if (!problems.empty()) return problems;
  DryRunResult dry = dryRun(schedule);
  if (!dry.deadlock) return problems;
  problems.push_back({false, SourcePos{}, dry.report});
  for (size_t s = 0; s < dry.stuckAt.size(); ++s)
    if (int at = dry.stuckAt[s]; at >= 0) {
      const SourcePos pos = schedule.source.read ? schedule.source.jobs[s][size_t(at)] : SourcePos{};
      problems.push_back(
          {true, pos, "stage " + std::to_string(s) + " is stuck at " + schedule.stageJobs[s][size_t(at)].name()});
    }
  return problems;
}

namespace {

/// The byte offset of `pos` in `text`, or -1 when the text has no such place.
int64_t offsetOf(std::string_view text, SourcePos pos) {
  if (pos.line < 1 || pos.column < 1) return -1;
  size_t at = 0;
  for (int line = 1; line < pos.line; ++line) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return -1;
    ++at;
  }
  size_t end = text.find('\n', at);
  size_t col = size_t(pos.column - 1);
  if (at + col > (end == std::string_view::npos ? text.size() : end)) return -1;
  return int64_t(at + col);
}

}  // namespace

core::Status renderScheduleProblems(const std::vector<ScheduleProblem>& problems, const std::string& file,
                                    std::string_view text) {
  if (problems.empty()) return core::Status::ok();
  core::SourceFile source(file, text);
  std::string out;
  for (const ScheduleProblem& p : problems) {
    const core::Severity severity = p.note ? core::Severity::Note : core::Severity::Error;
    if (int64_t offset = offsetOf(text, p.at); offset >= 0) {
      out += core::renderDiagnostic(&source, core::Diagnostic{severity, offset, p.message, {}});
      continue;
    }
    // Unplaced (a deadlock's grid): its lines as they are.
    out += file + ": " + (p.note ? "note: " : "error: ") + p.message;
    if (out.back() != '\n') out += '\n';
  }
  return core::Status::rendered(core::ErrorKind::User, out);
}

core::Result<Schedule> loadCheckedSchedule(const std::string& path, const std::string& mode) {
  std::ifstream in(path);
  if (!in) return core::Status::error("cannot read the schedule '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  core::Result<Schedule> schedule =
      isTorchCsvPath(path) ? scheduleFromTorchCsv(text, path, mode) : scheduleFromYaml(text, path);
  if (!schedule) return schedule;
  if (core::Status s = renderScheduleProblems(checkScheduleList(*schedule), path, text); !s) return s;
  return schedule;
}

}  // namespace pir::passes::schedule
