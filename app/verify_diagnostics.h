//===- verify_diagnostics.h - --verify-diagnostics, as mlir-opt has it -*- C++ -*-===//
//
// The input says which diagnostics it expects, in comments:
//
//   (%3) = "pd_op.relu" (%9) ...   // expected-error {{undefined value}}
//   // expected-error@+1 {{undefined value}}      (also @-N, @above, @below)
//   // expected-warning {{...}}  // expected-note {{...}}
//
// A diagnostic is expected when an expectation of its severity stands for
// its line and its message contains the text. @above is the last line above
// that holds no expectation, @below the next such line (as mlir-opt does);
// @unknown matches a diagnostic without a location. Lines are the file's, so
// a --split-input-file chunk's diagnostics are checked where they stand.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "core/diagnostics.h"

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
    std::string text;    // to find in the message
    bool met = false;
  };
  const std::vector<Expectation>& expectations() const { return expectations_; }

 private:
  void readExpectations();
  bool match(const core::Diagnostic& d, int64_t line);

  const core::SourceFile& source_;
  std::vector<Expectation> expectations_;
  std::vector<core::Diagnostic> problems_;  // malformed expectations
};

}  // namespace pir::app
