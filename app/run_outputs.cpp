//===- run_outputs.cpp - what a pir-run leaves ----------------------------===//
#include "app/run_outputs.h"

#include <cstdio>

#include "runtime/npy.h"
#include "runtime/runner/phase_timer.h"
#include "runtime/runner/summary.h"

namespace pir::app {

using core::Status;
namespace runner = runtime::runner;

void printStepLoss(int64_t step, const std::string& lossName, double loss) {
  std::printf("step %lld: %s %s\n", (long long)(step + 1), lossName.c_str(), runner::number(loss).c_str());
  std::fflush(stdout);
}

bool printReport(const runner::RunReport& report) {
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

Status RunFiles::open(const std::string& tracePath, const std::string& outputDir, const std::string& valuesDir) {
  tracePath_ = tracePath;
  if (!tracePath.empty())
    if (Status s = trace_.open(tracePath); !s)
      return s.withMessage(tracePath + ": cannot write the trace: " + s.message());
  if (!outputDir.empty())
    if (Status s = dir_.open(outputDir, StagedDirectory::Existing::Replace, "summary.yaml"); !s) return s;
  if (!valuesDir.empty())
    if (Status s = values_.open(valuesDir, StagedDirectory::Existing::Replace, "values.txt"); !s) return s;
  return Status::ok();
}

Status RunFiles::write(const runner::RunReport& report) {
  runner::PhaseTimer timer("write");
  if (!tracePath_.empty()) {
    trace_.write(runner::traceJson(report.tracks));  // a write error is reported by commit()
    if (Status s = trace_.commit(); !s) return s.withMessage(tracePath_ + ": cannot write the trace: " + s.message());
  }
  if (dir_.isOpen()) {
    for (auto& [name, t] : report.results)
      if (Status s = dir_.writeFile(name + ".npy", runtime::encodeNpy(t)); !s) return s;
    if (Status s = dir_.writeFile("summary.yaml", report.summary); !s) return s;
    if (Status s = dir_.commit(); !s) return s;
  }
  if (values_.isOpen()) {
    std::string index;  // values.txt: `%N tensor<..>` a line, in the order the values were made
    for (auto& [number, t] : report.values) {
      if (Status s = values_.writeFile(number + ".npy", runtime::encodeNpy(t)); !s) return s;
      index += "%" + number + " " + t.typeText() + "\n";
    }
    if (Status s = values_.writeFile("values.txt", index); !s) return s;
    if (Status s = values_.commit(); !s) return s;
  }
  std::fflush(stdout);
  if (std::ferror(stdout)) return Status::error("cannot write to stdout");
  return Status::ok();
}

}  // namespace pir::app
