//===- manifest.cpp - writing and strictly reading programs.yaml ----------===//
#include "passes/manifest.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/attributes.h"
#include "core/diagnostics.h"
#include "core/hash.h"
#include "core/op_table.h"
#include "core/xxh64.h"
#include "passes/schedule/yaml_strict.h"

namespace pir::passes {

namespace {

constexpr int kVersion = 1;
constexpr int kMaxIndex = 1 << 20;  // a rank or stage past this is a typo, not a machine

}  // namespace

std::string yamlString(std::string_view s) {
  bool plain = !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0])) && s[0] != '-' && s[0] != '.';
  for (char c : s)
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '/');
  // YAML 1.1 and 1.2 read these words (in any case yaml-cpp accepts) as
  // bools or null, not as strings.
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  constexpr std::string_view kSpecial[] = {"true", "false", "null", "y", "n", "yes", "no", "on", "off"};
  if (plain && std::find(std::begin(kSpecial), std::end(kSpecial), lower) == std::end(kSpecial)) return std::string(s);
  std::string q = "\"";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02x", u);
      q += esc;
      continue;
    }
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

namespace {

std::string yamlList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + yamlString(items[i]);
  return out + "]";
}

std::string yamlIndex(int i) { return i < 0 ? "null" : std::to_string(i); }

core::Status errorAt(const YAML::Node& node, std::string message) {
  return core::Status::error(std::move(message), node.Mark().pos >= 0 ? node.Mark().pos : -1);
}

/// A non-empty string.
core::Status readString(const YAML::Node& node, const char* key, std::string& out) {
  if (!node.IsScalar() || node.Scalar().empty())
    return errorAt(node, std::string("'") + key + "' must be a non-empty string");
  out = node.Scalar();
  return core::Status::ok();
}

/// A rank or stage: a plain whole number, or null for unknown.
core::Status readIndex(const YAML::Node& node, const char* key, int& out) {
  out = -1;
  if (node.IsNull()) return core::Status::ok();
  const std::string& s = node.IsScalar() && node.Tag() == "?" ? node.Scalar() : std::string();
  bool digits = !s.empty() && s.size() <= 7;
  for (char c : s) digits = digits && c >= '0' && c <= '9';
  if (!digits || std::stoi(s) > kMaxIndex)
    return errorAt(
        node, std::string("'") + key + "' must be a whole number from 0 to " + std::to_string(kMaxIndex) + ", or null");
  out = std::stoi(s);
  return core::Status::ok();
}

core::Status readNames(const YAML::Node& node, const char* key, std::vector<std::string>& out) {
  if (!node.IsSequence()) return errorAt(node, std::string("'") + key + "' must be a list of names");
  for (const YAML::Node& item : node) {
    std::string name;
    if (core::Status s = readString(item, key, name); !s)
      return errorAt(item, std::string("every name in '") + key + "' must be a non-empty string");
    out.push_back(std::move(name));
  }
  return core::Status::ok();
}

/// `file`, relative to the manifest's folder and staying in it, must exist.
core::Status checkFile(const YAML::Node& node, const std::string& file, const std::string& dir) {
  std::filesystem::path p(file);
  bool inside = p.is_relative();
  for (const auto& part : p) inside = inside && part != "..";
  if (!inside) return errorAt(node, "file '" + file + "' is not a path inside the manifest's folder");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::path(dir) / p, ec))
    return errorAt(node, "file '" + file + "' does not exist in " + (dir.empty() ? "." : dir));
  return core::Status::ok();
}

core::Status readProgram(const YAML::Node& entry, const std::string& dir, ManifestProgram& out) {
  static const char* const kKeys[] = {"name", "file", "rank", "stage", "job", "imports", "exports"};
  if (!entry.IsMap())
    return errorAt(entry, "a program entry must be a map of name, file, rank, stage, job, imports, exports");
  for (const auto& kv : entry) {
    bool known = false;
    for (const char* k : kKeys) known = known || (kv.first.IsScalar() && kv.first.Scalar() == k);
    if (!known)
      return errorAt(kv.first, "unknown key '" + kv.first.Scalar() +
                                   "' in a program entry (expected name, file, rank, stage, job, imports, exports)");
  }
  for (const char* k : kKeys)
    if (!entry[k]) return errorAt(entry, std::string("program entry lacks '") + k + "'");
  if (core::Status s = readString(entry["name"], "name", out.name); !s) return s;
  if (core::Status s = readString(entry["file"], "file", out.file); !s) return s;
  if (core::Status s = checkFile(entry["file"], out.file, dir); !s) return s;
  if (core::Status s = readIndex(entry["rank"], "rank", out.rank); !s) return s;
  if (core::Status s = readIndex(entry["stage"], "stage", out.stage); !s) return s;
  if (!entry["job"].IsNull())
    if (core::Status s = readString(entry["job"], "job", out.job); !s) return s;
  if (core::Status s = readNames(entry["imports"], "imports", out.imports); !s) return s;
  return readNames(entry["exports"], "exports", out.exports);
}

constexpr std::string_view kXxh64 = "xxh64:";
constexpr std::string_view kFnv1a64 = "fnv1a64:";  // what pir-opt wrote before 2026-12-05

/// The hash `recorded` is (kXxh64 or kFnv1a64) when it is one and 16 lowercase hex digits; else empty.
std::string_view sourceHashKind(std::string_view recorded) {
  std::string_view kind = recorded.starts_with(kXxh64) ? kXxh64 : recorded.starts_with(kFnv1a64) ? kFnv1a64 : "";
  std::string_view digits = recorded.substr(kind.size());
  if (kind.empty() || digits.size() != 16 || digits.find_first_not_of("0123456789abcdef") != std::string_view::npos)
    return {};
  return kind;
}

std::string hexHash(std::string_view kind, uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(kind) + hex;
}

/// The optional keys pipeline-split and gradient-merge add: mode, vpp,
/// split_bw, gradient_merge_k.
core::Status readSchedule(const YAML::Node& root, Manifest& m) {
  if (const YAML::Node mode = root["mode"])
    if (core::Status s = readString(mode, "mode", m.mode); !s) return s;
  if (const YAML::Node vpp = root["vpp"]) {
    if (core::Status s = readIndex(vpp, "vpp", m.vpp); !s) return s;
    if (m.vpp < 1) return errorAt(vpp, "'vpp' must be a whole number from 1 to " + std::to_string(kMaxIndex));
  }
  if (const YAML::Node bw = root["split_bw"]) {
    if (!bw.IsScalar() || bw.Tag() != "?" || (bw.Scalar() != "true" && bw.Scalar() != "false"))
      return errorAt(bw, "'split_bw' must be true or false");
    m.splitBw = bw.Scalar() == "true";
  }
  if (const YAML::Node h = root["source_hash"]) {
    if (core::Status s = readString(h, "source_hash", m.sourceHash); !s) return s;
    if (sourceHashKind(m.sourceHash).empty())
      return errorAt(h, "'source_hash' must be 'xxh64:' or 'fnv1a64:' and 16 lowercase hex digits");
  }
  if (const YAML::Node k = root["gradient_merge_k"]) {
    if (core::Status s = readIndex(k, "gradient_merge_k", m.gradientMergeK); !s) return s;
    if (m.gradientMergeK < 1)
      return errorAt(k, "'gradient_merge_k' must be a whole number from 1 to " + std::to_string(kMaxIndex));
  }
  return core::Status::ok();
}

core::Result<Manifest> fromNode(const YAML::Node& root, const std::string& dir) {
  if (!root.IsMap()) return errorAt(root, "a manifest is a map of 'version' and 'programs'");
  constexpr std::string_view kRootKeys[] = {"version",  "programs",         "mode",       "vpp",
                                            "split_bw", "gradient_merge_k", "source_hash"};
  for (const auto& kv : root)
    if (!kv.first.IsScalar() ||
        std::find(std::begin(kRootKeys), std::end(kRootKeys), kv.first.Scalar()) == std::end(kRootKeys))
      return errorAt(kv.first, "unknown key '" + (kv.first.IsScalar() ? kv.first.Scalar() : std::string()) +
                                   "' in a manifest (expected version, programs)");
  for (const char* k : {"version", "programs"})
    if (!root[k]) return errorAt(root, std::string("manifest lacks '") + k + "'");
  const YAML::Node version = root["version"];
  if (!version.IsScalar() || version.Tag() != "?" || version.Scalar() != std::to_string(kVersion))
    return errorAt(version, "this manifest's version is not " + std::to_string(kVersion) + ", the one read here");
  const YAML::Node list = root["programs"];
  if (!list.IsSequence()) return errorAt(list, "'programs' must be a list of program entries");
  Manifest m;
  if (core::Status s = readSchedule(root, m); !s) return s;
  std::set<std::string> names;
  for (const YAML::Node& entry : list) {
    ManifestProgram p;
    if (core::Status s = readProgram(entry, dir, p); !s) return s;
    if (!names.insert(p.name).second) return errorAt(entry["name"], "program '" + p.name + "' is listed twice");
    m.programs.push_back(std::move(p));
  }
  return m;
}

}  // namespace

std::string manifestFilePath(int rank, std::string_view job, std::string_view name) {
  if (rank >= 0 && !job.empty()) return "rank" + std::to_string(rank) + "/" + std::string(job) + ".pir";
  return std::string(name) + ".pir";
}

ManifestProgram describeProgramHeader(const core::NamedProgram& program, std::string name, std::string file) {
  ManifestProgram m;
  m.name = std::move(name);
  m.file = std::move(file);
  m.rank = program.rank;
  m.stage = program.stage;
  m.job = program.job;
  for (const core::BlockArgument* kw : program.program->body().kwargs()) m.imports.emplace_back(kw->name());
  return m;
}

void addExport(ManifestProgram& entry, const core::Operation& op) {
  const core::OpInfo* info = op.numResults() == 0 ? core::lookupOp(op) : nullptr;  // outputs make no value
  if (auto* n = info && info->scope == core::ScopeAccess::WritesOutput ? op.attrOf<core::StringAttr>(info->scopeKey)
                                                                       : nullptr)
    entry.exports.emplace_back(n->value());
}

ManifestProgram describeProgram(const core::NamedProgram& program, std::string name, std::string file) {
  ManifestProgram m = describeProgramHeader(program, std::move(name), std::move(file));
  for (const core::Operation& op : program.program->body()) addExport(m, op);
  return m;
}

std::string sourceHashOf(std::string_view text) { return hexHash(kXxh64, core::xxh64(text)); }

std::string sourceHashLike(std::string_view recorded, std::string_view text) {
  std::string_view kind = sourceHashKind(recorded);
  if (kind.empty()) return {};
  return kind == kXxh64 ? sourceHashOf(text) : hexHash(kFnv1a64, core::hashString(text));
}

void annotateManifest(Manifest& manifest, const PassResults& results) {
  if (const PipelineSplitResult* split = results.get<PipelineSplitResult>()) {
    manifest.mode = split->mode;
    manifest.vpp = split->vpp;
    manifest.splitBw = split->splitBw ? 1 : 0;
  }
  if (const GradientMergeResult* merge = results.get<GradientMergeResult>()) manifest.gradientMergeK = merge->k;
}

std::string writeManifest(const Manifest& manifest) {
  std::string out = "# pir-opt program manifest (passes/manifest.h)\nversion: " + std::to_string(kVersion) +
                    "\nprograms:" + (manifest.programs.empty() ? " []\n" : "\n");
  for (const ManifestProgram& p : manifest.programs) {
    out += "  - name: " + yamlString(p.name) + "\n    file: " + yamlString(p.file) +
           "\n    rank: " + yamlIndex(p.rank) + "\n    stage: " + yamlIndex(p.stage) +
           "\n    job: " + (p.job.empty() ? std::string("null") : yamlString(p.job)) +
           "\n    imports: " + yamlList(p.imports) + "\n    exports: " + yamlList(p.exports) + "\n";
  }
  // Last, so that a program's entry is on the lines it always was.
  if (!manifest.mode.empty()) out += "mode: " + yamlString(manifest.mode) + "\n";
  if (manifest.vpp >= 1) out += "vpp: " + std::to_string(manifest.vpp) + "\n";
  if (manifest.splitBw >= 0) out += std::string("split_bw: ") + (manifest.splitBw ? "true" : "false") + "\n";
  if (manifest.gradientMergeK >= 1) out += "gradient_merge_k: " + std::to_string(manifest.gradientMergeK) + "\n";
  if (!manifest.sourceHash.empty()) out += "source_hash: " + yamlString(manifest.sourceHash) + "\n";
  return out;
}

core::Result<Manifest> parseManifest(std::string_view text, const std::string& dir) {
  return schedule::readYamlStrict(std::string(text), [&](const YAML::Node& root) { return fromNode(root, dir); });
}

core::Result<Manifest> loadManifest(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  if (in) buffer << in.rdbuf();
  std::string text = buffer.str();
  core::SourceFile src(path, text);
  core::Result<Manifest> m = in ? parseManifest(text, std::filesystem::path(path).parent_path().string())
                                : core::Result<Manifest>(core::Status::error("cannot read the manifest"));
  if (m) return m;
  core::Diagnostic d{core::Severity::Error, m.status().offset(), m.status().message(), {}};
  std::string rendered = core::renderDiagnostic(&src, d);
  while (!rendered.empty() && rendered.back() == '\n') rendered.pop_back();
  return core::Status::rendered(core::ErrorKind::User, rendered);  // renderStatus prints it as it is
}

std::vector<std::string> checkScheduleHasPrograms(const schedule::Schedule& schedule, const Manifest& manifest,
                                                  const std::string& where) {
  std::vector<std::string> errors;
  for (size_t s = 0; s < schedule.stageJobs.size(); ++s) {
    std::set<std::string> seen;
    for (const schedule::Job& job : schedule.stageJobs[s]) {
      std::string type = job.type();
      if (!seen.insert(type).second) continue;
      bool found = false;
      for (const ManifestProgram& p : manifest.programs)
        found = found || (p.job == type && (p.stage < 0 || p.stage == static_cast<int>(s)));
      if (!found)
        errors.push_back("stage " + std::to_string(s) + ": job type '" + type + "' has no program in " + where);
    }
  }
  return errors;
}

}  // namespace pir::passes
