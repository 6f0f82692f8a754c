//===- pass_registry.cpp --------------------------------------------------===//
#include "passes/pass_registry.h"

#include <algorithm>

namespace pir::passes {

PassRegistry& PassRegistry::instance() {
  static PassRegistry registry;
  return registry;
}

void PassRegistry::add(PassFactory factory) {
  Entry e{std::string(factory()->name()), std::move(factory)};
  if (contains(e.name)) return;
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
