//===- lexer.h - one switch over the first character -------------*- C++ -*-===//
//
// The lexer works on a string_view it does not own and produces tokens that
// point into it: no heap strings. Line and column are not tracked; a
// diagnostic computes them from the token's offset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser/token.h"

namespace pir::parser {

class Lexer {
 public:
  explicit Lexer(std::string_view source);

  Token next();

  std::string_view source() const { return src_; }
  const char* position() const { return cur_; }
  /// Where lexing stops: the end of the source.
  const char* end() const { return end_; }
  /// Continues lexing at `p` (a position inside the source).
  void resetTo(const char* p) { cur_ = p; }
  size_t offsetOf(const char* p) const { return static_cast<size_t>(p - src_.data()); }

  /// The reason for the last Error token.
  const std::string& errorMessage() const { return error_; }

  /// Where the lexer stands, to look ahead and come back cheaply.
  struct State {
    const char* cur;
    bool newline;
    bool atLineStart;
  };
  State save() const { return {cur_, newline_, atLineStart_}; }
  void restore(const State& s) {
    cur_ = s.cur;
    newline_ = s.newline;
    atLineStart_ = s.atLineStart;
  }

 private:
  Token make(TokenKind k, const char* start) const {
    return Token{k, newline_, std::string_view(start, static_cast<size_t>(cur_ - start))};
  }
  Token error(const char* start, std::string message);
  void skipTrivia();
  Token lexNumber(const char* start);
  Token lexString(const char* start);
  Token lexIdentifier(const char* start);
  Token lexValueId(const char* start);
  Token lexAngle(const char* start);

  std::string_view src_;
  const char* cur_;
  const char* end_;
  bool newline_ = false;
  bool atLineStart_ = true;
  std::string error_;
};

constexpr bool isIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Bytes by class, one load a byte where five range tests were (value
/// names' bytes were 4% of a read): kIdentByte for an identifier's bytes
/// after its first, kValueIdByte for a value name's after `%`.
enum : uint8_t { kIdentByte = 1, kValueIdByte = 2 };
inline constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool ident = isIdentStart(static_cast<char>(c)) || isDigit(static_cast<char>(c)) || c == '.';
    t[c] = static_cast<uint8_t>((ident ? kIdentByte | kValueIdByte : 0) | (c == '@' ? kValueIdByte : 0));
  }
  return t;
}();
/// Of the eight bytes of `w`, those that are no ASCII digit, as each one's
/// high bit. A borrow or carry only runs upwards, so a byte can be flagged
/// falsely only above one flagged truly: the lowest flag is always real.
constexpr uint64_t nonDigitBytes(uint64_t w) {
  return ((w + 0x4646464646464646) | (w - 0x3030303030303030)) & 0x8080808080808080;
}
inline bool isIdentChar(char c) { return kByteClass[static_cast<unsigned char>(c)] & kIdentByte; }
/// A byte of a value name after `%` (`%kwarg_linear_1.w_0@GRAD`).
inline bool isValueIdChar(char c) { return kByteClass[static_cast<unsigned char>(c)] & kValueIdByte; }

}  // namespace pir::parser
