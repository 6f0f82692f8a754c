//===- verify_diagnostics.cpp ---------------------------------------------===//
#include "app/verify_diagnostics.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace pir::app {

namespace {

const char* severityWord(core::Severity s) {
  switch (s) {
    case core::Severity::Error:
      return "error";
    case core::Severity::Warning:
      return "warning";
    case core::Severity::Note:
      return "note";
  }
  return "error";
}

/// The severity named at the start of `rest` (`error`, `warning`, `note`),
/// consuming it; false when it names none.
bool takeSeverity(std::string_view& rest, core::Severity& s) {
  for (core::Severity c : {core::Severity::Error, core::Severity::Warning, core::Severity::Note}) {
    std::string_view word = severityWord(c);
    if (rest.starts_with(word)) {
      rest.remove_prefix(word.size());
      s = c;
      return true;
    }
  }
  return false;
}

void skipBlanks(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
}

}  // namespace

DiagnosticVerifier::DiagnosticVerifier(const core::SourceFile& source) : source_(source) { readExpectations(); }

// One expectation a line at most (its text runs to the line's last `}}`, as
// in mlir-opt, so a message quoting `}}` can be expected).
void DiagnosticVerifier::readExpectations() {
  std::string_view text = source_.text();
  int64_t line = 0, lastPlainLine = 0;
  std::vector<size_t> below;  // expectations waiting for the next plain line
  for (size_t start = 0; start < text.size();) {
    ++line;
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view lineText = text.substr(start, end - start);
    size_t comment = lineText.find("//");
    size_t at = comment == std::string_view::npos ? comment : lineText.find("expected-", comment);
    bool designator = false;
    if (at != std::string_view::npos) {
      std::string_view rest = lineText.substr(at + 9);
      Expectation e;
      e.offset = static_cast<int64_t>(start + at);
      e.line = line;
      std::string_view after = rest;
      bool known = takeSeverity(after, e.severity);
      std::string_view spaced = after;
      skipBlanks(spaced);
      // `expected-error` in prose is an ordinary comment; followed by `@`
      // or `{` it is an expectation, and a malformed one is reported.
      if (!known || !(after.starts_with("@") || spaced.starts_with("{"))) {
        at = std::string_view::npos;
      } else {
        rest = after;
        designator = true;
        bool isBelow = false;
        if (rest.starts_with("@")) {
          rest.remove_prefix(1);
          if (rest.starts_with("above")) {
            e.line = lastPlainLine, rest.remove_prefix(5);
          } else if (rest.starts_with("below")) {
            isBelow = true, rest.remove_prefix(5);
          } else if (rest.starts_with("unknown")) {
            e.line = 0, rest.remove_prefix(7);
          } else if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
            char* stop = nullptr;
            std::string digits(rest.substr(0, std::min<size_t>(rest.size(), 12)));
            long n = std::strtol(digits.c_str(), &stop, 10);
            size_t used = static_cast<size_t>(stop - digits.c_str());
            if (used < 2) {
              problems_.push_back(
                  {core::Severity::Error, e.offset, "expected a line offset after '@" + digits.substr(0, 1) + "'", {}});
              designator = false;
            }
            e.line += n;
            rest.remove_prefix(used);
          } else {
            problems_.push_back({core::Severity::Error,
                                 e.offset,
                                 "unknown designator after '@' (expected +N, -N, above, below or unknown)",
                                 {}});
            designator = false;
          }
        }
        skipBlanks(rest);
        size_t close = rest.rfind("}}");
        if (designator && (!rest.starts_with("{{") || close == std::string_view::npos || close < 2)) {
          problems_.push_back({core::Severity::Error,
                               e.offset,
                               std::string("expected '{{text}}' after 'expected-") + severityWord(e.severity) + "'",
                               {}});
          designator = false;
        }
        if (designator) {
          e.text = std::string(rest.substr(2, close - 2));
          if (isBelow) below.push_back(expectations_.size());
          expectations_.push_back(std::move(e));
        }
      }
    }
    if (at == std::string_view::npos) {
      lastPlainLine = line;
      for (size_t i : below) expectations_[i].line = line;
      below.clear();
    }
    start = end + 1;
  }
}

bool DiagnosticVerifier::match(const core::Diagnostic& d, int64_t line) {
  for (Expectation& e : expectations_)
    if (!e.met && e.severity == d.severity && e.line == line && d.message.find(e.text) != std::string::npos) {
      e.met = true;
      return true;
    }
  return false;
}

bool DiagnosticVerifier::verify(const std::vector<core::Diagnostic>& diagnostics, std::string& report) {
  std::vector<core::Diagnostic> problems = problems_;
  auto check = [&](const core::Diagnostic& d, int64_t offset) {
    int64_t line = offset < 0 ? 0 : static_cast<int64_t>(source_.lineCol(static_cast<uint64_t>(offset)).line);
    if (!match(d, line))
      problems.push_back({core::Severity::Error,
                          offset,
                          std::string("unexpected ") + severityWord(d.severity) + ": " + d.message,
                          {}});
  };
  for (const core::Diagnostic& d : diagnostics) {
    check(d, d.offset);
    for (const core::Diagnostic& n : d.notes)
      check(n, n.offset >= 0 ? n.offset : d.offset);  // a note sits with its error
  }
  for (const Expectation& e : expectations_)
    if (!e.met)
      problems.push_back({core::Severity::Error,
                          e.offset,
                          std::string("expected ") + severityWord(e.severity) + " \"" + e.text + "\" was not produced",
                          {}});
  std::stable_sort(problems.begin(), problems.end(), [](const core::Diagnostic& a, const core::Diagnostic& b) {
    return static_cast<uint64_t>(a.offset) < static_cast<uint64_t>(b.offset);
  });
  for (const core::Diagnostic& p : problems) report += core::renderDiagnostic(&source_, p);
  return problems.empty();
}

}  // namespace pir::app
