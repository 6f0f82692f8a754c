//===- finite.cpp - the first NaN or infinity of a tensor -----------------===//
#include "runtime/finite.h"

#include <cmath>

namespace pir::runtime {

namespace {

template <class T, class Load>
std::optional<NonFinite> scan(const T* p, int64_t n, Load load) {
  for (int64_t i = 0; i < n; ++i) {
    double v = double(load(p[i]));
    if (!std::isfinite(v)) return NonFinite{i, v};
  }
  return std::nullopt;
}

}  // namespace

std::optional<NonFinite> firstNonFinite(const Tensor& t) {
  if (!t.defined()) return std::nullopt;
  switch (t.dtype()) {
    case DataType::F32:
      return scan(t.data<float>(), t.numel(), [](float v) { return v; });
    case DataType::F64:
      return scan(t.data<double>(), t.numel(), [](double v) { return v; });
    case DataType::BF16:
      return scan(t.data<BFloat16>(), t.numel(), [](BFloat16 v) { return v.toFloat(); });
    default:
      return std::nullopt;  // integers and bools
  }
}

std::string nonFiniteText(const NonFinite& nf) {
  std::string v = std::isnan(nf.value) ? "nan" : nf.value > 0 ? "inf" : "-inf";
  return v + " at flat index " + std::to_string(nf.index);
}

}  // namespace pir::runtime
