//===- zbv.cpp - ZB-V, the zero-bubble paper's handcrafted V schedule ------===//
//
// The fixed construction of Qi et al. (Zero Bubble Pipeline Parallelism,
// ICLR 2024, section 6): sail-sg/zero-bubble-pipeline-parallelism's
// megatron/core/pipeline_parallel/handcrafted_zb_v (get_zb_v_schedule, at
// commit 106e470), which torch's ScheduleZBVZeroBubble repeats
// (torch/distributed/pipelining/schedules.py at 00722e6). Chunk 0 of stage
// s is model part s, chunk 1 part 2P-1-s (ZBVPP's V, so ZBV runs ZBVPP's
// programs). Per stage s, with n = max(2P-1, N) micro-batches planned:
//   warm-up  2(P-s)-1 F0; s times F1 F0; P-s times F1 B1 W1;
//   steady   while F1 < F0 or F0 < n: [F0] B0 W0 F1 B1 W1;
//   cool-down s times B0 B1; P-s times B0 W0; the W1 left; the W0 left;
// then the jobs of micro-batches past N are dropped. Bubble-free when
// F = B = W; a stage holds at most 2P chunk-activations (1F1B's memory).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <vector>

#include "passes/schedule/generate.h"

namespace pir::passes::schedule {

namespace {

class ZbvStage {
 public:
  ZbvStage(int p, int stage, int plannedMicroBatches) : p_(p), s_(stage), n_(plannedMicroBatches) {}

  std::vector<Job> build() {
    for (int i = 0; i < 2 * (p_ - s_) - 1; ++i) forward(0);
    for (int i = 0; i < s_; ++i) forward(1), forward(0);
    for (int i = 0; i < p_ - s_; ++i) forward(1), backwardB(1), backwardW(1, b_[1] - 1);
    while (f_[1] < f_[0] || f_[0] < n_) {
      if (f_[0] < n_) forward(0);
      backwardB(0), backwardW(0, b_[0] - 1);
      forward(1), backwardB(1), backwardW(1, b_[1] - 1);
    }
    int w[2] = {b_[0], b_[1]};
    for (int i = 0; i < s_; ++i) backwardB(0), backwardB(1);
    for (int i = 0; i < p_ - s_; ++i) backwardB(0), backwardW(0, w[0]++);
    while (w[1] < b_[1]) backwardW(1, w[1]++);
    while (w[0] < b_[0]) backwardW(0, w[0]++);
    return std::move(jobs_);
  }

 private:
  void forward(int chunk) { jobs_.push_back(Job{JobKind::Forward, chunk, f_[chunk]++}); }
  void backwardB(int chunk) { jobs_.push_back(Job{JobKind::BackwardB, chunk, b_[chunk]++}); }
  void backwardW(int chunk, int microBatch) { jobs_.push_back(Job{JobKind::BackwardW, chunk, microBatch}); }

  int p_, s_, n_;
  int f_[2] = {0, 0}, b_[2] = {0, 0};
  std::vector<Job> jobs_;
};

}  // namespace

core::Result<Schedule> zbvSchedule(int stages, int microBatches) {
  Schedule schedule{"ZBV", stages, microBatches, 2, {}, {}};
  const int planned = std::max(2 * stages - 1, microBatches);
  for (int s = 0; s < stages; ++s) {
    std::vector<Job> jobs = ZbvStage(stages, s, planned).build();
    std::erase_if(jobs, [&](const Job& j) { return j.microBatch >= microBatches; });
    jobs.push_back(Job{JobKind::Optimizer, -1, 0});
    schedule.stageJobs.push_back(std::move(jobs));
  }
  return schedule;
}

}  // namespace pir::passes::schedule
