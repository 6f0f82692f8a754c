//===- types.h - PIR value types --------------------------------*- C++ -*-===//
//
// Types are uniqued by the Context: two equal types are one pointer. Dense
// tensors remember which spelling was read (`builtin.tensor`, `pd_op.tensor`,
// bare `tensor`, or kernel-dialect `gpu_tensor` ...), so printing is exact.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/uniqued.h"

namespace pir::core {

class TensorDistAttr;

/// Element types, spelled as Paddle's builtin dialect prints them.
enum class DataType : uint8_t {
  BF16,
  F16,
  F32,
  F64,
  Bool,
  I8,
  U8,
  I16,
  I32,
  I64,
  Index,
  C64,
  C128,
  F8E4M3FN,
  F8E5M2,
  Undefined
};
std::string_view dataTypeName(DataType t);
/// The bytes one element of `t` takes (0 for Undefined).
size_t dataTypeBytes(DataType t);
std::optional<DataType> parseDataType(std::string_view name);

enum class TypeKind : uint8_t { Scalar, DenseTensor, DistTensor, Vector, Null, Opaque };

class Type : public Uniqued<TypeKind> {
 protected:
  using Uniqued::Uniqued;
};

/// A bare element type such as `f32` or `i64`.
class ScalarType : public Type {
 public:
  static constexpr TypeKind kKind = TypeKind::Scalar;
  ScalarType(uint64_t hash, DataType dtype) : Type(kKind, hash), dtype_(dtype) {}
  DataType dtype() const { return dtype_; }

 private:
  DataType dtype_;
};

/// `builtin.tensor<4x16xf32>`, `pd_op.tensor<f32>`, `tensor<-1x30xf32>`.
class DenseTensorType : public Type {
 public:
  static constexpr TypeKind kKind = TypeKind::DenseTensor;
  DenseTensorType(uint64_t hash, std::string_view spelling, DataType dtype, std::span<const int64_t> dims)
      : Type(kKind, hash), spelling_(spelling), dims_(dims), dtype_(dtype) {}
  std::string_view spelling() const { return spelling_; }
  DataType dtype() const { return dtype_; }
  std::span<const int64_t> dims() const { return dims_; }

 private:
  std::string_view spelling_;
  std::span<const int64_t> dims_;
  DataType dtype_;
};

/// `pd_dist.tensor<4x8xf32, mesh_shape:[2],dims_mappings:[-1,-1]>`: the global
/// shape and dtype plus a tensor dist attr (which always holds a full mesh,
/// even in eras that print only its shape).
class DistTensorType : public Type {
 public:
  static constexpr TypeKind kKind = TypeKind::DistTensor;
  DistTensorType(uint64_t hash, DataType dtype, std::span<const int64_t> dims, const TensorDistAttr* dist)
      : Type(kKind, hash), dims_(dims), dist_(dist), dtype_(dtype) {}
  DataType dtype() const { return dtype_; }
  std::span<const int64_t> dims() const { return dims_; }
  const TensorDistAttr* distAttr() const { return dist_; }

 private:
  std::span<const int64_t> dims_;
  const TensorDistAttr* dist_;
  DataType dtype_;
};

/// The dist attr of `t` when it is a dist tensor type; null for a null
/// pointer or any other type (a vec is not looked into).
inline const TensorDistAttr* distAttrOf(const Type* t) {
  auto* d = t ? t->dynCast<DistTensorType>() : nullptr;
  return d ? d->distAttr() : nullptr;
}

/// `vec[T,T]`, the type of a builtin.combine result.
class VectorType : public Type {
 public:
  static constexpr TypeKind kKind = TypeKind::Vector;
  VectorType(uint64_t hash, std::span<const Type* const> elems) : Type(kKind, hash), elems_(elems) {}
  std::span<const Type* const> elements() const { return elems_; }

 private:
  std::span<const Type* const> elems_;
};

/// `<<NULL TYPE>>`: the type of an absent optional result.
class NullType : public Type {
 public:
  static constexpr TypeKind kKind = TypeKind::Null;
  explicit NullType(uint64_t hash) : Type(kKind, hash) {}
};

/// A dialect type we do not model, kept verbatim (e.g. `pd_op.tensor_array<f32>`).
class OpaqueType : public Type {
 public:
  static constexpr TypeKind kKind = TypeKind::Opaque;
  OpaqueType(uint64_t hash, std::string_view text) : Type(kKind, hash), text_(text) {}
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
};

/// Dims and dtype of a dense or dist tensor type; nullopt for other types.
struct TensorShape {
  DataType dtype;
  std::span<const int64_t> dims;
};
std::optional<TensorShape> tensorShape(const Type* t);

/// What a dialect-prefixed type name is to the dialects Paddle registers
/// (types.cpp lists their names): one of them; within two edits of one
/// (`builtin.tenosr`: `likely` names it); a `pd_dist.*` name other than its
/// one type (`likely` is that type); or a name of no concern (another
/// dialect's, or one far from every registered name).
struct TypeNameCheck {
  enum class Kind : uint8_t { Registered, Misspelled, NotInDialect, Unknown };
  Kind kind;
  std::string_view likely;  // Misspelled, NotInDialect: the registered name meant
};
TypeNameCheck checkTypeName(std::string_view name);

}  // namespace pir::core
