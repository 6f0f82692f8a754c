//===- yaml_strict.h - YAML::Load that refuses repeated keys ----*- C++ -*-===//
//
// yaml-cpp keeps both entries of a map that repeats a key, and a lookup
// sees the first, so `forward: 1` then `forward: 5` would silently mean 1.
// Every YAML file pir-opt and pir-run read (--config, --costs, schedule
// --check, programs.yaml, ranks.yaml) goes through loadYamlStrict, which
// reports the repeat where it stands (a DuplicateKey, so that callers tell
// it apart by type, never by its message).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace pir::passes::schedule {

/// A map that repeats a key: what loadYamlStrict throws at the repeat.
class DuplicateKey : public YAML::ParserException {
 public:
  DuplicateKey(const YAML::Mark& at, const std::string& key)
      : YAML::ParserException(at, "duplicate key '" + key + "'") {}
};

/// YAML::Load, throwing DuplicateKey at the second occurrence of a key in
/// one map.
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
        throw DuplicateKey(entry.first.Mark(), entry.first.Scalar());
      pending.push_back(entry.second);
    }
  }
  return root;
}

/// `fromNode(loadYamlStrict(text))`, every YAML error a Status at its byte
/// offset: "duplicate key 'K'", or "invalid YAML: " and yaml-cpp's message
/// (the manifest's and the rank layout's reading).
template <class FromNode>
auto readYamlStrict(const std::string& text, FromNode&& fromNode) -> decltype(fromNode(YAML::Node())) {
  try {
    return fromNode(loadYamlStrict(text));
  } catch (const DuplicateKey& e) {
    return core::Status::error(e.msg, e.mark.pos >= 0 ? e.mark.pos : -1);
  } catch (const YAML::Exception& e) {
    return core::Status::error("invalid YAML: " + e.msg, e.mark.pos >= 0 ? e.mark.pos : -1);
  }
}

}  // namespace pir::passes::schedule
