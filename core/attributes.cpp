//===- attributes.cpp - attribute and type helpers ------------------------===//
#include <charconv>
#include <cstdlib>
#include <string>

#include "core/attributes.h"
#include "core/types.h"

namespace pir::core {

namespace {
constexpr std::string_view kDataTypeNames[] = {"bf16", "f16",      "f32",    "f64",      "b",     "i8",
                                               "u8",   "i16",      "i32",    "i64",      "index", "c64",
                                               "c128", "f8e4m3fn", "f8e5m2", "undefined"};
constexpr std::string_view kReduceNames[] = {"SUM", "MAX", "MIN", "PRODUCT", "AVG", "ANY", "ALL"};
}  // namespace

size_t dataTypeBytes(DataType t) {
  switch (t) {
    case DataType::Bool:
    case DataType::I8:
    case DataType::U8:
    case DataType::F8E4M3FN:
    case DataType::F8E5M2:
      return 1;
    case DataType::BF16:
    case DataType::F16:
    case DataType::I16:
      return 2;
    case DataType::F32:
    case DataType::I32:
      return 4;
    case DataType::F64:
    case DataType::I64:
    case DataType::Index:
    case DataType::C64:
      return 8;
    case DataType::C128:
      return 16;
    case DataType::Undefined:
      return 0;
  }
  return 0;
}

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

NumberAttr::NumberAttr(uint64_t h, std::string_view tag, std::string_view text)
    : Attribute(kKind, h), tag_(tag), text_(text) {
  const char* end = text.data() + text.size();
  auto [ip, iec] = std::from_chars(text.data(), end, int_);
  isInt_ = iec == std::errc() && ip == end;
  if (!isInt_) int_ = 0;
  // from_chars reads what strtod reads, less a leading space or '+' and hex
  // floats, none of which the lexer makes a number.
  auto [rp, rec] = std::from_chars(text.data(), end, real_);
  isReal_ = rp == end && (rec == std::errc() || rec == std::errc::result_out_of_range);
  // Rare: strtod's infinity or denormal for what does not fit.
  if (isReal_ && rec != std::errc()) real_ = std::strtod(std::string(text).c_str(), nullptr);
  if (!isReal_) real_ = 0;
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
