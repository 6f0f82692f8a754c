//===- schedule_svg_test.cpp - the SVG timeline's own coordinates ----------===//
//
// Reads back what renderSvg wrote: every <text> with its x, y, anchor and
// textLength (drawn with lengthAdjust, so that is its width), and checks
// that no two labels overlap, for every mode, P in {2, 4, 8}, N up to 32.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"
#include "passes/schedule/simulator.h"

using namespace pir::passes::schedule;

namespace {

struct Box {
  double x0, x1, y0, y1;
  std::string text;
};

double attr(const std::string& tag, const std::string& name, double fallback) {
  std::smatch m;
  if (!std::regex_search(tag, m, std::regex(" " + name + "=\"([-0-9.]+)\""))) return fallback;
  return std::stod(m[1]);
}

/// Each text's box: its width is its textLength; it spans the font size above
/// its baseline and a fifth of it below.
std::vector<Box> textBoxes(const std::string& svg) {
  std::vector<Box> boxes;
  static const std::regex kText("<text([^>]*)>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), kText); it != std::sregex_iterator(); ++it) {
    std::string tag = (*it)[1];
    double x = attr(tag, "x", 0), y = attr(tag, "y", 0), len = attr(tag, "textLength", -1);
    double size = attr(tag, "font-size", 11);
    REQUIRE(len >= 0);  // every text says how wide it is drawn
    double x0 = tag.find("text-anchor=\"middle\"") != std::string::npos ? x - len / 2
                : tag.find("text-anchor=\"end\"") != std::string::npos  ? x - len
                                                                        : x;
    boxes.push_back({x0, x0 + len, y - size, y + size / 5, (*it)[2]});
  }
  return boxes;
}

int count(const std::string& svg, const std::string& what) {
  int n = 0;
  for (size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
  return n;
}

void checkNoOverlap(const std::string& svg) {
  std::vector<Box> boxes = textBoxes(svg);
  for (size_t i = 0; i < boxes.size(); ++i)
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      const Box &a = boxes[i], &b = boxes[j];
      bool overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
      if (overlap) FAIL("'" << a.text << "' at " << a.x0 << ".." << a.x1 << " overlaps '" << b.text << "'");
    }
}

}  // namespace

TEST_CASE("SVG labels never overlap, for P in 2 4 8 and N up to 32 in every mode", "[schedule]") {
  int checked = 0;
  for (const char* mode : {"FThenB", "1F1B", "VPP", "ZBH1", "ZBVPP", "ZB1P"})
    for (int p : {2, 4, 8})
      for (int n : {1, 2, 3, 4, 8, 16, 32}) {
        ScheduleOptions o;
        o.mode = mode;
        o.stages = p;
        o.microBatches = n;
        o.vpp = std::string(mode) == "VPP" || std::string(mode) == "ZBVPP" ? 2 : 0;
        auto schedule = generateSchedule(o);
        if (!schedule) continue;  // N below P, or not N == P for ZBVPP
        auto sim = simulate(*schedule, Costs{});
        if (!sim) continue;  // Paddle's VPP list with a remainder deadlocks
        INFO(mode << " P=" << p << " N=" << n);
        std::string svg = renderSvg(*schedule, *sim);
        checkNoOverlap(svg);
        // Every drawn job keeps its name in the hover title; unit boxes fit their labels.
        CHECK(count(svg, "<title>") == count(svg, "<rect class=\"job\""));
        CHECK(count(svg, "class=\"label\"") >= count(svg, "<title>") - p);
        ++checked;
      }
  CHECK(checked >= 80);
}

TEST_CASE("SVG: width follows the jobs, chunks apart, axis, legend, optimizer drawn and counted", "[schedule]") {
  ScheduleOptions o;
  o.mode = "VPP";
  o.stages = 8;
  o.microBatches = 32;
  o.vpp = 2;
  auto schedule = generateSchedule(o);
  REQUIRE(schedule.isOk());
  Costs costs;
  costs.optimizer = 2;
  auto sim = simulate(*schedule, costs);
  REQUIRE(sim.isOk());
  // The optimizer, last on every stage, adds its cost to the makespan.
  auto without = simulate(*schedule, Costs{});
  REQUIRE(without.isOk());
  CHECK(sim->makespan == without->makespan + 2);
  std::string svg = renderSvg(*schedule, *sim);
  // 32 px for the shortest (unit) job: the width is the makespan's.
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex("<svg [^>]*width=\"([0-9.]+)\"")));
  CHECK(std::stod(m[1]) == Approx(70 + 32.0 * double(sim->makespan) + 20));
  CHECK_THAT(svg, Catch::Contains(">forward chunk 0</text>"));
  CHECK_THAT(svg, Catch::Contains(">forward chunk 1</text>"));
  CHECK_THAT(svg, Catch::Contains("fill=\"#4e79a7\""));  // chunk 0
  CHECK_THAT(svg, Catch::Contains("fill=\"#2e4864\""));  // chunk 1, darker
  CHECK_THAT(svg, Catch::Contains(">optimizer</text>"));
  CHECK_THAT(svg, Catch::Contains("<title>optimizer:0 ["));
  CHECK_THAT(svg, Catch::Contains(">time</text>"));
  CHECK_THAT(svg, Catch::Contains("makespan " + std::to_string(sim->makespan) + " (optimizer included)"));
  checkNoOverlap(svg);
}

TEST_CASE("SVG: a box too narrow for its label keeps the job in its title only", "[schedule]") {
  ScheduleOptions o;
  o.mode = "1F1B";
  o.stages = 4;
  o.microBatches = 32;
  auto schedule = generateSchedule(o);
  REQUIRE(schedule.isOk());
  Costs costs;
  costs.backwardB = 500;  // makespan 17570, capped at 12000 px: a forward is 0.7 px
  auto sim = simulate(*schedule, costs);
  REQUIRE(sim.isOk());
  std::string svg = renderSvg(*schedule, *sim);
  std::smatch m;
  REQUIRE(std::regex_search(svg, m, std::regex("<svg [^>]*width=\"([0-9.]+)\"")));
  CHECK(std::stod(m[1]) == Approx(70 + 12000 + 20));
  CHECK_THAT(svg, Catch::Contains("<title>forward:31 ["));
  // Only the backwards (501 units, 342 px) are labelled: 4 stages x 32.
  CHECK(count(svg, "class=\"label\"") == 4 * 32);
  CHECK(count(svg, "<title>") == 4 * (32 + 32 + 1));
  checkNoOverlap(svg);
}
