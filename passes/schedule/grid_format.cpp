//===- grid_format.cpp - stage x time text grid ------------------------------===//
#include <algorithm>
#include <numeric>
#include <sstream>

#include "passes/schedule/formats.h"

namespace pir::passes::schedule {

std::string shortLabel(const Job& job, int vpp) {
  static const char kLetters[] = {'R', 'F', 'B', 'I', 'W', 'S', 'O'};
  std::string label(1, kLetters[int(job.kind)]);
  if (job.kind == JobKind::Optimizer) return label;
  label += std::to_string(job.microBatch);
  if (vpp > 1) label += "." + std::to_string(job.chunkIndex());
  return label;
}

namespace {

int64_t timeUnit(const Simulation& sim) {
  int64_t unit = 0;
  for (const auto& jobs : sim.stages)
    for (const TimedJob& t : jobs) unit = std::gcd(std::gcd(unit, t.start), t.end);
  return unit == 0 ? 1 : unit;
}

}  // namespace

std::string renderTimeGrid(const Schedule& schedule, const Simulation& sim) {
  const int64_t unit = timeUnit(sim);
  const int64_t columns = sim.makespan / unit;
  std::vector<std::vector<std::string>> cells(sim.stages.size(), std::vector<std::string>(columns, "."));
  size_t width = 1;
  for (size_t s = 0; s < sim.stages.size(); ++s)
    for (const TimedJob& t : sim.stages[s]) {
      if (t.end == t.start || t.job.kind == JobKind::Optimizer) continue;
      std::string label = shortLabel(t.job, schedule.vpp);
      width = std::max(width, label.size());
      for (int64_t c = t.start / unit; c < t.end / unit && c < columns; ++c) cells[s][c] = label;
    }
  std::ostringstream out;
  out << schedule.mode << " P=" << schedule.stages << " N=" << schedule.microBatches;
  if (schedule.vpp > 1) out << " V=" << schedule.vpp;
  out << ": one column = " << unit << " time unit" << (unit == 1 ? "" : "s")
      << "; F forward, B backward, I backward_b, W backward_w, . idle\n";
  for (size_t s = 0; s < cells.size(); ++s) {
    std::string line = "stage " + std::to_string(s) + " |";
    for (const std::string& cell : cells[s]) line += " " + cell + std::string(width - cell.size(), ' ');
    while (line.back() == ' ') line.pop_back();
    out << line << "\n";
  }
  out << "makespan " << sim.makespan << ", bubble_ratio ";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", sim.bubbleRatio);
  out << buffer << ", peak_in_flight [";
  for (size_t s = 0; s < sim.peakInFlight.size(); ++s) out << (s ? ", " : "") << sim.peakInFlight[s];
  out << "]\n";
  return out.str();
}

}  // namespace pir::passes::schedule
