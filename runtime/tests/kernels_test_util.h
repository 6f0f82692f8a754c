//===- kernels_test_util.h - running one kernel in a test -------*- C++ -*-===//
//
// runKernel parses a one-op program (placeholder `pd_op.data` operands, the
// op with the given attributes and result types), presets in-place results
// as the executor does, and calls the registered kernel. numericGrad is the
// central difference of sum(forward(inputs) · weights) in one input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/diagnostics.h"
#include "core/program.h"
#include "parser/parser.h"
#include "runtime/kernel.h"
#include "runtime/kernels/math_util.h"

namespace pir::runtime::test {

using Shape = std::vector<int64_t>;

inline Tensor tensorOf(DataType dt, Shape shape, const std::vector<double>& v) {
  Tensor t = Tensor::allocate(dt, shape);
  REQUIRE(size_t(t.numel()) == v.size());
  Tensor d = Tensor::allocate(DataType::F64, shape);
  std::copy(v.begin(), v.end(), d.data<double>());
  kernels::castInto(d, t);
  return t;
}
inline Tensor f64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::F64, std::move(shape), v); }
inline Tensor f32(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::F32, std::move(shape), v); }

inline std::vector<double> values(const Tensor& t) {
  std::vector<double> v(size_t(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) v[size_t(i)] = kernels::valueAt(t, i);
  return v;
}
inline Shape shapeOf(const Tensor& t) { return Shape(t.shape().begin(), t.shape().end()); }

inline Tensor randomF64(Shape shape, uint32_t seed, double lo = -1.5, double hi = 1.5) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  Tensor t = Tensor::allocate(DataType::F64, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<double>()[i] = d(gen);
  return t;
}

/// One op run through its registered kernel.
struct KernelRun {
  core::Context ctx;
  std::string text;
  std::unique_ptr<core::SourceFile> src;
  std::unique_ptr<core::DiagnosticEngine> diag;
  std::unique_ptr<core::Program> program;
  const core::Operation* op = nullptr;
  std::vector<RuntimeValue> operandValues, results;
  core::Status status;

  /// `inputs`: undefined tensors are absent optional operands. `resultTypes`:
  /// one type per result (`<<NULL TYPE>>` allowed). `dying`: bit i, operand i
  /// dies at the op (KernelContext::dying; the run holds the only reference to
  /// each input the caller passed as a temporary).
  KernelRun(const std::string& opName, const std::string& attrs, std::vector<Tensor> inputs,
            const std::vector<std::string>& resultTypes, uint64_t dying = 0) {
    text = "{\n";
    std::string operands, types;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!inputs[i].defined()) {
        operands += std::string(i ? ", " : "") + "<<NULL VALUE>>";
        types += std::string(i ? ", " : "") + "<<NULL TYPE>>";
        continue;
      }
      text += "    (%" + std::to_string(i) + ") = \"pd_op.data\" () {} : () -> builtin.tensor<1xf32>\n";
      operands += std::string(i ? ", " : "") + "%" + std::to_string(i);
      types += std::string(i ? ", " : "") + "builtin.tensor<1xf32>";
    }
    std::string res, rtypes;
    for (size_t i = 0; i < resultTypes.size(); ++i) {
      res += std::string(i ? ", " : "") + "%r" + std::to_string(i);
      rtypes += std::string(i ? ", " : "") + resultTypes[i];
    }
    text += "    (" + res + ") = \"" + opName + "\" (" + operands + ") {" + attrs + "} : (" + types + ") -> " + rtypes +
            "\n}\n";
    src = std::make_unique<core::SourceFile>("k.pir", text);
    diag = std::make_unique<core::DiagnosticEngine>(src.get());
    auto p = parser::parseProgram(ctx, *src, *diag);
    INFO(text);
    REQUIRE(p.isOk());
    program = std::move(p.value());
    op = program->body().back();
    operandValues.resize(inputs.size());
    std::vector<const RuntimeValue*> ptrs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      ptrs.push_back(inputs[i].defined() ? &operandValues[i] : nullptr);
      operandValues[i].tensor = std::move(inputs[i]);
    }
    results.resize(resultTypes.size());
    const core::OpInfo* info = core::lookupOp(*op);
    REQUIRE(info);
    for (core::InplacePair pair : info->inplacePairs(uint32_t(inputs.size())))
      if (pair.operand < inputs.size() && pair.result < results.size())
        results[pair.result].tensor = operandValues[pair.operand].tensor;
    KernelFn fn = kernelRegistry().find(info);
    REQUIRE(fn);
    KernelContext kc{*op, ptrs, results, nullptr, dying};
    status = fn(kc);
  }
  Tensor& out(size_t i) { return results[i].tensor; }
};

/// A run that must succeed, with `n` results of type f32 (the type is not
/// read by most kernels).
inline KernelRun run(const std::string& opName, const std::string& attrs, const std::vector<Tensor>& inputs,
                     size_t numResults = 1) {
  return KernelRun(opName, attrs, inputs, std::vector<std::string>(numResults, "builtin.tensor<1xf32>"));
}

/// d/d inputs[which] of sum(forward(inputs) · w), by central differences
/// with step `h` (f64 inputs).
inline Tensor numericGrad(const std::function<Tensor(const std::vector<Tensor>&)>& forward, std::vector<Tensor> inputs,
                          size_t which, const Tensor& w, double h = 1e-6) {
  Tensor x = inputs[which].clone();
  inputs[which] = x;
  Tensor g = Tensor::allocate(DataType::F64, x.shape());
  auto loss = [&] {
    Tensor y = forward(inputs);
    REQUIRE(y.numel() == w.numel());
    double s = 0;
    for (int64_t i = 0; i < y.numel(); ++i) s += kernels::valueAt(y, i) * w.data<double>()[i];
    return s;
  };
  for (int64_t i = 0; i < x.numel(); ++i) {
    double v = x.data<double>()[i];
    x.data<double>()[i] = v + h;
    double up = loss();
    x.data<double>()[i] = v - h;
    double down = loss();
    x.data<double>()[i] = v;
    g.data<double>()[i] = (up - down) / (2 * h);
  }
  return g;
}

/// Every element of `a` within `abs + rel·|b|` of `b`, same shape.
inline void checkClose(const Tensor& a, const Tensor& b, double abs, double rel = 0) {
  REQUIRE(shapeOf(a) == shapeOf(b));
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = kernels::valueAt(a, i), y = kernels::valueAt(b, i);
    INFO("index " << i << ": " << x << " vs " << y);
    CHECK(std::abs(x - y) <= abs + rel * std::abs(y));
  }
}
inline void checkValues(const Tensor& a, Shape shape, const std::vector<double>& v, double abs = 1e-6) {
  checkClose(a, f64(std::move(shape), v), abs, 0);
}

/// As checkValues, with IEEE specials: a NaN where `v` has one (and only
/// there), an infinity of the same sign where `v` has one.
inline void checkIeee(const Tensor& a, Shape shape, const std::vector<double>& v, double abs = 1e-6) {
  REQUIRE(shapeOf(a) == shape);
  REQUIRE(size_t(a.numel()) == v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    double x = kernels::valueAt(a, int64_t(i));
    INFO("index " << i << ": " << x << ", expected " << v[i]);
    if (std::isnan(v[i]))
      CHECK(std::isnan(x));
    else if (std::isinf(v[i]))
      CHECK(x == v[i]);
    else
      CHECK(std::abs(x - v[i]) <= abs);
  }
}

}  // namespace pir::runtime::test
