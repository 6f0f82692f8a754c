//===- export_gradients.cpp - hand each optimizer's gradient over by name -===//
//
// `export-gradients`: what pir-run's serial check runs. Every optimizer op
// (core::optimizerOperands) gets a copy of its gradient (`pd_op.assign`)
// exported as `builtin.shadow_output` `<param>@GRAD@CHECK` right before it,
// and reads
// the kwarg `<param>@GRAD@CHECK_MEAN` instead (value_naming.h). The check
// then runs the backward per micro-batch for the gradients, and the
// optimizers once on their mean, whatever the optimizer. With
// `{feed=false}` the optimizer keeps its own gradient: the export alone,
// which the check adds to the rank programs it runs, to compare the
// gradient each optimizer receives with the serial one. A parameter
// without a name, a name that cannot name a kwarg, or a parameter of two
// optimizer ops is a located error.
//
//===----------------------------------------------------------------------===//
#include <set>
#include <string>

#include "core/attr_list_builder.h"
#include "core/builder.h"
#include "core/context.h"
#include "core/op_table.h"
#include "core/operation.h"
#include "core/verifier.h"
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

  core::Status runOnProgram(core::NamedProgram& named, core::DiagnosticEngine& diag) override {
    core::Program& p = *named.program;
    core::Block& body = p.body();
    std::vector<core::Operation*> optimizers;
    for (core::Operation& op : body)
      if (optimizerOperands(op)) optimizers.push_back(&op);
    const bool feed = feed_;
    std::set<std::string, std::less<>> taken;
    for (const core::BlockArgument* kw : body.kwargs()) taken.emplace(kw->name());
    for (core::Operation* op : optimizers) {
      core::OptimizerOperands o = optimizerOperands(*op);
      core::Value* grad = op->operandValue(uint32_t(o.grad));
      if (!op->operandValue(uint32_t(o.param)) || !grad) continue;
      std::string param = scopeName(op->operandValue(uint32_t(o.param)));
      // The fed gradient is a kwarg, printed `%kwarg_NAME`: a name with
      // other bytes would not read back (found by fuzz_passes), and one
      // name stands for one kwarg.
      std::string fed = fedGradientName(param);
      std::string_view why = param.empty()       ? "has no name (no builtin.parameter, pd_op.data or kwarg)"
                             : !isKwargName(fed) ? "cannot name a kwarg (letters, digits, '_', '.' and '@' only)"
                             : taken.count(fed)  ? "has its gradient exported already (a second optimizer op)"
                                                 : "";
      if (!why.empty()) {
        diag.error(core::reportLocation(op), "the parameter '" + param + "' of optimizer op '" +
                                                 std::string(op->name()) + "' " + std::string(why) +
                                                 ": its gradient cannot be exported");
        return core::Status::error("export-gradients could not complete");
      }
      taken.insert(fed);
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
      if (feed) op->operand(uint32_t(o.grad)).set(body.addKwarg(p.context(), fed, grad->type()));
      stats_.add("gradient(s) exported");
    }
    return core::Status::ok();
  }

 private:
  Option<bool> feed_{this, "feed",
                     "make each optimizer read the fed kwarg <param>@GRAD@CHECK_MEAN (false: export only)", true};
};

}  // namespace

void registerExportGradientsPass() { registerPass<ExportGradientsPass>(); }

}  // namespace pir::passes
