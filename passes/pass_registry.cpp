//===- pass_registry.cpp --------------------------------------------------===//
#include "passes/pass_registry.h"

#include <algorithm>

namespace pir::passes {

void PassStatistics::add(std::string_view name, int64_t delta) {
  for (auto& [key, value] : entries_)
    if (key == name) {
      value += delta;
      return;
    }
  entries_.emplace_back(name, delta);
}

namespace {
int64_t offsetIn(const std::map<std::string, int64_t>& offsets, const std::string& key) {
  auto it = offsets.find(key);
  return it == offsets.end() ? -1 : it->second;
}
}  // namespace

core::Status PassOptionValues::errorAtKey(const std::string& key, std::string message) const {
  return core::Status::error(std::move(message), offsetIn(keyOffsets, key));
}

core::Status PassOptionValues::errorAtValue(const std::string& key, std::string message) const {
  return core::Status::error(std::move(message), offsetIn(valueOffsets, key));
}

core::Status Pass::setOptions(const PassOptionValues& values) {
  for (const auto& [key, value] : values.values) {
    bool known = false;
    for (const PassOptionInfo& o : options()) known = known || o.name == key;
    if (!known) return values.errorAtKey(key, "pass '" + std::string(name()) + "' has no option '" + key + "'");
  }
  return core::Status::ok();
}

PassRegistry& PassRegistry::instance() {
  static PassRegistry registry;
  return registry;
}

void PassRegistry::add(std::string name, std::string description, PassFactory factory) {
  if (contains(name)) return;
  Entry e{std::move(name), std::move(description), std::move(factory)};
  auto pos = std::lower_bound(entries_.begin(), entries_.end(), e.name,
                              [](const Entry& a, const std::string& n) { return a.name < n; });
  entries_.insert(pos, std::move(e));
}

std::unique_ptr<Pass> PassRegistry::create(std::string_view name) const {
  for (const Entry& e : entries_)
    if (e.name == name) return e.factory();
  return nullptr;
}

bool PassRegistry::contains(std::string_view name) const {
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == name; });
}

std::string PassRegistry::namesJoined() const {
  std::string out;
  for (const Entry& e : entries_) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out.empty() ? "(none)" : out;
}

}  // namespace pir::passes
