//===- zb1p.cpp - our zero-bubble schedule (ZB1P) ---------------------------===//
//
// Construction: greedy list scheduling on the simulated clock, in the spirit
// of the zero-bubble paper's ZB-H1 (Qi et al., ICLR 2024). Every backward is
// split into backward_b (B, on the critical path) and backward_w (W, only
// needs its own B). Whenever a stage is idle it starts a ready job by a
// priority rule, otherwise it waits for the next event:
//   - B: the next backward_b whose input has arrived;
//   - F: the next forward whose input has arrived, if fewer than K
//     micro-batches are in flight on the stage (forward started, W not yet
//     finished; K is --max-in-flight, default P);
//   - W: the oldest pending backward_w, filling what would be a bubble.
// Three rules are tried, B>F>W, F>B>W and alternating (after an F prefer B,
// after a B prefer F, W last), and then ZB-H1's handcrafted list (zbh1.cpp)
// when K allows its P in flight: greedy rules can lose to it (at F,B,W =
// 2,3,1 on P=4, N=8 each did by one unit). The list with the smallest
// simulated makespan is kept (ties: the earlier). The costs are the
// simulation costs, so the list adapts to them.
//
//===----------------------------------------------------------------------===//
#include <deque>
#include <optional>
#include <set>
#include <vector>

#include "passes/schedule/generate.h"
#include "passes/schedule/simulator.h"

namespace pir::passes::schedule {

namespace {

class Zb1pBuilder {
 public:
  enum class Rule { BFirst, FFirst, Alternate };

  Zb1pBuilder(int p, int n, const Costs& c, int k, Rule rule)
      : p_(p),
        n_(n),
        k_(k),
        rule_(rule),
        c_(c),
        nextF_(p, 0),
        nextB_(p, 0),
        pendingW_(p),
        wEnds_(p),
        fEnd_(p, std::vector<int64_t>(n, -1)),
        bEnd_(p, std::vector<int64_t>(n, -1)),
        freeAt_(p, 0),
        jobs_(p) {}

  core::Result<std::vector<std::vector<Job>>> build();

 private:
  bool arrived(int64_t end, bool crossStage, int64_t t) const {
    return end >= 0 && end + (crossStage ? c_.communication : 0) <= t;
  }
  int inFlight(int s, int64_t t) const {
    int ended = 0;
    for (int64_t e : wEnds_[s]) ended += e <= t;
    return nextF_[s] - ended;
  }
  bool forwardReady(int s, int64_t t) const {
    int i = nextF_[s];
    if (i >= n_ || inFlight(s, t) >= k_) return false;
    return s == 0 || arrived(fEnd_[s - 1][i], true, t);
  }
  bool backwardReady(int s, int64_t t) const {
    int i = nextB_[s];
    if (i >= n_) return false;
    return s == p_ - 1 ? arrived(fEnd_[s][i], false, t) : arrived(bEnd_[s + 1][i], true, t);
  }
  bool done(int s) const { return nextB_[s] == n_ && pendingW_[s].empty(); }
  /// Starts the best job on stage s at time t; false when none is ready.
  bool step(int s, int64_t t);
  void run(int s, Job job, int64_t t);

  bool preferForward(int s) const {
    if (rule_ == Rule::FFirst) return true;
    if (rule_ == Rule::BFirst) return false;
    return jobs_[s].empty() || jobs_[s].back().kind != JobKind::Forward;
  }
  bool startB(int s, int64_t t);
  bool startF(int s, int64_t t);

  int p_, n_, k_;
  Rule rule_;
  Costs c_;
  std::vector<int> nextF_, nextB_;
  std::vector<std::deque<int>> pendingW_;
  std::vector<std::vector<int64_t>> wEnds_, fEnd_, bEnd_;
  std::vector<int64_t> freeAt_;
  std::vector<std::vector<Job>> jobs_;
  std::set<int64_t> events_;
};

void Zb1pBuilder::run(int s, Job job, int64_t t) {
  int64_t end = t + c_.of(job.kind);
  freeAt_[s] = end;
  events_.insert(end);
  events_.insert(end + c_.communication);
  jobs_[s].push_back(job);
  if (job.kind == JobKind::Forward) fEnd_[s][job.microBatch] = end;
  if (job.kind == JobKind::BackwardB) bEnd_[s][job.microBatch] = end;
  if (job.kind == JobKind::BackwardW) wEnds_[s].push_back(end);
}

bool Zb1pBuilder::startB(int s, int64_t t) {
  if (!backwardReady(s, t)) return false;
  int i = nextB_[s]++;
  pendingW_[s].push_back(i);
  run(s, Job{JobKind::BackwardB, -1, i}, t);
  return true;
}

bool Zb1pBuilder::startF(int s, int64_t t) {
  if (!forwardReady(s, t)) return false;
  run(s, Job{JobKind::Forward, -1, nextF_[s]++}, t);
  return true;
}

bool Zb1pBuilder::step(int s, int64_t t) {
  if (preferForward(s) ? startF(s, t) || startB(s, t) : startB(s, t) || startF(s, t)) return true;
  if (!pendingW_[s].empty()) {
    int i = pendingW_[s].front();
    pendingW_[s].pop_front();
    run(s, Job{JobKind::BackwardW, -1, i}, t);
    return true;
  }
  return false;
}

core::Result<std::vector<std::vector<Job>>> Zb1pBuilder::build() {
  events_.insert(0);
  while (!events_.empty()) {
    int64_t t = *events_.begin();
    events_.erase(events_.begin());
    for (int s = 0; s < p_; ++s)
      if (freeAt_[s] <= t && !done(s)) step(s, t);
  }
  for (int s = 0; s < p_; ++s)
    if (!done(s))
      return core::Status::error("ZB1P: stage " + std::to_string(s) + " cannot finish with --max-in-flight " +
                                 std::to_string(k_));
  return jobs_;
}

}  // namespace

core::Result<Schedule> zb1pSchedule(int stages, int microBatches, const Costs& costs, int maxInFlight) {
  using Rule = Zb1pBuilder::Rule;
  std::optional<Schedule> best;
  int64_t bestMakespan = 0;
  core::Status lastError;
  auto consider = [&](std::vector<std::vector<Job>> jobs) {
    Schedule schedule{"ZB1P", stages, microBatches, 1, std::move(jobs), {}};
    for (auto& list : schedule.stageJobs)  // zbh1Jobs' lists end with it already
      if (list.empty() || list.back().kind != JobKind::Optimizer) list.push_back(Job{JobKind::Optimizer, -1, 0});
    auto sim = simulate(schedule, costs);
    if (!sim) return;
    if (!best || sim->makespan < bestMakespan) {
      best = std::move(schedule);
      bestMakespan = sim->makespan;
    }
  };
  for (Rule rule : {Rule::BFirst, Rule::FFirst, Rule::Alternate}) {
    auto jobs = Zb1pBuilder(stages, microBatches, costs, maxInFlight, rule).build();
    if (!jobs) {
      lastError = jobs.takeStatus();
      continue;
    }
    consider(std::move(*jobs));
  }
  if (maxInFlight >= stages) {
    std::vector<std::vector<Job>> zbh1;
    for (int s = 0; s < stages; ++s) zbh1.push_back(zbh1Jobs(stages, microBatches, s));
    consider(std::move(zbh1));
  }
  if (!best) return lastError.isOk() ? core::Status::error("ZB1P: no rule gives a valid list") : lastError;
  return std::move(*best);
}

}  // namespace pir::passes::schedule
