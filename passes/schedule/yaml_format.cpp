//===- yaml_format.cpp - the job-list YAML file ------------------------------===//
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "passes/schedule/formats.h"
#include "passes/schedule/yaml_strict.h"

namespace pir::passes::schedule {

namespace {

std::string fixed4(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", value);
  return buffer;
}

void emitSimulation(YAML::Emitter& out, const Simulation& sim) {
  out << YAML::Key << "simulation" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "makespan" << YAML::Value << sim.makespan;
  out << YAML::Key << "bubble_ratio" << YAML::Value << fixed4(sim.bubbleRatio);
  out << YAML::Key << "peak_in_flight" << YAML::Value << YAML::Flow << sim.peakInFlight;
  out << YAML::EndMap;
}

}  // namespace

std::string scheduleToYaml(const Schedule& schedule, const Simulation* sim) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "mode" << YAML::Value << schedule.mode;
  out << YAML::Key << "stages" << YAML::Value << schedule.stages;
  out << YAML::Key << "micro_batches" << YAML::Value << schedule.microBatches;
  out << YAML::Key << "vpp" << YAML::Value << schedule.vpp;
  out << YAML::Key << "stage_jobs" << YAML::Value << YAML::BeginSeq;
  for (size_t s = 0; s < schedule.stageJobs.size(); ++s) {
    out << YAML::BeginMap << YAML::Key << "stage" << YAML::Value << s;
    out << YAML::Key << "jobs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    const std::vector<Job>& jobs = schedule.stageJobs[s];
    for (size_t i = 0; i < jobs.size(); ++i) {
      std::string entry = jobs[i].name();
      for (; i + 1 < jobs.size() && jobs[i + 1].overlapsPrevious; ++i)  // an overlapped pair is one entry
        entry += std::string(kOverlapSeparator) + jobs[i + 1].name();
      out << YAML::DoubleQuoted << entry;
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (sim) emitSimulation(out, *sim);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

namespace {

SourcePos posOf(const YAML::Mark& mark) { return {mark.line + 1, mark.column + 1}; }
SourcePos posOf(const YAML::Node& node) { return posOf(node.Mark()); }

/// An error at `node`: "LINE:COL: message".
core::Status errorAt(const SourcePos& pos, const std::string& message) {
  return core::Status::error(pos.str() + ": " + message);
}

core::Status readJobs(const YAML::Node& entry, size_t i, size_t stageCount, int64_t& jobs, Schedule& schedule) {
  const YAML::Node list = entry["jobs"];
  if (!list || !list.IsSequence())
    return errorAt(posOf(list ? list : entry), "stage " + std::to_string(i) + " has no jobs list");
  schedule.source.stageEntries[i] = posOf(list);
  jobs += static_cast<int64_t>(list.size());
  if (jobs > kMaxScheduleJobs || jobs * static_cast<int64_t>(stageCount) > kMaxScheduleCells)
    return errorAt(posOf(list), "stage_jobs lists too many jobs: at most " + std::to_string(kMaxScheduleJobs) +
                                    ", and " + std::to_string(kMaxScheduleCells) + " stage-by-job cells, are checked");
  for (const YAML::Node& text : list) {
    // "A & B": B overlaps A (DualPipeV's F&B pair).
    const std::string spelled = text.as<std::string>();
    size_t from = 0;
    for (bool first = true;; first = false) {
      size_t amp = spelled.find('&', from);
      std::string_view piece = std::string_view(spelled).substr(from, amp == std::string::npos ? amp : amp - from);
      while (!piece.empty() && piece.front() == ' ') piece.remove_prefix(1);
      while (!piece.empty() && piece.back() == ' ') piece.remove_suffix(1);
      auto job = parseJob(piece);
      if (!job) return errorAt(posOf(text), "stage " + std::to_string(i) + ": " + job.status().message());
      job->overlapsPrevious = !first;
      schedule.stageJobs[i].push_back(*job);
      schedule.source.jobs[i].push_back(posOf(text));
      if (amp == std::string::npos) break;
      from = amp + 1;
    }
  }
  return core::Status::ok();
}

core::Result<Schedule> fromNode(const YAML::Node& root) {
  Schedule schedule;
  schedule.source.read = true;
  schedule.source.root = posOf(root);
  if (!root.IsMap()) return errorAt(posOf(root), "a schedule file is a YAML map");
  if (root["mode"]) schedule.mode = root["mode"].as<std::string>();
  if (!root["stages"] || !root["micro_batches"] || !root["stage_jobs"])
    return errorAt(posOf(root), "a schedule needs stages, micro_batches and stage_jobs");
  schedule.stages = root["stages"].as<int>();
  schedule.source.stages = posOf(root["stages"]);
  schedule.microBatches = root["micro_batches"].as<int>();
  schedule.vpp = root["vpp"] ? root["vpp"].as<int>() : 1;
  const YAML::Node lists = root["stage_jobs"];
  if (!lists.IsSequence()) return errorAt(posOf(lists), "stage_jobs is a list");
  if (static_cast<int64_t>(lists.size()) > kMaxScheduleStages)
    return errorAt(posOf(lists), "stage_jobs lists " + std::to_string(lists.size()) + " stages; at most " +
                                     std::to_string(kMaxScheduleStages) + " are checked");
  schedule.stageJobs.resize(lists.size());
  schedule.source.stageEntries.resize(lists.size());
  schedule.source.jobs.resize(lists.size());
  int64_t jobs = 0;
  for (size_t i = 0; i < lists.size(); ++i) {
    const YAML::Node entry = lists[i];
    size_t stage = entry["stage"] ? entry["stage"].as<size_t>() : i;
    if (stage != i)
      return errorAt(posOf(entry["stage"]), "stage_jobs entry " + std::to_string(i) + " says stage " +
                                                std::to_string(stage) + "; list the stages in order");
    if (core::Status s = readJobs(entry, i, lists.size(), jobs, schedule); !s) return s;
  }
  return schedule;
}

}  // namespace

// Every error names `what`, then the line and column in it: "FILE:LINE:COL: ...".
core::Result<Schedule> scheduleFromYaml(const std::string& text, const std::string& what) {
  try {
    auto result = fromNode(loadYamlStrict(text));
    if (!result) return core::Status::error(what + ":" + result.status().message());
    return result;
  } catch (const YAML::Exception& e) {
    return core::Status::error(what + ":" + posOf(e.mark).str() + ": " + e.msg);
  }
}

core::Result<Schedule> loadScheduleFile(const std::string& path, const std::string& mode) {
  std::ifstream in(path);
  if (!in) return core::Status::error("cannot read '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (isTorchCsvPath(path)) return scheduleFromTorchCsv(buffer.str(), path, mode);
  return scheduleFromYaml(buffer.str(), path);
}

}  // namespace pir::passes::schedule
