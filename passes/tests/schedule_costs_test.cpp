//===- schedule_costs_test.cpp - costs per stage and job, from summary.yaml ===//
#include <catch2/catch.hpp>

#include "passes/schedule/costs.h"
#include "passes/schedule/generate.h"
#include "passes/schedule/simulator.h"

using namespace pir::passes::schedule;

namespace {

// What pir-run writes (runtime/runner/summary.cpp), cut to what the costs read.
constexpr const char* kSummary = R"(# pir-run summary
ranks: 2
mode: 1F1B
per_rank:
  - rank: 0
    stage: 0
stage_costs_us:
  - stage: 0
    jobs: {backward: 20.4, forward: 10, optimizer: 3, recv_forward: 0.2, send_backward: 0}
    bytes_sent: {backward: 0, forward: 4096, optimizer: 0, recv_forward: 0, send_backward: 0}
  - stage: 1
    jobs: {backward: 60, forward: 30, optimizer: 5, recv_forward: 1, send_backward: 0}
    bytes_sent: {backward: 0, forward: 0, optimizer: 0, recv_forward: 0, send_backward: 2048}
costs:
  forward: 30
  backward_b: 60
  backward_w: 0
  optimizer: 5
  communication: 0
  bytes_per_us: 1024
)";

}  // namespace

TEST_CASE("costs: per stage and job type from summary.yaml, bytes over bytes_per_us", "[schedule][costs]") {
  auto costs = parseCosts(kSummary, "summary.yaml");
  REQUIRE(costs.isOk());
  CHECK(costs->of(0, Job{JobKind::Forward, -1, 3}) == 10);
  CHECK(costs->of(0, Job{JobKind::Backward, -1, 0}) == 20);  // rounded
  CHECK(costs->of(1, Job{JobKind::Backward, -1, 0}) == 60);
  CHECK(costs->of(1, Job{JobKind::RecvForward, -1, 0}) == 1);
  CHECK(costs->of(2, Job{JobKind::Forward, -1, 0}) == 30);                 // no such stage: the kind's
  CHECK(costs->communicationAfter(0, Job{JobKind::Forward, -1, 0}) == 4);  // 4096 B at 1024 B/us
  CHECK(costs->communicationAfter(1, Job{JobKind::SendBackward, -1, 0}) == 2);
  // 1F1B, P = 2, N = 2, by hand: stage 0 F0 [0,10) F1 [10,20), its forward's message 4 us; stage 1
  // R0 [14,15) F0 [15,45) B0 [45,105) R1 [105,106) S0 [106,106) F1 [106,136) B1 [136,196) S1 O [196,201);
  // stage 0 B0 after S0 + 2 us [108,128), B1 after S1 + 2 us [198,218), O [218,221).
  ScheduleOptions o;
  o.mode = "1F1B";
  o.stages = 2;
  o.microBatches = 2;
  auto schedule = generateSchedule(o);
  REQUIRE(schedule.isOk());
  auto sim = simulate(*schedule, *costs);
  REQUIRE(sim.isOk());
  CHECK(sim->makespan == 221);
}

TEST_CASE("costs: a split program set's full backward costs its halves there", "[schedule][costs]") {
  auto costs = parseCosts("stages:\n  - stage: 0\n    jobs: {backward_b1: 7, backward_w1: 2, forward: 4}\n", "c.yaml");
  REQUIRE(costs.isOk());
  CHECK(costs->of(0, Job{JobKind::Backward, 1, 0}) == 9);
  CHECK(costs->of(0, Job{JobKind::Forward, 1, 0}) == 4);   // forward1: the kind's entry
  CHECK(costs->of(0, Job{JobKind::Backward, 0, 0}) == 2);  // backward0: none there, the default B + W
  auto bad = parseCosts("stages:\n  - stage: 0\n    jobs: {forward: -1}\n", "c.yaml");
  REQUIRE_FALSE(bad.isOk());
  CHECK_THAT(bad.status().message(), Catch::Contains("is not in [0, 2^40]"));
}
