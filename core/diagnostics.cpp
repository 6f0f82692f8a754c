//===- diagnostics.cpp - rendering located diagnostics --------------------===//
#include "core/diagnostics.h"

#include <algorithm>

namespace pir::core {

namespace {
constexpr size_t kMaxShownLine = 160;

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
  }
  return "error";
}

/// Replaces bytes that would garble a terminal (control characters other
/// than tab) with '?', so binary input renders as one readable line (and a
/// message quoting input text stays on its own line).
std::string printable(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    unsigned char u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) c = '?';
  }
  return out;
}
}  // namespace

SourceFile::LineCol SourceFile::lineCol(uint64_t offset) const {
  if (lineStarts_.empty()) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') lineStarts_.push_back(i + 1);
  }
  offset = std::min<uint64_t>(offset, text_.size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  size_t line = static_cast<size_t>(it - lineStarts_.begin());  // 1-based
  uint64_t start = lineStarts_[line - 1];
  return {line, offset - start + 1, start};
}

std::string_view SourceFile::lineText(uint64_t offset) const {
  LineCol lc = lineCol(offset);
  size_t end = text_.find('\n', lc.lineStart);
  if (end == std::string_view::npos) end = text_.size();
  std::string_view line = text_.substr(lc.lineStart, end - lc.lineStart);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

Diagnostic& DiagnosticEngine::error(int64_t offset, std::string message) {
  diags_.push_back(Diagnostic{Severity::Error, offset, std::move(message), {}});
  return diags_.back();
}

void DiagnosticEngine::prefixMessages(size_t first, std::string_view prefix) {
  for (size_t i = first; i < diags_.size(); ++i) diags_[i].message.insert(0, prefix);
}

bool DiagnosticEngine::hasErrors() const {
  return std::any_of(diags_.begin(), diags_.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

void DiagnosticEngine::sortByPosition() {
  std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return static_cast<uint64_t>(a.offset) < static_cast<uint64_t>(b.offset);
  });
}

std::string DiagnosticEngine::render() const {
  std::string out;
  for (const Diagnostic& d : diags_) out += renderDiagnostic(source_, d);
  return out;
}

std::string renderDiagnostic(const SourceFile* source, const Diagnostic& d) {
  if (d.source) source = d.source;
  std::string out;
  if (source == nullptr || d.offset < 0) {
    if (source) out += source->name() + ": ";
    out += severityName(d.severity);
    out += ": " + printable(d.message) + "\n";
  } else {
    SourceFile::LineCol lc = source->lineCol(static_cast<uint64_t>(d.offset));
    out += source->name() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " +
           severityName(d.severity) + ": " + printable(d.message) + "\n";
    std::string_view line = source->lineText(static_cast<uint64_t>(d.offset));
    size_t caret = static_cast<size_t>(lc.column - 1);
    size_t from = 0;
    if (line.size() > kMaxShownLine) {
      // Keep the caret inside a 160-byte window, a third of the way in, or
      // from the context the message names when the caret fits after it.
      int64_t start = d.offset - static_cast<int64_t>(caret);  // the line's
      size_t context = d.context >= start && d.context <= d.offset ? static_cast<size_t>(d.context - start) : caret;
      if (caret - context < kMaxShownLine * 2 / 3)
        from = std::min(context, caret > kMaxShownLine / 3 ? caret - kMaxShownLine / 3 : 0);
      else if (caret > kMaxShownLine / 3)
        from = caret - kMaxShownLine / 3;
      from = std::min(from, line.size() - kMaxShownLine);
      line = line.substr(from, kMaxShownLine);
    }
    out += printable(line) + "\n";
    std::string pad;
    for (size_t i = from; i < caret && i - from < line.size(); ++i) pad += line[i - from] == '\t' ? '\t' : ' ';
    out += pad + "^\n";
  }
  for (const Diagnostic& n : d.notes) out += renderDiagnostic(source, n);
  return out;
}

std::string renderStatus(const Status& s, const SourceFile* fallback) {
  if (s.isRendered()) {
    // Rendered text ends its last line, as every rendered diagnostic does.
    std::string text = s.message();
    if (!text.empty() && text.back() != '\n') text += '\n';
    return text;
  }
  Diagnostic d;
  d.offset = s.offset();
  d.message = s.message();
  const SourceFile* source = s.source() ? s.source() : fallback;
  std::string out = renderDiagnostic(source, d);
  for (const Status& n : s.notes()) {
    if (n.source() || n.isRendered())  // rendered: another process's located wait
      out += renderStatus(n);
    else
      out += printable(n.message()) + "\n";
  }
  return out;
}

}  // namespace pir::core
