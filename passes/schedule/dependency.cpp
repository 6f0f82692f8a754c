//===- dependency.cpp - which job waits for which ---------------------------===//
#include "passes/schedule/dependency.h"

#include <algorithm>

namespace pir::passes::schedule {

DependencyModel::DependencyModel(const Schedule& schedule)
    : stages_(schedule.stages),
      vpp_(std::max(1, schedule.vpp)),
      placement_(schedule.placement()),
      chunkSuffix_(schedule.vpp > 1),
      lists_(schedule.stageJobs) {
  for (int s = 0; s < int(lists_.size()); ++s)
    for (const Job& job : lists_[s]) jobs_.emplace(Key{s, job.kind, job.chunkIndex(), job.microBatch}, job);
}

int DependencyModel::part(int stage, int chunk) const {
  if (placement_ == Placement::VShape && chunk % 2 == 1) return chunk * stages_ + stages_ - 1 - stage;
  return chunk * stages_ + stage;
}

void DependencyModel::locate(int part, int& stage, int& chunk) const {
  chunk = part / stages_;
  stage = part % stages_;
  if (placement_ == Placement::VShape && chunk % 2 == 1) stage = stages_ - 1 - stage;
}

const Job* DependencyModel::find(int stage, JobKind kind, int chunk, int mb) const {
  auto it = jobs_.find(Key{stage, kind, chunk, mb});
  return it == jobs_.end() ? nullptr : &it->second;
}

Job DependencyModel::nameFor(int stage, JobKind kind, int chunk, int mb) const {
  if (const Job* job = find(stage, kind, chunk, mb)) return *job;
  return Job{kind, chunkSuffix_ ? chunk : -1, mb};
}

void DependencyModel::addBackwardOfNextPart(int stage, int chunk, int mb, std::vector<Dependency>& out) const {
  int s = 0, c = 0;
  locate(part(stage, chunk) + 1, s, c);
  JobKind kind = JobKind::Backward;
  if (find(s, JobKind::SendBackward, c, mb))
    kind = JobKind::SendBackward;
  else if (find(s, JobKind::BackwardB, c, mb))
    kind = JobKind::BackwardB;
  out.push_back({s, nameFor(s, kind, c, mb), s != stage});
}

std::vector<Dependency> DependencyModel::dependencies(int stage, const Job& job) const {
  std::vector<Dependency> out;
  const int c = job.chunkIndex(), mb = job.microBatch, q = part(stage, c);
  auto previousForward = [&] {
    if (q == 0) return;
    int s = 0, pc = 0;
    locate(q - 1, s, pc);
    out.push_back({s, nameFor(s, JobKind::Forward, pc, mb), s != stage});
  };
  auto ownBackward = [&] {
    JobKind kind = find(stage, JobKind::BackwardB, c, mb) ? JobKind::BackwardB : JobKind::Backward;
    out.push_back({stage, nameFor(stage, kind, c, mb), false});
  };
  switch (job.kind) {
    case JobKind::RecvForward:
      previousForward();
      break;
    case JobKind::Forward:
      if (find(stage, JobKind::RecvForward, c, mb))
        out.push_back({stage, nameFor(stage, JobKind::RecvForward, c, mb), false});
      else
        previousForward();
      break;
    case JobKind::Backward:
    case JobKind::BackwardB:
      if (q == parts() - 1)
        out.push_back({stage, nameFor(stage, JobKind::Forward, c, mb), false});
      else
        addBackwardOfNextPart(stage, c, mb, out);
      break;
    case JobKind::SendBackward:
      ownBackward();
      break;
    case JobKind::BackwardW:
      out.push_back({stage, nameFor(stage, JobKind::BackwardB, c, mb), false});
      break;
    case JobKind::Optimizer:
      if (stage < int(lists_.size()))
        for (const Job& other : lists_[stage])
          if (other.kind != JobKind::Optimizer) out.push_back({stage, other, false});
      break;
  }
  return out;
}

}  // namespace pir::passes::schedule
