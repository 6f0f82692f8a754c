//===- rank_layout.cpp - writing and strictly reading ranks.yaml ----------===//
#include "passes/rank_layout.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <initializer_list>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <unordered_map>

#include "core/attr_access.h"
#include "core/diagnostics.h"
#include "core/op_table.h"
#include "core/verifier.h"
#include "passes/manifest.h"
#include "passes/schedule/yaml_strict.h"

namespace pir::passes {

namespace {

using core::Status;

constexpr int kVersion = 1;
constexpr int64_t kMaxRank = int64_t{1} << 31;  // a rank past this is a typo, not a machine
constexpr std::string_view kKindNames[] = {"data", "parameter", "shadow_output"};

// ---- writing -------------------------------------------------------------

// ranks.yaml holds every value with one piece per rank (110 MB at 1M ops on
// 8 ranks), so the writer appends in place instead of joining temporaries.
void appendInt(std::string& out, int64_t v) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void appendIntList(std::string& out, std::span<const int64_t> v) {
  out += '[';
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    appendInt(out, v[i]);
  }
  out += ']';
}

void appendRangeList(std::string& out, std::span<const core::ShardPiece> ranges) {
  out += '[';
  for (size_t i = 0; i < ranges.size(); ++i) {
    out += i ? ", [" : "[";
    appendInt(out, ranges[i].begin);
    out += ", ";
    appendInt(out, ranges[i].end);
    out += ']';
  }
  out += ']';
}

void appendPartialList(std::string& out, std::span<const core::PartialEntry> partial) {
  out += '[';
  for (size_t i = 0; i < partial.size(); ++i) {
    out += i ? ", {dim: " : "{dim: ";
    appendInt(out, partial[i].meshDim);
    out += ", reduce: ";
    out += core::reduceTypeName(partial[i].reduce);
    out += '}';
  }
  out += ']';
}

std::string intList(std::span<const int64_t> v) {
  std::string out;
  appendIntList(out, v);
  return out;
}

std::string rangeList(std::span<const core::ShardPiece> ranges) {
  std::string out;
  appendRangeList(out, ranges);
  return out;
}

/// Spells each shared list of pieces once (the values of one type share
/// theirs); a list of one value is spelled as it comes, not kept.
class PiecesText {
 public:
  std::string_view operator()(const LayoutPieces& pieces) {
    if (!pieces.shared()) return spell(pieces, scratch_);
    auto [it, fresh] = spelled_.try_emplace(pieces.identity());
    if (fresh) spell(pieces, it->second);
    return it->second;
  }

 private:
  static std::string_view spell(const LayoutPieces& pieces, std::string& out) {
    out.clear();
    if (pieces.empty()) out += " []";
    for (const LayoutPiece& p : pieces) {
      out += "\n      - {rank: ";
      appendInt(out, p.rank);
      out += ", shape: ";
      appendIntList(out, p.shape);
      out += ", ranges: ";
      appendRangeList(out, p.ranges);
      out += '}';
    }
    return out;
  }
  std::unordered_map<const void*, std::string> spelled_;  // by the shared list's address
  std::string scratch_;
};

void writeValue(const LayoutValue& v, std::string& out, PiecesText& piecesText) {
  out += "  - name: ";
  out += yamlString(v.name);
  out += "\n    kind: ";
  out += layoutValueKindName(v.kind);
  out += "\n    dtype: ";
  out += core::paddleDataTypeName(v.dtype);
  out += "\n    shape: ";
  appendIntList(out, v.shape);
  if (v.meshShape.empty() && v.processIds.empty()) {
    out += "\n    mesh: null";
  } else {
    out += "\n    mesh: {shape: ";
    appendIntList(out, v.meshShape);
    out += ", process_ids: ";
    appendIntList(out, v.processIds);
    out += '}';
  }
  out += "\n    dims_mapping: ";
  appendIntList(out, v.dimsMapping);
  out += "\n    partial: ";
  appendPartialList(out, v.partial);
  out += "\n    persistable: ";
  out += v.persistable ? "true" : "false";
  out += "\n    pieces:";
  out += piecesText(v.pieces);
  out += '\n';
}

// ---- the layout rule -------------------------------------------------------

/// Each rank's piece of `v`, from its shape, mesh and dims_mapping alone:
/// one per rank of the mesh, in mesh order (row-major coordinates), a
/// mapped dim split as core::shardPiece splits it; one whole piece on rank 0
/// without a mesh. What split-ranks writes and the reader insists on.
std::vector<LayoutPiece> layoutPieces(const LayoutValue& v) {
  auto piece = [&](int64_t rank, const std::vector<int64_t>& coord) {
    LayoutPiece p{rank, {}, {}};
    p.ranges.reserve(v.shape.size());
    p.shape.reserve(v.shape.size());
    for (size_t d = 0; d < v.shape.size(); ++d) {
      int64_t m = d < v.dimsMapping.size() ? v.dimsMapping[d] : -1;
      core::ShardPiece r = m < 0 || size_t(m) >= coord.size() ? core::shardPiece(v.shape[d], 1, 0)
                                                              : core::shardPiece(v.shape[d], v.meshShape[m], coord[m]);
      p.ranges.push_back(r);
      p.shape.push_back(v.shape[d] < 0 ? v.shape[d] : r.size());
    }
    return p;
  };
  if (v.processIds.empty()) return {piece(0, {})};
  std::vector<LayoutPiece> pieces;
  pieces.reserve(v.processIds.size());
  std::vector<int64_t> coord(v.meshShape.size());
  for (size_t i = 0; i < v.processIds.size(); ++i) {
    size_t rest = i;
    for (size_t m = coord.size(); m-- > 0;) {
      coord[m] = static_cast<int64_t>(rest % static_cast<size_t>(v.meshShape[m]));
      rest /= static_cast<size_t>(v.meshShape[m]);
    }
    pieces.push_back(piece(v.processIds[i], coord));
  }
  return pieces;
}

// ---- reading -------------------------------------------------------------

Status errorAt(const YAML::Node& node, std::string message) {
  return Status::error(std::move(message), node.Mark().pos >= 0 ? node.Mark().pos : -1);
}

/// `node` is a map with exactly the keys `keys`, and maybe `optional` ones
/// (not named in the message: files without them are the usual ones).
Status checkKeys(const YAML::Node& node, std::initializer_list<const char*> keys, const std::string& what,
                 std::initializer_list<const char*> optional = {}) {
  std::string expected;
  for (const char* k : keys) expected += (expected.empty() ? "" : ", ") + std::string(k);
  if (!node.IsMap()) return errorAt(node, what + " must be a map of " + expected);
  for (const auto& kv : node) {
    bool known = false;
    for (const char* k : keys) known = known || (kv.first.IsScalar() && kv.first.Scalar() == k);
    for (const char* k : optional) known = known || (kv.first.IsScalar() && kv.first.Scalar() == k);
    if (!known)
      return errorAt(kv.first, "unknown key '" + (kv.first.IsScalar() ? kv.first.Scalar() : std::string()) + "' in " +
                                   what + " (expected " + expected + ")");
  }
  for (const char* k : keys)
    if (!node[k]) return errorAt(node, what + " lacks '" + k + "'");
  return Status::ok();
}

/// A plain whole number in [min, max].
Status readInt(const YAML::Node& node, const std::string& what, int64_t min, int64_t max, int64_t& out) {
  const std::string& s = node.IsScalar() && node.Tag() == "?" ? node.Scalar() : std::string();
  bool ok = !s.empty() && s.size() <= 19;
  for (size_t i = 0; i < s.size(); ++i)
    ok = ok && ((s[i] >= '0' && s[i] <= '9') || (i == 0 && s[i] == '-' && s.size() > 1));
  if (ok) {
    out = std::stoll(s);
    ok = out >= min && out <= max;
  }
  if (!ok)
    return errorAt(node, what + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max));
  return Status::ok();
}

Status readIntList(const YAML::Node& node, const std::string& what, int64_t min, int64_t max,
                   std::vector<int64_t>& out) {
  if (!node.IsSequence()) return errorAt(node, what + " must be a list of whole numbers");
  for (const YAML::Node& item : node) {
    int64_t v = 0;
    if (Status s = readInt(item, "every entry of " + what, min, max, v); !s) return s;
    out.push_back(v);
  }
  return Status::ok();
}

Status readBool(const YAML::Node& node, const std::string& what, bool& out) {
  if (node.IsScalar() && node.Tag() == "?" && (node.Scalar() == "true" || node.Scalar() == "false")) {
    out = node.Scalar() == "true";
    return Status::ok();
  }
  return errorAt(node, what + " must be true or false");
}

/// `planner` (a name of lowering::kPlannerNames) and `cost_model` (a path).
Status readPlanner(const YAML::Node& root, RankLayout& layout) {
  if (const YAML::Node planner = root["planner"]) {
    auto it = std::find_if(lowering::kPlannerNames.begin(), lowering::kPlannerNames.end(),
                           [&](const auto& p) { return planner.IsScalar() && planner.Scalar() == p.first; });
    if (it == lowering::kPlannerNames.end()) return errorAt(planner, "'planner' must be paddle or cost");
    layout.planner = it->second;
  }
  if (const YAML::Node model = root["cost_model"]) {
    if (!model.IsScalar() || model.Scalar().empty()) return errorAt(model, "'cost_model' must be a file's path");
    layout.costModel = model.Scalar();
  }
  return Status::ok();
}

Status readRing(const YAML::Node& node, const RankLayout& layout, RingTable& rings) {
  if (Status s = checkKeys(node, {"id", "ranks"}, "a ring"); !s) return s;
  int64_t id = 0;
  std::vector<int64_t> ranks;
  if (Status s = readInt(node["id"], "'id'", 0, kMaxRank, id); !s) return s;
  if (Status s = readIntList(node["ranks"], "a ring's 'ranks'", 0, layout.worldSize - 1, ranks); !s) return s;
  if (rings.find(id)) return errorAt(node["id"], "ring " + std::to_string(id) + " is listed twice");
  if (Status s = rings.add(id, std::move(ranks)); !s) return errorAt(node["ranks"], s.message());
  return Status::ok();
}

Status readMesh(const YAML::Node& node, LayoutValue& v, int64_t worldSize) {
  if (node.IsNull()) return Status::ok();
  if (Status s = checkKeys(node, {"shape", "process_ids"}, "a mesh"); !s) return s;
  if (Status s = readIntList(node["shape"], "a mesh's 'shape'", 1, kMaxRank, v.meshShape); !s) return s;
  if (Status s = readIntList(node["process_ids"], "'process_ids'", 0, worldSize - 1, v.processIds); !s) return s;
  int64_t n = 1;
  for (int64_t d : v.meshShape) n = std::min(n * d, kMaxRank);
  if (n != static_cast<int64_t>(v.processIds.size()))
    return errorAt(node["process_ids"], "a mesh of shape " + intList(v.meshShape) + " holds " + std::to_string(n) +
                                            " process ids, not " + std::to_string(v.processIds.size()));
  return Status::ok();
}

Status readPartial(const YAML::Node& node, LayoutValue& v) {
  if (!node.IsSequence()) return errorAt(node, "'partial' must be a list of {dim, reduce}");
  for (const YAML::Node& item : node) {
    if (Status s = checkKeys(item, {"dim", "reduce"}, "a partial entry"); !s) return s;
    core::PartialEntry e{};
    if (Status s = readInt(item["dim"], "a partial 'dim'", 0, static_cast<int64_t>(v.meshShape.size()) - 1, e.meshDim);
        !s)
      return s;
    auto r = item["reduce"].IsScalar() ? core::parseReduceType(item["reduce"].Scalar()) : std::nullopt;
    if (!r) return errorAt(item["reduce"], "'reduce' must be SUM, MAX, MIN, PRODUCT, AVG, ANY or ALL");
    e.reduce = *r;
    v.partial.push_back(e);
  }
  return Status::ok();
}

/// A piece: its rank in the value's mesh, one range per dim within it, and
/// its shape the ranges' sizes.
Status readPiece(const YAML::Node& node, const LayoutValue& v, int64_t worldSize, std::vector<LayoutPiece>& pieces) {
  if (Status s = checkKeys(node, {"rank", "shape", "ranges"}, "a piece"); !s) return s;
  LayoutPiece p;
  if (Status s = readInt(node["rank"], "a piece's 'rank'", 0, worldSize - 1, p.rank); !s) return s;
  if (!v.processIds.empty() && std::find(v.processIds.begin(), v.processIds.end(), p.rank) == v.processIds.end())
    return errorAt(node["rank"], "rank " + std::to_string(p.rank) + " is not in the value's mesh");
  if (Status s = readIntList(node["shape"], "a piece's 'shape'", -1, INT64_MAX, p.shape); !s) return s;
  const YAML::Node ranges = node["ranges"];
  if (!ranges.IsSequence() || ranges.size() != v.shape.size())
    return errorAt(ranges, "'ranges' must be a list of " + std::to_string(v.shape.size()) + " [begin, end] pairs");
  if (p.shape.size() != v.shape.size())
    return errorAt(node["shape"], "a piece's shape needs " + std::to_string(v.shape.size()) + " dims");
  for (size_t d = 0; d < v.shape.size(); ++d) {
    std::vector<int64_t> pair;
    if (Status s = readIntList(ranges[d], "a range", -1, INT64_MAX, pair); !s) return s;
    core::ShardPiece r{pair.size() == 2 ? pair[0] : 0, pair.size() == 2 ? pair[1] : -2};
    bool dynamic = v.shape[d] < 0;
    bool fits = dynamic ? (r.begin == -1 && r.end == -1 && p.shape[d] == -1)
                        : (r.begin >= 0 && r.begin <= r.end && r.end <= v.shape[d] && p.shape[d] == r.size());
    if (pair.size() != 2 || !fits)
      return errorAt(ranges[d], "range " + std::to_string(d) + " must be [begin, end] within the dim's " +
                                    std::to_string(v.shape[d]) + ", its size the piece's dim");
    p.ranges.push_back(r);
  }
  pieces.push_back(std::move(p));
  return Status::ok();
}

/// The pieces read are exactly what the layout rule gives for the value's
/// mesh and dims_mapping: a tampered range would feed a rank another slice
/// and assemble the results from the wrong places.
Status checkPieces(const YAML::Node& list, const LayoutValue& v) {
  std::vector<LayoutPiece> want = layoutPieces(v);
  std::string rule = v.processIds.empty() ? std::string("no mesh")
                                          : "mesh " + intList(v.meshShape) + " " + intList(v.processIds) +
                                                " and dims_mapping " + intList(v.dimsMapping);
  if (want.size() != v.pieces.size())
    return errorAt(list, "'" + v.name + "' needs " + std::to_string(want.size()) + " piece(s), one per rank of " +
                             rule + ", not " + std::to_string(v.pieces.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const LayoutPiece& got = v.pieces[i];
    if (got == want[i]) continue;
    if (got.rank != want[i].rank)
      return errorAt(list[i]["rank"], "piece " + std::to_string(i) + " of '" + v.name + "' must be rank " +
                                          std::to_string(want[i].rank) + "'s (the pieces follow the mesh order)");
    return errorAt(list[i]["ranges"], "rank " + std::to_string(got.rank) + "'s piece of '" + v.name + "' is " +
                                          rangeList(got.ranges) + ", but " + rule + " give " +
                                          rangeList(want[i].ranges));
  }
  return Status::ok();
}

Status readValue(const YAML::Node& node, int64_t worldSize, LayoutValue& v) {
  if (Status s = checkKeys(
          node, {"name", "kind", "dtype", "shape", "mesh", "dims_mapping", "partial", "persistable", "pieces"},
          "a value entry");
      !s)
    return s;
  if (!node["name"].IsScalar() || node["name"].Scalar().empty())
    return errorAt(node["name"], "'name' must be a non-empty string");
  v.name = node["name"].Scalar();
  const YAML::Node kind = node["kind"];
  auto k = std::find(std::begin(kKindNames), std::end(kKindNames), kind.IsScalar() ? kind.Scalar() : "");
  if (k == std::end(kKindNames)) return errorAt(kind, "'kind' must be data, parameter or shadow_output");
  v.kind = static_cast<LayoutValueKind>(k - std::begin(kKindNames));
  auto dtype = node["dtype"].IsScalar() ? core::parsePaddleDataType(node["dtype"].Scalar()) : std::nullopt;
  if (!dtype) return errorAt(node["dtype"], "'dtype' must be a Paddle data type name (float32, int64, ...)");
  v.dtype = *dtype;
  if (Status s = readIntList(node["shape"], "'shape'", -1, INT64_MAX, v.shape); !s) return s;
  if (Status s = readMesh(node["mesh"], v, worldSize); !s) return s;
  int64_t meshDims = static_cast<int64_t>(v.meshShape.size());
  if (Status s = readIntList(node["dims_mapping"], "'dims_mapping'", -1, meshDims - 1, v.dimsMapping); !s) return s;
  if (v.dimsMapping.size() != v.shape.size())
    return errorAt(node["dims_mapping"], "'dims_mapping' needs one entry per dim of " + intList(v.shape));
  if (Status s = readPartial(node["partial"], v); !s) return s;
  if (Status s = readBool(node["persistable"], "'persistable'", v.persistable); !s) return s;
  if (!node["pieces"].IsSequence()) return errorAt(node["pieces"], "'pieces' must be a list of pieces");
  std::vector<LayoutPiece> pieces;
  for (const YAML::Node& piece : node["pieces"])
    if (Status s = readPiece(piece, v, worldSize, pieces); !s) return s;
  v.pieces = std::move(pieces);
  return checkPieces(node["pieces"], v);
}

core::Result<RankLayout> fromNode(const YAML::Node& root) {
  if (Status s = checkKeys(root, {"version", "world_size", "ranks", "rings", "values"}, "a rank layout",
                           {"stages", "planner", "cost_model"});
      !s)
    return s;
  const YAML::Node version = root["version"];
  if (!version.IsScalar() || version.Tag() != "?" || version.Scalar() != std::to_string(kVersion))
    return errorAt(version, "this rank layout's version is not " + std::to_string(kVersion) + ", the one read here");
  RankLayout layout;
  if (Status s = readInt(root["world_size"], "'world_size'", 1, kMaxRank, layout.worldSize); !s) return s;
  if (Status s = readIntList(root["ranks"], "'ranks'", 0, layout.worldSize - 1, layout.ranks); !s) return s;
  if (!std::is_sorted(layout.ranks.begin(), layout.ranks.end()) ||
      std::adjacent_find(layout.ranks.begin(), layout.ranks.end()) != layout.ranks.end())
    return errorAt(root["ranks"], "'ranks' must be ascending, each rank once");
  if (root["stages"]) {
    if (Status s = readIntList(root["stages"], "'stages'", 0, kMaxRank, layout.stages); !s) return s;
    if (layout.stages.size() != layout.ranks.size())
      return errorAt(root["stages"], "'stages' must give one stage for each entry of 'ranks'");
  }
  if (Status s = readPlanner(root, layout); !s) return s;
  if (!root["rings"].IsSequence()) return errorAt(root["rings"], "'rings' must be a list of {id, ranks}");
  for (const YAML::Node& ring : root["rings"])
    if (Status s = readRing(ring, layout, layout.rings); !s) return s;
  if (!root["values"].IsSequence()) return errorAt(root["values"], "'values' must be a list of value entries");
  std::set<std::pair<LayoutValueKind, std::string>> seen;
  for (const YAML::Node& entry : root["values"]) {
    LayoutValue v;
    if (Status s = readValue(entry, layout.worldSize, v); !s) return s;
    if (!seen.insert({v.kind, v.name}).second)
      return errorAt(entry["name"], std::string(layoutValueKindName(v.kind)) + " '" + v.name + "' is listed twice");
    layout.values.push_back(std::move(v));
  }
  return layout;
}

// ---- describing a program ------------------------------------------------

/// The ranks of the meshes it is shown, each distinct mesh once (meshes
/// are interned: most ops of a program share a few).
struct RankCollector {
  std::set<int64_t> ranks;
  std::set<const core::ProcessMesh*> seen;
  const core::ProcessMesh* last = nullptr;

  void mesh(const core::ProcessMesh* m) {
    if (!m || m == last) return;
    last = m;
    if (seen.insert(m).second) ranks.insert(m->processIds().begin(), m->processIds().end());
  }
  void type(const core::Type* t) {
    if (const core::TensorDistAttr* d = core::distAttrOf(t)) mesh(d->mesh());
    if (auto* v = t ? t->dynCast<core::VectorType>() : nullptr)
      for (const core::Type* e : v->elements()) type(e);
  }
  void arguments(const core::Block& block) {
    for (const core::BlockArgument* a : block.arguments()) type(a->type());
    for (const core::BlockArgument* k : block.kwargs()) type(k->type());
  }
  void block(const core::Block& b) {
    arguments(b);
    core::walk(b, [&](const core::Operation& op) {
      if (const core::OpDistAttr* od = op.distAttr()) mesh(od->mesh());
      for (uint32_t i = 0; i < op.numResults(); ++i) type(op.result(i)->type());
      for (uint32_t r = 0; r < op.numRegions(); ++r)
        for (const core::Block* inner : op.region(r).blocks()) arguments(*inner);
    });
  }
};

/// The layout entry of a named value of type `type`.
LayoutValue describeValue(std::string name, LayoutValueKind kind, const core::Type* type, bool persistable) {
  LayoutValue v;
  v.name = std::move(name);
  v.kind = kind;
  v.persistable = persistable;
  if (auto shape = core::tensorShape(type)) {
    v.dtype = shape->dtype;
    v.shape.assign(shape->dims.begin(), shape->dims.end());
  }
  const core::TensorDistAttr* dist = core::distAttrOf(type);
  if (!dist || !dist->mesh()) {
    v.dimsMapping.assign(v.shape.size(), -1);
    v.pieces = layoutPieces(v);
    return v;
  }
  const core::ProcessMesh& mesh = *dist->mesh();
  v.meshShape.assign(mesh.shape().begin(), mesh.shape().end());
  v.processIds.assign(mesh.processIds().begin(), mesh.processIds().end());
  v.dimsMapping.assign(dist->dimsMapping().begin(), dist->dimsMapping().end());
  v.partial.assign(dist->partial().begin(), dist->partial().end());
  std::sort(v.partial.begin(), v.partial.end(), [](auto& a, auto& b) { return a.meshDim < b.meshDim; });
  v.pieces = layoutPieces(v);
  return v;
}

}  // namespace

// ---- RingTable -----------------------------------------------------------

std::string_view layoutValueKindName(LayoutValueKind kind) { return kKindNames[static_cast<size_t>(kind)]; }

// ---- the layout ------------------------------------------------------------

LayoutIndex::LayoutIndex(const RankLayout& layout) {
  for (const LayoutValue& v : layout.values) byKind_[static_cast<size_t>(v.kind)].emplace(v.name, &v);
}

const LayoutValue* LayoutIndex::find(std::string_view name, LayoutValueKind kind) const {
  const auto& m = byKind_[static_cast<size_t>(kind)];
  auto it = m.find(name);
  return it == m.end() ? nullptr : it->second;
}

std::vector<int64_t> programRanks(const core::Program& program) {
  RankCollector collector;
  collector.block(program.body());
  return {collector.ranks.begin(), collector.ranks.end()};
}

std::vector<int64_t> rankStages(const core::Program& program, const std::vector<int64_t>& ranks) {
  std::vector<const core::ProcessMesh*> meshes;  // the stage meshes, in program order
  std::set<int64_t> taken;
  const core::ProcessMesh* last = nullptr;
  for (const core::Operation& op : program.body()) {
    const core::OpDistAttr* od = op.distAttr();
    if (!od || !od->mesh() || od->mesh() == last || op.name() == "dist_op.reshard") continue;
    last = od->mesh();
    std::span<const int64_t> ids = last->processIds();
    if (std::any_of(ids.begin(), ids.end(), [&](int64_t r) { return taken.count(r); })) continue;
    taken.insert(ids.begin(), ids.end());
    meshes.push_back(last);
  }
  std::vector<int64_t> stages;
  for (int64_t r : ranks) {
    auto holds = [&](const core::ProcessMesh* m) {
      return std::find(m->processIds().begin(), m->processIds().end(), r) != m->processIds().end();
    };
    auto it = std::find_if(meshes.begin(), meshes.end(), holds);
    if (it == meshes.end()) return {};
    stages.push_back(it - meshes.begin());
  }
  return stages;
}

core::Result<RankLayout> describeRankLayout(const core::Program& program, RingTable rings) {
  RankLayout layout;
  layout.ranks = programRanks(program);
  layout.stages = rankStages(program, layout.ranks);
  layout.rings = std::move(rings);
  int64_t top = layout.ranks.empty() ? -1 : layout.ranks.back();
  for (const core::ProcessGroup& g : layout.rings.rings())
    for (int64_t r : g.ranks) top = std::max(top, r);
  layout.worldSize = top + 1;
  std::set<std::pair<LayoutValueKind, std::string>> seen;
  // Values share a few types (interned): each type is described once, and
  // a value of a type met before copies that value's description.
  std::unordered_map<const core::Type*, size_t> described;  // type -> its first entry of layout.values
  auto add = [&](std::string name, LayoutValueKind kind, const core::Type* type, bool persistable) {
    auto [it, fresh] = described.try_emplace(type, layout.values.size());
    if (fresh) {
      layout.values.push_back(describeValue(std::move(name), kind, type, persistable));
      return;
    }
    LayoutValue v = layout.values[it->second];
    v.name = std::move(name);
    v.kind = kind;
    v.persistable = persistable;
    layout.values.push_back(std::move(v));
  };
  Status failed;
  core::walk(program.body(), [&](const core::Operation& op) {
    if (!failed) return;
    LayoutValueKind kind;
    const core::Type* type = nullptr;
    const core::OpInfo* info = core::lookupOp(op);
    const core::ScopeAccess scope = info ? info->scope : core::ScopeAccess::None;
    if (scope == core::ScopeAccess::ReadsData && op.numResults() == 1) {
      kind = LayoutValueKind::Data, type = op.result(0)->type();
    } else if (scope == core::ScopeAccess::ReadsParameter && op.numResults() == 1) {
      kind = LayoutValueKind::Parameter, type = op.result(0)->type();
    } else if (scope == core::ScopeAccess::WritesOutput && op.numOperands() == 1 && op.operandValue(0)) {
      kind = LayoutValueKind::ShadowOutput, type = op.operandValue(0)->type();
    } else {
      return;
    }
    auto* name = op.attrOf<core::StringAttr>(info->scopeKey);
    if (!name || !core::tensorShape(type)) return;  // nothing the runner could feed or fetch
    std::string n = name->value();
    if (!seen.insert({kind, n}).second) {
      failed = Status::error(std::string(layoutValueKindName(kind)) + " name '" + n + "' is given to two values",
                             core::reportLocation(&op));
      return;
    }
    add(std::move(n), kind, type, core::isPersistable(op));
  });
  if (!failed) return failed;
  // A persistable kwarg (gradient-merge's `<param>@GRAD@MERGE`) is state the
  // runner provides by name, as a persistable pd_op.data is: listed as data.
  for (const core::BlockArgument* kw : program.body().kwargs()) {
    if (!core::isPersistable(*kw) || !core::tensorShape(kw->type())) continue;
    if (!seen.insert({LayoutValueKind::Data, std::string(kw->name())}).second)
      return Status::error("data name '" + std::string(kw->name()) + "' is given to a kwarg and another value");
    add(std::string(kw->name()), LayoutValueKind::Data, kw->type(), true);
  }
  return layout;
}

bool writeRankLayout(const RankLayout& layout, const core::OutputSink& sink) {
  constexpr size_t kChunk = size_t{1} << 20;
  std::string out = "# pir-opt rank layout (passes/rank_layout.h)\nversion: " + std::to_string(kVersion) +
                    "\nworld_size: " + std::to_string(layout.worldSize) + "\nranks: " + intList(layout.ranks) +
                    (layout.stages.empty() ? "" : "\nstages: " + intList(layout.stages)) +
                    (layout.planner == lowering::Planner::Paddle
                         ? ""
                         : "\nplanner: " + std::string(lowering::plannerName(layout.planner))) +
                    (layout.costModel.empty() ? "" : "\ncost_model: " + yamlString(layout.costModel)) +
                    "\nrings:" + (layout.rings.rings().empty() ? " []" : "");
  for (const core::ProcessGroup& g : layout.rings.rings())
    out += "\n  - {id: " + std::to_string(g.ringId) + ", ranks: " + intList(g.ranks) + "}";
  out += std::string("\nvalues:") + (layout.values.empty() ? " []\n" : "\n");
  PiecesText piecesText;
  for (const LayoutValue& v : layout.values) {
    writeValue(v, out, piecesText);
    if (out.size() >= kChunk) {
      if (!sink(out)) return false;
      out.clear();
    }
  }
  return sink(out);
}

std::string writeRankLayout(const RankLayout& layout) {
  std::string text;
  writeRankLayout(layout, [&](std::string_view chunk) {
    text += chunk;
    return true;
  });
  return text;
}

core::Result<RankLayout> parseRankLayout(std::string_view text) {
  return schedule::readYamlStrict(std::string(text), [](const YAML::Node& root) { return fromNode(root); });
}

core::Result<RankLayout> loadRankLayout(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  if (in) buffer << in.rdbuf();
  std::string text = buffer.str();
  core::SourceFile src(path, text);
  core::Result<RankLayout> layout =
      in ? parseRankLayout(text) : core::Result<RankLayout>(Status::error("cannot read the rank layout"));
  if (layout) return layout;
  core::Diagnostic d{core::Severity::Error, layout.status().offset(), layout.status().message(), {}};
  std::string rendered = core::renderDiagnostic(&src, d);
  while (!rendered.empty() && rendered.back() == '\n') rendered.pop_back();
  return core::Status::rendered(core::ErrorKind::User, rendered);  // renderStatus prints it as it is
}

}  // namespace pir::passes
