//===- pass.cpp - options and statistics of every pass --------------------===//
#include "passes/pass.h"

#include <charconv>

namespace pir::passes {

namespace {
std::string statisticLabel(std::string_view key, int64_t value) {
  std::string s(key);
  for (size_t at = s.find("(s)"); at != std::string::npos; at = s.find("(s)", at))
    s.replace(at, 3, value == 1 ? "" : "s");
  return s;
}
}  // namespace

void PassStatistics::add(std::string_view name, int64_t delta) {
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == name) {
      int64_t& value = entries_[i].second;
      bool wasOne = value == 1;
      value += delta;
      if (wasOne != (value == 1)) entries_[i].first = statisticLabel(name, value);
      return;
    }
  keys_.emplace_back(name);
  entries_.emplace_back(statisticLabel(name, delta), delta);
}

namespace {
int64_t offsetIn(const std::map<std::string, int64_t>& offsets, const std::string& key) {
  auto it = offsets.find(key);
  return it == offsets.end() ? -1 : it->second;
}

/// "option 'KEY' of 'PASS' takes WHAT, not 'TEXT'".
core::Status refused(const PassOption& option, std::string_view pass, std::string_view what, std::string_view text) {
  return core::Status::error("option '" + std::string(option.name()) + "' of '" + std::string(pass) + "' takes " +
                             std::string(what) + ", not '" + std::string(text) + "'");
}
}  // namespace

core::Status PassOptionValues::errorAtKey(const std::string& key, std::string message) const {
  return core::Status::error(std::move(message), offsetIn(keyOffsets, key));
}

core::Status PassOptionValues::errorAtValue(const std::string& key, std::string message) const {
  return core::Status::error(std::move(message), offsetIn(valueOffsets, key));
}

PassOption::PassOption(Pass* owner, std::string_view name, std::string_view description)
    : name_(name), description_(description) {
  owner->options_.push_back(this);
}

core::Status Option<bool>::parse(std::string_view text, std::string_view pass) {
  if (text != "true" && text != "false") return refused(*this, pass, "true or false", text);
  value_ = text == "true";
  return core::Status::ok();
}

core::Status Option<int>::parse(std::string_view text, std::string_view pass) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < min_ || n > max_)
    return refused(*this, pass, "a whole number from " + std::to_string(min_) + " to " + std::to_string(max_), text);
  value_ = static_cast<int>(n);
  return core::Status::ok();
}

core::Result<size_t> parseChoice(std::string_view text, const std::vector<std::string_view>& names,
                                 std::string_view description) {
  std::string expected;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return i;
    expected += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  }
  return core::Status::error("unknown " + std::string(description) + " '" + std::string(text) + "' (expected " +
                             expected + ")");
}

core::Status Pass::setOptions(const PassOptionValues& values) {
  for (const auto& [key, text] : values.values) {
    bool known = false;
    for (const PassOption* o : options_) known = known || o->name() == key;
    if (!known) return values.errorAtKey(key, "pass '" + std::string(name()) + "' has no option '" + key + "'");
  }
  for (PassOption* o : options_) {
    std::string key(o->name());
    if (auto it = values.values.find(key); it != values.values.end())
      if (core::Status s = o->parse(it->second, name()); !s) return values.errorAtValue(key, s.message());
  }
  return checkOptions(values);
}

core::Status SplittingPass::splitInto(core::NamedProgram& program, const PieceSink& sink,
                                      core::DiagnosticEngine& diag) {
  core::ProgramSet pieces;
  if (core::Status s = split(program, pieces, diag); !s) return s;
  for (size_t i = 0; i < pieces.programs.size(); ++i)
    if (core::Status s = sink(i, std::move(pieces.programs[i])); !s) return s;
  return core::Status::ok();
}

}  // namespace pir::passes
