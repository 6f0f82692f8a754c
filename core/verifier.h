//===- verifier.h - structural and distributed-attribute checks -*- C++ -*-===//
//
// The verifier runs after parsing and after every pass. It checks that every
// operand is defined before its use in its block or an enclosing one, and
// that distributed attributes are well formed: no more op_dist_attr entries
// than operands or results, one dims_mapping entry per tensor dim naming
// existing mesh dims at most once, mesh process_ids matching the mesh
// shape, and partial dims that exist and are not also sharded.
//
// The dist-consistency check (every operand's value carries the attr its
// consumer expects, each `pd_op.if` branch yields its result's type) is
// separate and opt-in: a program before the reshard pass is allowed to
// disagree. Errors about one op_dist_attr entry point at the entry.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/diagnostics.h"
#include "core/program.h"

namespace pir::core {

enum class CheckLevel : uint8_t { Off, Warn, Error };

struct VerifyOptions {
  /// Every operand's value carries the attr its consumer expects, and each
  /// branch of a `pd_op.if` yields its result's type.
  bool distConsistency = false;
  /// A partial value read by an op that is not linear in that operand (the
  /// op table says), with no op_dist_attr entry asking for a reshard.
  CheckLevel partialReads = CheckLevel::Off;
  /// Also what checkPrintable checks (core/printer.h), reported as it
  /// reports it, and only where nothing else is wrong: a driver that prints
  /// the program as verified, no pass between, saves that walk.
  bool printable = false;
};

/// Adds every problem found to `diag` and returns how many errors there
/// were (warnings are added, not counted).
size_t verifyProgram(const Program& program, DiagnosticEngine& diag, const VerifyOptions& options = {});
/// The same on up to `threads` threads, each verifying runs of the
/// program's own block (a run sees what earlier runs define). Where any
/// thread finds anything, the program is verified again on one thread, so
/// the diagnostics are one thread's, in its order.
/// (A thread gets at least `minOpsPerThread` ops; tests make it small.)
size_t verifyProgram(const Program& program, DiagnosticEngine& diag, const VerifyOptions& options, unsigned threads,
                     size_t minOpsPerThread = 20000);

/// The byte offset to report a problem with `op` at: its own, or for an op
/// a pass created, the nearest earlier or enclosing op that has one.
int64_t reportLocation(const Operation* op);

}  // namespace pir::core
