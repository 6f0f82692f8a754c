//===- run_inputs.cpp - pir-run's feeds, parameters and state -------------===//
#include "runtime/runner/inputs.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <random>
#include <thread>

#include "core/attr_access.h"
#include "core/hash.h"
#include "core/op_table.h"
#include "core/threads.h"
#include "runtime/npy.h"
#include "runtime/runner/phase_timer.h"

namespace pir::runtime::runner {

using core::Status;

uint64_t fnv1a64(std::string_view s) { return core::hashString(s); }

namespace {

Status located(const core::SourceFile& source, const ProgramInput& in, std::string msg) {
  return Status::error(std::move(msg), in.op ? in.op->location() : -1).in(&source);
}

bool isFloat(core::DataType t) {
  return t == core::DataType::F32 || t == core::DataType::F64 || t == core::DataType::BF16;
}

/// The beta of the optimizer op that takes `value` as a beta pow, or 0.9 /
/// 0.999 by the name when no op says.
double betaFor(const ProgramInput& in) {
  bool two = in.name.find("beta2_pow") != std::string::npos;
  double fallback = two ? 0.999 : 0.9;
  if (!in.op) return fallback;
  for (const core::OpOperand* use = in.op->result(0)->firstUse(); use; use = use->nextUse()) {
    const core::Operation& user = *use->owner();
    const core::OpInfo* info = core::lookupRunOp(user);
    if (!info) continue;
    std::string_view operand = info->operandName(use->index(), user.numOperands());
    if (operand != "beta1_pow" && operand != "beta2_pow") continue;
    std::string key = operand == "beta1_pow" ? "beta1" : "beta2";
    if (auto b = core::getDouble(user, key)) return *b;
    // beta as an operand (a full of shape [1]) in newer dumps
    int idx = info->operandIndex(key, user.numOperands());
    if (idx >= 0 && user.operandValue(uint32_t(idx)))
      if (const core::Operation* full = user.operandValue(uint32_t(idx))->definingOp())
        if (auto b = core::getDouble(*full, "value")) return *b;
  }
  return fallback;
}

Tensor stateValue(const ProgramInput& in) {
  Tensor t = Tensor::allocate(in.dtype, in.shape);
  double v = 0;
  if (in.name.rfind("learning_rate", 0) == 0)
    v = 0.1;
  else if (in.name.find("beta1_pow") != std::string::npos || in.name.find("beta2_pow") != std::string::npos)
    v = betaFor(in);
  visitDtype(in.dtype, [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    for (int64_t i = 0; i < t.numel(); ++i) {
      if constexpr (std::is_same_v<T, BFloat16>)
        t.data<T>()[i] = BFloat16::fromFloat(float(v));
      else
        t.data<T>()[i] = T(v);
    }
    return 0;
  });
  return t;
}

/// A value loadInputs draws once the other inputs are read.
struct Draw {
  const ProgramInput* in;
  double scale;
  Tensor tensor;
  bool failed = false;  // out of memory
};

}  // namespace

Tensor drawNormal(const std::string& name, uint64_t seed, core::DataType dtype, std::span<const int64_t> shape,
                  double scale) {
  std::mt19937_64 gen(seed ^ fnv1a64(name));
  auto uniform = [&] { return double(gen() >> 11) * 0x1p-53; };
  Tensor t = Tensor::allocate(dtype, shape);
  double spare = 0;
  bool haveSpare = false;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double z;
    if (haveSpare) {
      z = spare;
      haveSpare = false;
    } else {
      double r = std::sqrt(-2.0 * std::log(1.0 - uniform())), a = 2 * M_PI * uniform();
      z = r * std::cos(a);
      spare = r * std::sin(a);
      haveSpare = true;
    }
    z *= scale;
    if (dtype == core::DataType::F64)
      t.data<double>()[i] = z;
    else if (dtype == core::DataType::BF16)
      t.data<BFloat16>()[i] = BFloat16::fromFloat(float(z));
    else
      t.data<float>()[i] = float(z);
  }
  return t;
}

namespace {

/// The draws on every core: each name has its own generator, so the values
/// do not depend on which thread draws them or in what order.
void drawAll(std::vector<Draw>& draws, uint64_t seed) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < draws.size();) {
      Draw& d = draws[i];
      try {
        d.tensor = drawNormal(d.in->name, seed, d.in->dtype, d.in->shape, d.scale);
      } catch (const std::bad_alloc&) {
        d.failed = true;
      }
    }
  };
  size_t workers = std::min<size_t>(draws.size(), core::workerThreads());
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
}

}  // namespace

Status checkInputFolder(const InputOptions& opts) {
  if (opts.dir.empty()) return Status::ok();
  std::error_code ec;
  auto st = std::filesystem::status(opts.dir, ec);
  if (st.type() == std::filesystem::file_type::not_found)
    return Status::error("--inputs " + opts.dir + ": no such folder");
  if (ec) return Status::error("--inputs " + opts.dir + ": " + ec.message());
  if (!std::filesystem::is_directory(st)) return Status::error("--inputs " + opts.dir + ": not a folder");
  return Status::ok();
}

Status loadInputs(const std::vector<ProgramInput>& inputs, const InputOptions& opts, const core::SourceFile& source,
                  TensorMap& feeds) {
  PhaseTimer timer("inputs");
  std::vector<std::string> missing;
  std::vector<Draw> draws;
  for (const ProgramInput& in : inputs) {
    if (feeds.count(in.name)) continue;  // one value, several ops naming it
    std::string path = opts.dir.empty() ? std::string() : opts.dir + "/" + in.name + ".npy";
    bool haveFile = !path.empty() && std::filesystem::exists(path);
    if (haveFile) {
      auto t = readNpy(path);
      if (!t) return located(source, in, t.status().message());
      Tensor v = in.dtype == core::DataType::BF16 ? convertFloat(*t, core::DataType::BF16) : *t;
      if (v.dtype() != in.dtype || !shapeMatches(in.shape, v.shape()))
        return located(
            source, in,
            "'" + in.name + "' is " + typeText(in.dtype, in.shape) + ", " + path + " holds " + t->typeText());
      feeds[in.name] = v;
      continue;
    }
    if (in.persistable) {
      for (int64_t d : in.shape)
        if (d < 0) return located(source, in, "state '" + in.name + "' has a dynamic shape: give " + in.name + ".npy");
      feeds[in.name] = stateValue(in);
      continue;
    }
    if (!opts.dir.empty()) {
      missing.push_back(in.name + ".npy");
      continue;
    }
    for (int64_t d : in.shape)
      if (d < 0)
        return located(source, in,
                       "'" + in.name + "' has a dynamic shape " + typeText(in.dtype, in.shape) +
                           ": give it as a file (--inputs DIR with " + in.name + ".npy)");
    bool param = in.kind == ProgramInput::Kind::Parameter;
    if (isFloat(in.dtype)) draws.push_back({&in, param ? 0.25 : 1.0, Tensor()});
    feeds[in.name] = isFloat(in.dtype) ? Tensor() : Tensor::zeros(in.dtype, in.shape);  // a draw's place, kept
  }
  if (!missing.empty()) {
    std::string list;
    for (auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    return Status::error(std::to_string(missing.size()) + " input" + (missing.size() > 1 ? "s" : "") + " missing in " +
                         opts.dir + ": " + list);
  }
  drawAll(draws, opts.seed);
  for (Draw& d : draws) {
    if (d.failed)
      return located(source, *d.in, "cannot allocate '" + d.in->name + "', " + typeText(d.in->dtype, d.in->shape));
    feeds[d.in->name] = std::move(d.tensor);
  }
  return Status::ok();
}

}  // namespace pir::runtime::runner
