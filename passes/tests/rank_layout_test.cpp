//===- rank_layout_test.cpp - ranks.yaml: hand-computed layouts, strict reading -===//
#include <catch2/catch.hpp>
#include <string>

#include "core/context.h"
#include "core/diagnostics.h"
#include "parser/parser.h"
#include "passes/rank_layout.h"
#include "passes/tests/test_files.h"

using namespace pir;
using namespace pir::passes;

namespace {

const char* kSeed = PIR_TESTDATA_DIR "/seeds/reshard_before.pir";

// Uneven and 2-D layouts: a 5-row tensor on 4 ranks (pieces 2,2,1,0), a
// 4x6 tensor on [[0,1],[2,3]] mapped [1,0], and a partial output.
const char* kLayouts = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"a",op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},result(0):{mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[0]}},place:Place(undefined:0),shape:[5],stop_gradient:[true]} : () -> pd_dist.tensor<5xf32, mesh_shape:[4],process_ids:[0,1,2,3],dims_mappings:[0]>
    (%1) = "builtin.parameter" () {op_dist_attr:{mesh:{shape:[2,2],process_ids:[0,1,2,3]},result(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,0]}},parameter_name:"w",persistable:[true]} : () -> pd_dist.tensor<4x6xi64, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,0]>
    (%2) = "pd_op.data" () {dtype:float32,name:"p",op_dist_attr:{mesh:{shape:[2],process_ids:[4,6]},result(0):{mesh_shape:[2],process_ids:[4,6],dims_mappings:[-1,-1],partial(0,AVG)}},place:Place(undefined:0),shape:[-1,3],stop_gradient:[true]} : () -> pd_dist.tensor<-1x3xf32, mesh_shape:[2],process_ids:[4,6],dims_mappings:[-1,-1], partial(0,AVG)>
    () = "builtin.shadow_output" (%2) {op_dist_attr:{mesh:{shape:[2],process_ids:[4,6]},operand(0):{mesh_shape:[2],process_ids:[4,6],dims_mappings:[-1,-1],partial(0,AVG)}},output_name:"out"} : (pd_dist.tensor<-1x3xf32, mesh_shape:[2],process_ids:[4,6],dims_mappings:[-1,-1], partial(0,AVG)>) -> 
}
)";

const char* kLayoutsYaml = R"(# pir-opt rank layout (passes/rank_layout.h)
version: 1
world_size: 7
ranks: [0, 1, 2, 3, 4, 6]
rings:
  - {id: 12, ranks: [4, 6]}
values:
  - name: a
    kind: data
    dtype: float32
    shape: [5]
    mesh: {shape: [4], process_ids: [0, 1, 2, 3]}
    dims_mapping: [0]
    partial: []
    persistable: false
    pieces:
      - {rank: 0, shape: [2], ranges: [[0, 2]]}
      - {rank: 1, shape: [2], ranges: [[2, 4]]}
      - {rank: 2, shape: [1], ranges: [[4, 5]]}
      - {rank: 3, shape: [0], ranges: [[5, 5]]}
  - name: w
    kind: parameter
    dtype: int64
    shape: [4, 6]
    mesh: {shape: [2, 2], process_ids: [0, 1, 2, 3]}
    dims_mapping: [1, 0]
    partial: []
    persistable: true
    pieces:
      - {rank: 0, shape: [2, 3], ranges: [[0, 2], [0, 3]]}
      - {rank: 1, shape: [2, 3], ranges: [[2, 4], [0, 3]]}
      - {rank: 2, shape: [2, 3], ranges: [[0, 2], [3, 6]]}
      - {rank: 3, shape: [2, 3], ranges: [[2, 4], [3, 6]]}
  - name: p
    kind: data
    dtype: float32
    shape: [-1, 3]
    mesh: {shape: [2], process_ids: [4, 6]}
    dims_mapping: [-1, -1]
    partial: [{dim: 0, reduce: AVG}]
    persistable: false
    pieces:
      - {rank: 4, shape: [-1, 3], ranges: [[-1, -1], [0, 3]]}
      - {rank: 6, shape: [-1, 3], ranges: [[-1, -1], [0, 3]]}
  - name: out
    kind: shadow_output
    dtype: float32
    shape: [-1, 3]
    mesh: {shape: [2], process_ids: [4, 6]}
    dims_mapping: [-1, -1]
    partial: [{dim: 0, reduce: AVG}]
    persistable: false
    pieces:
      - {rank: 4, shape: [-1, 3], ranges: [[-1, -1], [0, 3]]}
      - {rank: 6, shape: [-1, 3], ranges: [[-1, -1], [0, 3]]}
)";

core::Result<RankLayout> describe(const std::string& text, RingTable rings = {}) {
  static core::Context ctx;  // the layouts outlive nothing of it: they hold plain values
  core::SourceFile src("t.pir", text);
  core::DiagnosticEngine diag(&src);
  auto program = parser::parseProgram(ctx, src, diag);
  REQUIRE(program.isOk());
  return describeRankLayout(**program, std::move(rings));
}

/// "LINE:COL: MESSAGE" of a failed read of `text`.
std::string failure(const std::string& text) {
  core::Result<RankLayout> r = parseRankLayout(text);
  REQUIRE(!r.isOk());
  core::SourceFile src("r.yaml", text);
  if (r.status().offset() < 0) return "?:?: " + r.status().message();
  auto lc = src.lineCol(static_cast<uint64_t>(r.status().offset()));
  return std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " + r.status().message();
}

/// kLayoutsYaml with `from` replaced by `to` (once).
std::string broken(const std::string& from, const std::string& to) {
  std::string text = kLayoutsYaml;
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// kLayoutsYaml as written now: with each rank's stage.
std::string withStages() {
  return broken("ranks: [0, 1, 2, 3, 4, 6]\n", "ranks: [0, 1, 2, 3, 4, 6]\nstages: [0, 0, 0, 0, 1, 1]\n");
}

}  // namespace

TEST_CASE("rank layout of uneven, 2-D and partial values, by hand") {
  RingTable rings;
  REQUIRE(rings.add(12, {4, 6}).isOk());
  core::Result<RankLayout> layout = describe(kLayouts, rings);
  REQUIRE(layout.isOk());
  // Two stage meshes in program order: [0,1,2,3] (the 2-D one is the same ranks), then [4,6].
  CHECK(writeRankLayout(*layout) == withStages());
}

TEST_CASE("rank layout of the seed: parameters sharded on either dim, feeds and the loss replicated") {
  core::Result<RankLayout> layout = describe(pir::testing::readFile(kSeed));
  REQUIRE(layout.isOk());
  CHECK(layout->worldSize == 2);
  CHECK(layout->ranks == std::vector<int64_t>{0, 1});
  REQUIRE(layout->values.size() == 6);
  const LayoutValue& p1 = layout->values[1];
  CHECK(p1.name == "parameter_1");
  CHECK(p1.kind == LayoutValueKind::Parameter);
  CHECK(p1.persistable);
  CHECK(p1.pieces == std::vector<LayoutPiece>{{0, {8, 8}, {{0, 8}, {0, 8}}}, {1, {8, 8}, {{8, 16}, {0, 8}}}});
  const LayoutValue& p0 = layout->values[2];
  CHECK(p0.pieces == std::vector<LayoutPiece>{{0, {16, 8}, {{0, 16}, {0, 8}}}, {1, {16, 8}, {{0, 16}, {8, 16}}}});
  const LayoutValue& loss = layout->values[5];
  CHECK(loss.name == "loss_0");
  CHECK(loss.kind == LayoutValueKind::ShadowOutput);
  CHECK(!loss.persistable);
  CHECK(loss.shape.empty());
  CHECK(loss.pieces == std::vector<LayoutPiece>{{0, {}, {}}, {1, {}, {}}});
  CHECK(layout->values[0].name == "learning_rate_1");
  CHECK(layout->values[0].persistable);
}

// One type for four values that differ in all else: ranks.yaml describes a
// type once and copies it, so each copy must take its own name, kind and
// persistable, not the first value's.
TEST_CASE("rank layout: values of one type keep their own name, kind and persistable") {
  const std::string type = "pd_dist.tensor<3x4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]>";
  const std::string dist =
      "op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],"
      "process_ids:[0,1],dims_mappings:[-1,0]}}";
  const std::string text =
      "{\n"
      "    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\"," +
      dist + ",place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> " + type +
      "\n"
      "    (%1) = \"builtin.parameter\" () {" +
      dist + ",parameter_name:\"w\",persistable:[true]} : () -> " + type +
      "\n"
      "    (%2) = \"pd_op.data\" () {dtype:float32,name:\"m\"," +
      dist + ",persistable:[true],place:Place(undefined:0),shape:[3,4],stop_gradient:[true]} : () -> " + type +
      "\n"
      "    () = \"builtin.shadow_output\" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{"
      "mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,0]}},output_name:\"y\"} : (" +
      type +
      ") -> \n"
      "}\n";
  core::Result<RankLayout> layout = describe(text);
  REQUIRE(layout.isOk());
  REQUIRE(layout->values.size() == 4);
  // 4 columns on 2 ranks: columns [0, 2) and [2, 4), every row.
  const std::vector<LayoutPiece> pieces{{0, {3, 2}, {{0, 3}, {0, 2}}}, {1, {3, 2}, {{0, 3}, {2, 4}}}};
  struct Want {
    const char* name;
    LayoutValueKind kind;
    bool persistable;
  };
  const Want want[] = {{"x", LayoutValueKind::Data, false},
                       {"w", LayoutValueKind::Parameter, true},
                       {"m", LayoutValueKind::Data, true},
                       {"y", LayoutValueKind::ShadowOutput, false}};
  for (size_t i = 0; i < 4; ++i) {
    const LayoutValue& v = layout->values[i];
    INFO("value " << i);
    CHECK(v.name == want[i].name);
    CHECK(v.kind == want[i].kind);
    CHECK(v.persistable == want[i].persistable);
    CHECK(v.isState() == (want[i].kind == LayoutValueKind::Parameter || want[i].persistable));
    CHECK(v.dtype == core::DataType::F32);
    CHECK(v.shape == std::vector<int64_t>{3, 4});
    CHECK(v.dimsMapping == std::vector<int64_t>{-1, 0});
    CHECK(v.pieces == pieces);
    // One list of pieces for the type, shared, not copied per value.
    CHECK(v.pieces.identity() == layout->values[0].pieces.identity());
  }
  // The text spells each shared list once, by its address: two values
  // given another list, shared between them, are spelled with it, the two
  // left with the first list with that one.
  RankLayout changed = *layout;
  changed.values[2].dimsMapping = changed.values[3].dimsMapping = {-1, -1};
  changed.values[2].pieces = {{0, {3, 4}, {{0, 3}, {0, 4}}}, {1, {3, 4}, {{0, 3}, {0, 4}}}};
  changed.values[3].pieces = changed.values[2].pieces;
  std::string text2 = writeRankLayout(changed);
  auto count = [&](const std::string& line) {
    size_t n = 0;
    for (size_t at = text2.find(line); at != std::string::npos; at = text2.find(line, at + 1)) ++n;
    return n;
  };
  CHECK(count("- {rank: 1, shape: [3, 4], ranges: [[0, 3], [0, 4]]}") == 2);
  CHECK(count("- {rank: 1, shape: [3, 2], ranges: [[0, 3], [2, 4]]}") == 2);
  core::Result<RankLayout> reread = parseRankLayout(text2);
  REQUIRE(reread.isOk());
  CHECK(*reread == changed);
}

TEST_CASE("rank layout reads back what it writes") {
  core::Result<RankLayout> read = parseRankLayout(withStages());
  REQUIRE(read.isOk());
  CHECK(writeRankLayout(*read) == withStages());
  RingTable rings;
  REQUIRE(rings.add(12, {4, 6}).isOk());
  CHECK(*read == *describe(kLayouts, rings));
  // A file without stages (before they were recorded) reads, with none.
  core::Result<RankLayout> old = parseRankLayout(kLayoutsYaml);
  REQUIRE(old.isOk());
  CHECK(old->stages.empty());
  CHECK(writeRankLayout(*old) == kLayoutsYaml);
}

TEST_CASE("rank layout records split-ranks' planner and cost model, after the stages") {
  core::Result<RankLayout> read = parseRankLayout(withStages());
  REQUIRE(read.isOk());
  RankLayout layout = *read;
  layout.planner = lowering::Planner::Cost;
  layout.costModel = "models/a b,c.yaml";
  std::string text = writeRankLayout(layout);
  CHECK(text.find("stages: [0, 0, 0, 0, 1, 1]\nplanner: cost\ncost_model: ") != std::string::npos);
  core::Result<RankLayout> again = parseRankLayout(text);
  REQUIRE(again.isOk());
  CHECK(*again == layout);
  // Paddle's planner and the default model are not written.
  CHECK(writeRankLayout(*read).find("planner") == std::string::npos);
  std::string wrong = text;
  wrong.replace(wrong.find("planner: cost"), 13, "planner: fast");
  core::Result<RankLayout> bad = parseRankLayout(wrong);
  REQUIRE(!bad.isOk());
  CHECK(bad.status().message() == "'planner' must be paddle or cost");
}

TEST_CASE("rank stages: the position of a rank's mesh among the stage meshes in program order") {
  core::Context ctx;
  core::DiagnosticEngine diag;
  // Stage meshes [2,3] then [0,1]; a reshard's union mesh and the repeat of [2,3] are no stage.
  std::string text = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[2,3]},result(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]}},place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[4],process_ids:[0,1,2,3]},operand(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]}}} : (pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]>) -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]}},output_name:"y"} : (pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>) -> 
    () = "builtin.shadow_output" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[2,3]},operand(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]}},output_name:"z"} : (pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]>) -> 
}
)";
  core::SourceFile src("stages.pir", text);
  auto program = parser::parseProgram(ctx, src, diag);
  REQUIRE(program);
  CHECK(rankStages(**program, {0, 1, 2, 3}) == std::vector<int64_t>{1, 1, 0, 0});
  CHECK(rankStages(**program, {3}) == std::vector<int64_t>{0});
  CHECK(rankStages(**program, {0, 5}).empty());  // rank 5 is on no stage mesh
}

TEST_CASE("rank layout's stages must be one a rank") {
  std::string text = withStages();
  text.replace(text.find("stages: [0, 0, 0, 0, 1, 1]"), 26, "stages: [0, 1]");
  core::Result<RankLayout> r = parseRankLayout(text);
  REQUIRE(!r.isOk());
  CHECK(r.status().message() == "'stages' must give one stage for each entry of 'ranks'");
}

TEST_CASE("rank layout refuses one name given to two values of a kind") {
  std::string text = kLayouts;
  text.replace(text.find("name:\"p\""), 8, "name:\"a\"");
  core::Result<RankLayout> layout = describe(text);
  REQUIRE(!layout.isOk());
  CHECK(layout.status().message() == "data name 'a' is given to two values");
}

TEST_CASE("rank layout reading is strict, located at the problem") {
  CHECK(failure(broken("world_size: 7", "world_size: 7\nextra: 1")) ==
        "4:1: unknown key 'extra' in a rank layout (expected version, world_size, ranks, rings, values)");
  CHECK(failure(broken("version: 1", "version: 2")) == "2:10: this rank layout's version is not 1, the one read here");
  CHECK(failure(broken("ranks: [0, 1, 2, 3, 4, 6]\n", "")) == "2:1: a rank layout lacks 'ranks'");
  CHECK(failure(broken("ranks: [0, 1, 2, 3, 4, 6]", "ranks: [1, 0]")) ==
        "4:8: 'ranks' must be ascending, each rank once");
  CHECK(failure(broken("{id: 12, ranks: [4, 6]}", "{id: 12, ranks: [4, 7]}")) ==
        "6:25: every entry of a ring's 'ranks' must be a whole number from 0 to 6");
  CHECK(failure(broken("  - {id: 12, ranks: [4, 6]}", "  - {id: 12, ranks: [4, 6]}\n  - {id: 12, ranks: [6]}")) ==
        "7:10: ring 12 is listed twice");
  CHECK(failure(broken("{rank: 2, shape: [1], ranges: [[4, 5]]}", "{rank: 2, shape: [1], ranges: [[4, 6]]}")) ==
        "19:40: range 0 must be [begin, end] within the dim's 5, its size the piece's dim");
  CHECK(failure(broken("{rank: 2, shape: [1], ranges: [[4, 5]]}", "{rank: 5, shape: [1], ranges: [[4, 5]]}")) ==
        "19:16: rank 5 is not in the value's mesh");
  CHECK(failure(broken("dtype: int64", "dtype: int65")) ==
        "23:12: 'dtype' must be a Paddle data type name (float32, int64, ...)");
  CHECK(failure(broken("dims_mapping: [1, 0]", "dims_mapping: [2, 0]")) ==
        "26:20: every entry of 'dims_mapping' must be a whole number from -1 to 1");
  CHECK(failure(broken("partial: [{dim: 0, reduce: AVG}]", "partial: [{dim: 0, reduce: MEAN}]")) ==
        "40:32: 'reduce' must be SUM, MAX, MIN, PRODUCT, AVG, ANY or ALL");
  CHECK(failure(broken("persistable: true", "persistable: yes")) == "28:18: 'persistable' must be true or false");
  CHECK(failure(broken("    kind: parameter\n", "")) == "21:5: a value entry lacks 'kind'");
  CHECK(failure(broken("  - name: p\n", "  - name: a\n")) == "34:11: data 'a' is listed twice");
}

TEST_CASE("rank layout pieces must be exactly what the mesh and dims_mapping give") {
  const std::string a0 = "{rank: 0, shape: [2], ranges: [[0, 2]]}", a1 = "{rank: 1, shape: [2], ranges: [[2, 4]]}";
  // Ranges that fit the dim but are another rank's: the reader used to take them.
  CHECK(failure(broken(a0 + "\n      - " + a1,
                       "{rank: 0, shape: [2], ranges: [[2, 4]]}\n      - {rank: 1, shape: [2], ranges: [[0, 2]]}")) ==
        "17:39: rank 0's piece of 'a' is [[2, 4]], but mesh [4] [0, 1, 2, 3] and dims_mapping [0] give [[0, 2]]");
  // A dims_mapping that contradicts the pieces: the first piece that differs.
  CHECK(failure(broken("dims_mapping: [1, 0]", "dims_mapping: [0, 1]")) ==
        "31:42: rank 1's piece of 'w' is [[2, 4], [0, 3]], but mesh [2, 2] [0, 1, 2, 3] and dims_mapping [0, 1] give "
        "[[0, 2], [3, 6]]");
  CHECK(failure(broken("      - {rank: 3, shape: [0], ranges: [[5, 5]]}\n", "")) ==
        "17:7: 'a' needs 4 piece(s), one per rank of mesh [4] [0, 1, 2, 3] and dims_mapping [0], not 3");
  CHECK(failure(broken(a0 + "\n      - " + a1, a1 + "\n      - " + a0)) ==
        "17:16: piece 0 of 'a' must be rank 0's (the pieces follow the mesh order)");
  // What describeRankLayout writes reads back (the rule is one function).
  auto layout = describe(kLayouts);
  REQUIRE(layout.isOk());
  CHECK(parseRankLayout(writeRankLayout(*layout)).isOk());
}

TEST_CASE("rank layout files: a broken one is a rendered diagnostic") {
  core::Result<RankLayout> missing = loadRankLayout("/nonexistent/ranks.yaml");
  REQUIRE(!missing.isOk());
  CHECK(missing.status().message().find("/nonexistent/ranks.yaml: error: cannot read the rank layout") == 0);
}

TEST_CASE("a layout index finds a value by kind and name, the first of two") {
  RankLayout layout;
  auto value = [](std::string name, LayoutValueKind kind, int64_t dim) {
    LayoutValue v;
    v.name = std::move(name);
    v.kind = kind;
    v.shape = {dim};
    return v;
  };
  layout.values.push_back(value("w", LayoutValueKind::Parameter, 1));
  layout.values.push_back(value("w", LayoutValueKind::Data, 2));
  layout.values.push_back(value("w", LayoutValueKind::Parameter, 3));
  layout.values.push_back(value("loss", LayoutValueKind::ShadowOutput, 4));
  const LayoutIndex index(layout);
  REQUIRE(index.find("w", LayoutValueKind::Parameter) == &layout.values[0]);
  REQUIRE(index.find("w", LayoutValueKind::Data) == &layout.values[1]);
  REQUIRE(index.find("loss", LayoutValueKind::ShadowOutput) == &layout.values[3]);
  CHECK(index.find("loss", LayoutValueKind::Data) == nullptr);
  CHECK(index.find("x", LayoutValueKind::Parameter) == nullptr);
}

TEST_CASE("rank layout's text handed on in chunks is the whole text, cut between values") {
  core::Result<RankLayout> read = parseRankLayout(withStages());
  REQUIRE(read.isOk());
  RankLayout layout = *read;
  REQUIRE(!layout.values.empty());
  // Thousands of values (about 3 MB of text), each named apart: three chunks or more.
  std::vector<LayoutValue> values;
  for (int i = 0; i < 6000; ++i) {
    LayoutValue v = layout.values[static_cast<size_t>(i) % layout.values.size()];
    v.name = "value_" + std::to_string(i);
    values.push_back(std::move(v));
  }
  layout.values = std::move(values);
  std::vector<std::string> chunks;
  CHECK(writeRankLayout(layout, [&](std::string_view chunk) {
    chunks.emplace_back(chunk);
    return true;
  }));
  REQUIRE(chunks.size() >= 3);
  std::string joined;
  for (const std::string& c : chunks) {
    CHECK(c.size() < (size_t{1} << 20) + 4096);  // a megabyte and at most one value more
    CHECK((c.empty() || c.back() == '\n'));      // never inside a value's lines
    joined += c;
  }
  CHECK(joined == writeRankLayout(layout));
  core::Result<RankLayout> back = parseRankLayout(joined);
  REQUIRE(back.isOk());
  CHECK(*back == layout);
  // A sink that refuses stops the writing.
  size_t calls = 0;
  CHECK_FALSE(writeRankLayout(layout, [&](std::string_view) { return ++calls < 2; }));
  CHECK(calls == 2);
}
