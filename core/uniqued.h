//===- uniqued.h - base of uniqued types and attributes ---------*- C++ -*-===//
#pragma once

#include <cstdint>

namespace pir::core {

/// A kind tag and the hash the Context uniques by, with LLVM-style casts:
/// `t->dynCast<DistTensorType>()` is null unless `t` is one.
template <class KindT>
class Uniqued {
 public:
  KindT kind() const { return kind_; }
  uint64_t hash() const { return hash_; }
  template <class T>
  const T* dynCast() const {
    return kind_ == T::kKind ? static_cast<const T*>(this) : nullptr;
  }
  template <class T>
  bool isa() const {
    return kind_ == T::kKind;
  }

 protected:
  Uniqued(KindT kind, uint64_t hash) : hash_(hash), kind_(kind) {}

 private:
  uint64_t hash_;
  KindT kind_;
};

}  // namespace pir::core
