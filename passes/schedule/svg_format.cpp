//===- svg_format.cpp - SVG timeline ------------------------------------------===//
//
// One row per stage, one rectangle per job (zero-length jobs are not drawn),
// one colour per job kind, the micro-batch (and chunk) written inside.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "passes/schedule/formats.h"

namespace pir::passes::schedule {

namespace {

const char* colourOf(JobKind kind) {
  switch (kind) {
    case JobKind::Forward:
      return "#4e79a7";
    case JobKind::Backward:
      return "#f28e2b";
    case JobKind::BackwardB:
      return "#76b7b2";
    case JobKind::BackwardW:
      return "#59a14f";
    case JobKind::Optimizer:
      return "#9c755f";
    case JobKind::RecvForward:
    case JobKind::SendBackward:
      return "#bab0ac";
  }
  return "#000000";
}

constexpr double kLeft = 70, kTop = 40, kRow = 30, kWidth = 900;

void legend(std::ostringstream& out, double y) {
  const JobKind kinds[] = {JobKind::Forward, JobKind::Backward, JobKind::BackwardB, JobKind::BackwardW};
  double x = kLeft;
  for (JobKind kind : kinds) {
    out << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"14\" height=\"14\" fill=\"" << colourOf(kind)
        << "\"/><text x=\"" << x + 18 << "\" y=\"" << y + 11 << "\">" << kindName(kind) << "</text>\n";
    x += 130;
  }
}

}  // namespace

std::string renderSvg(const Schedule& schedule, const Simulation& sim) {
  const double scale = sim.makespan > 0 ? kWidth / double(sim.makespan) : 1.0;
  const double height = kTop + kRow * double(sim.stages.size()) + 50;
  char bubble[32];
  std::snprintf(bubble, sizeof bubble, "%.4f", sim.bubbleRatio);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLeft + kWidth + 20 << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out << "<text x=\"" << kLeft << "\" y=\"22\" font-size=\"14\">" << schedule.mode << " P=" << schedule.stages
      << " N=" << schedule.microBatches << (schedule.vpp > 1 ? " V=" + std::to_string(schedule.vpp) : std::string())
      << ": makespan " << sim.makespan << ", bubble " << bubble << "</text>\n";
  for (size_t s = 0; s < sim.stages.size(); ++s) {
    double y = kTop + kRow * double(s);
    out << "<text x=\"8\" y=\"" << y + 19 << "\">stage " << s << "</text>\n";
    out << "<rect x=\"" << kLeft << "\" y=\"" << y + 2 << "\" width=\"" << kWidth << "\" height=\"" << kRow - 4
        << "\" fill=\"#f2f2f2\"/>\n";
    for (const TimedJob& t : sim.stages[s]) {
      if (t.end == t.start) continue;
      double x = kLeft + scale * double(t.start), w = scale * double(t.end - t.start);
      out << "<rect x=\"" << x << "\" y=\"" << y + 2 << "\" width=\"" << w << "\" height=\"" << kRow - 4 << "\" fill=\""
          << colourOf(t.job.kind) << "\" stroke=\"white\"><title>" << t.job.name() << " [" << t.start << ", " << t.end
          << ")</title></rect>\n";
      out << "<text x=\"" << x + w / 2 << "\" y=\"" << y + 19 << "\" text-anchor=\"middle\" fill=\"white\">"
          << shortLabel(t.job, schedule.vpp).substr(1) << "</text>\n";
    }
  }
  legend(out, height - 40);
  out << "</svg>\n";
  return out.str();
}

}  // namespace pir::passes::schedule
