//===- printer.h - PIR text output, byte for byte as Paddle prints -*- C++ -*-===//
//
// Values are numbered on first print with Paddle's counters: one for op
// results across the whole program, one for positional block arguments;
// kwargs print by name. Output goes to a reused buffer that is handed to a
// sink whenever it grows past a threshold, so printing is linear and needs
// no copy of the whole text. The printer never crashes on broken IR: an
// operand that is null prints `<<NULL VALUE>>`, a missing type
// `<<NULL TYPE>>`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/program.h"
#include "core/status.h"

namespace pir::core {

/// Receives printed text in chunks; returns false on a write error.
using OutputSink = std::function<bool(std::string_view)>;

/// Checks that everything in `program` can be spelled in its era (the
/// dims_maping era cannot print a tensor dist attr whose mesh differs from
/// its op's). Returns a located error naming the first op that cannot.
Status checkPrintable(const Program& program);
/// The same on up to `threads` threads, each checking at least
/// `minOpsPerThread` of the program's own ops (tests make it small).
Status checkPrintable(const Program& program, unsigned threads, size_t minOpsPerThread = 20000);

/// checkPrintable op by op, for a caller that walks the program anyway (a
/// printer's annotator: a walk of its own costs 4% of split-ranks at 1M
/// ops). After the first op that cannot print, status() is its error.
class PrintableCheck {
 public:
  explicit PrintableCheck(const Program& program);
  void check(const Operation& op);
  const Status& status() const { return status_; }

 private:
  bool needed_;
  Status status_;
  // Ops share attribute lists (Context::attrList) and dist attrs: the last
  // few thousand found spellable are not looked at again (a slot per hash,
  // overwritten on a clash, which only costs the check again).
  std::vector<const void*> spellable_;
};

/// Appends to an op's first line (after its text, before the newline),
/// for `--print-locations`; the printer itself never calls one.
using OpAnnotator = std::function<void(std::string& line, const Operation& op)>;

/// Prints `program` into `sink`. Fails only when the sink fails.
Status printProgram(const Program& program, const OutputSink& sink, const OpAnnotator* annotate = nullptr);
std::string printProgram(const Program& program, const OpAnnotator* annotate = nullptr);
/// The same text, printed on up to `threads` threads, for a program that
/// verifies (each value printed after its definition, read in its scope):
/// runs of the program's own block number what they print first, and each
/// run's numbers start where the runs before it stopped (Paddle's one
/// counter). Written to `sink` in order as runs finish.
/// (Runs hold `opsPerRun` ops; tests make them short.)
Status printProgramThreaded(const Program& program, const OutputSink& sink, unsigned threads, size_t opsPerRun = 4096);

void printType(std::string& out, const Type* type, const PrintStyle& style);
void printAttribute(std::string& out, const Attribute* attr, const PrintStyle& style);
std::string typeToString(const Type* type, const PrintStyle& style = {});
std::string attributeToString(const Attribute* attr, const PrintStyle& style = {});

}  // namespace pir::core
