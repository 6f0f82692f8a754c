//===- era_completion_test.cpp - filling in what old eras do not print ----===//
#include <catch2/catch.hpp>

#include "parser/tests/test_util.h"

using namespace pir;
using namespace pir::core;

namespace {
struct Parsed {
  Context ctx;
  std::string text;
  std::unique_ptr<SourceFile> src;
  std::unique_ptr<DiagnosticEngine> diag;
  std::unique_ptr<Program> prog;
  explicit Parsed(std::string t) : text(std::move(t)) {
    src = std::make_unique<SourceFile>("t.pir", text);
    diag = std::make_unique<DiagnosticEngine>(src.get());
    auto r = parser::parseProgram(ctx, *src, *diag);
    INFO(diag->render());
    REQUIRE(r.isOk());
    prog = std::move(r.value());
  }
  Operation* op(size_t i) {
    Operation* o = prog->body().front();
    while (i--) o = o->nextOp();
    return o;
  }
};

const char* kOldEra = R"({
    (%0) = "pd_op.data" () {op_dist_attr:{mesh:{shape:[2],process_ids:[4,5]},result(0):{dims_maping:[-1,0]}},stop_gradient:[true]} : () -> pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[-1,0]>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[4,5]},operand(0):{dims_maping:[-1,-1]},result(0):{dims_maping:[-1,-1],partial(0,SUM)}}} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[-1,0]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[-1,-1], partial(0,SUM)>
}
)";
}  // namespace

TEST_CASE("dims_maping era: attrs and types take the op's mesh", "[parser][era]") {
  Parsed p(kOldEra);
  REQUIRE(p.prog->style().distEra == DistEra::DimsMaping);
  const OpDistAttr* od = p.op(1)->distAttr();
  REQUIRE(od);
  int64_t ids[] = {4, 5};
  REQUIRE(std::equal(od->mesh()->processIds().begin(), od->mesh()->processIds().end(), std::begin(ids)));
  // Operand and result attrs are on the op's mesh, although not printed.
  REQUIRE(od->operandDist(0)->mesh() == od->mesh());
  REQUIRE(od->resultDist(0)->mesh() == od->mesh());
  // The result type's attr is the op's result attr: one interned pointer.
  auto* rt = p.op(1)->result(0)->type()->dynCast<DistTensorType>();
  REQUIRE(rt);
  REQUIRE(rt->distAttr() == od->resultDist(0));
  // The value's attr differs from what relu expects: dims_mapping [-1,0] vs [-1,-1].
  auto* vt = p.op(1)->operandValue(0)->type()->dynCast<DistTensorType>();
  REQUIRE_FALSE(sameDistAttr(vt->distAttr(), od->operandDist(0)));
  REQUIRE(vt->distAttr()->mesh() == od->mesh());
}

TEST_CASE("a kwarg's type without ids gets ids 0..n-1", "[parser][era]") {
  Parsed p(R"({
    ^kw:
        %kwarg_x {}
    (%0) = "pd_op.relu" (%kwarg_x) {op_dist_attr:{mesh:{shape:[2,2],process_ids:[0,1,2,3]},operand(0):{dims_maping:[-1]},result(0):{dims_maping:[-1]}}} : (pd_dist.tensor<4xf32, mesh_shape:[2,2],dims_mappings:[-1]>) -> pd_dist.tensor<4xf32, mesh_shape:[2,2],dims_mappings:[-1]>
}
)");
  BlockArgument* kw = p.prog->body().kwargs()[0];
  auto* t = kw->type()->dynCast<DistTensorType>();
  REQUIRE(t);
  std::vector<int64_t> ids(t->distAttr()->mesh()->processIds().begin(), t->distAttr()->mesh()->processIds().end());
  REQUIRE(ids == std::vector<int64_t>{0, 1, 2, 3});
}

TEST_CASE("the newest era keeps every mesh as printed", "[parser][era]") {
  Parsed p(R"({
    (%0) = "pd_op.data" () {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]},chunk_id:0}} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>
    (%1) = "pd_op.relu" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[2,3]},operand(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]},result(0):{mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]},chunk_id:1}} : (pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1]>) -> pd_dist.tensor<4xf32, mesh_shape:[2],process_ids:[2,3],dims_mappings:[-1]>
}
)");
  REQUIRE(p.prog->style().distEra == DistEra::Full);
  REQUIRE(p.prog->style().opDistChunkId);
  const OpDistAttr* od = p.op(1)->distAttr();
  REQUIRE(od->chunkId() == 1);
  auto* vt = p.op(1)->operandValue(0)->type()->dynCast<DistTensorType>();
  REQUIRE(vt->distAttr()->mesh() != od->operandDist(0)->mesh());
  REQUIRE_FALSE(sameDistAttr(vt->distAttr(), od->operandDist(0)));
}

TEST_CASE("print style is recorded per program", "[parser][era]") {
  Parsed tagged(R"({
    (%0) = "pd_op.full" () {dtype:(pd_op.DataType)float32,value:(Float)1} : () -> pd_op.tensor<1xf32>
}
)");
  REQUIRE(tagged.prog->style().taggedNumbers);
  REQUIRE(tagged.prog->style().tensorSpelling == "pd_op.tensor");
  Parsed bare(R"({
    (%0) = "pd_op.full" () {dtype:float32,value:1} : () -> tensor<1xf32>
}
)");
  REQUIRE_FALSE(bare.prog->style().taggedNumbers);
  REQUIRE(bare.prog->style().tensorSpelling == "tensor");
}

// The numbers inside a dialect value are bare in the tagged era too
// (`(pd_op.IntArray)[4,16]`); a pass's new ops then printed `ring_id:12`
// next to the input's `(Int32)-1`. They say nothing; the dialect tag does.
TEST_CASE("print style: a dialect value's own numbers do not make a program bare", "[parser][era]") {
  Parsed first(R"({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.softmax" (%0) {axis:(Int32)-1,stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
)");
  REQUIRE(first.prog->style().taggedNumbers);
  Parsed onlyDialect(R"({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
}
)");
  REQUIRE(onlyDialect.prog->style().taggedNumbers);
  Parsed newest(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,16],stop_gradient:[true]} : () -> tensor<4x16xf32>
}
)");
  REQUIRE_FALSE(newest.prog->style().taggedNumbers);
}
