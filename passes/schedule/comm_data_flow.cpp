//===- comm_data_flow.cpp - values handed from job to job ------------------===//
#include "passes/schedule/comm_data_flow.h"

#include <string_view>
#include <unordered_map>

namespace pir::passes::schedule {

namespace {

/// (name, micro-batch) as one key.
uint64_t keyOf(size_t name, int microBatch) { return (uint64_t(name) << 32) | uint32_t(microBatch); }

}  // namespace

void checkDataFlow(const RankRun& rank, CommErrors& errors) {
  // The names some program of the rank exports, and one program that does.
  std::unordered_map<std::string_view, size_t> nameIds;
  std::vector<const JobCode*> exporter;
  for (const JobCode* code : rank.programs)
    for (const std::string& name : code->exports)
      if (nameIds.try_emplace(name, exporter.size()).second) exporter.push_back(code);
  if (nameIds.empty()) return;
  // The first job of the list that makes each (name, micro-batch).
  std::unordered_map<uint64_t, size_t> firstMaker;
  for (size_t j = 0; j < rank.jobs.size(); ++j)
    for (const std::string& name : rank.jobs[j].code->exports)
      firstMaker.try_emplace(keyOf(nameIds.at(name), rank.jobs[j].microBatch()), j);
  for (size_t j = 0; j < rank.jobs.size(); ++j) {
    const JobSite& site = rank.jobs[j];
    for (const JobKwarg& kw : site.code->kwargs) {
      auto id = nameIds.find(kw.name);
      if (id == nameIds.end()) continue;  // a feed, parameter or state
      const std::string mb = std::to_string(site.microBatch());
      auto maker = firstMaker.find(keyOf(id->second, site.microBatch()));
      std::string what = "reads '" + std::string(kw.name) + "', ";
      if (maker == firstMaker.end()) {
        const std::string& type = exporter[id->second]->program->job;
        what += type.empty() ? "which it makes itself: no earlier job made it"
                             : "which job " + type + " makes, but never for micro-batch " + mb;
      } else if (maker->second > j) {
        what += "which job " + rank.jobs[maker->second].job->name() + " makes later";
      } else if (maker->second == j) {
        what += "which it makes itself: no earlier job made it for micro-batch " + mb;
      } else {
        continue;
      }
      core::Diagnostic d = diagnosticAt(core::Severity::Error, site, kw.readAt, what);
      d.message = site.name() + " " + what;  // `rank R, job X:mb reads ...`
      errors.add(std::move(d));
    }
  }
}

}  // namespace pir::passes::schedule
