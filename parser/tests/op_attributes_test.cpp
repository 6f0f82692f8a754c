//===- op_attributes_test.cpp - the op table's attribute lists, against dumps -===//
//
// Parses every program of testdata (.pir inputs and .expected outputs) and of
// ../shared/corpus, and checks each op with a recorded attribute list
// (core/op_table.h, OpInfo::attributes) prints only attributes that list
// allows (OpInfo::mayPrintAttribute: its own, the ones PIR puts on any op,
// a mutable attribute an older era printed as one), plus for an op of the
// kernel dialect PhiKernelOp's own (op_name, kernel_name, kernel_key:
// paddle/fluid/pir/dialect/kernel/ir/kernel_op.cc) and on send_v2/recv_v2
// the message_index pipeline-split writes (core/message_key.h). A file that
// does not parse (the error cases) is skipped; the corpus must parse but
// for its elided doc page.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "core/message_key.h"
#include "core/op_table.h"
#include "parser/tests/test_util.h"

using namespace pir;
using namespace pir::core;
namespace fs = std::filesystem;

namespace {

bool isKernelDialect(std::string_view name) {
  return name.ends_with("(phi_kernel)") || name.ends_with("(legacy_kernel)");
}

bool allowed(const Operation& op, const OpInfo& info, std::string_view key) {
  if (info.mayPrintAttribute(key, op.numOperands())) return true;
  if (isKernelDialect(op.name()) && (key == "op_name" || key == "kernel_name" || key == "kernel_key")) return true;
  return key == kMessageIndexAttr && (info.name == "pd_op.send_v2" || info.name == "pd_op.recv_v2");
}

struct Tally {
  size_t files = 0, parsed = 0, opsChecked = 0;
  std::vector<std::string> violations, unparsed;
};

void checkText(const std::string& name, const std::string& text, Tally& t) {
  ++t.files;
  Context ctx;
  SourceFile src(name, text);
  DiagnosticEngine diag(&src);
  parser::ParseOptions options;
  options.staleOperandTypesWarn = true;
  auto programs = parser::parseFile(ctx, src, diag, options);
  if (!programs) {
    t.unparsed.push_back(fs::path(name).filename().string());
    return;
  }
  ++t.parsed;
  for (const parser::ParsedProgram& p : *programs)
    walk(p.program->body(), [&](const Operation& op) {
      const OpInfo* info = lookupRunOp(op);
      if (!info || !info->attributesRecorded()) return;
      ++t.opsChecked;
      for (const NamedAttr& a : op.attributes())
        if (!allowed(op, *info, a.key))
          t.violations.push_back(name + ": " + std::string(op.name()) + " prints " + std::string(a.key));
    });
}

void checkFile(const fs::path& path, Tally& t) {
  checkText(path.string(), parser::testing::readFile(path.string()), t);
}

std::vector<fs::path> programsUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && (e.path().extension() == ".pir" || e.path().extension() == ".expected"))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every op of testdata prints only attributes its op-table entry allows", "[parser][op_table]") {
  Tally t;
  for (const fs::path& f : programsUnder(PIR_TESTDATA_DIR)) checkFile(f, t);
  INFO(t.parsed << " of " << t.files << " files parsed, " << t.opsChecked << " ops checked");
  for (const std::string& v : t.violations) UNSCOPED_INFO(v);
  CHECK(t.violations.empty());
  // Most of testdata is programs (the rest are error cases and diagnostics).
  CHECK(t.parsed >= 450);
  CHECK(t.opsChecked >= 6000);
}

TEST_CASE("every op of the corpus prints only attributes its op-table entry allows", "[parser][op_table]") {
  fs::path corpus = PIR_CORPUS_DIR;
  if (!fs::is_directory(corpus)) {
    WARN("no corpus at " << corpus.string() << ": not checked");
    return;
  }
  Tally t;
  for (const fs::path& f : programsUnder(corpus)) checkFile(f, t);
  for (const std::string& v : t.violations) UNSCOPED_INFO(v);
  CHECK(t.violations.empty());
  // Every dump parses but 29, a documentation page with `.....(省略)` where ops were left out.
  CHECK(t.unparsed == std::vector<std::string>{"29_legacy_2023_pd_dialect_elided.pir"});
  CHECK(t.opsChecked >= 60);
}

TEST_CASE("the check finds an attribute an op's entry does not allow", "[parser][op_table]") {
  Tally t;
  checkText("t.pir", R"PIR({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_role:(Int32)0,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {alpha:(Float)1,stop_gradient:[false]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.sum" (%1) {axis:(pd_op.IntArray)[],dtype:(pd_op.DataType)float32,keepdim:false} : (builtin.tensor<4xf32>) -> builtin.tensor<f32>
    (%3) = "relu(phi_kernel)" (%1) {kernel_key:<backend:CPU|layout:NCHW|dtype:float32>,kernel_name:"relu",op_name:"pd_op.relu",keepdim:false} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%4) = "custom.op" (%1) {anything:true} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
}
)PIR",
            t);
  // relu has no alpha; the kernel dialect's relu no keepdim; sum's axis is 2023's attribute (one operand);
  // an op without an entry is not checked.
  CHECK(t.violations ==
        std::vector<std::string>{"t.pir: pd_op.relu prints alpha", "t.pir: relu(phi_kernel) prints keepdim"});
  CHECK(t.opsChecked == 4);
}
