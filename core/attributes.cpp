//===- attributes.cpp - attribute and type helpers ------------------------===//
#include <charconv>
#include <cstdlib>
#include <string>

#include "core/attributes.h"
#include "core/types.h"

namespace pir::core {

namespace {
constexpr std::string_view kDataTypeNames[] = {"bf16", "f16", "f32", "f64", "b", "i8", "u8", "i16",
                                               "i32", "i64", "index", "c64", "c128", "f8e4m3fn",
                                               "f8e5m2", "undefined"};
constexpr std::string_view kReduceNames[] = {"SUM", "MAX", "MIN", "PRODUCT", "AVG", "ANY", "ALL"};
}  // namespace

std::string_view dataTypeName(DataType t) { return kDataTypeNames[static_cast<unsigned>(t)]; }

std::optional<DataType> parseDataType(std::string_view name) {
  for (unsigned i = 0; i < std::size(kDataTypeNames); ++i)
    if (kDataTypeNames[i] == name) return static_cast<DataType>(i);
  return std::nullopt;
}

std::string_view reduceTypeName(ReduceType r) { return kReduceNames[static_cast<unsigned>(r)]; }

std::optional<ReduceType> parseReduceType(std::string_view name) {
  for (unsigned i = 0; i < std::size(kReduceNames); ++i)
    if (kReduceNames[i] == name) return static_cast<ReduceType>(i);
  return std::nullopt;
}

std::string StringAttr::value() const {
  std::string out;
  out.reserve(raw_.size());
  for (size_t i = 0; i < raw_.size(); ++i) {
    if (raw_[i] == '\\' && i + 1 < raw_.size() && (raw_[i + 1] == '"' || raw_[i + 1] == '\\')) ++i;
    out += raw_[i];
  }
  return out;
}

std::optional<int64_t> NumberAttr::asInt() const {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text_.data(), text_.data() + text_.size(), v);
  if (ec != std::errc() || p != text_.data() + text_.size()) return std::nullopt;
  return v;
}

std::optional<double> NumberAttr::asDouble() const {
  std::string s(text_);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

bool TensorDistAttr::isShard() const {
  for (int64_t d : dims_)
    if (d != -1) return true;
  return false;
}

const TensorDistAttr* OpDistAttr::operandDist(size_t i) const {
  return i < operands_.size() ? operands_[i]->dynCast<TensorDistAttr>() : nullptr;
}

const TensorDistAttr* OpDistAttr::resultDist(size_t i) const {
  return i < results_.size() ? results_[i]->dynCast<TensorDistAttr>() : nullptr;
}

std::optional<TensorShape> tensorShape(const Type* t) {
  if (!t) return std::nullopt;
  if (auto* d = t->dynCast<DenseTensorType>()) return TensorShape{d->dtype(), d->dims()};
  if (auto* d = t->dynCast<DistTensorType>()) return TensorShape{d->dtype(), d->dims()};
  return std::nullopt;
}

}  // namespace pir::core
