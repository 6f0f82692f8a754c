//===- run_common.cpp - what pir-run's pieces share -----------------------===//
#include "app/run_common.h"

#include <cstdio>

#include "app/run_timing.h"
#include "parser/parser.h"
#include "passes/pass_pipeline.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;

Status loadProgram(const std::string& path, Loaded& l) {
  PhaseTimer timer("read");
  if (Status s = l.file.open(path); !s) return Status::error("error: " + s.message());
  l.source = std::make_unique<core::SourceFile>(path, l.file.text());
  core::DiagnosticEngine diag(l.source.get());
  auto parsed = parser::parseProgram(l.ctx, *l.source, diag);
  if (!parsed) return Status::error(diag.render());
  l.program = std::move(parsed.value());
  return Status::ok();
}

std::string render(const core::SourceFile& source, const Status& s, const std::string& prefix) {
  core::Diagnostic d;
  d.offset = s.offset();
  d.message = prefix + s.message();
  return core::renderDiagnostic(&source, d);
}

int runPassPipeline(const std::string& pipeline, core::ProgramSet& set, const core::SourceFile& source,
                    const std::string& prefix, passes::PassManager& pm) {
  core::DiagnosticEngine diag(&source);
  std::vector<passes::PassSpec> specs;
  if (!passes::parsePassPipeline(pipeline, specs, diag) || !pm.addPipeline(specs, diag))
    return std::fprintf(stderr, "%s", diag.render().c_str()), 2;
  Status ran = pm.run(set, diag);
  for (const auto& [label, seconds] : pm.timings()) addPhaseTime(label, seconds);
  if (Status s = ran; !s) {
    if (diag.hasErrors())
      std::fprintf(stderr, "%s", diag.render().c_str());
    else
      std::fprintf(stderr, "%s", render(source, s, prefix).c_str());
    return s.isInternal() ? 2 : 1;
  }
  return 0;
}

int dropDist(core::Program& serial, const core::SourceFile& source) {
  core::ProgramSet set;
  set.programs.emplace_back("serial", std::unique_ptr<core::Program>(&serial));
  passes::PassManager pm;
  int rc = runPassPipeline("drop-dist", set, source, "serial meaning: ", pm);
  set.programs[0].program.release();  // owned by the caller
  return rc;
}

std::optional<double> scalarOf(const Tensor& t) {
  if (!t.defined() || t.numel() != 1) return std::nullopt;
  switch (t.dtype()) {
    case core::DataType::F32:
      return t.data<float>()[0];
    case core::DataType::F64:
      return t.data<double>()[0];
    case core::DataType::BF16:
      return t.data<runtime::BFloat16>()[0].toFloat();
    default:
      return std::nullopt;
  }
}

TensorMap cloneAll(const TensorMap& m) {
  TensorMap out;
  for (auto& [k, v] : m) out[k] = v.clone();
  return out;
}

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string bytesByRingYaml(const std::map<int64_t, uint64_t>& bytesByRing) {
  std::string y = "{";
  for (auto& [ring, bytes] : bytesByRing)
    y += (y.size() > 1 ? ", " : "") + std::to_string(ring) + ": " + std::to_string(bytes);
  return y + "}";
}

std::string pickLoss(const RunOptions& opts, const core::Program& program) {
  if (!opts.loss.empty()) return opts.loss;
  std::vector<std::string> zeroD;
  for (const core::Operation& op : program.body()) {
    if (op.name() != "builtin.shadow_output" || op.numOperands() != 1 || !op.operandValue(0)) continue;
    auto shape = core::tensorShape(op.operandValue(0)->type());
    if (shape && shape->dims.empty())
      if (auto* n = op.attrOf<core::StringAttr>("output_name")) zeroD.push_back(n->value());
  }
  return zeroD.size() == 1 ? zeroD[0] : std::string();
}

core::Result<passes::RankLayout> loadLayout(const std::string& dir) {
  PhaseTimer timer("layout");
  return passes::loadRankLayout(dir + "/" + std::string(passes::kRankLayoutName));
}

core::Result<std::unique_ptr<runtime::Executor>> compilePlan(const core::Program& program) {
  PhaseTimer timer("compile");
  return runtime::Executor::compile(program);
}

std::string pickLoss(const RunOptions& opts, const passes::RankLayout& layout) {
  if (!opts.loss.empty()) return opts.loss;
  std::vector<std::string> zeroD;
  for (const passes::LayoutValue& v : layout.values)
    if (v.kind == passes::LayoutValueKind::ShadowOutput && v.shape.empty()) zeroD.push_back(v.name);
  return zeroD.size() == 1 ? zeroD[0] : std::string();
}

}  // namespace pir::app
