//===- zbvpp.cpp - Paddle's ZBVPP V-schedule creator ------------------------===//
//
// A line-by-line port of VScheduleCreator in Paddle's
// python/paddle/distributed/passes/pipeline_scheduler_pass/pipeline_zero_bubble.py
// at commit 06a80bf, including its quirks: job ids are computed with the same
// formula (so a look-up past a chunk's last micro-batch reads the same slot
// Python reads), chunk order follows the V (even chunks flow down the stages,
// odd ones up), and the approved-bubble refinement recurses while the largest
// stage bubble shrinks. Memory terms come from Costs (zero and unlimited by
// default). Python's ValueError is an internal exception, caught at the end.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "passes/schedule/generate.h"

namespace pir::passes::schedule {

namespace {

struct ZbvppError {
  std::string message;
};

// Paddle's job_types order, which job ids depend on.
enum Type { kF = 0, kW = 1, kB = 2 };

JobKind kindOf(int type) {
  return type == kF ? JobKind::Forward : type == kB ? JobKind::BackwardB : JobKind::BackwardW;
}

struct Plan {
  std::vector<std::vector<Job>> jobs;
  int64_t maxBubble = 0;
};

class VScheduler {
 public:
  VScheduler(int p, int n, int v, const Costs& c) : p_(p), n_(n), v_(v), c_(c) {}

  Plan create(bool fillWBeforeF, bool fillWBeforeB, std::vector<int64_t> approved, int depth);

 private:
  void init();
  int64_t runtime(int type) const { return type == kF ? c_.forward : type == kB ? c_.backwardB : c_.backwardW; }
  double mem(int type) const { return type == kF ? c_.memForward : type == kB ? c_.memBackwardB : c_.memBackwardW; }
  int& counter(int stage, int type, int chunk) { return counters_[stage][type * v_ + chunk]; }
  size_t jobId(int type, int chunk, int stage, int mb) const {
    return size_t(type) * v_ * p_ * n_ + size_t(chunk) * p_ * n_ + size_t(stage) * n_ + mb;
  }
  int64_t endTime(size_t id) const {
    if (id >= endTimes_.size()) throw ZbvppError{"job id out of range"};
    return endTimes_[id];
  }
  int prevStage(int type, int chunk, int stage) const {
    if (type == kF) return chunk % 2 ? stage + 1 : stage - 1;
    return chunk % 2 ? stage - 1 : stage + 1;
  }
  int64_t dependencyEnd(int type, int chunk, int stage, int mb) const {
    int prev = prevStage(type, chunk, stage);
    if (prev < 0 || prev >= p_) return 0;
    return endTime(jobId(type, chunk, prev, mb));
  }
  int forwardNumber(int stage, int chunks);
  int backwardBNumber(int stage);
  int64_t maxStageBubble(int stage, const std::vector<int64_t>& approved) const;
  bool memoryCheck(int type, int stage) const { return !(stageMem_[stage] + mem(type) > c_.maxMemory); }
  bool timeCheck(int type, int chunk, int stage, int64_t nextStart);
  bool canSchedule(int type, int chunk, int stage);
  void put(int type, int chunk, int stage);
  void putW(int stage);
  void checkChunkOrder(int type, int chunk, int stage, int mb);
  void fillBeforeOneJob(int endType, int endChunk, int fillChunks, bool down, bool insertEnd);
  void fillBubbleWithForward(int stage, int chunks, int startChunk, int64_t nextStart, bool down);
  bool checkBeforeInsert(int chunks, const std::vector<int>& order, int64_t nextStart, int less);
  void insertAfterBackwardStart(bool fwf, bool fwb, const std::vector<int64_t>& approved);
  void maybeFillW(int type, int chunk, int stage, const std::vector<int64_t>& approved, bool fill);

  int p_, n_, v_;
  Costs c_;
  std::vector<std::vector<int>> counters_;
  std::vector<int64_t> endTimes_, current_, bubbles_;
  std::vector<double> stageMem_;
  std::vector<std::deque<std::pair<int, int>>> pendingW_;
  std::vector<std::vector<Job>> jobs_;
};

void VScheduler::init() {
  counters_.assign(p_, std::vector<int>(3 * v_, 0));
  endTimes_.assign(size_t(v_) * p_ * n_ * 3, -1);
  current_.assign(p_, 0);
  bubbles_.assign(p_, 0);
  stageMem_.assign(p_, 0.0);  // base memory: zero
  pendingW_.assign(p_, {});
  jobs_.assign(p_, {});
}

int VScheduler::forwardNumber(int stage, int chunks) {
  int total = 0;
  for (int c = 0; c < chunks; ++c) total += counter(stage, kF, c);
  return total;
}

int VScheduler::backwardBNumber(int stage) {
  int total = 0;
  for (int c = 0; c < v_; ++c) total += counter(stage, kB, c);
  return total;
}

int64_t VScheduler::maxStageBubble(int stage, const std::vector<int64_t>& approved) const {
  int64_t m = *std::max_element(bubbles_.begin(), bubbles_.end());
  if (stage >= 0) {
    int64_t maxApproved = *std::max_element(approved.begin(), approved.end());
    m = std::max(m, maxApproved - approved[stage]);
  }
  return m;
}

bool VScheduler::timeCheck(int type, int chunk, int stage, int64_t nextStart) {
  int64_t dep = dependencyEnd(type, chunk, stage, counter(stage, type, chunk));
  int64_t end = std::max(current_[stage], dep + c_.communication) + runtime(type);
  return end <= nextStart;
}

bool VScheduler::canSchedule(int type, int chunk, int stage) {
  int mb = counter(stage, type, chunk);
  if (mb >= n_) return false;
  if ((type == kF && chunk > 0) || (type == kB && chunk < v_ - 1)) {
    int prev = type == kF ? counter(stage, kF, chunk - 1) : counter(stage, kB, chunk + 1);
    if (prev <= mb) return false;
  }
  return dependencyEnd(type, chunk, stage, mb) >= 0;
}

void VScheduler::checkChunkOrder(int type, int chunk, int stage, int mb) {
  size_t id = 0;
  if (type == kF && chunk > 0)
    id = jobId(kF, chunk - 1, stage, mb);
  else if (type == kB && chunk < v_ - 1)
    id = jobId(kB, chunk + 1, stage, mb);
  else if (type == kW)
    id = jobId(kB, chunk, stage, mb);
  else
    return;
  if (endTime(id) < 0)
    throw ZbvppError{"job " + Job{kindOf(type), chunk, mb}.name() + " at stage " + std::to_string(stage) +
                     " depends on an unfinished job"};
}

void VScheduler::put(int type, int chunk, int stage) {
  int64_t end = current_[stage] + runtime(type);
  int mb = counter(stage, type, chunk);
  std::string name = Job{kindOf(type), chunk, mb}.name();
  if (mb >= n_) throw ZbvppError{"job " + name + " exceeds the limit of micro batches"};
  if (stageMem_[stage] + mem(type) > c_.maxMemory)
    throw ZbvppError{"job " + name + " exceeds the memory limit at stage " + std::to_string(stage)};
  checkChunkOrder(type, chunk, stage, mb);
  if (type == kF || type == kB) {
    int64_t dep = dependencyEnd(type, chunk, stage, mb);
    if (dep < 0)
      throw ZbvppError{"job " + name + " at stage " + std::to_string(stage) + " depends on an unscheduled job"};
    end = std::max(end, dep + c_.communication + runtime(type));
  }
  if (counter(stage, kF, 0) > 0) bubbles_[stage] += end - current_[stage] - runtime(type);
  endTimes_[jobId(type, chunk, stage, mb)] = end;
  current_[stage] = end;
  stageMem_[stage] += mem(type);
  jobs_[stage].push_back(Job{kindOf(type), chunk, mb});
  if (type == kB) pendingW_[stage].emplace_back(chunk, mb);
  ++counter(stage, type, chunk);
}

void VScheduler::putW(int stage) {
  if (pendingW_[stage].empty()) throw ZbvppError{"no pending backward_w job"};
  int chunk = pendingW_[stage].front().first;
  pendingW_[stage].pop_front();
  put(kW, chunk, stage);
}

void VScheduler::fillBeforeOneJob(int endType, int endChunk, int fillChunks, bool down, bool insertEnd) {
  std::vector<int> order(p_);
  for (int i = 0; i < p_; ++i) order[i] = down ? p_ - 1 - i : i;
  if (jobs_[order[0]].empty()) throw ZbvppError{"empty stage before a fill"};
  const Job& last = jobs_[order[0]].back();
  int lastType = last.kind == JobKind::Forward ? kF : last.kind == JobKind::BackwardB ? kB : kW;
  int64_t start = endTime(jobId(lastType, last.chunk, order[0], last.microBatch));
  if (insertEnd) put(endType, endChunk, order[0]);
  for (size_t k = 1; k < order.size(); ++k) {
    int stage = order[k];
    if (jobs_[stage].empty()) throw ZbvppError{"empty stage before a fill"};
    int startFill = (jobs_[stage].back().chunk + 1) % fillChunks;
    start = start + c_.communication + runtime(endType);
    fillBubbleWithForward(stage, fillChunks, startFill, start, down);
    if (insertEnd) put(endType, endChunk, stage);
  }
}

bool VScheduler::checkBeforeInsert(int chunks, const std::vector<int>& order, int64_t nextStart, int less) {
  int stage = order.back();
  if (forwardNumber(stage, chunks) < less) return true;
  bool microBatchLeft = false;
  for (int c = 0; c < chunks; ++c) microBatchLeft = microBatchLeft || counter(stage, kF, c) < n_;
  bool canInsert = false;
  for (int c = 0; c < chunks; ++c)
    for (int i : order)
      if (canSchedule(kF, c, i)) {
        canInsert = true;
        break;
      }
  int chunk = chunks - 1;  // Python's loop variable, left at the last chunk
  return memoryCheck(kF, stage) && timeCheck(kF, chunk, stage, nextStart) && microBatchLeft && canInsert;
}

void VScheduler::fillBubbleWithForward(int stage, int chunks, int startChunk, int64_t nextStart, bool down) {
  int chunk = startChunk, less = 0;
  std::vector<int> order;
  if (down) {
    for (int i = 0; i <= stage; ++i) order.push_back(i);
  } else {
    less = forwardNumber(0, chunks);
    for (int i = p_ - 1; i >= stage; --i) order.push_back(i);
  }
  for (int guard = 0; checkBeforeInsert(chunks, order, nextStart, less); ++guard) {
    if (guard > 1000000) throw ZbvppError{"forward fill does not terminate"};
    double available = c_.maxMemory - stageMem_[stage] - mem(kB);
    for (int i = 1; i < v_; ++i)
      if (counter(stage, kF, i) == 0) available -= mem(kF);
    if (available < mem(kF)) break;
    for (int i : order) {
      if (!canSchedule(kF, chunk, i)) continue;
      if (forwardNumber(i, chunks) >= less && !timeCheck(kF, chunk, i, nextStart)) continue;
      put(kF, chunk, i);
    }
    chunk = (chunk + 1) % chunks;
  }
}

void VScheduler::maybeFillW(int type, int chunk, int stage, const std::vector<int64_t>& approved, bool fill) {
  int64_t dep = dependencyEnd(type, chunk, stage, counter(stage, type, chunk));
  while (!pendingW_[stage].empty() && dep + c_.communication >= current_[stage] + c_.backwardW) putW(stage);
  int64_t maxBubble = maxStageBubble(stage, approved);
  if (!pendingW_[stage].empty() && dep + c_.communication - current_[stage] > maxBubble - bubbles_[stage] && fill)
    putW(stage);
}

void VScheduler::insertAfterBackwardStart(bool fwf, bool fwb, const std::vector<int64_t>& approved) {
  const int firstB = v_ % 2 == 0 ? 0 : p_ - 1;
  std::vector<int> order(p_);
  for (int i = 0; i < p_; ++i) order[i] = v_ % 2 ? p_ - 1 - i : i;
  for (int guard = 0; backwardBNumber(firstB) < v_ * n_; ++guard) {
    if (guard > 1000000) throw ZbvppError{"backward placement does not terminate"};
    for (int s = 0; s < p_; ++s)
      while (!memoryCheck(kB, s)) {
        if (pendingW_[s].empty())
          throw ZbvppError{"backward_b0 exceeds the memory limit at stage " + std::to_string(s)};
        putW(s);
      }
    for (int s : order)
      for (int c = 0; c < v_; ++c)
        if (canSchedule(kB, c, s)) {
          maybeFillW(kB, c, s, approved, c == 0 || fwb);
          put(kB, c, s);
          break;
        }
    for (int s : order)
      for (int c = v_ - 1; c >= 0; --c)
        if (canSchedule(kF, c, s)) {
          while (stageMem_[s] + mem(kF) > c_.maxMemory) {
            if (pendingW_[s].empty()) throw ZbvppError{"forward exceeds the memory limit"};
            putW(s);
          }
          maybeFillW(kF, c, s, approved, fwf);
          put(kF, c, s);
          break;
        }
  }
  for (int s = 0; s < p_; ++s)
    while (!pendingW_[s].empty()) putW(s);
}

Plan VScheduler::create(bool fwf, bool fwb, std::vector<int64_t> approved, int depth) {
  init();
  if (approved.empty()) approved.assign(p_, -1);
  int64_t maxApproved = *std::max_element(approved.begin(), approved.end());
  for (int s = 0; s < p_; ++s) put(kF, 0, s);
  fillBeforeOneJob(kF, 1, 1, /*down=*/true, true);
  for (int chunk = 2; chunk < v_; ++chunk) fillBeforeOneJob(kF, chunk, chunk, (chunk - 1) % 2 == 0, true);
  fillBeforeOneJob(kB, 0, v_, (v_ - 1) % 2 == 0, false);
  insertAfterBackwardStart(fwf, fwb, approved);
  Plan plan{jobs_, maxStageBubble(-1, approved)};
  if ((maxApproved < 0 || plan.maxBubble < maxApproved) && depth < 1000) {
    Plan refined = create(fwf, fwb, bubbles_, depth + 1);
    if (refined.maxBubble < plan.maxBubble) return refined;
  }
  return plan;
}

}  // namespace

core::Result<Schedule> zbvppSchedule(int stages, int microBatches, int vpp, const Costs& costs) {
  Schedule schedule{"ZBVPP", stages, microBatches, vpp, {}, {}};
  try {
    VScheduler scheduler(stages, microBatches, vpp, costs);
    Plan best;
    bool first = true;
    for (bool fwb : {true, false})
      for (bool fwf : {true, false}) {
        Plan plan = scheduler.create(fwf, fwb, {}, 0);
        if (first || plan.maxBubble < best.maxBubble) best = std::move(plan);
        first = false;
      }
    schedule.stageJobs = std::move(best.jobs);
  } catch (const ZbvppError& e) {
    return core::Status::error("ZBVPP (Paddle's VScheduleCreator) fails: " + e.message);
  }
  for (auto& jobs : schedule.stageJobs) jobs.push_back(Job{JobKind::Optimizer, -1, 0});
  return schedule;
}

}  // namespace pir::passes::schedule
