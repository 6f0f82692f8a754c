//===- verify_diagnostics.cpp ---------------------------------------------===//
#include "app/verify_diagnostics.h"

#include <re2/re2.h>

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

/// `expected-error`, or `expected-error-re` for a regex expectation.
std::string directiveName(core::Severity s, bool isRegex) {
  return std::string("expected-") + severityWord(s) + (isRegex ? "-re" : "");
}

/// RE2 reports errors here, as values, and does not log them.
RE2::Options quietOptions() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

/// RE2's complaint about `regex`, or empty when it compiles.
std::string regexError(std::string_view regex) {
  RE2 re(re2::StringPiece(regex.data(), regex.size()), quietOptions());
  return re.ok() ? std::string() : re.error();
}

/// Whether the message is what `e` expects: it contains the text, or a
/// match of the pattern.
bool matches(const DiagnosticVerifier::Expectation& e, const std::string& message) {
  if (e.pattern) return RE2::PartialMatch(message, *e.pattern);
  return message.find(e.text) != std::string::npos;
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
    Read read = Read::Prose;
    if (at != std::string_view::npos) {
      Expectation e;
      e.offset = static_cast<int64_t>(start + at);
      e.line = line;
      bool isBelow = false;
      read = readExpectation(lineText.substr(at + 9), e, isBelow, lastPlainLine);
      if (read == Read::Expectation) {
        if (isBelow) below.push_back(expectations_.size());
        expectations_.push_back(std::move(e));
      }
    }
    if (read == Read::Prose) {
      lastPlainLine = line;
      for (size_t i : below) expectations_[i].line = line;
      below.clear();
    }
    start = end + 1;
  }
}

// `rest` follows `expected-`. `expected-error` in prose is an ordinary
// comment; followed by `@` or `{` it is an expectation, and a malformed one
// is reported.
DiagnosticVerifier::Read DiagnosticVerifier::readExpectation(std::string_view rest, Expectation& e, bool& isBelow,
                                                             int64_t lastPlainLine) {
  if (!takeSeverity(rest, e.severity)) return Read::Prose;
  bool isRegex = rest.starts_with("-re");
  if (isRegex) rest.remove_prefix(3);
  std::string_view spaced = rest;
  skipBlanks(spaced);
  if (!rest.starts_with("@") && !spaced.starts_with("{")) return Read::Prose;
  if (!readDesignator(rest, e, isBelow, lastPlainLine)) return Read::Malformed;
  skipBlanks(rest);
  size_t close = rest.rfind("}}");
  if (!rest.starts_with("{{") || close == std::string_view::npos || close < 2) {
    problems_.push_back({core::Severity::Error,
                         e.offset,
                         "expected '{{text}}' after '" + directiveName(e.severity, isRegex) + "'",
                         {}});
    return Read::Malformed;
  }
  e.text = std::string(rest.substr(2, close - 2));
  int64_t textOffset = rest.data() + 2 - source_.text().data();
  if (isRegex && !compilePattern(e, textOffset)) return Read::Malformed;
  return Read::Expectation;
}

// `@+N`, `@-N`, `@above`, `@below` or `@unknown` at the start of `rest`,
// consumed and applied to `e`; nothing there is the comment's own line.
// False after reporting a malformed one.
bool DiagnosticVerifier::readDesignator(std::string_view& rest, Expectation& e, bool& isBelow, int64_t lastPlainLine) {
  if (!rest.starts_with("@")) return true;
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
      return false;
    }
    e.line += n;
    rest.remove_prefix(used);
  } else {
    problems_.push_back({core::Severity::Error,
                         e.offset,
                         "unknown designator after '@' (expected +N, -N, above, below or unknown)",
                         {}});
    return false;
  }
  return true;
}

// The text of an expected-*-re (at `textOffset` in the source) as one
// regex: each `{{...}}` a regex of its own, the rest literal. Each regex is
// checked alone first, so that an error names the user's regex and points
// at its `{{`; the whole is compiled once, for every match.
bool DiagnosticVerifier::compilePattern(Expectation& e, int64_t textOffset) {
  const std::string directive = directiveName(e.severity, true);
  auto problem = [&](size_t at, std::string message) {
    problems_.push_back({core::Severity::Error, textOffset + static_cast<int64_t>(at), std::move(message), {}});
    return false;
  };
  std::string_view text = e.text;
  std::string pattern;
  size_t firstRegex = std::string_view::npos;
  for (size_t at = 0; at <= text.size();) {
    size_t open = text.find("{{", at);
    pattern += RE2::QuoteMeta(re2::StringPiece(text.data() + at, std::min(open, text.size()) - at));
    if (open == std::string_view::npos) break;
    size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos)
      return problem(open, "unclosed '{{' in " + directive + " (a regex runs to the next '}}')");
    std::string_view regex = text.substr(open + 2, close - open - 2);
    if (std::string error = regexError(regex); !error.empty())
      return problem(open, "invalid regex in " + directive + ": " + error);
    if (firstRegex == std::string_view::npos) firstRegex = open;
    pattern += "(?:" + std::string(regex) + ")";
    at = close + 2;
  }
  auto compiled = std::make_shared<const RE2>(pattern, quietOptions());
  if (!compiled->ok())  // regexes valid alone, not together (an unended \Q)
    return problem(firstRegex == std::string_view::npos ? 0 : firstRegex,
                   "invalid regex in " + directive + ": " + compiled->error());
  e.pattern = std::move(compiled);
  return true;
}

bool DiagnosticVerifier::match(const core::Diagnostic& d, int64_t line) {
  for (Expectation& e : expectations_)
    if (!e.met && e.severity == d.severity && e.line == line && matches(e, d.message)) {
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
