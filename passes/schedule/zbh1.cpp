//===- zbh1.cpp - ZB-H1, the zero-bubble paper's memory-efficient list -----===//
//
// The handcrafted ZB-H1 of Qi et al. (Zero Bubble Pipeline Parallelism,
// ICLR 2024, section 2.1), as Megatron-DeepSpeed writes it:
// ZeroBubbleH1Pipeline.steps in
// megatron/core/pipeline_parallel/deepspeed_zbh1_schedule.py with
// --enable-zbh1-exact-semantics (read in saforem2/Megatron-DeepSpeed at
// 40e942a; microsoft/Megatron-DeepSpeed at c84829e is the same file before
// that flag). Per stage s of P, with B = backward_b and W = backward_w:
//   warm-up    P-s-1 F;
//   s times    F B         (these Ws wait: the B chain goes first);
//   steady     F B W       while forwards remain;
//   cool-down  B W         while backwards remain; then the s Ws left.
// A stage's Ws run oldest first, so stage s runs W of micro-batch i - s
// after B of i. Sections stop when their micro-batches run out, which keeps
// the list valid for N < P. Stage 0 defers nothing: its B and W of one
// micro-batch are always adjacent and run as one full `backward`, as in
// Megatron-DeepSpeed's code (and Paddle's list). A stage holds at most P-s micro-batches
// awaiting B (1F1B's) and P awaiting W; at unit costs every stage's bubble is
// (P-1)(F+B-W). Paddle's list (pipeline_zero_bubble.py) runs full backwards
// where this runs B then another micro-batch's W; see docs/schedules.md.
//
//===----------------------------------------------------------------------===//
#include <vector>

#include "passes/schedule/generate.h"

namespace pir::passes::schedule {

std::vector<Job> zbh1Jobs(int p, int n, int stage) {
  std::vector<Job> jobs;
  int f = 0, b = 0, w = 0;
  auto forward = [&] { jobs.push_back(Job{JobKind::Forward, -1, f++}); };
  auto inputGrad = [&] { jobs.push_back(Job{JobKind::BackwardB, -1, b++}); };
  auto inputThenWeightGrad = [&] {
    if (stage == 0) {  // w == b here: the pair is one micro-batch's full backward
      jobs.push_back(Job{JobKind::Backward, -1, b++});
      ++w;
      return;
    }
    inputGrad();
    jobs.push_back(Job{JobKind::BackwardW, -1, w++});
  };
  for (int i = 0; i < p - stage - 1 && f < n; ++i) forward();
  for (int i = 0; i < stage && f < n; ++i) forward(), inputGrad();
  while (f < n) forward(), inputThenWeightGrad();
  while (b < n) inputThenWeightGrad();
  while (w < n) jobs.push_back(Job{JobKind::BackwardW, -1, w++});
  jobs.push_back(Job{JobKind::Optimizer, -1, 0});
  return jobs;
}

}  // namespace pir::passes::schedule
