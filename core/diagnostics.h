//===- diagnostics.h - located errors: file:line:col, source line, caret ===//
//
// A SourceFile is the text being read plus its name exactly as the user gave
// it. Diagnostics refer to byte offsets; line and column are computed only
// when a diagnostic is rendered, so tokens and ops carry no line numbers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace pir::core {

class SourceFile {
 public:
  SourceFile(std::string name, std::string_view text) : name_(std::move(name)), text_(text) {}

  const std::string& name() const { return name_; }
  std::string_view text() const { return text_; }

  struct LineCol {
    uint64_t line;    // 1-based
    uint64_t column;  // 1-based, in bytes
    uint64_t lineStart;
  };
  LineCol lineCol(uint64_t offset) const;
  /// The line containing `offset`, without its line terminator.
  std::string_view lineText(uint64_t offset) const;

 private:
  std::string name_;
  std::string_view text_;
  mutable std::vector<uint64_t> lineStarts_;  // built on first use
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  int64_t offset = -1;  // -1: no location
  std::string message;
  std::vector<Diagnostic> notes;
  /// Where the text the message names begins (an op_dist_attr entry), if
  /// before the caret: a clipped source line starts there when the caret
  /// still fits, so the named text shows; -1: none.
  int64_t context = -1;
  /// The file `offset` is in when it is not the one the diagnostic is
  /// rendered against (a note in another rank's program); null: that one.
  /// Its notes default to it.
  const SourceFile* source = nullptr;
};

/// Collects diagnostics about one source and renders them in order of
/// position. Rendering never throws and never reads outside the source.
class DiagnosticEngine {
 public:
  explicit DiagnosticEngine(const SourceFile* source = nullptr) : source_(source) {}

  Diagnostic& error(int64_t offset, std::string message);
  void add(Diagnostic d) { diags_.push_back(std::move(d)); }
  bool hasErrors() const;
  size_t size() const { return diags_.size(); }
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  void clear() { diags_.clear(); }
  /// Puts `prefix` before the message of every diagnostic from index
  /// `first` on (e.g. "after pass 'X': " on what a check after X found).
  void prefixMessages(size_t first, std::string_view prefix);

  /// Sorts by position (stable, so equal offsets keep their order).
  void sortByPosition();
  /// Renders every diagnostic; each is `file:line:col: error: msg`, the
  /// source line (clipped to 160 bytes around the caret, from the
  /// diagnostic's context when it fits) and a caret line.
  std::string render() const;

  const SourceFile* source() const { return source_; }

 private:
  const SourceFile* source_;
  std::vector<Diagnostic> diags_;
};

/// Renders one diagnostic against `source` (which may be null; the
/// diagnostic's own source, when it has one, wins).
std::string renderDiagnostic(const SourceFile* source, const Diagnostic& d);

/// A failed Status as the CLIs print it, once: located in its own source
/// (else `fallback`) as renderDiagnostic does, or `error: MESSAGE` when it
/// has neither; then its notes, each located the same way, or its message
/// alone on a line when it has no source.
std::string renderStatus(const Status& s, const SourceFile* fallback = nullptr);

}  // namespace pir::core
