//===- value_naming.cpp ---------------------------------------------------===//
#include "passes/value_naming.h"

#include <charconv>

#include "core/op_table.h"
#include "core/verifier.h"
#include "parser/lexer.h"

namespace pir::passes {

using namespace pir::core;

std::string_view nameAttrKey(const Operation& op) {
  const OpInfo* info = lookupOp(op);
  return info ? info->nameAttr : std::string_view();
}

std::string scopeName(const Value* v) {
  if (!v) return {};
  if (v->kind() == ValueKind::Kwarg) return std::string(static_cast<const BlockArgument*>(v)->name());
  const Operation* def = v->definingOp();
  std::string_view key = def ? nameAttrKey(*def) : std::string_view();
  auto* s = key.empty() ? nullptr : def->attrOf<StringAttr>(key);
  return s ? s->value() : std::string();
}

namespace {
constexpr std::string_view kExportedGradient = "@GRAD@CHECK";
}  // namespace

std::string exportedGradientName(std::string_view param) { return std::string(param) + std::string(kExportedGradient); }

std::string mergeBufferName(std::string_view param) { return std::string(param) + "@GRAD@MERGE"; }

std::string fedGradientName(std::string_view param) { return exportedGradientName(param) + "_MEAN"; }

bool isExportedGradientName(std::string_view name) { return name.ends_with(kExportedGradient); }

std::string paramOfExported(std::string_view exported) {
  return std::string(exported.substr(0, exported.size() - kExportedGradient.size()));
}

std::string exportedOfFed(std::string_view fed) {
  constexpr std::string_view kMean = "_MEAN";
  if (!fed.ends_with(kMean) || !isExportedGradientName(fed.substr(0, fed.size() - kMean.size()))) return {};
  return std::string(fed.substr(0, fed.size() - kMean.size()));
}

bool isKwargName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), parser::isValueIdChar);
}

void newValueName(std::string& name, size_t producer, std::string_view opName, uint32_t result) {
  char buf[24];
  name.assign("var_");
  name.append(buf, std::to_chars(buf, buf + sizeof buf, producer).ptr);
  name += '_';
  for (char ch : opName) name += parser::isValueIdChar(ch) ? ch : '_';
  name += '_';
  name.append(buf, std::to_chars(buf, buf + sizeof buf, result).ptr);
}

Status unfitGivenName(DiagnosticEngine& diag, const Operation& def, std::string_view givenBy, std::string_view name) {
  diag.error(reportLocation(&def), "a value of op '" + std::string(def.name()) + "' goes to another job under its " +
                                       std::string(givenBy) + " \"" + std::string(name) +
                                       "\", which cannot be a kwarg name (only letters, digits, '_', '.' and '@')");
  return Status::error("a crossing value's name cannot be a kwarg name");
}

std::pair<uint32_t, uint32_t> firstNameClash(std::vector<std::pair<const char*, uint32_t>>& claims) {
  std::sort(claims.begin(), claims.end());
  auto [first, second] = kNoClash;
  for (size_t k = 1; k < claims.size(); ++k)
    if (claims[k].first == claims[k - 1].first && claims[k].second < second) {
      first = claims[k - 1].second;
      second = claims[k].second;
    }
  std::vector<std::pair<const char*, uint32_t>>().swap(claims);
  return {first, second};
}

Status nameClash(DiagnosticEngine& diag, std::string_view name, const Value* earlier, const Value* later) {
  const Operation* here = later->definingOp() ? later->definingOp() : earlier->definingOp();
  const Operation* other = here == later->definingOp() ? earlier->definingOp() : nullptr;
  Diagnostic& d = diag.error(reportLocation(here),
                             "two values are handed over between jobs under one name '" + std::string(name) + "'");
  if (other) d.notes.push_back(Diagnostic{Severity::Note, reportLocation(other), "the other value is made here", {}});
  return Status::error("two crossing values share a name");
}

std::unordered_set<std::string_view> namesGivenIn(const Program& program) {
  std::unordered_set<std::string_view> taken;
  auto note = [&](const Operation& op) {
    if (std::string_view key = nameAttrKey(op); !key.empty())
      if (auto* s = op.attrOf<StringAttr>(key)) taken.insert(s->raw());
  };
  for (const BlockArgument* k : program.body().kwargs()) taken.insert(k->name());
  walk(program.body(), note);
  return taken;
}

Status newNameTaken(DiagnosticEngine& diag, const Value* value, std::string_view name) {
  const Operation* def = value->definingOp();
  diag.error(reportLocation(def), "a value of op '" + std::string(def->name()) +
                                      "' goes to another job under the new name '" + std::string(name) +
                                      "', which the input already gives another value");
  return Status::error("a new crossing name is taken");
}

}  // namespace pir::passes
