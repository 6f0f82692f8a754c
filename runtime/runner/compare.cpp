//===- compare.cpp - a run's results against the serial meaning -----------===//
#include "runtime/runner/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace pir::runtime::runner {

namespace {

double elementAt(const Tensor& t, int64_t i) {
  return visitDtype(t.dtype(), [&](auto* tag) -> double {
    using T = std::remove_pointer_t<decltype(tag)>;
    if constexpr (std::is_same_v<T, BFloat16>)
      return t.data<T>()[i].toFloat();
    else
      return double(t.data<T>()[i]);
  });
}

std::string g9(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

/// The sorted names of `want`, and for each the first problem: missing
/// from `got`, or typed apart (empty when both are there and alike).
template <class Check>
CompareReport compareEach(const TensorMap& got, const TensorMap& want, Check&& check) {
  std::vector<std::string> names;
  for (auto& [k, v] : want) names.push_back(k);
  std::sort(names.begin(), names.end());
  CompareReport r;
  for (const std::string& n : names) {
    auto it = got.find(n);
    const Tensor& b = want.at(n);
    r.match = false;
    if (it == got.end()) {
      r.mismatch = "'" + n + "' is missing from the run";
      return r;
    }
    const Tensor& a = it->second;
    if (a.dtype() != b.dtype() || !std::equal(a.shape().begin(), a.shape().end(), b.shape().begin(), b.shape().end())) {
      r.mismatch = "'" + n + "' is " + a.typeText() + ", serially " + b.typeText();
      return r;
    }
    if (std::string m = check(n, a, b, r.maxRel); !m.empty()) {
      r.mismatch = std::move(m);
      return r;
    }
    r.match = true;
  }
  r.compared = names.size();
  return r;
}

}  // namespace

int64_t firstMismatch(const Tensor& a, const Tensor& b, double& maxRel, double& va, double& vb) {
  bool f64 = a.dtype() == core::DataType::F64;
  bool exact = !(f64 || a.dtype() == core::DataType::F32 || a.dtype() == core::DataType::BF16);
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = elementAt(a, i), y = elementAt(b, i), d = std::fabs(x - y);
    if (std::isnan(x) && std::isnan(y)) continue;
    bool ok = exact ? x == y : d <= (f64 ? 1e-12 + 1e-10 * std::fabs(y) : 1e-6 + 1e-5 * std::fabs(y));
    if (!ok) {
      va = x, vb = y;
      return i;
    }
    if (d > 0) maxRel = std::max(maxRel, d / std::max(std::fabs(y), 1e-30));
  }
  return -1;
}

CompareReport compareResults(const TensorMap& got, const TensorMap& want) {
  return compareEach(got, want, [](const std::string& n, const Tensor& a, const Tensor& b, double& maxRel) {
    double va = 0, vb = 0;
    int64_t i = firstMismatch(a, b, maxRel, va, vb);
    if (i < 0) return std::string();
    return "'" + n + "' differs at flat index " + std::to_string(i) + ": " + g9(va) + ", serially " + g9(vb);
  });
}

CompareReport compareBitwise(const TensorMap& got, const TensorMap& want) {
  return compareEach(got, want, [](const std::string& n, const Tensor& a, const Tensor& b, double&) {
    size_t elem = elementSize(a.dtype());
    const char* x = static_cast<const char*>(a.raw());
    const char* y = static_cast<const char*>(b.raw());
    for (int64_t i = 0; i < a.numel(); ++i)
      if (std::memcmp(x + size_t(i) * elem, y + size_t(i) * elem, elem) != 0)
        return "'" + n + "' differs at flat index " + std::to_string(i) + ": " + g9(elementAt(a, i)) +
               ", in the second run " + g9(elementAt(b, i));
    return std::string();
  });
}

}  // namespace pir::runtime::runner
