//===- pass_pipeline.cpp --------------------------------------------------===//
#include "passes/pass_pipeline.h"
#include "passes/schedule/yaml_strict.h"

#include <yaml-cpp/yaml.h>

namespace pir::passes {

namespace {

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class PipelineReader {
 public:
  PipelineReader(std::string_view text, core::DiagnosticEngine& diag) : text_(text), diag_(diag) {}

  // pipeline ::= pass (`,` pass)*
  bool read(std::vector<PassSpec>& out) {
    skipSpace();
    if (pos_ == text_.size()) return fail("empty pass pipeline");
    while (true) {
      PassSpec spec;
      if (!readPass(spec)) return false;
      out.push_back(std::move(spec));
      skipSpace();
      if (pos_ == text_.size()) return true;
      if (text_[pos_] != ',') return fail("expected ',' between passes");
      ++pos_;
      skipSpace();
    }
  }

 private:
  // pass ::= name (`{` (key `=` value)* `}`)?
  bool readPass(PassSpec& spec) {
    spec.offset = static_cast<int64_t>(pos_);
    std::string_view name = readName();
    if (name.empty()) return fail("expected a pass name");
    spec.name = std::string(name);
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '{') {
      ++pos_;
      while (true) {
        skipSpace();
        if (pos_ >= text_.size())
          return fail("unterminated '{': expected '}' to close the options of '" + spec.name + "'");
        if (text_[pos_] == '}') {
          ++pos_;
          break;
        }
        size_t keyAt = pos_;
        std::string_view key = readName();
        if (key.empty()) return fail("expected an option name");
        if (pos_ >= text_.size() || text_[pos_] != '=')
          return fail("expected '=' after option '" + std::string(key) + "'");
        ++pos_;
        size_t valueAt = pos_;
        while (pos_ < text_.size() && !isSpace(text_[pos_]) && text_[pos_] != '}' && text_[pos_] != ',' &&
               text_[pos_] != '{')
          ++pos_;
        if (pos_ == valueAt) return fail("expected a value for option '" + std::string(key) + "'");
        if (!spec.options.values.emplace(std::string(key), std::string(text_.substr(valueAt, pos_ - valueAt))).second) {
          pos_ = keyAt;
          return fail("option '" + std::string(key) + "' is given twice");
        }
        spec.options.keyOffsets[std::string(key)] = static_cast<int64_t>(keyAt);
        spec.options.valueOffsets[std::string(key)] = static_cast<int64_t>(valueAt);
      }
    }
    return true;
  }

  std::string_view readName() {
    size_t start = pos_;
    while (pos_ < text_.size() && isNameChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  void skipSpace() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
  }
  bool fail(std::string message) {
    diag_.error(static_cast<int64_t>(pos_), std::move(message));
    return false;
  }

  std::string_view text_;
  core::DiagnosticEngine& diag_;
  size_t pos_ = 0;
};

/// Byte offset of a YAML mark in `text`.
int64_t offsetOfMark(std::string_view text, const YAML::Mark& mark) {
  if (mark.pos >= 0 && static_cast<size_t>(mark.pos) <= text.size()) return mark.pos;
  return -1;
}

}  // namespace

bool parsePassPipeline(std::string_view text, std::vector<PassSpec>& out, core::DiagnosticEngine& diag) {
  return PipelineReader(text, diag).read(out);
}

bool parsePipelineYaml(std::string_view text, std::vector<PassSpec>& out, core::DiagnosticEngine& diag) {
  YAML::Node root;
  try {
    root = schedule::loadYamlStrict(std::string(text));
  } catch (const YAML::Exception& e) {
    diag.error(offsetOfMark(text, e.mark), "invalid YAML: " + e.msg);
    return false;
  }
  auto fail = [&](const YAML::Node& node, std::string message) {
    diag.error(offsetOfMark(text, node.Mark()), std::move(message));
    return false;
  };
  if (!root.IsMap() || !root["pipeline"]) return fail(root, "expected a map with a 'pipeline' list");
  YAML::Node list = root["pipeline"];
  if (!list.IsSequence()) return fail(list, "'pipeline' must be a list of passes");
  for (const YAML::Node& item : list) {
    PassSpec spec;
    spec.offset = offsetOfMark(text, item.Mark());
    if (item.IsScalar()) {
      spec.name = item.Scalar();
    } else if (item.IsMap() && item.size() == 1) {
      YAML::Node key, opts;
      for (const auto& entry : item) {
        key = entry.first;
        opts = entry.second;
      }
      if (!key.IsScalar()) return fail(item, "expected a pass name");
      spec.name = key.Scalar();
      if (!opts.IsNull()) {
        if (!opts.IsMap()) return fail(opts, "options of '" + spec.name + "' must be a map of key: value");
        for (const auto& option : opts) {
          if (!option.first.IsScalar() || !option.second.IsScalar())
            return fail(option.first, "option of '" + spec.name + "' must be key: scalar");
          spec.options.values[option.first.Scalar()] = option.second.Scalar();
          spec.options.keyOffsets[option.first.Scalar()] = offsetOfMark(text, option.first.Mark());
          spec.options.valueOffsets[option.first.Scalar()] = offsetOfMark(text, option.second.Mark());
        }
      }
    } else {
      return fail(item, "expected a pass name, or a map of one pass name to its options");
    }
    if (spec.name.empty()) return fail(item, "expected a pass name");
    out.push_back(std::move(spec));
  }
  if (out.empty()) return fail(list, "empty pass pipeline");
  return true;
}

}  // namespace pir::passes
