//===- attr_list_builder.cpp - building an op's attribute list ------------===//
#include "core/attr_list_builder.h"

#include <algorithm>
#include <charconv>

namespace pir::core {

//===----------------------------------------------------------------------===//
// AttrSpeller
//===----------------------------------------------------------------------===//

const Attribute* AttrSpeller::number(std::string_view tag, int64_t v) const {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  (void)ec;
  return ctx_->numberAttr(tagged_ ? tag : std::string_view(), std::string_view(buf, static_cast<size_t>(end - buf)));
}

// Paddle prints reals with a default ostream: printf's %g, six digits
// (`1e-06`, `0.5`, `1`).
const Attribute* AttrSpeller::real(std::string_view tag, double v) const {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);
  (void)ec;
  return ctx_->numberAttr(tagged_ ? tag : std::string_view(), std::string_view(buf, static_cast<size_t>(end - buf)));
}

const Attribute* AttrSpeller::dialect(std::string_view tag, const Attribute* inner) const {
  return tagged_ ? ctx_->taggedAttr(tag, inner) : inner;
}

const Attribute* AttrSpeller::int32(int32_t v) const { return number("Int32", v); }
const Attribute* AttrSpeller::int64(int64_t v) const { return number("Int64", v); }
const Attribute* AttrSpeller::float32(float v) const { return real("Float", v); }
const Attribute* AttrSpeller::float64(double v) const { return real("Double", v); }

const Attribute* AttrSpeller::int32Array(std::span<const int32_t> v) const {
  std::vector<const Attribute*> elems;
  elems.reserve(v.size());
  for (int32_t x : v) elems.push_back(int32(x));
  return ctx_->arrayAttr(elems);
}

const Attribute* AttrSpeller::int64Array(std::span<const int64_t> v) const {
  std::vector<const Attribute*> elems;
  elems.reserve(v.size());
  for (int64_t x : v) elems.push_back(int64(x));
  return ctx_->arrayAttr(elems);
}

const Attribute* AttrSpeller::dataType(DataType t) const {
  std::string_view name = paddleDataTypeName(t);
  return name.empty() ? nullptr : dialect(kDataTypeTag, ctx_->symbolAttr(name));
}

const Attribute* AttrSpeller::place(const Place& p) const { return dialect(kPlaceTag, ctx_->symbolAttr(placeText(p))); }

// An IntArray's elements are bare in every era: `(pd_op.IntArray)[4,16]`.
const Attribute* AttrSpeller::intArray(std::span<const int64_t> v) const {
  std::vector<const Attribute*> elems;
  elems.reserve(v.size());
  char buf[24];
  for (int64_t x : v) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
    (void)ec;
    elems.push_back(ctx_->numberAttr({}, std::string_view(buf, static_cast<size_t>(end - buf))));
  }
  return dialect(kIntArrayTag, ctx_->arrayAttr(elems));
}

//===----------------------------------------------------------------------===//
// AttrListBuilder
//===----------------------------------------------------------------------===//

AttrListBuilder::AttrListBuilder(AttrListBuilder&& other) noexcept
    : speller_(other.speller_), heap_(std::move(other.heap_)), size_(other.size_) {
  if (other.data_ == other.inline_)
    std::copy(other.inline_, other.inline_ + size_, inline_);
  else
    data_ = heap_.data();
  other.clear();
}

AttrListBuilder& AttrListBuilder::set(AttrKey key, const Attribute* value) {
  if (!value) return *this;
  std::string_view k = key.str();
  // Insertion sort from the back: lists are a handful of keys, often set
  // in order.
  size_t i = size_;
  while (i > 0 && k < data_[i - 1].key) --i;
  if (i > 0 && data_[i - 1].key == k) {
    data_[i - 1].value = value;
    return *this;
  }
  NamedAttr a{k, value};
  if (data_ == inline_ && size_ == kInline) {
    heap_.assign(inline_, inline_ + kInline);
    data_ = heap_.data();
  }
  if (data_ != inline_) {
    heap_.insert(heap_.begin() + static_cast<std::ptrdiff_t>(i), a);
    data_ = heap_.data();
  } else {
    for (size_t j = size_; j > i; --j) inline_[j] = inline_[j - 1];
    inline_[i] = a;
  }
  ++size_;
  return *this;
}

AttrListBuilder& AttrListBuilder::setAll(std::span<const NamedAttr> attrs) {
  for (const NamedAttr& a : attrs) set(a);
  return *this;
}

bool AttrListBuilder::remove(std::string_view key) {
  for (size_t i = 0; i < size_; ++i)
    if (data_[i].key == key) {
      if (data_ != inline_) {
        heap_.erase(heap_.begin() + static_cast<std::ptrdiff_t>(i));
        data_ = heap_.data();
      } else {
        for (size_t j = i + 1; j < size_; ++j) inline_[j - 1] = inline_[j];
      }
      --size_;
      return true;
    }
  return false;
}

void AttrListBuilder::clear() {
  heap_.clear();
  data_ = inline_;
  size_ = 0;
}

const Attribute* AttrListBuilder::get(std::string_view key) const {
  for (const NamedAttr& a : attrs())
    if (a.key == key) return a.value;
  return nullptr;
}

}  // namespace pir::core
