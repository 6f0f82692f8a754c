//===- run_helpers.h - parse a program and run it, for tests ----*- C++ -*-===//
#pragma once

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "core/context.h"
#include "core/diagnostics.h"
#include "parser/parser.h"
#include "runtime/executor.h"

namespace pir::runtime::testing {

/// A parsed program that owns its text and context.
struct TestProgram {
  std::string text;
  std::unique_ptr<core::Context> ctx = std::make_unique<core::Context>();
  std::unique_ptr<core::Program> program;
  std::string error;
};

inline std::unique_ptr<TestProgram> parse(std::string text) {
  auto p = std::make_unique<TestProgram>();
  p->text = std::move(text);
  core::SourceFile src("test.pir", p->text);
  core::DiagnosticEngine diag(&src);
  auto parsed = parser::parseProgram(*p->ctx, src, diag);
  if (!parsed)
    p->error = diag.render();
  else
    p->program = std::move(parsed.value());
  return p;
}

/// `{ LINES }` with the dense tensor type `T` for each `T(2x3xf32)`-free use:
/// tests write full lines.
inline std::string block(std::initializer_list<std::string_view> lines) {
  std::string s = "{\n";
  for (auto l : lines) s += "    " + std::string(l) + "\n";
  return s + "}\n";
}

inline Tensor f32(std::vector<int64_t> shape, std::vector<float> v) {
  Tensor t = Tensor::allocate(DataType::F32, shape);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

inline std::vector<float> values(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }
inline std::vector<int64_t> dims(const Tensor& t) { return {t.shape().begin(), t.shape().end()}; }

/// A tensor of `dims` (f32 or f64) drawn uniformly from [-range, range),
/// fixed by `seed`.
inline Tensor randomTensor(const std::vector<int64_t>& dims, DataType dt, uint32_t seed, double range = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-range, range);
  Tensor t = Tensor::allocate(dt, dims);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dt == DataType::F32)
      t.data<float>()[i] = float(u(gen));
    else
      t.data<double>()[i] = u(gen);
  }
  return t;
}

/// Element i of an f32 or f64 tensor, as a double.
inline double at(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::F32 ? double(t.data<float>()[i]) : t.data<double>()[i];
}

/// Whether every element is within f32's tolerance, 1e-6 + 1e-5 relative,
/// of `want`.
inline bool close(const Tensor& got, const std::vector<double>& want) {
  if (got.numel() != int64_t(want.size())) return false;
  for (int64_t i = 0; i < got.numel(); ++i)
    if (std::abs(at(got, i) - want[size_t(i)]) > 1e-6 + 1e-5 * std::abs(want[size_t(i)])) return false;
  return true;
}

}  // namespace pir::runtime::testing

namespace pir::runtime::testing {

/// Runs `text` once with `feeds` (the real kernel registry); the fetches, or
/// the failure's message in "error".
inline TensorMap runText(const std::string& text, const TensorMap& feeds, std::string* error = nullptr,
                         Communicator* comm = nullptr, RunStats* stats = nullptr) {
  auto p = parse(text);
  TensorMap fetches;
  if (!p->program) {
    if (error) *error = p->error;
    return fetches;
  }
  auto ex = Executor::compile(*p->program);
  if (!ex) {
    if (error) *error = ex.status().message();
    return fetches;
  }
  core::Status s = (*ex)->run(feeds, fetches, comm, stats);
  if (!s && error) *error = s.message();
  return fetches;
}

}  // namespace pir::runtime::testing
