//===- attr_list_builder.h - building an op's attribute list ----*- C++ -*-===//
//
// The attributes of an op a pass creates: keys kept in Paddle's bytewise
// sorted order (a std::map in its printer), a key set twice keeping the
// last value, and values spelled as the program's era spells them (numbers
// `(Int32)1` or `1`, dialect values `(pd_op.DataType)int64` or `int64`).
// A handful of attributes live in an inline buffer: building a list
// allocates nothing, for a pass that makes half a million ops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/program.h"

namespace pir::core {

/// A key the Context has interned: setting it costs no string lookup. Make
/// it once per pass, not once per op.
class AttrKey {
 public:
  AttrKey(Context& ctx, std::string_view key) : key_(ctx.intern(key)) {}
  /// A key that is interned already (one from an op's attribute list).
  static AttrKey interned(std::string_view key) { return AttrKey(key); }
  std::string_view str() const { return key_; }

 private:
  explicit AttrKey(std::string_view interned) : key_(interned) {}
  std::string_view key_;
};

/// Spells values as a program of one era does (PrintStyle::taggedNumbers:
/// the era that tags numbers tags dialect values too).
class AttrSpeller {
 public:
  AttrSpeller(Context& ctx, const PrintStyle& style) : ctx_(&ctx), tagged_(style.taggedNumbers) {}
  explicit AttrSpeller(Program& program) : AttrSpeller(program.context(), program.style()) {}

  Context& context() const { return *ctx_; }
  bool tagged() const { return tagged_; }

  const Attribute* boolean(bool v) const { return ctx_->boolAttr(v); }
  const Attribute* int32(int32_t v) const;                        // `(Int32)1` or `1`
  const Attribute* int64(int64_t v) const;                        // `(Int64)1` or `1`
  const Attribute* float32(float v) const;                        // `(Float)0.5` or `0.5`, as C++'s ostream prints
  const Attribute* float64(double v) const;                       // `(Double)1e-06` or `1e-06`
  const Attribute* int32Array(std::span<const int32_t> v) const;  // `[(Int32)4,(Int32)16]` or `[4,16]`
  const Attribute* int64Array(std::span<const int64_t> v) const;  // `[(Int64)4,(Int64)16]` or `[4,16]`
  /// `(pd_op.DataType)int64` or `int64`; null for a type Paddle has no name for.
  const Attribute* dataType(DataType t) const;
  const Attribute* place(const Place& p) const;                 // `(pd_op.Place)Place(cpu)` or `Place(cpu)`
  const Attribute* intArray(std::span<const int64_t> v) const;  // `(pd_op.IntArray)[4,16]` or `[4,16]`
  /// A string attribute holding `value` (escaped as printed).
  const Attribute* string(std::string_view value) const { return ctx_->stringAttrFromValue(value); }

 private:
  const Attribute* number(std::string_view tag, int64_t v) const;
  const Attribute* real(std::string_view tag, double v) const;
  const Attribute* dialect(std::string_view tag, const Attribute* inner) const;

  Context* ctx_;
  bool tagged_;
};

class AttrListBuilder {
 public:
  AttrListBuilder(Context& ctx, const PrintStyle& style) : speller_(ctx, style) {}
  explicit AttrListBuilder(Program& program) : speller_(program) {}
  explicit AttrListBuilder(const AttrSpeller& speller) : speller_(speller) {}
  AttrListBuilder(AttrListBuilder&& other) noexcept;
  AttrListBuilder& operator=(AttrListBuilder&&) = delete;

  const AttrSpeller& spell() const { return speller_; }

  /// Sets `key` to `value` (a null value is left out).
  AttrListBuilder& set(AttrKey key, const Attribute* value);
  /// As above; interns `key` (a string lookup).
  AttrListBuilder& set(std::string_view key, const Attribute* value) {
    return set(AttrKey(speller_.context(), key), value);
  }
  /// An attribute from another op's list, its key interned already.
  AttrListBuilder& set(const NamedAttr& a) { return set(AttrKey::interned(a.key), a.value); }
  /// Every attribute of `attrs` (from an op's list).
  AttrListBuilder& setAll(std::span<const NamedAttr> attrs);
  bool remove(std::string_view key);

  template <class K>
  AttrListBuilder& setBool(K key, bool v) {
    return set(key, speller_.boolean(v));
  }
  template <class K>
  AttrListBuilder& setInt32(K key, int32_t v) {
    return set(key, speller_.int32(v));
  }
  template <class K>
  AttrListBuilder& setInt64(K key, int64_t v) {
    return set(key, speller_.int64(v));
  }
  template <class K>
  AttrListBuilder& setFloat(K key, float v) {
    return set(key, speller_.float32(v));
  }
  template <class K>
  AttrListBuilder& setDouble(K key, double v) {
    return set(key, speller_.float64(v));
  }
  template <class K>
  AttrListBuilder& setInt32Array(K key, std::span<const int32_t> v) {
    return set(key, speller_.int32Array(v));
  }
  template <class K>
  AttrListBuilder& setInt64Array(K key, std::span<const int64_t> v) {
    return set(key, speller_.int64Array(v));
  }
  template <class K>
  AttrListBuilder& setDataType(K key, DataType t) {
    return set(key, speller_.dataType(t));
  }
  template <class K>
  AttrListBuilder& setPlace(K key, const Place& p) {
    return set(key, speller_.place(p));
  }
  template <class K>
  AttrListBuilder& setIntArray(K key, std::span<const int64_t> v) {
    return set(key, speller_.intArray(v));
  }
  template <class K>
  AttrListBuilder& setString(K key, std::string_view value) {
    return set(key, speller_.string(value));
  }

  /// The list so far, sorted; valid until the next change.
  std::span<const NamedAttr> attrs() const { return {data_, size_}; }
  size_t size() const { return size_; }
  const Attribute* get(std::string_view key) const;
  void clear();

  /// The list interned by the Context (shared with every op of this list).
  std::span<const NamedAttr> finish() const { return speller_.context().attrList(attrs()); }
  /// Gives `op` this list, interned.
  void apply(Operation& op) const { op.setAttributes(speller_.context(), attrs()); }
  /// Gives `op` a copy of this list, not interned: for a list no other op
  /// has (Operation::setOwnAttributes).
  void applyOwn(Operation& op) const { op.setOwnAttributes(speller_.context(), attrs()); }

 private:
  static constexpr size_t kInline = 8;

  AttrSpeller speller_;
  union {  // left uninitialized: a reshard's list costs no stores for the unused
    NamedAttr inline_[kInline];
  };
  std::vector<NamedAttr> heap_;  // past kInline attributes: all of them, data_ points here
  NamedAttr* data_ = inline_;
  size_t size_ = 0;
};

}  // namespace pir::core
