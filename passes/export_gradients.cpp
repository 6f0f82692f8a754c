//===- export_gradients.cpp - hand each optimizer's gradient over by name -===//
//
// `export-gradients`: what pir-run's serial check runs. Every optimizer op
// (core::optimizerOperands) gets a copy of its gradient (`pd_op.assign`)
// exported as `builtin.shadow_output` `<param>@GRAD@CHECK` right before it,
// and reads
// the kwarg `<param>@GRAD@CHECK_MEAN` instead (value_naming.h). The check
// then runs the backward per micro-batch for the gradients, and the
// optimizers once on their mean, whatever the optimizer. A parameter with
// no name in the scope is named `#N` (N counts the optimizers rewired).
//
//===----------------------------------------------------------------------===//
#include "core/attr_list_builder.h"
#include "core/builder.h"
#include "core/context.h"
#include "core/op_table.h"
#include "core/operation.h"
#include "passes/pass_registry.h"
#include "passes/value_naming.h"

namespace pir::passes {

namespace {

class ExportGradientsPass : public ProgramPass {
 public:
  std::string_view name() const override { return "export-gradients"; }
  std::string_view description() const override {
    return "export each optimizer op's gradient as shadow_output <param>@GRAD@CHECK and feed the optimizer the kwarg "
           "<param>@GRAD@CHECK_MEAN instead (pir-run's serial check of gradient merge)";
  }

  core::Status runOnProgram(core::NamedProgram& named, core::DiagnosticEngine&) override {
    core::Program& p = *named.program;
    core::Block& body = p.body();
    std::vector<core::Operation*> optimizers;
    for (core::Operation& op : body)
      if (optimizerOperands(op)) optimizers.push_back(&op);
    int64_t count = 0;
    for (core::Operation* op : optimizers) {
      core::OptimizerOperands o = optimizerOperands(*op);
      core::Value* grad = op->operandValue(uint32_t(o.grad));
      if (!op->operandValue(uint32_t(o.param)) || !grad) continue;
      std::string param = scopeName(op->operandValue(uint32_t(o.param)));
      if (param.empty()) param = "#" + std::to_string(count);
      // A copy is exported: the gradient may be a buffer that later ops
      // write in place (gradient-merge zeroes its buffers after the step).
      core::Builder b(p.context());
      b.setInsertionPoint(op);
      core::Value* src[] = {grad};
      const core::Type* types[] = {grad->type()};
      core::Operation* copy = b.create("pd_op.assign", src, types, {});
      core::AttrListBuilder attrs(p);
      attrs.set("output_name", p.context().stringAttrFromValue(exportedGradientName(param)));
      core::Value* ins[] = {copy->result(0)};
      attrs.applyOwn(*b.create("builtin.shadow_output", ins, {}, {}));
      op->operand(uint32_t(o.grad)).set(body.addKwarg(p.context(), fedGradientName(param), grad->type()));
      ++count;
      stats_.add("gradient(s) exported");
    }
    return core::Status::ok();
  }
};

}  // namespace

void registerExportGradientsPass() { registerPass<ExportGradientsPass>(); }

}  // namespace pir::passes
