//===- serial_check.cpp - what a run must give: the serial meaning --------===//
#include "runtime/runner/serial_check.h"

#include <map>

#include "passes/value_naming.h"
#include "runtime/runner/phase_timer.h"
#include "runtime/runner/run_passes.h"
#include "runtime/runner/session.h"

namespace pir::runtime::runner {

using core::Status;

namespace {

/// Accumulates `t` (float) into `sum` in double.
void addInto(std::vector<double>& sum, const Tensor& t) {
  sum.resize(size_t(t.numel()), 0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.dtype() == core::DataType::F64   ? t.data<double>()[i]
               : t.dtype() == core::DataType::F32 ? double(t.data<float>()[i])
                                                  : double(t.data<BFloat16>()[i].toFloat());
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
      out.data<BFloat16>()[i] = BFloat16::fromFloat(float(v));
  }
  return out;
}

}  // namespace

core::Result<RunValues> serialResults(core::Program& program, const core::SourceFile& source, const SerialOptions& opts,
                                      const TensorMap& global) {
  if (Status s = runPassesOn("drop-dist,export-gradients", program, source, "serial meaning: "); !s) return s;
  auto compiled = [&] {
    PhaseTimer timer("compile");
    // The reference runs every op as the program says it: nothing fused.
    return Executor::compile(program, kernelRegistry(), CompileOptions{.fuseUpdates = false, .fuseLoss = false});
  }();
  if (!compiled) return compiled.status().prefixed("serial run: ").in(&source);
  Executor& ex = **compiled;
  const int64_t n = opts.microBatches;
  TensorMap state;
  for (const auto& in : ex.inputs())
    if (in.isState())
      if (auto it = global.find(in.name); it != global.end()) state[in.name] = it->second;
  // One run: micro-batch j's feeds, the state, and each optimizer's gradient
  // (`mean`, or zeros while the gradients are gathered); the state's updates
  // (in place, or through builtin.set_parameter) land in `state` when `keep`.
  auto run = [&](int64_t j, const TensorMap& mean, bool keep, TensorMap& fetches) -> Status {
    TensorMap feeds;
    for (const auto& in : ex.inputs()) {
      if (std::string exported = passes::exportedOfFed(in.name);
          in.kind == ProgramInput::Kind::Kwarg && !exported.empty()) {
        auto m = mean.find(exported);
        feeds[in.name] = m != mean.end() ? m->second : Tensor::zeros(in.dtype, in.shape);
        continue;
      }
      bool feed = !in.isState();
      const TensorMap& from = feed ? global : state;
      auto it = from.find(in.name);
      if (it == from.end()) return Status::error("serial run: no input '" + in.name + "'");
      feeds[in.name] = feed && opts.stacked ? microBatch(it->second, j, n) : it->second.clone();
    }
    if (Status r = ex.run(feeds, fetches); !r) return r.prefixed("serial run: ").in(&source);
    if (keep)
      for (auto& [name, t] : state) {
        auto set = fetches.find(name);  // builtin.set_parameter, as a session's shared scope takes it
        t = set != fetches.end() ? set->second : feeds.at(name);
      }
    return Status::ok();
  };
  std::map<std::string, std::vector<Tensor>> outputs;
  RunValues want;
  for (int64_t step = 0; step < opts.steps; ++step) {
    outputs.clear();
    StepValues& record = want.steps.emplace_back();
    record.before = cloneAll(state);
    std::map<std::string, std::vector<double>> sums;
    TensorMap like;
    for (int64_t j = 0; j < n; ++j) {
      TensorMap fetches;
      if (Status s = run(j, {}, false, fetches); !s) return s;
      for (auto& [name, t] : fetches) {
        if (passes::isExportedGradientName(name)) {
          addInto(sums[name], t);
          like[name] = t;
        } else {
          outputs[name].push_back(t);
        }
      }
    }
    TensorMap mean, fetches;
    for (auto& [name, t] : like) {
      mean[name] = meanOf(sums.at(name), t, n);
      record.gradients[passes::paramOfExported(name)] = mean[name].clone();
    }
    if (Status s = run(0, mean, true, fetches); !s) return s;
  }
  want.final = state;
  for (auto& [name, parts] : outputs) want.final[name] = opts.stacked ? stackMicroBatches(parts) : parts[0];
  return want;
}

}  // namespace pir::runtime::runner
