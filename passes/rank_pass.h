//===- rank_pass.h - a pass over one rank's program ----------------*- C++ -*-===//
//
// partition-rank and dist-to-dense work for one global rank (`rank=R`, or
// the program's own: passes/rank_option.h), report located errors as they
// walk and fail once the walk is over. This is that shared frame: the rank
// resolved, the errors collected, one "could not complete" at the end.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

#include "core/verifier.h"
#include "passes/pass.h"
#include "passes/rank_option.h"

namespace pir::passes {

class RankProgramPass : public ProgramPass {
 public:
  core::Status runOnProgram(core::NamedProgram& named, core::DiagnosticEngine& diag) final {
    core::Result<int64_t> rank = rankOption_.resolve(named, name());
    if (!rank) return rank.takeStatus();
    rank_ = *rank;
    diag_ = &diag;
    failed_ = false;
    core::Status s = runForRank(named);
    if (!s) return s;
    if (failed_) return core::Status::error(std::string(name()) + " could not complete");
    return core::Status::ok();
  }

 protected:
  /// `rankDescription` is the `rank` option's help.
  explicit RankProgramPass(std::string_view rankDescription) : rankOption_(this, "rank", rankDescription) {}

  /// The pass's work for rank rank(); errors reported with report() fail it
  /// after this returns.
  virtual core::Status runForRank(core::NamedProgram& named) = 0;

  int64_t rank() const { return rank_; }
  bool failed() const { return failed_; }
  /// A located error at `op`: the pass fails.
  void report(const core::Operation& op, std::string message) {
    diag_->error(core::reportLocation(&op), std::move(message));
    failed_ = true;
  }

 private:
  RankOption rankOption_;
  int64_t rank_ = 0;
  core::DiagnosticEngine* diag_ = nullptr;
  bool failed_ = false;
};

}  // namespace pir::passes
