//===- pass.h - the pass interface ------------------------------*- C++ -*-===//
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"

namespace pir::passes {

/// A pass option as declared by the pass: name, what it means, default.
struct PassOptionInfo {
  std::string name;
  std::string description;
  std::string defaultValue;
};

/// Counters a pass reports for `--pass-statistics`, in insertion order.
class PassStatistics {
 public:
  /// Adds to the counter `name` (a literal, typically: no string is made
  /// unless the counter is new).
  void add(std::string_view name, int64_t delta = 1);
  const std::vector<std::pair<std::string, int64_t>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<std::string, int64_t>> entries_;
};

/// Options given in a pipeline, `name{key=value ...}`, with where each value
/// stands in the pipeline text for diagnostics.
struct PassOptionValues {
  std::map<std::string, std::string> values;
  std::map<std::string, int64_t> keyOffsets, valueOffsets;

  /// An error about option `key`, located at its key or its value.
  core::Status errorAtKey(const std::string& key, std::string message) const;
  core::Status errorAtValue(const std::string& key, std::string message) const;
};

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  virtual std::vector<PassOptionInfo> options() const { return {}; }
  /// Applies option values; returns an error naming the bad one.
  virtual core::Status setOptions(const PassOptionValues& values);
  /// Whether the pass runs the dist-consistency check afterwards.
  virtual bool verifiesDistAfter() const { return false; }
  /// Transforms `program`. Located errors go to `diag`.
  virtual core::Status run(core::Program& program, core::DiagnosticEngine& diag) = 0;

  /// A pass that splits one program into named programs says so, and
  /// implements runSplit instead of run.
  virtual bool splitsProgram() const { return false; }
  virtual core::Status runSplit(core::Program& program, core::ProgramSet& out, core::DiagnosticEngine& diag) {
    (void)program, (void)out, (void)diag;
    return core::Status::error("pass does not split programs");
  }

  PassStatistics& statistics() { return stats_; }

 protected:
  PassStatistics stats_;
};

}  // namespace pir::passes
