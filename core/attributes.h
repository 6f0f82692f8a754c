//===- attributes.h - PIR attributes ----------------------------*- C++ -*-===//
//
// Attributes are uniqued by the Context. Numbers keep their tag and spelling
// (`(Int32)-1`, `(Double)1e-06`, bare `1`), so printing is exact; the
// distributed attributes are structured values, never strings.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/uniqued.h"

namespace pir::core {

class Type;

enum class AttrKind : uint8_t {
  Bool,
  String,
  Number,
  Array,
  Tagged,
  Symbol,
  Opaque,
  Null,
  TypeRef,
  ProcessMesh,
  Placements,
  TensorDist,
  OpDist
};

class Attribute : public Uniqued<AttrKind> {
 protected:
  using Uniqued::Uniqued;
};

class BoolAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Bool;
  BoolAttr(uint64_t h, bool v) : Attribute(kKind, h), value_(v) {}
  bool value() const { return value_; }

 private:
  bool value_;
};

/// A string, stored as written between the quotes (escapes kept).
class StringAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::String;
  StringAttr(uint64_t h, std::string_view raw) : Attribute(kKind, h), raw_(raw) {}
  std::string_view raw() const { return raw_; }
  /// The string with `\"` (and `\\`) escapes resolved.
  std::string value() const;

 private:
  std::string_view raw_;
};

/// A number with an optional tag: `(Int32)-1`, `(Float)1`, bare `0.5`. Its
/// value is read once, when the Context makes it; the tag and text are kept
/// so that it prints as read.
class NumberAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Number;
  NumberAttr(uint64_t h, std::string_view tag, std::string_view text);
  /// "Int32", "Int64", "Float", "Double", ... or empty for a bare number.
  std::string_view tag() const { return tag_; }
  std::string_view text() const { return text_; }
  /// The value if the text spells an integer that fits in 64 bits (whatever
  /// the tag: `(Float)1` is 1 too).
  std::optional<int64_t> asInt() const { return isInt_ ? std::optional<int64_t>(int_) : std::nullopt; }
  /// The value if the text spells a number (integers, `1e-06`, `inf`, `nan`).
  std::optional<double> asDouble() const { return isReal_ ? std::optional<double>(real_) : std::nullopt; }

 private:
  std::string_view tag_;
  std::string_view text_;
  int64_t int_ = 0;
  double real_ = 0;
  bool isInt_ = false;
  bool isReal_ = false;
};

/// `[a,b]`, optionally with the very old `(Array)` prefix.
class ArrayAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Array;
  ArrayAttr(uint64_t h, std::span<const Attribute* const> elems, bool arrayPrefix)
      : Attribute(kKind, h), elems_(elems), arrayPrefix_(arrayPrefix) {}
  std::span<const Attribute* const> elements() const { return elems_; }
  size_t size() const { return elems_.size(); }
  bool hasArrayPrefix() const { return arrayPrefix_; }

 private:
  std::span<const Attribute* const> elems_;
  bool arrayPrefix_;
};

/// A dialect-tagged value: `(pd_op.DataType)float32`, `(pd_op.IntArray)[4,16]`.
class TaggedAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Tagged;
  TaggedAttr(uint64_t h, std::string_view tag, const Attribute* inner)
      : Attribute(kKind, h), tag_(tag), inner_(inner) {}
  std::string_view tag() const { return tag_; }
  const Attribute* inner() const { return inner_; }

 private:
  std::string_view tag_;
  const Attribute* inner_;
};

/// A bare word: `float32`, `NCHW`, or a call-like dialect value kept
/// verbatim, `Place(cpu)`.
class SymbolAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Symbol;
  SymbolAttr(uint64_t h, std::string_view text) : Attribute(kKind, h), text_(text) {}
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

/// A dialect attribute we do not model, kept verbatim: `<backend:GPU|...>`,
/// `(0x7f437760d7c0)`.
class OpaqueAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Opaque;
  OpaqueAttr(uint64_t h, std::string_view text) : Attribute(kKind, h), text_(text) {}
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

/// An absent attribute. Paddle prints `<#AttrNull>`; the dims_maping era
/// printed `null` inside op_dist_attr. Both mean the same.
class NullAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::Null;
  NullAttr(uint64_t h, bool spelledNull) : Attribute(kKind, h), spelledNull_(spelledNull) {}
  bool spelledNull() const { return spelledNull_; }

 private:
  bool spelledNull_;
};

/// A type used as an attribute value (Paddle prints the bare type).
class TypeAttr : public Attribute {
 public:
  static constexpr AttrKind kKind = AttrKind::TypeRef;
  TypeAttr(uint64_t h, const Type* type) : Attribute(kKind, h), type_(type) {}
  const Type* type() const { return type_; }

 private:
  const Type* type_;
};

/// Reduce types, in the order of `paddle/phi/common/reduce_type.h`.
/// A partial value's reduce type, and all_reduce's `reduce_type`: the first
/// five are Paddle's ReduceOp numbering (SUM 0, MAX 1, MIN 2, PROD 3, AVG 4).
enum class ReduceType : uint8_t { Sum, Max, Min, Product, Avg, Any, All };
std::string_view reduceTypeName(ReduceType r);
std::optional<ReduceType> parseReduceType(std::string_view name);

}  // namespace pir::core

// The distributed attributes are attributes too; whoever sees one kind sees
// all (dist_attr.h includes this file first).
#include "core/dist_attr.h"
