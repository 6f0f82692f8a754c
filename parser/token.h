//===- token.h - PIR tokens: a kind and a view into the source -*- C++ -*-===//
#pragma once

#include <cstdint>
#include <string_view>

namespace pir::parser {

enum class TokenKind : uint8_t {
  Eof,
  Error,        // text: the offending bytes; the lexer also sets a message
  Identifier,   // [A-Za-z_][A-Za-z0-9_.]*
  ValueId,      // %0, %arg_0, %kwarg_x, %0_8121790596710454734
  Integer,      // -?[0-9]+
  Float,        // -?[0-9]+.[0-9]*([eE][+-]?[0-9]+)?, 1e-06, inf, -nan
  String,       // "..." with \" escapes; text includes the quotes
  NullValue,    // <<NULL VALUE>>
  NullType,     // <<NULL TYPE>>
  AttrNull,     // <#AttrNull>
  SplitMarker,  // a `// -----` line; text is the whole line
  LParen,
  RParen,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  LAngle,
  RAngle,
  Comma,
  Colon,
  Equal,
  Arrow,
  Caret,
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  bool newlineBefore = false;  // a line break separates it from the previous token
  std::string_view text;

  bool is(TokenKind k) const { return kind == k; }
  bool isIdent(std::string_view s) const { return kind == TokenKind::Identifier && text == s; }
};

std::string_view tokenKindName(TokenKind k);

}  // namespace pir::parser
