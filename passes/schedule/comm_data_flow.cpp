//===- comm_data_flow.cpp - values handed from job to job ------------------===//
#include "passes/schedule/comm_data_flow.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace pir::passes::schedule {

namespace {

/// One bit per (name, micro-batch): made yet or not.
class MadeBits {
 public:
  MadeBits(size_t names, size_t microBatches) : stride_((microBatches + 63) / 64), words_(names * stride_, 0) {}
  bool test(size_t name, size_t mb) const { return (words_[name * stride_ + mb / 64] >> (mb % 64)) & 1; }
  void set(size_t name, size_t mb) { words_[name * stride_ + mb / 64] |= uint64_t(1) << (mb % 64); }

 private:
  size_t stride_;
  std::vector<uint64_t> words_;
};

/// Per program of the rank, its exports and kwargs as name ids (-1: a
/// feed, parameter or state): the jobs then hash no names.
struct Ids {
  std::vector<int64_t> exports, kwargs;
};

/// What to say of job `j` reading name `id` that no earlier job made for
/// its micro-batch: which later job makes it, or that none does.
std::string whyMissing(const RankRun& rank, const std::vector<const Ids*>& jobIds, size_t j, int64_t id,
                       const JobCode& exporter) {
  const int mb = rank.jobs[j].microBatch();
  for (size_t k = j; k < rank.jobs.size(); ++k) {
    if (rank.jobs[k].microBatch() != mb) continue;
    const std::vector<int64_t>& made = jobIds[k]->exports;
    if (std::find(made.begin(), made.end(), id) == made.end()) continue;
    if (k == j) return "which it makes itself: no earlier job made it for micro-batch " + std::to_string(mb);
    return "which job " + rank.jobs[k].job->name() + " makes later";
  }
  if (exporter.program->job.empty()) return "which it makes itself: no earlier job made it";
  return "which job " + exporter.program->job + " makes, but never for micro-batch " + std::to_string(mb);
}

}  // namespace

void checkDataFlow(const RankRun& rank, CommErrors& errors) {
  // The names some program of the rank exports, an id each, and one
  // program that does.
  std::unordered_map<std::string_view, int64_t> nameIds;
  std::vector<const JobCode*> exporter;
  for (const JobCode* code : rank.programs)
    for (const std::string& name : code->exports)
      if (nameIds.try_emplace(name, int64_t(exporter.size())).second) exporter.push_back(code);
  if (nameIds.empty()) return;
  std::unordered_map<const JobCode*, Ids> idsOf;
  for (const JobCode* code : rank.programs) {
    Ids& ids = idsOf[code];
    for (const std::string& name : code->exports) ids.exports.push_back(nameIds.at(name));
    for (const JobKwarg& kw : code->kwargs) {
      auto it = nameIds.find(kw.name);
      ids.kwargs.push_back(it == nameIds.end() ? -1 : it->second);
    }
  }
  std::vector<const Ids*> jobIds;
  jobIds.reserve(rank.jobs.size());
  int maxMicroBatch = 0;
  for (const JobSite& site : rank.jobs) {
    jobIds.push_back(&idsOf.at(site.code));
    maxMicroBatch = std::max(maxMicroBatch, site.microBatch());
  }
  MadeBits made(exporter.size(), size_t(maxMicroBatch) + 1);
  for (size_t j = 0; j < rank.jobs.size(); ++j) {
    const JobSite& site = rank.jobs[j];
    const size_t mb = size_t(site.microBatch());
    for (size_t k = 0; k < site.code->kwargs.size(); ++k) {
      const int64_t id = jobIds[j]->kwargs[k];
      if (id < 0 || made.test(size_t(id), mb)) continue;
      if (errors.full()) {  // counted only: its text would cost a scan
        errors.addUnshown();
        continue;
      }
      const JobKwarg& kw = site.code->kwargs[k];
      std::string what =
          "reads '" + std::string(kw.name) + "', " + whyMissing(rank, jobIds, j, id, *exporter[size_t(id)]);
      core::Diagnostic d = diagnosticAt(core::Severity::Error, site, kw.readAt, what);
      d.message = site.name() + " " + what;  // `rank R, job X:mb reads ...`
      errors.add(std::move(d));
    }
    for (int64_t id : jobIds[j]->exports) made.set(size_t(id), mb);
  }
}

}  // namespace pir::passes::schedule
