//===- paddle_schedules.cpp - Paddle's FThenB, 1F1B and VPP lists ---------===//
//
// Line by line from Paddle's pipeline_scheduler_pass: pipeline_fthenb.py,
// pipeline_1f1b.py (PIR list) and pipeline_vpp.py (_pir_create_job_list).
// ZBH1 is the zero-bubble paper's list, not Paddle's (zbh1.cpp).
//
//===----------------------------------------------------------------------===//
#include <vector>

#include "passes/schedule/generate.h"

namespace pir::passes::schedule {

namespace {

Job job(JobKind kind, int microBatch, int chunk = -1) { return Job{kind, chunk, microBatch}; }
Job optimizerJob() { return job(JobKind::Optimizer, 0); }

}  // namespace

std::vector<Job> fthenbJobs(int /*stages*/, int microBatches, int /*stage*/) {
  std::vector<Job> jobs;
  for (int i = 0; i < microBatches; ++i) jobs.push_back(job(JobKind::Forward, i));
  for (int i = 0; i < microBatches; ++i) jobs.push_back(job(JobKind::Backward, i));
  jobs.push_back(optimizerJob());
  return jobs;
}

std::vector<Job> oneFOneBJobs(int stages, int microBatches, int stage) {
  const int warmup = stages - stage;  // PIR: p - s, not p - s - 1
  std::vector<Job> jobs;
  int f = 0, b = 0;
  for (int i = 0; i < warmup; ++i, ++f) {
    jobs.push_back(job(JobKind::RecvForward, f));
    jobs.push_back(job(JobKind::Forward, f));
  }
  for (int i = 0; i < microBatches - warmup; ++i, ++f, ++b) {
    jobs.push_back(job(JobKind::Backward, b));
    jobs.push_back(job(JobKind::RecvForward, f));
    jobs.push_back(job(JobKind::SendBackward, b));
    jobs.push_back(job(JobKind::Forward, f));
  }
  for (int i = 0; i < warmup; ++i, ++b) {
    jobs.push_back(job(JobKind::Backward, b));
    jobs.push_back(job(JobKind::SendBackward, b));
  }
  jobs.push_back(optimizerJob());
  return jobs;
}

namespace {

/// _get_virtual_pp_rank of _pir_create_job_list, with its remainder rule.
int virtualRank(int step, bool forward, int p, int n, int v) {
  int chunk = step % (p * v);
  if (step <= (n / p) * (p * v))
    chunk /= p;
  else
    chunk /= n % p;
  return forward ? chunk : v - chunk - 1;
}

struct VppCounters {
  std::vector<int> fwd, bwd;
  explicit VppCounters(int v) : fwd(v, 0), bwd(v, 0) {}
};

}  // namespace

std::vector<Job> vppJobs(int p, int n, int v, int stage, bool splitBw) {
  const int total = n * v;
  int warmup = total;
  if (n != p) warmup = std::min(2 * (p - stage - 1) + (v - 1) * p, total);
  const bool split = n == p && splitBw;
  if (!split) warmup = std::min(total, warmup + 1);
  const int steady = total - warmup;
  VppCounters count(v);
  std::vector<Job> jobs;
  for (int k = 0; k < warmup; ++k) {
    int c = virtualRank(k, true, p, n, v);
    int mb = count.fwd[c]++;
    if (!split) jobs.push_back(job(JobKind::RecvForward, mb, c));
    jobs.push_back(job(JobKind::Forward, mb, c));
  }
  for (int k = 0; k < steady; ++k) {
    int cf = virtualRank(k + warmup, true, p, n, v), mf = count.fwd[cf]++;
    int cb = virtualRank(k, false, p, n, v), mbk = count.bwd[cb]++;
    if (split) {
      jobs.push_back(job(JobKind::Forward, mf, cf));
      jobs.push_back(job(JobKind::BackwardB, mbk, cb));
      continue;
    }
    // jobs_in_stable_phase_in_pir: backward, recv_forward, send_backward, forward
    jobs.push_back(job(JobKind::Backward, mbk, cb));
    jobs.push_back(job(JobKind::RecvForward, mf, cf));
    jobs.push_back(job(JobKind::SendBackward, mbk, cb));
    jobs.push_back(job(JobKind::Forward, mf, cf));
  }
  for (int k = steady; k < total; ++k) {
    int c = virtualRank(k, false, p, n, v), mb = count.bwd[c]++;
    jobs.push_back(job(split ? JobKind::BackwardB : JobKind::Backward, mb, c));
    if (!split) jobs.push_back(job(JobKind::SendBackward, mb, c));
  }
  if (split)
    for (int c = v - 1; c >= 0; --c)
      for (int mb = 0; mb < n; ++mb) jobs.push_back(job(JobKind::BackwardW, mb, c));
  jobs.push_back(optimizerJob());
  return jobs;
}

}  // namespace pir::passes::schedule
