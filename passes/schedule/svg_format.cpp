//===- svg_format.cpp - SVG timeline ------------------------------------------===//
//
// One row per stage, one rectangle per job with its name and [start, end) in
// the hover title, a colour per job kind and a shade per chunk, a time axis
// and a legend. The width follows the schedule: the shortest job gets
// kMinBox pixels (within kMinWidth..kMaxWidth). A label is drawn inside its
// box only when it fits; every text carries its own textLength (drawn with
// lengthAdjust), so what the file says of its extent is what is drawn and a
// test can check that no two labels overlap. A zero-length optimizer is
// drawn as a thin marker; other zero-length jobs (recv/send) are not drawn.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "passes/schedule/formats.h"

namespace pir::passes::schedule {

namespace {

constexpr double kLeft = 70, kTop = 40, kRow = 30, kRight = 20;
constexpr double kMinWidth = 900, kMaxWidth = 12000, kMinBox = 32;
constexpr double kCharWidth = 6.2;       // per character of an 11 px label (its textLength)
constexpr double kTitleCharWidth = 7.8;  // of the 14 px title
constexpr double kMarker = 3;            // width of a zero-length optimizer

uint32_t baseColour(JobKind kind) {
  switch (kind) {
    case JobKind::Forward:
      return 0x4e79a7;
    case JobKind::Backward:
      return 0xf28e2b;
    case JobKind::BackwardB:
      return 0x76b7b2;
    case JobKind::BackwardW:
      return 0x59a14f;
    case JobKind::Optimizer:
      return 0x9c755f;
    case JobKind::RecvForward:
    case JobKind::SendBackward:
      return 0xbab0ac;
  }
  return 0;
}

/// The kind's colour, darker for chunk 1, 3, ...: chunks read apart.
std::string colourOf(JobKind kind, int chunk) {
  static const double kShade[] = {1.0, 0.6, 0.8, 0.45};
  const uint32_t rgb = baseColour(kind);
  const double f = kShade[chunk % 4];
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", unsigned(((rgb >> 16) & 0xff) * f),
                unsigned(((rgb >> 8) & 0xff) * f), unsigned((rgb & 0xff) * f));
  return text;
}

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  std::string s = text;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

/// A text of `chars` characters drawn exactly `chars * charWidth` wide.
void text(std::ostringstream& out, double x, double y, const std::string& body, const char* anchor,
          const char* extra = "", double charWidth = kCharWidth) {
  out << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" text-anchor=\"" << anchor << "\" textLength=\""
      << num(charWidth * double(body.size())) << "\" lengthAdjust=\"spacingAndGlyphs\"" << extra << ">" << body
      << "</text>\n";
}

std::string boxLabel(const Job& job, int vpp) {
  return job.kind == JobKind::Optimizer ? "opt" : shortLabel(job, vpp).substr(1);
}

struct Layout {
  double scale = 1;  // px per time unit
  double width = kMinWidth;
};

Layout layoutOf(const Simulation& sim) {
  int64_t shortest = 0;
  for (const auto& jobs : sim.stages)
    for (const TimedJob& t : jobs)
      if (t.end > t.start && (shortest == 0 || t.end - t.start < shortest)) shortest = t.end - t.start;
  const double span = double(std::max<int64_t>(sim.makespan, 1));
  Layout l;
  l.scale = shortest ? kMinBox / double(shortest) : kMinWidth / span;
  l.scale = std::clamp(l.scale, kMinWidth / span, kMaxWidth / span);
  l.width = l.scale * span;
  return l;
}

/// 1, 2 or 5 x 10^k time units: the smallest at least `gap` pixels wide.
double tickStep(double scale, double gap) {
  for (double base = 1;; base *= 10)
    for (double m : {1.0, 2.0, 5.0})
      if (m * base * scale >= gap) return m * base;
}

/// Ticks each label well clear of the next.
void timeAxis(std::ostringstream& out, const Simulation& sim, const Layout& l, double y) {
  out << "<line x1=\"" << kLeft << "\" y1=\"" << num(y) << "\" x2=\"" << num(kLeft + l.width) << "\" y2=\"" << num(y)
      << "\" stroke=\"#444\"/>\n";
  const double widest = kCharWidth * double(std::to_string(sim.makespan).size());
  const double step = tickStep(l.scale, std::max(60.0, widest + 16));
  for (double t = 0; t <= double(sim.makespan) + 1e-9; t += step) {
    double x = kLeft + t * l.scale;
    out << "<line x1=\"" << num(x) << "\" y1=\"" << num(y) << "\" x2=\"" << num(x) << "\" y2=\"" << num(y + 4)
        << "\" stroke=\"#444\"/>\n";
    text(out, x, y + 15, std::to_string(int64_t(t)), "middle");
  }
  text(out, 8, y + 15, "time", "start");
}

/// The (kind, chunk) pairs drawn, in kind order, and what a label says.
std::vector<std::string> legendEntries(const Schedule& schedule, const Simulation& sim,
                                       std::vector<std::pair<JobKind, int>>& keys) {
  std::set<std::pair<int, int>> seen;
  for (const auto& jobs : sim.stages)
    for (const TimedJob& t : jobs)
      if (t.end > t.start || t.job.kind == JobKind::Optimizer) seen.insert({int(t.job.kind), t.job.chunkIndex()});
  std::vector<std::string> names;
  for (auto [kind, chunk] : seen) {
    keys.emplace_back(JobKind(kind), chunk);
    std::string name(kindName(JobKind(kind)));
    if (schedule.vpp > 1 && JobKind(kind) != JobKind::Optimizer) name += " chunk " + std::to_string(chunk);
    names.push_back(name);
  }
  return names;
}

/// Legend rows below `y`, wrapped at the timeline's width; returns its height.
double legend(std::ostringstream& out, const Schedule& schedule, const Simulation& sim, const Layout& l, double y) {
  std::vector<std::pair<JobKind, int>> keys;
  std::vector<std::string> names = legendEntries(schedule, sim, keys);
  double x = kLeft, row = y;
  for (size_t i = 0; i < names.size(); ++i) {
    double w = 18 + kCharWidth * double(names[i].size()) + 16;
    if (x > kLeft && x + w > kLeft + l.width) {
      x = kLeft;
      row += 20;
    }
    out << "<rect x=\"" << num(x) << "\" y=\"" << num(row) << "\" width=\"14\" height=\"14\" fill=\""
        << colourOf(keys[i].first, keys[i].second) << "\"/>\n";
    text(out, x + 18, row + 11, names[i], "start");
    x += w;
  }
  std::string note = "label: micro-batch" + std::string(schedule.vpp > 1 ? ".chunk" : "") +
                     " (dropped where the box is too narrow); hover a box for the job and its [start, end)";
  text(out, kLeft, row + 31, note, "start", " fill=\"#444\"");
  return row + 40 - y;
}

void stageRow(std::ostringstream& out, const Schedule& schedule, const std::vector<TimedJob>& jobs, size_t s,
              const Layout& l) {
  double y = kTop + kRow * double(s);
  text(out, 8, y + 19, "stage " + std::to_string(s), "start");
  out << "<rect x=\"" << kLeft << "\" y=\"" << num(y + 2) << "\" width=\"" << num(l.width) << "\" height=\"" << kRow - 4
      << "\" fill=\"#f2f2f2\"/>\n";
  for (const TimedJob& t : jobs) {
    const bool marker = t.end == t.start && t.job.kind == JobKind::Optimizer;
    if (t.end == t.start && !marker) continue;
    double x = kLeft + l.scale * double(t.start), w = marker ? kMarker : l.scale * double(t.end - t.start);
    out << "<rect class=\"job\" x=\"" << num(x) << "\" y=\"" << num(y + 2) << "\" width=\"" << num(w) << "\" height=\""
        << kRow - 4 << "\" fill=\"" << colourOf(t.job.kind, t.job.chunkIndex())
        << "\" stroke=\"white\" stroke-width=\"0.5\"><title>" << t.job.name() << " [" << t.start << ", " << t.end
        << ")</title></rect>\n";
    std::string label = boxLabel(t.job, schedule.vpp);
    if (!marker && kCharWidth * double(label.size()) + 4 <= w)
      text(out, x + w / 2, y + 19, label, "middle", " class=\"label\" fill=\"white\"");
  }
}

}  // namespace

std::string renderSvg(const Schedule& schedule, const Simulation& sim) {
  const Layout l = layoutOf(sim);
  const double axisY = kTop + kRow * double(sim.stages.size()) + 4;
  std::ostringstream body;
  for (size_t s = 0; s < sim.stages.size(); ++s) stageRow(body, schedule, sim.stages[s], s, l);
  timeAxis(body, sim, l, axisY);
  const double legendHeight = legend(body, schedule, sim, l, axisY + 30);
  char bubble[32];
  std::snprintf(bubble, sizeof bubble, "%.4f", sim.bubbleRatio);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kLeft + l.width + kRight) << "\" height=\""
      << num(axisY + 30 + legendHeight) << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  std::string title = schedule.mode + " P=" + std::to_string(schedule.stages) +
                      " N=" + std::to_string(schedule.microBatches) +
                      (schedule.vpp > 1 ? " V=" + std::to_string(schedule.vpp) : std::string()) + ": makespan " +
                      std::to_string(sim.makespan) + " (optimizer included), bubble " + bubble;
  text(out, kLeft, 22, title, "start", " font-size=\"14\"", kTitleCharWidth);
  out << body.str() << "</svg>\n";
  return out.str();
}

}  // namespace pir::passes::schedule
