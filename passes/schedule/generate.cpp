//===- generate.cpp - option checks and dispatch ----------------------------===//
#include "passes/schedule/generate.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace pir::passes::schedule {

namespace {

constexpr std::array<const char*, 8> kModes = {"FThenB", "1F1B", "VPP", "ZBH1", "ZBVPP", "ZB1P", "ZBV", "DualPipeV"};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  return text;
}

core::Status error(const std::string& message) { return core::Status::error(message); }

core::Status checkOptions(const ScheduleOptions& o, const std::string& mode) {
  if (mode.empty()) {
    std::string known;
    for (const char* m : kModes) known += std::string(known.empty() ? "" : ", ") + m;
    return error("unknown mode '" + o.mode + "' (expected one of " + known + ")");
  }
  if (o.stages < 1)
    return error("--stages must be at least 1 (got " + std::to_string(o.stages) + "): a pipeline has a stage or more");
  if (o.microBatches < 1)
    return error("--micro-batches must be at least 1 (got " + std::to_string(o.microBatches) +
                 "): every stage runs one micro-batch or more");
  if (o.stages > kMaxScheduleStages) return error("--stages must be at most " + std::to_string(kMaxScheduleStages));
  if (o.vpp > 64) return error("--vpp must be at most 64");
  // At most three jobs (forward, backward_b, backward_w) per micro-batch and
  // chunk, and at least two chunks counted (ZBVPP's V): an upper bound.
  const int64_t jobs = int64_t{o.stages} * o.microBatches * std::max(o.vpp, 2) * 3;
  if (jobs > kMaxScheduleJobs || jobs * o.stages > kMaxScheduleCells)
    return error("--stages x --micro-batches x --vpp is too large: at most " + std::to_string(kMaxScheduleJobs) +
                 " jobs, and " + std::to_string(kMaxScheduleCells) + " stage-by-job cells, in all");
  const bool needsNGeP = mode == "1F1B" || mode == "VPP";
  if (needsNGeP && o.microBatches < o.stages)
    return error(mode + " needs at least as many micro-batches as stages (N=" + std::to_string(o.microBatches) +
                 " < P=" + std::to_string(o.stages) + "), as Paddle asserts");
  if (o.vpp != 0 && mode != "VPP" && !vPlacedMode(mode) && o.vpp != 1)
    return error("--vpp is only for VPP, ZBVPP, ZBV and DualPipeV");
  if (o.vpp < 0) return error("--vpp must be at least 1");
  if (vPlacedMode(mode) && o.vpp != 0 && o.vpp != 2)
    return error(mode + " places exactly 2 chunks on each stage, in a V: --vpp must be 2");
  if (o.splitBw && mode != "VPP") return error("--split-bw is only for VPP");
  if (o.splitBw && o.microBatches != o.stages)
    return error("--split-bw needs micro-batches == stages (N=" + std::to_string(o.microBatches) +
                 ", P=" + std::to_string(o.stages) + "); Paddle would silently fall back to VPP without split");
  if (o.maxInFlight != 0 && mode != "ZB1P") return error("--max-in-flight is only for ZB1P");
  if (o.maxInFlight < 0) return error("--max-in-flight must be at least 1");
  return core::Status::ok();
}

}  // namespace

std::string canonicalMode(const std::string& mode) {
  for (const char* m : kModes)
    if (lower(m) == lower(mode)) return m;
  return "";
}

bool splitsBackward(const std::string& mode, bool splitBw) {
  return mode == "ZBH1" || mode == "ZB1P" || vPlacedMode(mode) || (mode == "VPP" && splitBw);
}

std::string pipelinePassPipeline(const std::string& mode, int64_t microBatches, int64_t vpp, bool splitBw,
                                 const std::string& splitRanks) {
  std::string pipeline =
      "apply-partition," + splitRanks + ",gradient-merge{k=" + std::to_string(microBatches) + " avg=true}";
  if (splitsBackward(mode, splitBw)) pipeline += ",split-matmul-grad";
  pipeline += ",pipeline-split{mode=" + mode;
  if (vpp > 1) pipeline += " vpp=" + std::to_string(vpp);
  if (splitBw) pipeline += " split-bw=true";
  return pipeline + "}";
}

core::Result<Schedule> generateSchedule(const ScheduleOptions& o) {
  const std::string mode = canonicalMode(o.mode);
  if (core::Status s = checkOptions(o, mode); !s) return s;
  const int p = o.stages, n = o.microBatches;
  if (mode == "ZBVPP") {
    Costs costs = o.costs.fromFile ? o.costs : Costs::paddleZbvppDefaults();
    return zbvppSchedule(p, n, o.vpp == 0 ? 2 : o.vpp, costs);
  }
  if (mode == "ZB1P") return zb1pSchedule(p, n, o.costs, o.maxInFlight == 0 ? p : o.maxInFlight);
  if (mode == "ZBV") return zbvSchedule(p, n);
  if (mode == "DualPipeV") return dualPipeVSchedule(p, n);
  Schedule schedule{mode, p, n, mode == "VPP" && o.vpp != 0 ? o.vpp : 1, {}, {}};
  for (int s = 0; s < p; ++s) {
    if (mode == "FThenB") schedule.stageJobs.push_back(fthenbJobs(p, n, s));
    if (mode == "1F1B") schedule.stageJobs.push_back(oneFOneBJobs(p, n, s));
    if (mode == "VPP") schedule.stageJobs.push_back(vppJobs(p, n, schedule.vpp, s, o.splitBw));
    if (mode == "ZBH1") schedule.stageJobs.push_back(zbh1Jobs(p, n, s));
  }
  return schedule;
}

}  // namespace pir::passes::schedule
