//===- torch_csv_test.cpp - torch.distributed.pipelining's schedule CSV ---===//
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "passes/schedule/dry_run.h"
#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"
#include "passes/schedule/list_check.h"
#include "passes/schedule/simulator.h"

using namespace pir::passes::schedule;

namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(PIR_SCHEDULE_DIR) + "/torch/" + name);
  REQUIRE(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Schedule make(const std::string& mode, int p, int n, int v = 0, bool split = false) {
  ScheduleOptions o;
  o.mode = mode;
  o.stages = p;
  o.microBatches = n;
  o.vpp = v;
  o.splitBw = split;
  auto schedule = generateSchedule(o);
  REQUIRE(schedule.isOk());
  return *schedule;
}

Schedule read(const std::string& text, const std::string& mode = "") {
  auto schedule = scheduleFromTorchCsv(text, "t.csv", mode);
  INFO(text << (schedule.isOk() ? "" : schedule.status().message()));
  REQUIRE(schedule.isOk());
  return *schedule;
}

std::string readError(const std::string& text) {
  auto schedule = scheduleFromTorchCsv(text, "t.csv", "");
  REQUIRE_FALSE(schedule.isOk());
  return schedule.status().message();
}

}  // namespace

TEST_CASE("torch CSV: every mode's list written and read back is the list", "[schedule][torch-csv]") {
  struct Case {
    std::string mode;
    int p, n, v;
    bool split;
  };
  for (const Case& c : std::vector<Case>{{"FThenB", 3, 5, 0, false},
                                         {"1F1B", 4, 8, 0, false},
                                         {"VPP", 4, 8, 2, false},
                                         {"VPP", 4, 4, 2, true},
                                         {"ZBH1", 4, 8, 0, false},
                                         {"ZB1P", 3, 7, 0, false},
                                         {"ZBVPP", 4, 4, 0, false},
                                         {"ZBV", 4, 9, 0, false},
                                         {"DualPipeV", 3, 8, 0, false}}) {
    INFO(c.mode << " P=" << c.p << " N=" << c.n);
    Schedule s = make(c.mode, c.p, c.n, c.v, c.split);
    const std::string csv = scheduleToTorchCsv(s);
    CHECK(csv.find("optimizer") == std::string::npos);
    Schedule back = read(csv, c.mode);
    CHECK(back.mode == s.mode);
    CHECK(back.stages == s.stages);
    CHECK(back.microBatches == s.microBatches);
    CHECK(back.vpp == s.vpp);
    CHECK(back.stageJobs == s.stageJobs);  // the optimizer and recv_forward/send_backward re-added
  }
}

TEST_CASE("torch CSV: torch's own fixtures load, check and simulate", "[schedule][torch-csv]") {
  // Our DualPipeV is torch's ScheduleDualPipeV, cell for cell.
  const std::string dualpipev = fixture("dualpipev_4rank_10mb.csv");
  CHECK(scheduleToTorchCsv(make("DualPipeV", 4, 10)) == dualpipev);
  Schedule v = read(dualpipev);
  CHECK(v.mode == "DualPipeV");
  CHECK(v.stageJobs == make("DualPipeV", 4, 10).stageJobs);

  // ZB1P on 2 ranks of 2 interleaved stages: chunk c of rank r is torch's stage 2c+r.
  Schedule compute = read(fixture("zb1p_2rank_2stagep_compute.csv"));
  CHECK(compute.mode == "VPP");
  CHECK(compute.vpp == 2);
  CHECK(compute.microBatches == 8);
  CHECK(compute.stageJobs[0][2] == Job{JobKind::Forward, 1, 0});    // 2F0
  CHECK(compute.stageJobs[1][0] == Job{JobKind::Forward, 0, 0});    // the empty first cell skipped
  CHECK(compute.stageJobs[1][3] == Job{JobKind::BackwardB, 1, 0});  // 3I0
  // Its comms form: sends and receives live in the job programs; B is torch's I and W merged.
  Schedule comms = read(fixture("zb1p_2rank_2stagep_comms.csv"));
  CHECK(comms.mode == "VPP");
  CHECK(comms.stageJobs[0][2] == Job{JobKind::Forward, 1, 0});  // 0F0,0SEND_F0,2RECV_F0,0F1,..,2F0
  CHECK(comms.stageJobs[0][4] == Job{JobKind::Backward, 1, 0});
  for (const Schedule* s : {&v, &compute, &comms}) {
    CHECK(checkScheduleList(*s).empty());
    auto sim = simulate(*s, Costs{});
    REQUIRE(sim.isOk());
    CHECK(sim->makespan > 0);
  }
}

TEST_CASE("torch CSV: bad cells are located errors", "[schedule][torch-csv]") {
  CHECK_THAT(readError("0F0,0X0\n"), Catch::Contains("t.csv:1:5: '0X0': unknown action type"));
  CHECK_THAT(readError("0F0\n0F\n"), Catch::Contains("t.csv:2:1: '0F' needs a micro-batch"));
  CHECK_THAT(readError("0F0,(0F1;1F1)OVERLAP_F_B\n1F0\n"),
             Catch::Contains("t.csv:1:5: '(0F1;1F1)OVERLAP_F_B': OVERLAP_F_B pairs a forward with a backward"));
  CHECK_THAT(readError("0UNSHARD0\n"), Catch::Contains("torch's UNSHARD (FSDP) has no job here"));
  // Row 1 holds stage 0, which an interleaved and a V placement both give row 0.
  CHECK_THAT(readError("0F0,0B0\n0F1\n"), Catch::Contains("t.csv:2:1: stage index 0 on row (rank) 1 is not in a V"));
  // A V file read for an interleaved mode.
  auto wrong = scheduleFromTorchCsv(scheduleToTorchCsv(make("ZBV", 2, 3)), "t.csv", "VPP");
  REQUIRE_FALSE(wrong.isOk());
  CHECK_THAT(wrong.status().message(), Catch::Contains("is not interleaved"));
}
