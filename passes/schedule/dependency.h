//===- dependency.h - which job waits for which -----------------*- C++ -*-===//
//
// The dependency model shared by the validator, the dry run and the
// simulator. Receives block, sends are buffered. Chunk c of stage s is model
// part c*P+s (VPP and the single-chunk modes) or, for ZBVPP, placed in a V:
// even chunks flow 0 -> P-1, odd ones P-1 -> 0.
//
// - recv_forward needs the forward of the previous part (none for part 0);
// - forward needs its own recv_forward when the list has one, else the
//   forward of the previous part;
// - the last part's backward / backward_b needs its own forward; any other
//   backward needs the next part's send_backward when that stage has one,
//   else its backward_b or backward;
// - send_backward needs its own backward (or backward_b);
// - backward_w needs its own backward_b; the optimizer needs every job of
//   its stage.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <tuple>
#include <vector>

#include "passes/schedule/job.h"

namespace pir::passes::schedule {

struct Dependency {
  int stage;
  Job job;
  bool crossStage;
};

class DependencyModel {
 public:
  explicit DependencyModel(const Schedule& schedule);

  int parts() const { return stages_ * vpp_; }
  /// Model part of chunk c on stage s.
  int part(int stage, int chunk) const;
  /// The jobs `job` on `stage` waits for (the names a job list would use).
  std::vector<Dependency> dependencies(int stage, const Job& job) const;

 private:
  using Key = std::tuple<int, JobKind, int, int>;  // stage, kind, chunk index, micro-batch
  const Job* find(int stage, JobKind kind, int chunk, int mb) const;
  Job nameFor(int stage, JobKind kind, int chunk, int mb) const;
  void locate(int part, int& stage, int& chunk) const;
  void addBackwardOfNextPart(int stage, int chunk, int mb, std::vector<Dependency>& out) const;

  int stages_, vpp_;
  Placement placement_;
  bool chunkSuffix_;
  std::map<Key, Job> jobs_;
  std::vector<std::vector<Job>> lists_;
};

}  // namespace pir::passes::schedule
