//===- attr_access.cpp - typed reads of attribute values ------------------===//
#include "core/attr_access.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace pir::core {

namespace {

// Paddle's names (phi::DataType printed), by core DataType.
constexpr std::pair<DataType, std::string_view> kPaddleNames[] = {{DataType::BF16, "bfloat16"},
                                                                  {DataType::F16, "float16"},
                                                                  {DataType::F32, "float32"},
                                                                  {DataType::F64, "float64"},
                                                                  {DataType::Bool, "bool"},
                                                                  {DataType::I8, "int8"},
                                                                  {DataType::U8, "uint8"},
                                                                  {DataType::I16, "int16"},
                                                                  {DataType::I32, "int32"},
                                                                  {DataType::I64, "int64"},
                                                                  {DataType::C64, "complex64"},
                                                                  {DataType::C128, "complex128"},
                                                                  {DataType::F8E4M3FN, "float8_e4m3fn"},
                                                                  {DataType::F8E5M2, "float8_e5m2"}};

/// `a` without a dialect tag whose name (after the last '.') is `name`.
const Attribute* untagged(const Attribute* a, std::string_view name) {
  auto* t = a ? a->dynCast<TaggedAttr>() : nullptr;
  if (!t) return a;
  std::string_view tag = t->tag();
  size_t dot = tag.rfind('.');
  return (dot == std::string_view::npos ? tag : tag.substr(dot + 1)) == name ? t->inner() : nullptr;
}

template <class T, class Get>
std::optional<std::vector<T>> arrayOf(const Attribute* a, Get get) {
  auto* arr = a ? a->dynCast<ArrayAttr>() : nullptr;
  if (!arr) return std::nullopt;
  std::vector<T> out;
  out.reserve(arr->size());
  for (const Attribute* e : arr->elements()) {
    auto v = get(e);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

bool isKindChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::optional<Place> parsePlace(std::string_view text) {
  constexpr std::string_view kOpen = "Place(";
  if (!text.starts_with(kOpen) || !text.ends_with(')')) return std::nullopt;
  std::string_view body = text.substr(kOpen.size(), text.size() - kOpen.size() - 1);
  size_t colon = body.find(':');
  Place p{body.substr(0, colon)};
  if (p.kind.empty()) return std::nullopt;
  for (char c : p.kind)
    if (!isKindChar(c)) return std::nullopt;
  if (colon == std::string_view::npos) return p;
  std::string_view id = body.substr(colon + 1);
  auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), p.device);
  if (id.empty() || ec != std::errc() || end != id.data() + id.size() || p.device < 0) return std::nullopt;
  return p;
}

std::string placeText(const Place& place) {
  std::string out = "Place(";
  out += place.kind;
  if (place.device >= 0) {
    out += ':';
    out += std::to_string(place.device);
  }
  out += ')';
  return out;
}

std::string_view paddleDataTypeName(DataType t) {
  for (const auto& [type, name] : kPaddleNames)
    if (type == t) return name;
  return {};
}

std::optional<DataType> parsePaddleDataType(std::string_view name) {
  for (const auto& [type, n] : kPaddleNames)
    if (n == name) return type;
  return std::nullopt;
}

std::optional<bool> getBool(const Attribute* a) {
  auto* b = (a = untagged(a, "Bool")) ? a->dynCast<BoolAttr>() : nullptr;
  return b ? std::optional<bool>(b->value()) : std::nullopt;
}

std::optional<int64_t> getInt64(const Attribute* a) {
  auto* n = a ? a->dynCast<NumberAttr>() : nullptr;
  return n ? n->asInt() : std::nullopt;
}

std::optional<int32_t> getInt32(const Attribute* a) {
  auto v = getInt64(a);
  if (!v || *v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) return std::nullopt;
  return static_cast<int32_t>(*v);
}

std::optional<double> getDouble(const Attribute* a) {
  auto* n = a ? a->dynCast<NumberAttr>() : nullptr;
  return n ? n->asDouble() : std::nullopt;
}

std::optional<float> getFloat(const Attribute* a) {
  auto v = getDouble(a);
  if (!v || (std::isfinite(*v) && std::fabs(*v) > static_cast<double>(std::numeric_limits<float>::max())))
    return std::nullopt;
  return static_cast<float>(*v);
}

std::optional<std::vector<int64_t>> getInt64Array(const Attribute* a) {
  return arrayOf<int64_t>(a, [](const Attribute* e) { return getInt64(e); });
}

std::optional<std::vector<int32_t>> getInt32Array(const Attribute* a) {
  return arrayOf<int32_t>(a, [](const Attribute* e) { return getInt32(e); });
}

std::optional<DataType> getDataType(const Attribute* a) {
  auto* s = (a = untagged(a, "DataType")) ? a->dynCast<SymbolAttr>() : nullptr;
  return s ? parsePaddleDataType(s->text()) : std::nullopt;
}

std::optional<Place> getPlace(const Attribute* a) {
  auto* s = (a = untagged(a, "Place")) ? a->dynCast<SymbolAttr>() : nullptr;
  return s ? parsePlace(s->text()) : std::nullopt;
}

std::optional<std::vector<int64_t>> getIntArray(const Attribute* a) { return getInt64Array(untagged(a, "IntArray")); }

bool isPersistable(const Operation& op) {
  const Attribute* a = op.attr("persistable");
  if (auto* arr = a ? a->dynCast<ArrayAttr>() : nullptr) a = arr->size() ? arr->elements()[0] : nullptr;
  return getBool(a).value_or(false);
}

bool isPersistable(const BlockArgument& kwarg) {
  for (const NamedAttr& a : kwarg.attributes())
    if (a.key == "persistable") return getBool(a.value).value_or(false);
  return false;
}

}  // namespace pir::core
