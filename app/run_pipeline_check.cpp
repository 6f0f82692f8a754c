//===- run_pipeline_check.cpp - a pipeline's serial meaning ---------------===//
#include "app/run_pipeline_check.h"

#include <cstdio>

#include "app/run_outputs.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
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

/// The first optimizer op whose update is not linear in the gradient.
std::string nonlinearOptimizer(const core::Program& p) {
  for (const core::Operation& op : p.body()) {
    std::string_view n = op.name();
    if (n.find("adam") != n.npos || n.find("momentum") != n.npos || n.find("lamb") != n.npos) return std::string(n);
  }
  return "";
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

bool isFloat(core::DataType t) {
  return t == core::DataType::F32 || t == core::DataType::F64 || t == core::DataType::BF16;
}

}  // namespace

int checkPipelineSerial(const RunOptions& opts, const core::SourceFile& source, core::Program& serial, int64_t n,
                        const TensorMap& global, const TensorMap& results, const std::string& lossName) {
  (void)lossName;
  if (int rc = dropDist(serial, source)) return rc;
  auto compiled = runtime::Executor::compile(serial);
  if (!compiled) return std::fprintf(stderr, "%s", render(source, compiled.status(), "serial run: ").c_str()), 1;
  runtime::Executor& ex = **compiled;
  std::string nonlinear = nonlinearOptimizer(serial);
  if (!nonlinear.empty() && opts.steps > 1)
    return std::fprintf(stderr, "error: --check of a pipeline over --steps %lld: %s is not linear in the gradient\n",
                        (long long)opts.steps, nonlinear.c_str()),
           1;
  // Each step: every micro-batch from the step's parameters and state; the
  // next step starts from the mean of their updates.
  TensorMap state;
  for (const auto& in : ex.inputs())
    if (in.kind == runtime::ProgramInput::Kind::Parameter || in.persistable)
      if (auto it = global.find(in.name); it != global.end()) state[in.name] = it->second;
  std::map<std::string, std::vector<Tensor>> outputs;
  for (int64_t step = 0; step < opts.steps; ++step) {
    outputs.clear();
    std::map<std::string, std::vector<double>> sums;
    TensorMap last;
    for (int64_t j = 0; j < n; ++j) {
      TensorMap feeds;
      for (const auto& in : ex.inputs()) {
        bool feed = in.kind != runtime::ProgramInput::Kind::Parameter && !in.persistable;
        auto it = feed ? global.find(in.name) : state.find(in.name);
        if (it == (feed ? global.end() : state.end()))
          return std::fprintf(stderr, "serial run: no input '%s'\n", in.name.c_str()), 1;
        feeds[in.name] = feed ? microBatch(it->second, j, n) : it->second.clone();
      }
      TensorMap fetches;
      if (Status r = ex.run(feeds, fetches); !r)
        return std::fprintf(stderr, "%s", render(source, r, "serial run: ").c_str()), 1;
      for (auto& [name, t] : fetches) outputs[name].push_back(t);
      for (auto& [name, t] : state) {
        last[name] = feeds.at(name);
        if (isFloat(t.dtype())) addInto(sums[name], feeds.at(name));
      }
    }
    for (auto& [name, t] : last) state[name] = sums.count(name) ? meanOf(sums.at(name), t, n) : t;
  }
  TensorMap want;
  for (auto& [name, parts] : outputs) want[name] = stackMicroBatches(parts);
  if (nonlinear.empty())
    for (auto& [name, t] : state) want[name] = t;
  else
    std::printf("check: parameters not compared: %s is not linear in the gradient\n", nonlinear.c_str());
  return compareRuns(results, want) ? 0 : 1;
}

}  // namespace pir::app
