//===- attr_access.h - typed reads of attribute values ----------*- C++ -*-===//
//
// One place that knows every spelling Paddle prints for a value: bools
// `true` and `(Bool)true`; integers `(Int32)-1`, `(Int64)3`, bare `1`; reals
// `(Float)1`, `(Double)1e-06`, bare `0.5`; arrays `[(Int32)4,(Int32)16]`,
// `[4,16]`, `(Array)[..]`; dialect values tagged `(pd_op.DataType)float32`,
// `(pd_op.Place)Place(cpu)`, `(pd_op.IntArray)[4,16]` or bare. Each getter
// gives nothing for a null attribute or one of another kind.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/operation.h"
#include "core/types.h"

namespace pir::core {

/// The tags of operator-dialect values, in the eras that print them. A
/// reader takes any dialect's (`pd.DataType` of 2023 dumps): what follows
/// the last '.'.
inline constexpr std::string_view kDataTypeTag = "pd_op.DataType";
inline constexpr std::string_view kPlaceTag = "pd_op.Place";
inline constexpr std::string_view kIntArrayTag = "pd_op.IntArray";

/// `Place(cpu)`, `Place(gpu:0)`, `Place(undefined:0)`: a device kind and the
/// device id, if the place prints one.
struct Place {
  std::string_view kind;  // "cpu", "gpu", "undefined", "xpu", "gpu_pinned", ...
  int64_t device = -1;    // -1: none printed
  bool operator==(const Place&) const = default;
};
/// Reads `Place(KIND)` or `Place(KIND:N)`; `kind` points into `text`.
std::optional<Place> parsePlace(std::string_view text);
/// `Place(cpu)`, `Place(gpu:0)`.
std::string placeText(const Place& place);

/// Paddle's name of a data type (`float32`, `int64`, `bfloat16`), empty for
/// one Paddle's DataType has no name for (`index`, `undefined`).
std::string_view paddleDataTypeName(DataType t);
std::optional<DataType> parsePaddleDataType(std::string_view name);

// Readers of one attribute.
std::optional<bool> getBool(const Attribute* a);
/// A number spelled as an integer, whatever its tag.
std::optional<int64_t> getInt64(const Attribute* a);
/// As getInt64, for a value that fits in 32 bits.
std::optional<int32_t> getInt32(const Attribute* a);
/// Any number: integers too.
std::optional<double> getDouble(const Attribute* a);
/// As getDouble, for a value a float holds (infinities and NaNs included).
std::optional<float> getFloat(const Attribute* a);
/// An array whose elements are all integers (getInt64).
std::optional<std::vector<int64_t>> getInt64Array(const Attribute* a);
std::optional<std::vector<int32_t>> getInt32Array(const Attribute* a);
/// `(pd_op.DataType)float32` or `float32`.
std::optional<DataType> getDataType(const Attribute* a);
/// `(pd_op.Place)Place(cpu)` or `Place(cpu)`; the kind points into the
/// context's copy of the text.
std::optional<Place> getPlace(const Attribute* a);
/// `(pd_op.IntArray)[4,16]` or `[4,16]`.
std::optional<std::vector<int64_t>> getIntArray(const Attribute* a);

// The same, for `op`'s attribute `key` (nothing when it is absent).
inline std::optional<bool> getBool(const Operation& op, std::string_view key) { return getBool(op.attr(key)); }
inline std::optional<int64_t> getInt64(const Operation& op, std::string_view key) { return getInt64(op.attr(key)); }
inline std::optional<int32_t> getInt32(const Operation& op, std::string_view key) { return getInt32(op.attr(key)); }
inline std::optional<double> getDouble(const Operation& op, std::string_view key) { return getDouble(op.attr(key)); }
inline std::optional<float> getFloat(const Operation& op, std::string_view key) { return getFloat(op.attr(key)); }
inline std::optional<std::vector<int64_t>> getInt64Array(const Operation& op, std::string_view key) {
  return getInt64Array(op.attr(key));
}
inline std::optional<std::vector<int32_t>> getInt32Array(const Operation& op, std::string_view key) {
  return getInt32Array(op.attr(key));
}
inline std::optional<DataType> getDataType(const Operation& op, std::string_view key) {
  return getDataType(op.attr(key));
}
inline std::optional<Place> getPlace(const Operation& op, std::string_view key) { return getPlace(op.attr(key)); }
inline std::optional<std::vector<int64_t>> getIntArray(const Operation& op, std::string_view key) {
  return getIntArray(op.attr(key));
}

/// Whether `op` is marked `persistable` (`persistable:true`, or the first
/// element of `persistable:[true]`): state, not a feed. The one test.
bool isPersistable(const Operation& op);
/// The same for a kwarg (`{persistable:true}`: gradient-merge's buffers).
bool isPersistable(const BlockArgument& kwarg);

}  // namespace pir::core
