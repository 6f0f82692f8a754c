//===- run_outputs.cpp - what a pir-run leaves ----------------------------===//
#include "app/run_outputs.h"

#include <cstdio>

#include "app/output_file.h"
#include "app/staged_directory.h"
#include "runtime/npy.h"
#include "runtime/runner/phase_timer.h"
#include "runtime/runner/summary.h"

namespace pir::app {

using core::Status;
namespace runner = runtime::runner;

bool printReport(const runner::RunReport& report) {
  for (size_t i = 0; i < report.losses.size(); ++i)
    std::printf("step %zu: %s %s\n", i + 1, report.lossName.c_str(), runner::number(report.losses[i]).c_str());
  if (!report.check) return true;
  if (!report.check->match) {
    std::fflush(stdout);
    std::fprintf(stderr, "check: %s\n", report.check->mismatch.c_str());
    return false;
  }
  const runner::CompareReport& c = *report.check;
  std::printf("check: %zu tensors match", c.compared);
  if (c.steps > 0 && c.gradients + c.updates > 0)
    std::printf(", and %zu gradients and %zu updates at each of %zu step%s", c.gradients, c.updates, c.steps,
                c.steps == 1 ? "" : "s");
  if (c.bitwise)
    std::printf(" (bitwise)\n");
  else if (c.worst.ratio == 0)
    std::printf(" (every element equal)\n");
  else
    std::printf(" (worst: %s: %.9g, serially %.9g, %.3g of the tolerance)\n", c.worst.what.c_str(), c.worst.got,
                c.worst.want, c.worst.ratio);
  return true;
}

namespace {

Status writeOutputs(const std::string& outputDir, const runner::RunReport& report) {
  StagedDirectory dir;
  if (Status s = dir.open(outputDir); !s) return s;
  for (auto& [name, t] : report.results)
    if (Status s = dir.writeFile(name + ".npy", runtime::encodeNpy(t)); !s) return s;
  if (Status s = dir.writeFile("summary.yaml", report.summary); !s) return s;
  return dir.commit();
}

}  // namespace

Status writeRunFiles(const std::string& tracePath, const std::string& outputDir, const runner::RunReport& report) {
  runner::PhaseTimer timer("write");
  if (!tracePath.empty()) {
    OutputFile trace;
    Status s = trace.open(tracePath);
    if (s) {
      trace.write(runner::traceJson(report.tracks));  // a write error is reported by commit()
      s = trace.commit();
    }
    if (!s) return s.withMessage(tracePath + ": cannot write the trace: " + s.message());
  }
  if (!outputDir.empty())
    if (Status s = writeOutputs(outputDir, report); !s) return s;
  std::fflush(stdout);
  if (std::ferror(stdout)) return Status::error("cannot write to stdout");
  return Status::ok();
}

}  // namespace pir::app
