//===- costs.cpp - job costs -----------------------------------------------===//
#include "passes/schedule/costs.h"
#include "passes/schedule/yaml_strict.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

namespace pir::passes::schedule {

Costs Costs::paddleZbvppDefaults() {
  Costs c;
  c.forward = 50;
  c.backwardB = 55;
  c.backwardW = 45;
  c.communication = 5;
  return c;
}

int64_t Costs::of(JobKind kind) const {
  switch (kind) {
    case JobKind::Forward:
      return forward;
    case JobKind::Backward:
      return backwardB + backwardW;
    case JobKind::BackwardB:
      return backwardB;
    case JobKind::BackwardW:
      return backwardW;
    case JobKind::Optimizer:
      return optimizer;
    case JobKind::RecvForward:
    case JobKind::SendBackward:
      return 0;
  }
  return 0;
}

int64_t Costs::of(int stage, const Job& job) const {
  if (stage >= 0 && size_t(stage) < stageCosts.size()) {
    const auto& byType = stageCosts[size_t(stage)];
    if (auto it = byType.find(job.type()); it != byType.end()) return it->second;
    if (job.kind == JobKind::Backward) {
      Job b = job, w = job;
      b.kind = JobKind::BackwardB;
      w.kind = JobKind::BackwardW;
      auto bi = byType.find(b.type()), wi = byType.find(w.type());
      if (bi != byType.end() && wi != byType.end()) return bi->second + wi->second;
    }
    if (auto it = byType.find(std::string(kindName(job.kind))); it != byType.end()) return it->second;
  }
  return of(job.kind);
}

int64_t Costs::communicationAfter(int stage, const Job& job) const {
  int64_t bytes = 0;
  if (stage >= 0 && size_t(stage) < stageBytes.size())
    if (auto it = stageBytes[size_t(stage)].find(job.type()); it != stageBytes[size_t(stage)].end()) bytes = it->second;
  return communication + (bytesPerUs > 0 ? int64_t(double(bytes) / bytesPerUs + 0.5) : 0);
}

namespace {

core::Status readInt(const YAML::Node& map, const char* key, int64_t& out) {
  if (!map[key]) return core::Status::ok();
  out = map[key].as<int64_t>();
  if (out < 0) return core::Status::error(std::string("cost '") + key + "' is negative");
  if (out > kMaxJobCost)
    return core::Status::error(std::string("cost '") + key + "' is more than " + std::to_string(kMaxJobCost));
  return core::Status::ok();
}

void readDouble(const YAML::Node& map, const char* key, double& out) {
  if (map[key]) out = map[key].as<double>();
}

/// `stages` (or summary.yaml's `stage_costs_us`): per stage, its `jobs`
/// costs and `bytes_sent`, rounded to integers.
core::Status readStages(const YAML::Node& list, Costs& c) {
  if (!list.IsSequence()) return core::Status::error("'stages' is a list of {stage, jobs, bytes_sent}");
  for (const YAML::Node& entry : list) {
    if (!entry.IsMap() || !entry["stage"]) return core::Status::error("a 'stages' entry needs its 'stage'");
    const int64_t stage = entry["stage"].as<int64_t>();
    if (stage < 0 || stage >= kMaxScheduleStages)
      return core::Status::error("stage " + std::to_string(stage) + " is out of range");
    if (size_t(stage) >= c.stageCosts.size())
      c.stageCosts.resize(size_t(stage) + 1), c.stageBytes.resize(size_t(stage) + 1);
    for (auto [key, out] :
         {std::pair{"jobs", &c.stageCosts[size_t(stage)]}, {"bytes_sent", &c.stageBytes[size_t(stage)]}})
      if (const YAML::Node map = entry[key]) {
        if (!map.IsMap()) return core::Status::error(std::string("'") + key + "' of a stage is a map");
        for (const auto& kv : map) {
          const double v = kv.second.as<double>();
          if (!(v >= 0) || v > double(kMaxJobCost))
            return core::Status::error("stage " + std::to_string(stage) + " " + key + " '" +
                                       kv.first.as<std::string>() + "' is not in [0, 2^40]");
          (*out)[kv.first.as<std::string>()] = int64_t(v + 0.5);
        }
      }
  }
  return core::Status::ok();
}

core::Result<Costs> fromNode(const YAML::Node& root) {
  Costs c;
  c.fromFile = true;
  if (!root.IsMap()) return core::Status::error("a costs file is a YAML map");
  // A pir-run summary.yaml: the measured costs are its `costs` map and its `stage_costs_us`.
  if (root["costs"] && root["per_rank"]) {
    auto measured = fromNode(root["costs"]);
    if (measured && root["stage_costs_us"])
      if (core::Status s = readStages(root["stage_costs_us"], *measured); !s) return s;
    return measured;
  }
  static const char* const kKnown[] = {"forward", "backward_b", "backward_w",   "communication", "optimizer",
                                       "memory",  "max_memory", "bytes_per_us", "stages"};
  for (const auto& entry : root) {
    std::string key = entry.first.as<std::string>();
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) return core::Status::error("unknown costs key '" + key + "'");
  }
  for (auto [key, field] : {std::pair{"forward", &c.forward},
                            {"backward_b", &c.backwardB},
                            {"backward_w", &c.backwardW},
                            {"communication", &c.communication},
                            {"optimizer", &c.optimizer}})
    if (core::Status s = readInt(root, key, *field); !s) return s;
  if (const YAML::Node mem = root["memory"]) {
    readDouble(mem, "forward", c.memForward);
    readDouble(mem, "backward_b", c.memBackwardB);
    readDouble(mem, "backward_w", c.memBackwardW);
  }
  readDouble(root, "max_memory", c.maxMemory);
  readDouble(root, "bytes_per_us", c.bytesPerUs);
  if (!(c.bytesPerUs >= 0)) return core::Status::error("'bytes_per_us' is negative");
  if (root["stages"])
    if (core::Status s = readStages(root["stages"], c); !s) return s;
  return c;
}

}  // namespace

core::Result<Costs> parseCosts(const std::string& text, const std::string& what) {
  try {
    return fromNode(loadYamlStrict(text));
  } catch (const YAML::Exception& e) {
    return core::Status::error(what + ": " + e.what());
  }
}

std::string writeCostsEntry(const Costs& c, const std::string& comment) {
  return "costs:  # " + comment + "\n  forward: " + std::to_string(c.forward) +
         "\n  backward_b: " + std::to_string(c.backwardB) + "\n  backward_w: " + std::to_string(c.backwardW) +
         "\n  optimizer: " + std::to_string(c.optimizer) + "\n  communication: " + std::to_string(c.communication) +
         "\n  bytes_per_us: " + std::to_string(int64_t(c.bytesPerUs)) + "\n";
}

core::Result<Costs> loadCosts(const std::string& path) {
  std::ifstream in(path);
  if (!in) return core::Status::error("cannot read costs file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseCosts(buffer.str(), path);
}

}  // namespace pir::passes::schedule
