//===- run_outputs.cpp - what a pir-run leaves ----------------------------===//
#include "app/run_outputs.h"

#include <algorithm>
#include <cstdio>

#include "app/output_file.h"
#include "app/run_layout.h"
#include "app/run_timing.h"
#include "app/staged_directory.h"
#include "runtime/npy.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;

bool compareRuns(const TensorMap& got, const TensorMap& want) {
  std::vector<std::string> names;
  for (auto& [k, v] : want) names.push_back(k);
  std::sort(names.begin(), names.end());
  double maxRel = 0;
  for (const std::string& n : names) {
    auto it = got.find(n);
    const Tensor& b = want.at(n);
    if (it == got.end()) {
      std::fprintf(stderr, "check: '%s' is missing from the run\n", n.c_str());
      return false;
    }
    const Tensor& a = it->second;
    if (a.dtype() != b.dtype() || !std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end())) {
      std::fprintf(stderr, "check: '%s' is %s, serially %s\n", n.c_str(), a.typeText().c_str(), b.typeText().c_str());
      return false;
    }
    double va = 0, vb = 0;
    if (int64_t i = firstMismatch(a, b, maxRel, va, vb); i >= 0) {
      std::fprintf(stderr, "check: '%s' differs at flat index %lld: %.9g, serially %.9g\n", n.c_str(), (long long)i, va,
                   vb);
      return false;
    }
  }
  std::printf("check: %zu tensors match (max rel err %.3g)\n", names.size(), maxRel);
  return true;
}

TensorMap resultsOf(const RankRun& r) {
  TensorMap out = r.fetches;
  for (const auto& in : r.executor->inputs())
    if (in.kind == runtime::ProgramInput::Kind::Parameter || in.persistable) out[in.name] = r.state.at(in.name);
  return out;
}

std::string summaryYaml(const std::vector<RankRun>& runs, const RunOptions& opts, const std::vector<double>& losses,
                        const std::string& extra) {
  std::string y = "# pir-run summary\nranks: " + std::to_string(runs.size()) +
                  "\nsteps: " + std::to_string(opts.steps) + "\nloss: [";
  for (size_t i = 0; i < losses.size(); ++i) y += (i ? ", " : "") + number(losses[i]);
  y += "]\nper_rank:\n";
  for (const RankRun& r : runs) {
    y += "  - rank: " + std::to_string(r.rank) + "\n    seconds: " + number(r.seconds) +
         "\n    kernel_seconds: " + number(r.stats.kernelSeconds) + "\n    comm_seconds: " + number(r.commSeconds) +
         "\n    peak_tensor_bytes: " + std::to_string(r.peakBytes) +
         "\n    bytes_sent: " + bytesByRingYaml(r.bytesByRing) + "\n";
  }
  return y + extra;
}

namespace {

Status writeOutputs(const RunOptions& opts, const TensorMap& results, const std::string& summary) {
  StagedDirectory dir;
  if (Status s = dir.open(opts.outputDir); !s) return s;
  for (auto& [name, t] : results)
    if (Status s = dir.writeFile(name + ".npy", runtime::encodeNpy(t)); !s) return s;
  if (Status s = dir.writeFile("summary.yaml", summary); !s) return s;
  return dir.commit();
}

}  // namespace

void printLosses(const std::string& lossName, const std::vector<double>& losses) {
  for (size_t i = 0; i < losses.size(); ++i)
    std::printf("step %zu: %s %s\n", i + 1, lossName.c_str(), number(losses[i]).c_str());
}

int finishRun(const RunOptions& opts, const std::vector<TraceTrack>& tracks, const TensorMap& results,
              const std::string& summary) {
  PhaseTimer timer("write");
  if (!opts.trace.empty()) {
    OutputFile trace;
    Status s = trace.open(opts.trace);
    if (s) {
      trace.write(traceJson(tracks));  // a write error is reported by commit()
      s = trace.commit();
    }
    if (!s)
      return std::fprintf(stderr, "error: %s: cannot write the trace: %s\n", opts.trace.c_str(), s.message().c_str()),
             1;
  }
  if (!opts.outputDir.empty())
    if (Status s = writeOutputs(opts, results, summary); !s)
      return std::fprintf(stderr, "error: %s\n", s.message().c_str()), 1;
  std::fflush(stdout);
  return std::ferror(stdout) ? 1 : 0;
}

}  // namespace pir::app
