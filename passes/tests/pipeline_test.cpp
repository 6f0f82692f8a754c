//===- pipeline_test.cpp - properties of split-matmul-grad and pipeline-split ===//
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/tests/test_files.h"

using namespace pir;
using namespace pir::core;

namespace {

using pir::testing::readFile;

/// Parses `text`, runs `pipeline`, returns the programs (empty on failure).
struct Run {
  Context ctx;
  std::string text;
  std::unique_ptr<SourceFile> src;
  std::unique_ptr<DiagnosticEngine> diag;
  std::unique_ptr<Program> input;  // a second parse of the input, kept intact
  ProgramSet out;
  bool ok = false;

  Run(std::string t, const std::string& pipeline) : text(std::move(t)) {
    passes::registerAllPasses();
    src = std::make_unique<SourceFile>("t.pir", text);
    diag = std::make_unique<DiagnosticEngine>(src.get());
    auto p = parser::parseProgram(ctx, *src, *diag);
    auto q = parser::parseProgram(ctx, *src, *diag);
    REQUIRE(p.isOk());
    input = std::move(q.value());
    out.programs.push_back({"", std::move(p.value())});
    std::vector<passes::PassSpec> specs;
    REQUIRE(passes::parsePassPipeline(pipeline, specs, *diag));
    passes::PassManager pm;
    REQUIRE(pm.addPipeline(specs, *diag));
    ok = pm.run(out, *diag).isOk();
    INFO(diag->render());
  }
};

std::map<std::string, int> opCounts(const Program& p) {
  std::map<std::string, int> counts;
  walk(p.body(), [&](const Operation& op) { ++counts[std::string(op.name())]; });
  return counts;
}

const char* kDense = PIR_TESTDATA_DIR "/pipeline/01_dense_fthenb.pir";
const char* kSeedWithRoles = PIR_TESTDATA_DIR "/pipeline/07_seed_mlp_fthenb.pir";

}  // namespace

TEST_CASE("every split keeps each op exactly once, plus the shadow outputs it adds", "[passes][pipeline]") {
  struct Case {
    const char* file;
    const char* pipeline;
  };
  auto [file, pipeline] =
      GENERATE(Case{kDense, "pipeline-split{mode=FThenB}"}, Case{kDense, "pipeline-split{mode=1F1B}"},
               Case{kDense, "pipeline-split{mode=VPP vpp=2}"},
               Case{kDense, "split-matmul-grad,pipeline-split{mode=VPP vpp=2 split-bw=true}"},
               Case{kDense, "split-matmul-grad,pipeline-split{mode=ZBH1}"},
               Case{kSeedWithRoles, "pipeline-split{mode=FThenB}"}, Case{kSeedWithRoles, "pipeline-split{mode=1F1B}"},
               Case{kSeedWithRoles, "split-matmul-grad,pipeline-split{mode=ZBH1}"});
  CAPTURE(file, pipeline);
  std::string text = readFile(file);
  REQUIRE(!text.empty());
  Run run(text, pipeline);
  REQUIRE(run.ok);
  // The ops before splitting: the input after split-matmul-grad, if it ran.
  std::map<std::string, int> before;
  {
    Run smg(text, std::string(pipeline).find("split-matmul-grad") != std::string::npos ? "split-matmul-grad"
                                                                                       : "fold-reshard");
    REQUIRE(smg.ok);
    before = opCounts(*smg.out.programs[0].program);
  }
  std::map<std::string, int> after;
  int added = 0;
  for (const NamedProgram& p : run.out.programs) {
    if (p.name == "backward" && std::string(pipeline).find("ZBH1") != std::string::npos) continue;
    DiagnosticEngine d;
    REQUIRE(verifyProgram(*p.program, d) == 0);
    for (auto& [name, n] : opCounts(*p.program)) after[name] += n;
  }
  for (const NamedProgram& p : run.out.programs)
    if (!(p.name == "backward" && std::string(pipeline).find("ZBH1") != std::string::npos))
      for (const Operation& op : p.program->body())
        if (op.name() == "builtin.shadow_output" && op.attrOf<StringAttr>("output_name")->value().starts_with("var_"))
          ++added;
  before["builtin.shadow_output"] += added;
  REQUIRE(after == before);
}

TEST_CASE("each split program re-parses to itself", "[passes][pipeline]") {
  Run run(readFile(kDense), "split-matmul-grad,pipeline-split{mode=ZBH1}");
  REQUIRE(run.ok);
  for (const NamedProgram& p : run.out.programs) {
    std::string once = printProgram(*p.program);
    Context ctx;
    SourceFile src(p.name, once);
    DiagnosticEngine diag(&src);
    auto again = parser::parseProgram(ctx, src, diag);
    INFO(diag.render());
    REQUIRE(again.isOk());
    REQUIRE(printProgram(**again) == once);
  }
}

namespace {
/// A program with one matmul_grad of x (dims xs) and y (dims ys) with the
/// given transposes, whose results feed a shadow_output each.
std::string matmulGradProgram(const std::string& xs, const std::string& ys, const std::string& os,
                              const std::string& gx, const std::string& gy, bool tx, bool ty) {
  auto t = [](const std::string& d) { return "builtin.tensor<" + d + "xf32>"; };
  std::string b = tx ? "true" : "false", c = ty ? "true" : "false";
  return "{\n"
         "    (%0) = \"pd_op.data\" () {name:\"x\",stop_gradient:[false]} : () -> " +
         t(xs) +
         "\n"
         "    (%1) = \"pd_op.data\" () {name:\"y\",stop_gradient:[false]} : () -> " +
         t(ys) +
         "\n"
         "    (%2) = \"pd_op.data\" () {name:\"og\",stop_gradient:[false]} : () -> " +
         t(os) +
         "\n"
         "    (%3, %4) = \"pd_op.matmul_grad\" (%0, %1, %2) "
         "{op_role:(Int32)1,stop_gradient:[false,false],transpose_x:" +
         b + ",transpose_y:" + c + "} : (" + t(xs) + ", " + t(ys) + ", " + t(os) + ") -> " + t(gx) + ", " + t(gy) +
         "\n"
         "    () = \"builtin.shadow_output\" (%3) {output_name:\"gx\"} : (" +
         t(gx) +
         ") -> \n"
         "    () = \"builtin.shadow_output\" (%4) {output_name:\"gy\"} : (" +
         t(gy) +
         ") -> \n"
         "}\n";
}
}  // namespace

TEST_CASE("split-matmul-grad computes results of the replaced shapes", "[passes][pipeline]") {
  // M=4, K=16, N=8: x is MxK (KxM when transposed), y KxN (NxK), og MxN.
  struct Case {
    const char *xs, *ys, *os;
    bool tx, ty;
  };
  auto c = GENERATE(Case{"4x16", "16x8", "4x8", false, false}, Case{"16x4", "16x8", "4x8", true, false},
                    Case{"4x16", "8x16", "4x8", false, true}, Case{"16x4", "8x16", "4x8", true, true},
                    Case{"2x4x16", "16x8", "2x4x8", false, false});
  CAPTURE(c.xs, c.tx, c.ty);
  Run run(matmulGradProgram(c.xs, c.ys, c.os, c.xs, c.ys, c.tx, c.ty), "split-matmul-grad");
  REQUIRE(run.ok);
  const Program& p = *run.out.programs[0].program;
  REQUIRE(opCounts(p).count("pd_op.matmul_grad") == 0);
  // The shadow outputs now read the new ops; their operand types are the
  // types the new ops computed, and must be those of x_grad and y_grad.
  std::vector<std::string> types;
  for (const Operation& op : p.body())
    if (op.name() == "builtin.shadow_output") types.push_back(typeToString(op.operandValue(0)->type()));
  REQUIRE(types == std::vector<std::string>{"builtin.tensor<" + std::string(c.xs) + "xf32>",
                                            "builtin.tensor<" + std::string(c.ys) + "xf32>"});
  // Every new matmul is a valid product: inner dims agree.
  for (const Operation& op : p.body()) {
    if (op.name() != "pd_op.matmul") continue;
    auto a = tensorShape(op.operandValue(0)->type())->dims, b = tensorShape(op.operandValue(1)->type())->dims;
    bool ta = op.attrOf<BoolAttr>("transpose_x")->value(), tb = op.attrOf<BoolAttr>("transpose_y")->value();
    int64_t inner = ta ? a[a.size() - 2] : a[a.size() - 1];
    int64_t innerB = tb ? b[b.size() - 1] : b[b.size() - 2];
    REQUIRE(inner == innerB);
  }
}

TEST_CASE("Paddle's untransposed formulas give wrong shapes for transposed matmuls", "[passes][pipeline]") {
  // Paddle splits every matmul_grad as dx = matmul(og, y, F, T), ignoring
  // transpose_x. For transpose_x = true that product has the wrong shape;
  // ours has x's.
  Run run(matmulGradProgram("16x4", "16x8", "4x8", "16x4", "16x8", true, false), "split-matmul-grad");
  REQUIRE(run.ok);
  const Program& in = *run.input;
  const Operation* grad = nullptr;
  for (const Operation& op : in.body())
    if (op.name() == "pd_op.matmul_grad") grad = &op;
  REQUIRE(grad);
  auto og = tensorShape(grad->operandValue(2)->type())->dims, y = tensorShape(grad->operandValue(1)->type())->dims;
  auto x = tensorShape(grad->operandValue(0)->type())->dims;
  std::vector<int64_t> paddleDx{og[0], y[0]};  // (og)(y^T): og rows x y rows
  std::vector<int64_t> xDims(x.begin(), x.end());
  REQUIRE(paddleDx != xDims);
  const Operation* firstMatmul = nullptr;
  for (const Operation& op : run.out.programs[0].program->body())
    if (op.name() == "pd_op.matmul" && !firstMatmul) firstMatmul = &op;
  REQUIRE(firstMatmul);
  auto ours = tensorShape(firstMatmul->result(0)->type())->dims;
  REQUIRE(std::vector<int64_t>(ours.begin(), ours.end()) == xDims);
}

TEST_CASE("a rank-3 matmul_grad with transposes is left alone and counted", "[passes][pipeline]") {
  Run run(matmulGradProgram("2x16x4", "16x8", "2x4x8", "2x16x4", "16x8", true, false), "split-matmul-grad");
  REQUIRE(run.ok);
  REQUIRE(opCounts(*run.out.programs[0].program).at("pd_op.matmul_grad") == 1);
}
