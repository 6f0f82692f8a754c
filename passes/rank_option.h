//===- rank_option.h - the `rank=R` option of per-rank passes ---*- C++ -*-===//
//
// partition-rank, dist-to-dense (and what split-ranks runs) work for one
// global rank. `rank=R` names it; the default -1 takes the rank of the
// program (the one split-ranks or another splitting pass gave it), and a
// program without one is refused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

#include "core/program.h"
#include "core/status.h"
#include "passes/pass.h"

namespace pir::passes {

/// The largest rank a `rank=R` option takes (lower-reshard and split-ranks too).
inline constexpr int kMaxRank = 1 << 24;

class RankOption {
 public:
  RankOption(Pass* owner, std::string_view name, std::string_view description)
      : option_(owner, name, description, -1, -1, kMaxRank) {}

  /// The rank given, else `program`'s; an error naming `pass` when neither is.
  core::Result<int64_t> resolve(const core::NamedProgram& program, std::string_view pass) const {
    if (int r = option_; r >= 0) return int64_t{r};
    if (program.rank >= 0) return int64_t{program.rank};
    return core::Status::error(std::string(pass) +
                               " needs a rank: give rank=R, or run it on a program that has one "
                               "(split-ranks makes them)");
  }

 private:
  Option<int> option_;
};

}  // namespace pir::passes
