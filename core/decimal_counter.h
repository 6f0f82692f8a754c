//===- decimal_counter.h - a count and its decimal text ----------*- C++ -*-===//
//
// The printer numbers an op result when it first prints it, which is most
// often where the op defines it: the number is the last one plus one. Its
// text is the last one's with the last digit raised (a carry now and then),
// not a conversion: converting was 154M of the 270M instructions of
// printing the result lists of split-ranks' programs at 100k ops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace pir::core {

class DecimalCounter {
 public:
  DecimalCounter() { std::fill(std::begin(digits_), std::end(digits_), '0'); }

  uint32_t value() const { return value_; }
  /// value() in decimal: size() characters from text().
  const char* text() const { return std::end(digits_) - size_; }
  size_t size() const { return size_; }

  /// Counts on from `value`.
  void reset(uint32_t value) {
    char spelled[10];
    auto [end, ec] = std::to_chars(std::begin(spelled), std::end(spelled), value);
    (void)ec;  // 10 characters hold every uint32_t
    size_ = static_cast<size_t>(end - spelled);
    std::fill(std::begin(digits_), std::end(digits_), '0');
    std::copy(spelled, end, std::end(digits_) - size_);
    value_ = value;
  }

  /// value() + 1, wrapping to 0 as a uint32_t does.
  void next() {
    if (++value_ == 0) return reset(0);
    char* p = std::end(digits_) - 1;
    while (*p == '9') *p-- = '0';  // digits left of the number are '0': a carry stops there
    ++*p;
    size_ = std::max(size_, static_cast<size_t>(std::end(digits_) - p));
  }

 private:
  char digits_[10];  // right-aligned: 2^32 - 1 has 10 digits
  uint32_t value_ = 0;
  size_t size_ = 1;
};

}  // namespace pir::core
