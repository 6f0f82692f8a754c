//===- rank_layout.h - ranks.yaml: rings and where each tensor lies -*- C++ -*-===//
//
// What the runner needs beside the per-rank programs split-ranks writes, so
// that it never reads the distributed program: which global ranks, in which
// order, each ring id stands for; the world size; and for every value named
// by a `pd_op.data`, `builtin.parameter` or `builtin.shadow_output`, its
// global shape and dtype, its layout (mesh, dims_mapping, partial dims with
// reduce types), whether it is persistable, and each rank's piece of it:
//
//   # pir-opt rank layout (passes/rank_layout.h)
//   version: 1
//   world_size: 2
//   ranks: [0, 1]                        # the ranks with a program
//   stages: [0, 1]                       # each rank's pipeline stage (optional)
//   planner: cost                        # optional: split-ranks{planner=cost}
//   rings:
//     - {id: 12, ranks: [0, 1]}
//   values:
//     - name: parameter_0
//       kind: parameter                  # data | parameter | shadow_output
//       dtype: float32
//       shape: [16, 16]
//       mesh: {shape: [2], process_ids: [0, 1]}
//       dims_mapping: [-1, 0]
//       partial: []                      # [{dim: 0, reduce: SUM}, ...]
//       persistable: true
//       pieces:                          # one per rank of the mesh, in mesh order
//         - {rank: 0, shape: [16, 8], ranges: [[0, 16], [0, 8]]}
//         - {rank: 1, shape: [16, 8], ranges: [[0, 16], [8, 16]]}
//
// `planner: cost` and `cost_model: FILE` follow `stages` when split-ranks
// was given them (the rings are that planner's); left out, Paddle's planner
// and the default model.
// A rank's stage is the position of its mesh among the stage meshes in
// program order (see rankStages); `stages` is left out when some rank has
// none, and files without it read as before.
// A range is the half-open global index range `[begin, end)` of one dim
// (core::shardPiece: the last piece of an uneven split is shorter, maybe
// empty); a dynamic dim is -1 with the range [-1, -1]. A partial value's
// pieces each hold a full-size addend. The reader takes exactly this: an
// unknown, repeated or missing key, a value of the wrong type, or numbers
// that do not agree (a piece's shape and its ranges, a rank outside the
// world, a ring id listed twice) are errors at where they stand.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/mesh_math.h"
#include "core/printer.h"
#include "core/process_group.h"
#include "core/program.h"
#include "core/status.h"
#include "core/types.h"
#include "passes/lowering/plan.h"

namespace pir::passes {

/// The file's name in an output folder.
inline constexpr std::string_view kRankLayoutName = "ranks.yaml";

/// The ring table ranks.yaml carries (core/process_group.h).
using RingTable = core::RingTable;

/// split-ranks' word, beside the RingTable it hands a rank's pipeline, that
/// the table holds every ring id of the program: it checks the input's, and
/// lower-reshard fails on a ring the planned ones lack. A table seeded
/// without it may lack rings the program uses.
struct RingTableCoversProgram {};

enum class LayoutValueKind { Data, Parameter, ShadowOutput };
std::string_view layoutValueKindName(LayoutValueKind kind);

struct LayoutPiece {
  int64_t rank = 0;
  std::vector<int64_t> shape;
  std::vector<core::ShardPiece> ranges;
  bool operator==(const LayoutPiece&) const = default;
};

/// A value's pieces, shared between copies until one is changed: the
/// values of one type (a program's layers repeat a few) have the same
/// pieces, and a layout of 161k values at 1M ops copied each value's 8
/// pieces, 16 allocations a value. Reads as a const vector; assigning
/// replaces this value's pieces alone.
class LayoutPieces {
 public:
  LayoutPieces() = default;
  LayoutPieces(std::vector<LayoutPiece> pieces)  // NOLINT: a vector is pieces
      : pieces_(std::make_shared<const std::vector<LayoutPiece>>(std::move(pieces))) {}
  LayoutPieces(std::initializer_list<LayoutPiece> pieces) : LayoutPieces(std::vector<LayoutPiece>(pieces)) {}

  const std::vector<LayoutPiece>& all() const { return pieces_ ? *pieces_ : none(); }
  auto begin() const { return all().begin(); }
  auto end() const { return all().end(); }
  size_t size() const { return all().size(); }
  bool empty() const { return all().empty(); }
  const LayoutPiece& front() const { return all().front(); }
  const LayoutPiece& operator[](size_t i) const { return all()[i]; }
  /// The list's address: values of equal addresses share it (null: none).
  const void* identity() const { return pieces_.get(); }
  /// Whether another value holds this list too.
  bool shared() const { return pieces_.use_count() > 1; }
  bool operator==(const LayoutPieces& other) const { return pieces_ == other.pieces_ || all() == other.all(); }
  bool operator==(const std::vector<LayoutPiece>& other) const { return all() == other; }

 private:
  static const std::vector<LayoutPiece>& none() {
    static const std::vector<LayoutPiece> empty;
    return empty;
  }
  std::shared_ptr<const std::vector<LayoutPiece>> pieces_;
};

struct LayoutValue {
  std::string name;
  LayoutValueKind kind = LayoutValueKind::Data;
  core::DataType dtype = core::DataType::F32;
  std::vector<int64_t> shape;
  std::vector<int64_t> meshShape, processIds;
  std::vector<int64_t> dimsMapping;
  std::vector<core::PartialEntry> partial;
  bool persistable = false;
  LayoutPieces pieces;
  bool operator==(const LayoutValue&) const = default;
  /// Parameters and persistable data are state, as ProgramInput::isState.
  bool isState() const { return kind == LayoutValueKind::Parameter || persistable; }
};

struct RankLayout {
  int64_t worldSize = 0;
  std::vector<int64_t> ranks;   // ascending
  std::vector<int64_t> stages;  // per entry of `ranks`, its pipeline stage; empty: unknown
  RingTable rings;
  std::vector<LayoutValue> values;
  /// split-ranks' `planner` and `cost-model` options, which planned the
  /// rings: a check re-plans with them (runtime/runner/made_from.h).
  lowering::Planner planner = lowering::Planner::Paddle;
  std::string costModel;  // empty: the defaults
  bool operator==(const RankLayout&) const = default;
};

/// A layout's values by kind and name, for lookups in O(1) (a runner looks
/// up every input of every rank). Points into `layout`, which must outlive
/// it unchanged; of two values of one kind and name, the first.
class LayoutIndex {
 public:
  explicit LayoutIndex(const RankLayout& layout);
  const LayoutValue* find(std::string_view name, LayoutValueKind kind) const;

 private:
  std::unordered_map<std::string_view, const LayoutValue*> byKind_[3];  // by LayoutValueKind
};

/// Every global rank of `program`'s meshes (ops' and values' meshes, in
/// every block), ascending.
std::vector<int64_t> programRanks(const core::Program& program);

/// The pipeline stage of each rank of `ranks` (ascending): the stage meshes
/// are the meshes of `program`'s top-level ops (dist_op.reshard skipped) in
/// program order, each sharing no rank with an earlier one; a rank's stage
/// is the position of the first that holds it. Empty when a rank is in
/// none. A program on one mesh is stage 0 on every rank.
std::vector<int64_t> rankStages(const core::Program& program, const std::vector<int64_t>& ranks);

/// The layout of the distributed `program` (before lowering), with `rings`.
/// The world size is one past the highest rank of the meshes and rings;
/// the stages are rankStages'. A
/// name given to two values of one kind is an error at the second op; a
/// named value without a dist type gets a one-piece layout on no mesh.
core::Result<RankLayout> describeRankLayout(const core::Program& program, RingTable rings);

/// ranks.yaml's text for `layout`.
std::string writeRankLayout(const RankLayout& layout);
/// The same text handed to `sink` a megabyte or so at a time (100 MB at
/// 1M ops); false when the sink returned false.
bool writeRankLayout(const RankLayout& layout, const core::OutputSink& sink);

/// Reads ranks.yaml's text; a failure's offset is where the problem stands.
core::Result<RankLayout> parseRankLayout(std::string_view text);

/// Reads the file at `path`; a failure's message is a rendered diagnostic
/// (`path:line:col: error: ...`, the line and a caret), as loadManifest's.
core::Result<RankLayout> loadRankLayout(const std::string& path);

}  // namespace pir::passes
