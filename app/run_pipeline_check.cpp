//===- run_pipeline_check.cpp - a pipeline's serial meaning ---------------===//
#include "app/run_pipeline_check.h"

#include <cstdio>

#include "app/run_outputs.h"
#include "core/attr_list_builder.h"
#include "core/builder.h"
#include "core/op_table.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/value_naming.h"
#include "runtime/kernels/kernel_util.h"

namespace pir::app {

using core::Status;
using runtime::Tensor;
using runtime::TensorMap;

Tensor microBatch(const Tensor& t, int64_t j, int64_t n) {
  std::vector<int64_t> shape(t.shape().begin(), t.shape().end());
  shape[0] /= n;
  Tensor out = Tensor::allocate(t.dtype(), shape);
  std::vector<int64_t> at(shape.size(), 0), zero(shape.size(), 0);
  at[0] = j * shape[0];
  runtime::copyBox(t, at, out, zero, shape);
  return out;
}

Tensor stackMicroBatches(const std::vector<Tensor>& parts) {
  const Tensor& first = parts[0];
  std::vector<int64_t> shape(first.shape().begin(), first.shape().end());
  const int64_t rows = first.rank() == 0 ? 1 : shape[0];
  if (first.rank() == 0)
    shape = {int64_t(parts.size())};
  else
    shape[0] = rows * int64_t(parts.size());
  Tensor out = Tensor::allocate(first.dtype(), shape);
  std::vector<int64_t> zero(shape.size(), 0), at(shape.size(), 0), extent = shape;
  extent[0] = rows;
  for (size_t j = 0; j < parts.size(); ++j) {
    at[0] = int64_t(j) * rows;
    runtime::copyBox(parts[j].view(extent), zero, out, at, extent);
  }
  return out;
}

namespace {

/// One optimizer op's gradient, rewired for the check: the gradient the
/// backward computes is exported as `exported`, and the optimizer reads the
/// kwarg `fed` instead.
struct CheckedGradient {
  std::string exported, fed;
};

/// Rewires every optimizer op of `p` (an op table entry with a `param` and a
/// `grad` operand): the check then runs the backward per micro-batch for the
/// gradients, and the optimizer once on their mean, whatever the optimizer.
std::vector<CheckedGradient> rewireGradients(core::Program& p) {
  std::vector<CheckedGradient> out;
  core::Block& body = p.body();
  std::vector<core::Operation*> optimizers;
  for (core::Operation& op : body) {
    const core::OpInfo* info = core::lookupOp(op);
    if (info && info->operandIndex("param", op.numOperands()) >= 0 && info->operandIndex("grad", op.numOperands()) >= 0)
      optimizers.push_back(&op);
  }
  for (core::Operation* op : optimizers) {
    const core::OpInfo* info = core::lookupOp(*op);
    int g = info->operandIndex("grad", op->numOperands());
    core::Value* param = op->operandValue(uint32_t(info->operandIndex("param", op->numOperands())));
    core::Value* grad = op->operandValue(uint32_t(g));
    if (!param || !grad) continue;
    std::string name = "#" + std::to_string(out.size());
    if (const core::Operation* def = param->definingOp()) {
      std::string_view key = passes::nameAttrKey(*def);
      if (auto* a = key.empty() ? nullptr : def->attrOf<core::StringAttr>(key)) name = a->value();
    } else if (param->kind() == core::ValueKind::Kwarg) {
      name = std::string(static_cast<const core::BlockArgument*>(param)->name());
    }
    CheckedGradient c{name + "@GRAD@CHECK", name + "@GRAD@CHECK_MEAN"};
    core::AttrListBuilder attrs(p);
    attrs.set("output_name", p.context().stringAttrFromValue(c.exported));
    core::Value* ins[] = {grad};
    core::Builder b(p.context());
    b.setInsertionPoint(op);
    attrs.applyOwn(*b.create("builtin.shadow_output", ins, {}, {}));
    op->operand(uint32_t(g)).set(body.addKwarg(p.context(), c.fed, grad->type()));
    out.push_back(std::move(c));
  }
  return out;
}

/// Accumulates `t` (float) into `sum` in double.
void addInto(std::vector<double>& sum, const Tensor& t) {
  sum.resize(size_t(t.numel()), 0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.dtype() == core::DataType::F64   ? t.data<double>()[i]
               : t.dtype() == core::DataType::F32 ? double(t.data<float>()[i])
                                                  : double(t.data<runtime::BFloat16>()[i].toFloat());
    sum[size_t(i)] += v;
  }
}

Tensor meanOf(const std::vector<double>& sum, const Tensor& like, int64_t n) {
  Tensor out = like.clone();
  for (int64_t i = 0; i < out.numel(); ++i) {
    double v = sum[size_t(i)] / double(n);
    if (out.dtype() == core::DataType::F64)
      out.data<double>()[i] = v;
    else if (out.dtype() == core::DataType::F32)
      out.data<float>()[i] = float(v);
    else
      out.data<runtime::BFloat16>()[i] = runtime::BFloat16::fromFloat(float(v));
  }
  return out;
}

}  // namespace

/// The serial meaning, independent of the job programs: drop-dist's program
/// run on each micro-batch from the step's parameters gives the outputs
/// (stacked) and the gradients; the same program then runs once with every
/// optimizer fed the gradients' mean (f64), which gives the updated
/// parameters and state: the merged step, for any optimizer.
int checkPipelineSerial(const RunOptions& opts, const core::SourceFile& source, core::Program& serial, int64_t n,
                        const TensorMap& global, const TensorMap& results) {
  if (int rc = dropDist(serial, source)) return rc;
  std::vector<CheckedGradient> grads = rewireGradients(serial);
  auto compiled = compilePlan(serial);
  if (!compiled) return std::fprintf(stderr, "%s", render(source, compiled.status(), "serial run: ").c_str()), 1;
  runtime::Executor& ex = **compiled;
  std::map<std::string, std::string> fedFrom;  // kwarg -> the exported gradient it gets the mean of
  for (const CheckedGradient& c : grads) fedFrom[c.fed] = c.exported;
  TensorMap state;
  for (const auto& in : ex.inputs())
    if (in.kind == runtime::ProgramInput::Kind::Parameter || in.persistable)
      if (auto it = global.find(in.name); it != global.end()) state[in.name] = it->second;
  std::map<std::string, std::vector<Tensor>> outputs;
  // One run: micro-batch j's feeds, the state, and each optimizer's gradient
  // (`mean`, or zeros while the gradients are gathered); the state's updates
  // land in `state` when `keep`.
  auto run = [&](int64_t j, const TensorMap& mean, bool keep, TensorMap& fetches) -> int {
    TensorMap feeds;
    for (const auto& in : ex.inputs()) {
      if (auto f = fedFrom.find(in.name); f != fedFrom.end()) {
        auto m = mean.find(f->second);
        feeds[in.name] = m != mean.end() ? m->second : Tensor::zeros(in.dtype, in.shape);
        continue;
      }
      bool feed = in.kind != runtime::ProgramInput::Kind::Parameter && !in.persistable;
      auto it = feed ? global.find(in.name) : state.find(in.name);
      if (it == (feed ? global.end() : state.end()))
        return std::fprintf(stderr, "serial run: no input '%s'\n", in.name.c_str()), 1;
      feeds[in.name] = feed ? microBatch(it->second, j, n) : it->second.clone();
    }
    if (Status r = ex.run(feeds, fetches); !r)
      return std::fprintf(stderr, "%s", render(source, r, "serial run: ").c_str()), 1;
    if (keep)
      for (auto& [name, t] : state) t = feeds.at(name);
    return 0;
  };
  for (int64_t step = 0; step < opts.steps; ++step) {
    outputs.clear();
    std::map<std::string, std::vector<double>> sums;
    TensorMap like;
    for (int64_t j = 0; j < n; ++j) {
      TensorMap fetches;
      if (int rc = run(j, {}, false, fetches)) return rc;
      for (auto& [name, t] : fetches) {
        if (name.ends_with("@GRAD@CHECK")) {
          addInto(sums[name], t);
          like[name] = t;
        } else {
          outputs[name].push_back(t);
        }
      }
    }
    TensorMap mean, fetches;
    for (auto& [name, t] : like) mean[name] = meanOf(sums.at(name), t, n);
    if (int rc = run(0, mean, true, fetches)) return rc;
  }
  TensorMap want = state;
  for (auto& [name, parts] : outputs) want[name] = stackMicroBatches(parts);
  return compareRuns(results, want) ? 0 : 1;
}
}  // namespace pir::app
