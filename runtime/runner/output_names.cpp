//===- output_names.cpp - what a run's results are called -----------------===//
#include "runtime/runner/output_names.h"

#include <optional>
#include <unordered_map>

#include "core/attr_access.h"
#include "core/op_table.h"

namespace pir::runtime::runner {

using core::Status;

namespace {

// NAME.npy must fit NAME_MAX (255) with the suffix, and room to spare.
constexpr size_t kMaxFileName = 250;

/// The name `op` reads or writes in the scope, and how; none for other ops.
std::optional<std::string> scopeName(const core::Operation& op, core::ScopeAccess& access) {
  const core::OpInfo* info = core::lookupRunOp(op);
  if (!info || info->scope == core::ScopeAccess::None) return std::nullopt;
  const auto* name = op.attrOf<core::StringAttr>(info->scopeKey);
  if (!name) return std::nullopt;
  access = info->scope;
  return name->value();
}

bool isState(const core::Operation& op, core::ScopeAccess access) {
  return access == core::ScopeAccess::ReadsParameter || access == core::ScopeAccess::WritesParameter ||
         (access == core::ScopeAccess::ReadsData && core::isPersistable(op));
}

}  // namespace

std::string fileNameProblem(const std::string& name) {
  if (name.empty()) return "an empty name";
  if (name == "." || name == "..") return "'" + name + "' names a folder";
  if (name.size() > kMaxFileName) return "longer than " + std::to_string(kMaxFileName) + " bytes";
  for (unsigned char c : name) {
    if (c == '/') return "a '/'";
    if (c < 0x20 || c == 0x7f) return "a control character";
  }
  return "";
}

Status checkOutputNames(const core::Program& program, const OutputNameRules& rules) {
  std::vector<const core::Operation*> ops;  // in regions too: an if branch may write an output
  core::walk(program.body(), [&](const core::Operation& op) { ops.push_back(&op); });
  std::unordered_set<std::string> state;
  for (const core::Operation* op : ops) {
    core::ScopeAccess access{};
    if (auto name = scopeName(*op, access); name && isState(*op, access)) state.insert(*name);
  }
  std::unordered_map<std::string, const core::Operation*> outputs;
  for (const core::Operation* opp : ops) {
    const core::Operation& op = *opp;
    core::ScopeAccess access{};
    auto name = scopeName(op, access);
    if (!name) continue;
    bool output = access == core::ScopeAccess::WritesOutput;
    if (rules.asFiles && (output || isState(op, access)))
      if (std::string why = fileNameProblem(*name); !why.empty())
        return Status::error("'" + *name + "' cannot name a file in --output-dir (" + why + ")", op.location());
    if (!output) continue;
    if (!outputs.emplace(*name, &op).second)
      return Status::error("a second output named '" + *name + "': a run's results are one tensor per name",
                           op.location());
    if (state.count(*name) || (rules.stateNames && rules.stateNames->count(*name)))
      return Status::error("output '" + *name +
                               "' is named like a parameter or state: a run's results are one tensor "
                               "per name",
                           op.location());
  }
  return Status::ok();
}

}  // namespace pir::runtime::runner
