//===- verify_diagnostics.h - --verify-diagnostics, as mlir-opt has it -*- C++ -*-===//
//
// The input says which diagnostics it expects, in comments:
//
//   (%3) = "pd_op.relu" (%9) ...   // expected-error {{undefined value}}
//   // expected-error@+1 {{undefined value}}      (also @-N, @above, @below)
//   // expected-warning {{...}}  // expected-note {{...}}
//   // expected-error-re {{value '%{{[0-9]+}}'}}   (also -warning-re, -note-re)
//
// A diagnostic is expected when an expectation of its severity stands for
// its line and its message contains the text. In an `-re` expectation (as
// clang's -verify has them) each `{{...}}` inside the text is an RE2 regex
// and the rest is literal; the whole must match a substring of the message.
// @above is the last line above that holds no expectation, @below the next
// such line (as mlir-opt does); @unknown matches a diagnostic without a
// location. Lines are the file's, so a --split-input-file chunk's
// diagnostics are checked where they stand.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"

namespace re2 {
class RE2;
}

namespace pir::app {

class DiagnosticVerifier {
 public:
  /// Reads the expectations in `source`, which must outlive the verifier.
  explicit DiagnosticVerifier(const core::SourceFile& source);

  /// Matches `diagnostics` (located in the source; notes included) against
  /// the expectations. Returns true when each was expected and each
  /// expectation met; else `report` gets an error for each unexpected
  /// diagnostic (at its location) and each unmet expectation (at its
  /// comment), in order of position.
  bool verify(const std::vector<core::Diagnostic>& diagnostics, std::string& report);

  struct Expectation {
    core::Severity severity = core::Severity::Error;
    int64_t line = 0;    // 1-based; 0 for @unknown
    int64_t offset = 0;  // of `expected-` in the source
    std::string text;    // to find in the message, as written
    // expected-*-re: `text` as one regex (literal parts quoted), compiled
    // once; null: `text` is found as is.
    std::shared_ptr<const re2::RE2> pattern;
    bool met = false;
  };
  const std::vector<Expectation>& expectations() const { return expectations_; }

 private:
  enum class Read { Prose, Malformed, Expectation };  // what an `expected-` comment was
  void readExpectations();
  Read readExpectation(std::string_view rest, Expectation& e, bool& isBelow, int64_t lastPlainLine);
  bool readDesignator(std::string_view& rest, Expectation& e, bool& isBelow, int64_t lastPlainLine);
  bool compilePattern(Expectation& e, int64_t textOffset);
  bool match(const core::Diagnostic& d, int64_t line);

  const core::SourceFile& source_;
  std::vector<Expectation> expectations_;
  std::vector<core::Diagnostic> problems_;  // malformed expectations
};

}  // namespace pir::app
