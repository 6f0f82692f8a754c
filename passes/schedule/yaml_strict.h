//===- yaml_strict.h - YAML::Load that refuses repeated keys ----*- C++ -*-===//
//
// yaml-cpp keeps both entries of a map that repeats a key, and a lookup
// sees the first, so `forward: 1` then `forward: 5` would silently mean 1.
// Every YAML file pir-opt reads (--config, --costs, schedule --check) goes
// through loadYamlStrict, which reports the repeat where it stands.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pir::passes::schedule {

/// YAML::Load, throwing a YAML::ParserException at the second occurrence of
/// a key in one map.
inline YAML::Node loadYamlStrict(const std::string& text) {
  YAML::Node root = YAML::Load(text);
  // An alias shares its anchor's node: each collection is walked once (by
  // where it starts), so `*a` repeated cannot make the walk exponential.
  std::set<std::pair<size_t, bool>> walked;
  std::vector<YAML::Node> pending{root};
  while (!pending.empty()) {
    YAML::Node node = pending.back();
    pending.pop_back();
    if (!node.IsMap() && !node.IsSequence()) continue;
    if (!walked.insert({static_cast<size_t>(node.Mark().pos), node.IsMap()}).second) continue;
    std::set<std::string> keys;
    for (const auto& entry : node) {
      if (!node.IsMap()) {
        pending.push_back(entry);
        continue;
      }
      if (entry.first.IsScalar() && !keys.insert(entry.first.Scalar()).second)
        throw YAML::ParserException(entry.first.Mark(), "duplicate key '" + entry.first.Scalar() + "'");
      pending.push_back(entry.second);
    }
  }
  return root;
}

}  // namespace pir::passes::schedule
