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

core::Result<Costs> fromNode(const YAML::Node& root) {
  Costs c;
  c.fromFile = true;
  if (!root.IsMap()) return core::Status::error("a costs file is a YAML map");
  // A pir-run summary.yaml: the measured costs are its `costs` map.
  if (root["costs"] && root["per_rank"]) return fromNode(root["costs"]);
  static const char* const kKnown[] = {"forward",   "backward_b", "backward_w", "communication",
                                       "optimizer", "memory",     "max_memory"};
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
         "\n";
}

core::Result<Costs> loadCosts(const std::string& path) {
  std::ifstream in(path);
  if (!in) return core::Status::error("cannot read costs file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseCosts(buffer.str(), path);
}

}  // namespace pir::passes::schedule
