//===- dry_run.cpp - can every stage run its list to the end ----------------===//
#include "passes/schedule/dry_run.h"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "passes/schedule/dependency.h"

namespace pir::passes::schedule {

namespace {

using Done = std::set<std::tuple<int, JobKind, int, int>>;

bool finished(const Done& done, const Dependency& dep) {
  return done.count({dep.stage, dep.job.kind, dep.job.chunkIndex(), dep.job.microBatch}) > 0;
}

/// The first dependency of `job` not finished, if any.
std::optional<Dependency> firstMissing(const std::vector<Dependency>& deps, const Done& done) {
  for (const Dependency& dep : deps)
    if (!finished(done, dep)) return dep;
  return std::nullopt;
}

std::string renderGrid(const std::vector<std::vector<std::string>>& cells) {
  const int steps = cells.empty() ? 0 : int(cells[0].size());
  std::vector<size_t> width(steps, 1);
  for (int c = 0; c < steps; ++c) {
    width[c] = std::max(width[c], (c + 1 == steps ? std::string("stuck") : std::to_string(c)).size());
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto pad = [](std::string text, size_t n) { return text.append(n - text.size(), ' '); };
  std::ostringstream out;
  std::string header = pad("step", 8);
  for (int c = 0; c < steps; ++c) header += " | " + pad(c + 1 == steps ? "stuck" : std::to_string(c), width[c]);
  while (!header.empty() && header.back() == ' ') header.pop_back();
  out << header << "\n";
  for (size_t s = 0; s < cells.size(); ++s) {
    std::string line = pad("stage " + std::to_string(s), 8);
    for (int c = 0; c < steps; ++c) line += " | " + pad(cells[s][c], width[c]);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  return out.str();
}

}  // namespace

DryRunResult dryRun(const Schedule& schedule) {
  DependencyModel model(schedule);
  const int p = int(schedule.stageJobs.size());
  std::vector<size_t> next(p, 0);
  std::vector<std::vector<std::string>> cells(p);
  Done done;
  DryRunResult result;
  for (;;) {
    std::vector<std::tuple<int, JobKind, int, int>> ranNow;
    bool unfinished = false;
    for (int s = 0; s < p; ++s) {
      const auto& jobs = schedule.stageJobs[s];
      if (next[s] >= jobs.size()) {
        cells[s].push_back(".");
        continue;
      }
      unfinished = true;
      const Job& job = jobs[next[s]];
      if (firstMissing(model.dependencies(s, job), done)) {
        cells[s].push_back(".");
        continue;
      }
      cells[s].push_back(job.name());
      ranNow.emplace_back(s, job.kind, job.chunkIndex(), job.microBatch);
      ++next[s];
    }
    if (!unfinished) {
      for (auto& row : cells) row.pop_back();
      return result;
    }
    if (ranNow.empty()) break;
    done.insert(ranNow.begin(), ranNow.end());
    ++result.steps;
  }
  // Deadlock: the last column becomes the "stuck" column.
  result.deadlock = true;
  std::ostringstream waits;
  result.stuckAt.assign(p, -1);
  for (int s = 0; s < p; ++s) {
    const auto& jobs = schedule.stageJobs[s];
    if (next[s] >= jobs.size()) {
      cells[s].back() = "done";
      continue;
    }
    result.stuckAt[s] = static_cast<int>(next[s]);
    const Job& job = jobs[next[s]];
    cells[s].back() = "*" + job.name() + "*";
    std::optional<Dependency> dep = firstMissing(model.dependencies(s, job), done);
    waits << "stage " << s << ": " << job.name() << " waits for " << dep->job.name() << " on stage " << dep->stage
          << "\n";
  }
  result.report = "deadlock after " + std::to_string(result.steps) +
                  " steps: no stage can start its next job (marked *job*)\n" + renderGrid(cells) + waits.str();
  return result;
}

}  // namespace pir::passes::schedule
