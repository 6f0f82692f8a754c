//===- comm_report.h - the communication check's diagnostics ------*- C++ -*-===//
//
// How the check (comm_check.h) names what it found: every error is located
// at an op of a job program, in that program's source, and says which rank
// and which job (`rank 1, job forward:0: ...`; a plain per-rank program is
// `rank 1: ...`); notes point at the other ops involved, in their own
// programs. CommErrors keeps the first kMaxCommErrors.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "passes/schedule/comm_ops.h"
#include "passes/schedule/job.h"

namespace pir::passes::schedule {

/// `message` after the site's name, at `offset` of the site's program.
core::Diagnostic diagnosticAt(core::Severity severity, const JobSite& site, int64_t offset, const std::string& message);
/// The same at `op`.
core::Diagnostic errorAt(const JobSite& site, const CommOp& op, const std::string& message);
core::Diagnostic noteAt(const JobSite& site, const CommOp& op, const std::string& message);

/// "pd_op.recv_v2 from rank 0 on ring 12", "pd_op.send_v2 to rank 1 on ring
/// 12 (message_index 3)", "pd_op.all_reduce SUM on ring 12".
std::string describe(const CommOp& op);
/// A collective's facts the members must agree on: "all_reduce SUM of 4x8xf32".
std::string collectiveText(const CommOp& op);

/// The errors found so far, the first kMaxCommErrors of them kept.
class CommErrors {
 public:
  void add(core::Diagnostic d);
  void addAll(std::vector<core::Diagnostic> ds);
  size_t count() const { return count_; }
  /// Whether a further error would not be kept: a caller may count it
  /// (addUnshown) without making its text.
  bool full() const { return count_ >= kMaxCommErrors; }
  void addUnshown() { ++count_; }
  /// The kept ones, then (when some were dropped) one saying how many.
  std::vector<core::Diagnostic> take();

 private:
  std::vector<core::Diagnostic> kept_;
  size_t count_ = 0;
};

}  // namespace pir::passes::schedule
