//===- dualpipev.cpp - DeepSeek's DualPipeV --------------------------------===//
//
// DualPipeV (DeepSeek-V3's DualPipe folded into a V, D ranks holding 2
// chunks each, 2D virtual stages): the eight steps of DualPipeV.step in
// deepseek-ai/DualPipe's dualpipe/dualpipev.py (read in the copy
// jamescon1-bit/DualPipe at 797780c), as torch lists them in
// ScheduleDualPipeV._calculate_single_rank_operations
// (torch/distributed/pipelining/schedules.py at 00722e6). Chunk 0 of stage
// s is model part s, chunk 1 part 2D-1-s (ZBVPP's V and programs). Per
// stage s: 2(D-s-1) F0; s+1 times F0 F1; D-s-1 times B1 W F1 (zero bubble);
// N-2D+s+1 times the two overlapped pairs F0&B1 and F1&B0 (the last stage's
// first F0 and B1 not overlapped); D-s-1 times B1 then F1&B0; s+1 times B1
// B0, their second half split (B then W later); D-s-1 times W B0; s+1 W.
// A W is the oldest pending one. B is a full backward unless split.
//
// On CPU an overlapped pair F&B runs as its two jobs one after the other
// (the backward marked Job::overlapsPrevious, so that torch's CSV writes
// the pair back); the simulator times them so, F&B = F + B + W.
//
//===----------------------------------------------------------------------===//
#include <deque>
#include <utility>
#include <vector>

#include "passes/schedule/generate.h"

namespace pir::passes::schedule {

namespace {

class DualPipeVStage {
 public:
  DualPipeVStage(int d, int stage, int microBatches) : d_(d), s_(stage), n_(microBatches) {}

  std::vector<Job> build() {
    for (int i = 0; i < 2 * (d_ - s_ - 1); ++i) forward(0);
    for (int i = 0; i < s_ + 1; ++i) forward(0), forward(1);
    for (int i = 0; i < d_ - s_ - 1; ++i) backward(1, true), weight(), forward(1);
    for (int i = 0; i < n_ - 2 * d_ + s_ + 1; ++i) {
      if (i == 0 && s_ == d_ - 1) {
        forward(0), backward(1, false);  // not overlapped: a smaller bubble
      } else {
        forward(0), backward(1, false, true);
      }
      forward(1), backward(0, false, true);
    }
    for (int i = 0; i < d_ - s_ - 1; ++i) backward(1, false), forward(1), backward(0, false, true);
    bool split = false;
    for (int i = 0; i < s_ + 1; ++i) {
      if (i == (s_ + 1) / 2 && s_ % 2 == 1) split = true;
      backward(1, split);
      if (i == (s_ + 1) / 2 && s_ % 2 == 0) split = true;
      backward(0, split);
    }
    for (int i = 0; i < d_ - s_ - 1; ++i) weight(), backward(0, split);
    for (int i = 0; i < s_ + 1; ++i) weight();
    return std::move(jobs_);
  }

 private:
  void forward(int chunk) { jobs_.push_back(Job{JobKind::Forward, chunk, f_[chunk]++}); }
  /// A full backward, or (split) its backward_b, its backward_w queued.
  void backward(int chunk, bool split, bool overlapped = false) {
    int mb = b_[chunk]++;
    jobs_.push_back(Job{split ? JobKind::BackwardB : JobKind::Backward, chunk, mb, overlapped});
    if (split) pendingW_.emplace_back(chunk, mb);
  }
  void weight() {
    if (pendingW_.empty()) return;
    auto [chunk, mb] = pendingW_.front();
    pendingW_.pop_front();
    jobs_.push_back(Job{JobKind::BackwardW, chunk, mb});
  }

  int d_, s_, n_;
  int f_[2] = {0, 0}, b_[2] = {0, 0};
  std::deque<std::pair<int, int>> pendingW_;
  std::vector<Job> jobs_;
};

}  // namespace

core::Result<Schedule> dualPipeVSchedule(int stages, int microBatches) {
  if (microBatches < 2 * stages)
    return core::Status::error(
        "DualPipeV needs at least 2D micro-batches on D ranks (N=" + std::to_string(microBatches) +
        " < 2D=" + std::to_string(2 * stages) + "), as dualpipev.py asserts (num_chunks >= num_ranks * 2)");
  Schedule schedule{"DualPipeV", stages, microBatches, 2, {}, {}};
  for (int s = 0; s < stages; ++s) {
    std::vector<Job> jobs = DualPipeVStage(stages, s, microBatches).build();
    jobs.push_back(Job{JobKind::Optimizer, -1, 0});
    schedule.stageJobs.push_back(std::move(jobs));
  }
  return schedule;
}

}  // namespace pir::passes::schedule
