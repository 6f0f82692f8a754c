//===- schedule_formula_test.cpp - the schedules' bubbles in closed form ---===//
//
// The simulator against each schedule's published bubble, in the
// simulator's notation: F forward, B backward_b, W backward_w (a full
// backward is B + W), and a stage's bubble its idle time in [0, makespan].
// Unit costs unless a case says otherwise; the optimizer costs 0.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <catch2/catch.hpp>

#include "passes/schedule/dry_run.h"
#include "passes/schedule/generate.h"
#include "passes/schedule/simulator.h"
#include "passes/schedule/validator.h"

using namespace pir::passes::schedule;

namespace {

Schedule make(const std::string& mode, int p, int n) {
  ScheduleOptions o;
  o.mode = mode;
  o.stages = p;
  o.microBatches = n;
  auto schedule = generateSchedule(o);
  INFO(mode << (schedule.isOk() ? "" : ": " + schedule.status().message()));
  REQUIRE(schedule.isOk());
  return *schedule;
}

Simulation simulated(const Schedule& schedule, const Costs& costs = {}) {
  auto sim = simulate(schedule, costs);
  INFO(schedule.mode << (sim.isOk() ? "" : ": " + sim.status().message()));
  REQUIRE(sim.isOk());
  return *sim;
}

/// Stage s's idle time in [0, makespan].
int64_t bubbleOf(const Simulation& sim, int s) {
  int64_t busy = 0;
  for (const TimedJob& t : sim.stages[size_t(s)]) busy += t.end - t.start;
  return sim.makespan - busy;
}

Costs costs(int64_t f, int64_t b, int64_t w) {
  Costs c;
  c.forward = f;
  c.backwardB = b;
  c.backwardW = w;
  return c;
}

}  // namespace

TEST_CASE("1F1B: bubble (P-1)(F+B+W), P-r micro-batches in flight on stage r", "[schedule][formula]") {
  for (int p = 2; p <= 8; ++p)
    for (int n : {p, 2 * p, 3 * p + 1}) {
      for (Costs c : {costs(1, 1, 1), costs(2, 3, 1), costs(3, 2, 4)}) {
        Simulation sim = simulated(make("1F1B", p, n), c);
        INFO("P=" << p << " N=" << n << " F=" << c.forward << " B=" << c.backwardB << " W=" << c.backwardW);
        for (int s = 0; s < p; ++s) {
          CHECK(bubbleOf(sim, s) == (p - 1) * (c.forward + c.backwardB + c.backwardW));
          CHECK(sim.peakInFlight[size_t(s)] == p - s);
        }
      }
    }
}

TEST_CASE("ZB-H1: bubble (P-1)(F+B-W); Paddle's ZBH1 list (P-1)(F+B-W) + (P-2)W", "[schedule][formula]") {
  // The zero-bubble paper's ZB-H1 bound, reached by ZB1P (its greedy list).
  // Paddle's ZBH1 list (pipeline_zero_bubble.py) runs full backwards in the
  // cool-down of stages 1..P-2, each holding the chain of B back by one W.
  for (int p = 2; p <= 8; ++p)
    for (int n : {p, 2 * p, 3 * p + 1}) {
      INFO("P=" << p << " N=" << n);
      Simulation zb1p = simulated(make("ZB1P", p, n));
      Simulation zbh1 = simulated(make("ZBH1", p, n));
      for (int s = 0; s < p; ++s) {
        CHECK(bubbleOf(zb1p, s) == (p - 1) * (1 + 1 - 1));
        CHECK(bubbleOf(zbh1, s) == (p - 1) * (1 + 1 - 1) + (p - 2) * 1);
        CHECK(zb1p.peakInFlight[size_t(s)] <= p);  // 1F1B's memory
      }
    }
}

namespace {

/// Stage s's idle time between its first job's start and its last job's end.
int64_t gapsOf(const Simulation& sim, int s) {
  const auto& jobs = sim.stages[size_t(s)];
  int64_t busy = 0, first = jobs.front().start, last = 0;
  for (const TimedJob& t : jobs) busy += t.end - t.start, last = std::max(last, t.end);
  return last - first - busy;
}

}  // namespace

TEST_CASE("ZB-V: valid, 2P chunk-activations a stage, no bubble at F = B = W", "[schedule][formula]") {
  for (int p = 2; p <= 8; ++p)
    for (int n : {1, p, 2 * p - 1, 2 * p, 3 * p + 1}) {
      INFO("P=" << p << " N=" << n);
      Schedule zbv = make("ZBV", p, n);
      CHECK(validateSchedule(zbv).empty());
      CHECK_FALSE(dryRun(zbv).deadlock);
      Simulation sim = simulated(zbv);
      for (int s = 0; s < p; ++s) {
        CHECK(sim.peakInFlight[size_t(s)] <= 2 * p);  // 1F1B's memory: P micro-batches of two chunks
        // With the pipeline full (N >= 2P-1, as the construction plans), no stage waits between its first
        // job and its last; what remains is the fill, stage P-1 starting P-1 forwards late.
        if (n >= 2 * p - 1) {
          CHECK(gapsOf(sim, s) == 0);
          CHECK(bubbleOf(sim, s) == p - 1);
        }
      }
    }
}

TEST_CASE("DualPipeV: bubble (PP/2-1)(F&B + B - 3W), F&B run as two jobs", "[schedule][formula]") {
  // DeepSeek's notation: PP = 2D virtual stages, B a full backward (here B + W = 2), F&B the overlapped pair
  // (here its two jobs, F + B + W = 3): (D-1)(3 + 2 - 3) = 2(D-1) on every stage.
  for (int d = 2; d <= 8; ++d)
    for (int n : {2 * d, 2 * d + 1, 3 * d, 20}) {
      INFO("D=" << d << " N=" << n);
      Schedule v = make("DualPipeV", d, n);
      CHECK(validateSchedule(v).empty());
      CHECK_FALSE(dryRun(v).deadlock);
      Simulation sim = simulated(v);
      for (int s = 0; s < d; ++s) {
        CHECK(bubbleOf(sim, s) == (d - 1) * ((1 + 1 + 1) + (1 + 1) - 3 * 1));
        CHECK(sim.peakInFlight[size_t(s)] <= 2 * d + 1);  // DeepSeek's table: PP + 1 chunk-activations
      }
    }
  ScheduleOptions o;
  o.mode = "DualPipeV";
  o.stages = 4;
  o.microBatches = 7;
  auto refused = generateSchedule(o);
  REQUIRE_FALSE(refused.isOk());
  CHECK_THAT(refused.status().message(), Catch::Contains("at least 2D micro-batches"));
}
