//===- pass.h - the pass interface ------------------------------*- C++ -*-===//
//
// A pass is one of two kinds, both run by the PassManager on every program
// of a ProgramSet:
//   ProgramPass    transforms each program in place (runOnProgram);
//   SplittingPass  replaces each program by the pieces it makes (split).
// A pass declares its options once, as typed members:
//
//   Option<int> vpp_{this, "vpp", "number of virtual pipeline chunks", 1, /*min=*/1, /*max=*/1024};
//
// and name(), description() and options() are all the registry, the
// pipeline parser and `--list-passes` know of it. Option values are parsed
// here, in one place, with errors located at the value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"
#include "passes/pass_results.h"

namespace pir::passes {

class Pass;

/// Counters a pass reports for `--pass-statistics`, in insertion order.
class PassStatistics {
 public:
  /// Adds to the counter `name` (a literal, typically: no string is made
  /// unless the counter is new or crosses 1). A `(s)` in the name is
  /// dropped for a count of one and reads `s` otherwise: "1 reshard",
  /// "2 reshards".
  void add(std::string_view name, int64_t delta = 1);
  /// The counters as printed (`(s)` resolved), in insertion order.
  const std::vector<std::pair<std::string, int64_t>>& entries() const { return entries_; }

 private:
  std::vector<std::string> keys_;  // the names as added
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

/// One option of a pass, a member of it that adds itself to the pass's
/// options when constructed (so a pass cannot be copied).
class PassOption {
 public:
  PassOption(const PassOption&) = delete;
  PassOption& operator=(const PassOption&) = delete;
  virtual ~PassOption() = default;

  std::string_view name() const { return name_; }
  std::string_view description() const { return description_; }
  /// What a value looks like: `true|false`, `1..1024`, `FThenB|1F1B`.
  virtual std::string syntax() const = 0;
  /// The default, as a pipeline would spell it.
  virtual std::string defaultText() const = 0;
  /// Sets the value from its text; an error (unlocated: the caller puts it
  /// at the value) when the text is no value of this option of `pass`.
  virtual core::Status parse(std::string_view text, std::string_view pass) = 0;

 protected:
  PassOption(Pass* owner, std::string_view name, std::string_view description);

 private:
  std::string_view name_, description_;  // literals
};

template <class T>
class Option;

/// `true` or `false`.
template <>
class Option<bool> final : public PassOption {
 public:
  Option(Pass* owner, std::string_view name, std::string_view description, bool defaultValue)
      : PassOption(owner, name, description), default_(defaultValue), value_(defaultValue) {}
  operator bool() const { return value_; }
  std::string syntax() const override { return "true|false"; }
  std::string defaultText() const override { return default_ ? "true" : "false"; }
  core::Status parse(std::string_view text, std::string_view pass) override;

 private:
  bool default_, value_;
};

/// A whole number in [min, max].
template <>
class Option<int> final : public PassOption {
 public:
  Option(Pass* owner, std::string_view name, std::string_view description, int defaultValue, int min, int max)
      : PassOption(owner, name, description), default_(defaultValue), value_(defaultValue), min_(min), max_(max) {}
  operator int() const { return value_; }
  std::string syntax() const override { return std::to_string(min_) + ".." + std::to_string(max_); }
  std::string defaultText() const override { return std::to_string(default_); }
  core::Status parse(std::string_view text, std::string_view pass) override;

 private:
  int default_, value_, min_, max_;
};

/// Any text.
template <>
class Option<std::string> final : public PassOption {
 public:
  Option(Pass* owner, std::string_view name, std::string_view description, std::string defaultValue)
      : PassOption(owner, name, description), default_(defaultValue), value_(std::move(defaultValue)) {}
  const std::string& value() const { return value_; }
  std::string syntax() const override { return "<text>"; }
  std::string defaultText() const override { return default_; }
  core::Status parse(std::string_view text, std::string_view) override {
    value_ = std::string(text);
    return core::Status::ok();
  }

 private:
  std::string default_, value_;
};

/// The index of `text` among `names`, or an error saying
/// `unknown DESCRIPTION 'TEXT' (expected A, B or C)`: an enum option's
/// description names what it chooses ("pipeline mode").
core::Result<size_t> parseChoice(std::string_view text, const std::vector<std::string_view>& names,
                                 std::string_view description);

/// One of a fixed set of spellings, each standing for a value of `E`.
template <class E>
class EnumOption final : public PassOption {
 public:
  EnumOption(Pass* owner, std::string_view name, std::string_view description, E defaultValue,
             std::vector<std::pair<std::string_view, E>> choices)
      : PassOption(owner, name, description),
        default_(defaultValue),
        value_(defaultValue),
        choices_(std::move(choices)) {}
  operator E() const { return value_; }
  std::string syntax() const override {
    std::string s;
    for (const auto& [spelling, value] : choices_) s += (s.empty() ? "" : "|") + std::string(spelling);
    return s;
  }
  std::string defaultText() const override {
    for (const auto& [spelling, value] : choices_)
      if (value == default_) return std::string(spelling);
    return "";
  }
  core::Status parse(std::string_view text, std::string_view) override {
    std::vector<std::string_view> names;
    for (const auto& choice : choices_) names.push_back(choice.first);
    core::Result<size_t> i = parseChoice(text, names, description());
    if (!i) return i.takeStatus();
    value_ = choices_[*i].second;
    return core::Status::ok();
  }

 private:
  E default_, value_;
  std::vector<std::pair<std::string_view, E>> choices_;
};

/// What every pass has: a name, a description, options and statistics. A
/// pass derives from ProgramPass or SplittingPass, the two kinds there are.
class Pass {
 public:
  Pass(const Pass&) = delete;
  Pass& operator=(const Pass&) = delete;
  virtual ~Pass() = default;

  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  /// The options the pass declares, in declaration order.
  const std::vector<PassOption*>& options() const { return options_; }
  /// Applies option values given in a pipeline: an unknown key or a value
  /// its option does not take is an error at the key or the value; then
  /// checkOptions sees them all.
  core::Status setOptions(const PassOptionValues& values);
  /// Whether the pass runs the dist-consistency check afterwards (its
  /// failure is the input's fault: an inconsistency the pass cannot fix).
  virtual bool verifiesDistAfter() const { return false; }

  PassStatistics& statistics() { return stats_; }

  /// Where the pass leaves its results and reads what others left (the
  /// pass manager's, pass_results.h); set by PassManager::addPass.
  void setResults(PassResults* results) { results_ = results; }

 protected:
  /// Checks that involve several options, once every value is set; errors
  /// are located through `values` (e.g. `vpp` needs `mode=VPP`).
  virtual core::Status checkOptions(const PassOptionValues& values) {
    (void)values;
    return core::Status::ok();
  }

  /// Leaves `value` for later passes and the caller, keyed by its type.
  template <class T>
  void publish(T value) {
    if (results_) results_->set(std::move(value));
  }
  /// Leaves `value` for the next pass only: a fact about the program as
  /// this pass leaves it (PassResults::setForNextPass).
  template <class T>
  void publishForNextPass(T value) {
    if (results_) results_->setForNextPass(std::move(value));
  }
  /// What an earlier pass or the caller left of type T, or null.
  template <class T>
  const T* result() const {
    return results_ ? results_->get<T>() : nullptr;
  }

  PassStatistics stats_;

 private:
  friend class PassOption;
  friend class ProgramPass;
  friend class SplittingPass;
  Pass() = default;

  std::vector<PassOption*> options_;
  PassResults* results_ = nullptr;
};

/// A pass that transforms each program of a set in place.
class ProgramPass : public Pass {
 public:
  /// Transforms `program` (its IR; its name, rank and job say what it is
  /// for). Located errors go to `diag`.
  virtual core::Status runOnProgram(core::NamedProgram& program, core::DiagnosticEngine& diag) = 0;

 protected:
  ProgramPass() = default;
};

/// A pass that replaces each program of a set by several.
class SplittingPass : public Pass {
 public:
  /// Makes the pieces of `program`, in order, into `pieces`. Each is named
  /// by what it is within `program` (a job, `rank1`) and given the rank,
  /// stage and job the pass knows; the pass manager names it `PARENT.NAME`
  /// when the parent has a name and fills what is unset from the parent.
  virtual core::Status split(core::NamedProgram& program, core::ProgramSet& pieces, core::DiagnosticEngine& diag) = 0;

  /// Takes a piece as soon as it is made: its index among the pieces of
  /// `program`, and the piece (as split() makes it). May be called from
  /// several threads at once; an error stops the split.
  using PieceSink = std::function<core::Status(size_t index, core::NamedProgram piece)>;
  /// As split(), handing each piece to `sink` instead of keeping it, so a
  /// pass that makes its pieces one at a time (split-ranks) holds only the
  /// few being made. The default hands over split()'s pieces in order.
  virtual core::Status splitInto(core::NamedProgram& program, const PieceSink& sink, core::DiagnosticEngine& diag);

 protected:
  SplittingPass() = default;
};

}  // namespace pir::passes
