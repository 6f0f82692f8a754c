//===- lexer.cpp - PIR tokens ---------------------------------------------===//
#include "parser/lexer.h"

#include <cstdio>

namespace pir::parser {

std::string_view tokenKindName(TokenKind k) {
  switch (k) {
    case TokenKind::Eof:
      return "end of input";
    case TokenKind::Error:
      return "invalid token";
    case TokenKind::Identifier:
      return "identifier";
    case TokenKind::ValueId:
      return "value name";
    case TokenKind::Integer:
      return "integer";
    case TokenKind::Float:
      return "number";
    case TokenKind::String:
      return "string";
    case TokenKind::NullValue:
      return "'<<NULL VALUE>>'";
    case TokenKind::NullType:
      return "'<<NULL TYPE>>'";
    case TokenKind::AttrNull:
      return "'<#AttrNull>'";
    case TokenKind::SplitMarker:
      return "'// -----'";
    case TokenKind::LParen:
      return "'('";
    case TokenKind::RParen:
      return "')'";
    case TokenKind::LBrace:
      return "'{'";
    case TokenKind::RBrace:
      return "'}'";
    case TokenKind::LBracket:
      return "'['";
    case TokenKind::RBracket:
      return "']'";
    case TokenKind::LAngle:
      return "'<'";
    case TokenKind::RAngle:
      return "'>'";
    case TokenKind::Comma:
      return "','";
    case TokenKind::Colon:
      return "':'";
    case TokenKind::Equal:
      return "'='";
    case TokenKind::Arrow:
      return "'->'";
    case TokenKind::Caret:
      return "'^'";
  }
  return "token";
}

Lexer::Lexer(std::string_view source) : src_(source), cur_(source.data()), end_(source.data() + source.size()) {
  // A UTF-8 byte-order mark at the start is not part of the program.
  if (source.size() >= 3 && static_cast<unsigned char>(source[0]) == 0xEF &&
      static_cast<unsigned char>(source[1]) == 0xBB && static_cast<unsigned char>(source[2]) == 0xBF)
    cur_ += 3;
}

Token Lexer::error(const char* start, std::string message) {
  error_ = std::move(message);
  if (cur_ == start && cur_ < end_) ++cur_;
  return make(TokenKind::Error, start);
}

/// Skips white space and `//` comments, except a `// -----` line, which is
/// a split marker token.
void Lexer::skipTrivia() {
  newline_ = false;
  while (cur_ < end_) {
    char c = *cur_;
    if (c == '\n') {
      newline_ = true;
      atLineStart_ = true;
      ++cur_;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++cur_;
    } else if (c == '/' && cur_ + 1 < end_ && cur_[1] == '/') {
      if (atLineStart_ && std::string_view(cur_, static_cast<size_t>(end_ - cur_)).starts_with("// -----")) return;
      while (cur_ < end_ && *cur_ != '\n') ++cur_;
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skipTrivia();
  const char* start = cur_;
  if (cur_ >= end_) return make(TokenKind::Eof, start);
  bool lineStart = atLineStart_;
  atLineStart_ = false;
  char c = *cur_;
  switch (c) {
    case '(':
      ++cur_;
      return make(TokenKind::LParen, start);
    case ')':
      ++cur_;
      return make(TokenKind::RParen, start);
    case '{':
      ++cur_;
      return make(TokenKind::LBrace, start);
    case '}':
      ++cur_;
      return make(TokenKind::RBrace, start);
    case '[':
      ++cur_;
      return make(TokenKind::LBracket, start);
    case ']':
      ++cur_;
      return make(TokenKind::RBracket, start);
    case '>':
      ++cur_;
      return make(TokenKind::RAngle, start);
    case ',':
      ++cur_;
      return make(TokenKind::Comma, start);
    case ':':
      ++cur_;
      return make(TokenKind::Colon, start);
    case '=':
      ++cur_;
      return make(TokenKind::Equal, start);
    case '^':
      ++cur_;
      return make(TokenKind::Caret, start);
    case '<':
      return lexAngle(start);
    case '"':
      return lexString(start);
    case '%':
      return lexValueId(start);
    case '/':
      if (lineStart && cur_ + 1 < end_ && cur_[1] == '/') {
        while (cur_ < end_ && *cur_ != '\n') ++cur_;
        const char* stop = cur_;
        if (stop > start && stop[-1] == '\r') --stop;
        return Token{TokenKind::SplitMarker, newline_, std::string_view(start, static_cast<size_t>(stop - start))};
      }
      return error(start, "unexpected '/'");
    case '-':
      if (cur_ + 1 < end_ && cur_[1] == '>') {
        cur_ += 2;
        return make(TokenKind::Arrow, start);
      }
      return lexNumber(start);
    default:
      break;
  }
  if (isDigit(c)) return lexNumber(start);
  if (isIdentStart(c)) return lexIdentifier(start);
  char buf[64];
  unsigned char u = static_cast<unsigned char>(c);
  if (u == 0) return error(start, "NUL byte in input");
  if (u >= 0x80)
    std::snprintf(buf, sizeof buf, "unexpected byte 0x%02X (not part of PIR's grammar)", u);
  else if (u < 0x20 || u == 0x7f)
    std::snprintf(buf, sizeof buf, "unexpected control character 0x%02X", u);
  else
    std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
  return error(start, buf);
}

/// number ::= `-`? digit+ (`.` digit*)? ([eE] [+-]? digit+)? | `-`? (inf | nan)
Token Lexer::lexNumber(const char* start) {
  if (*cur_ == '-') ++cur_;
  if (cur_ < end_ && (*cur_ == 'i' || *cur_ == 'n')) {
    const char* p = cur_;
    while (p < end_ && isIdentChar(*p)) ++p;
    std::string_view word(cur_, static_cast<size_t>(p - cur_));
    if (word == "inf" || word == "nan") {
      cur_ = p;
      return make(TokenKind::Float, start);
    }
  }
  if (cur_ >= end_ || !isDigit(*cur_)) return error(start, "expected a digit after '-'");
  while (cur_ < end_ && isDigit(*cur_)) ++cur_;
  bool isFloat = false;
  if (cur_ < end_ && *cur_ == '.') {
    isFloat = true;
    ++cur_;
    while (cur_ < end_ && isDigit(*cur_)) ++cur_;
  }
  if (cur_ < end_ && (*cur_ == 'e' || *cur_ == 'E')) {
    const char* p = cur_ + 1;
    if (p < end_ && (*p == '+' || *p == '-')) ++p;
    if (p < end_ && isDigit(*p)) {
      isFloat = true;
      cur_ = p;
      while (cur_ < end_ && isDigit(*cur_)) ++cur_;
    }
  }
  return make(isFloat ? TokenKind::Float : TokenKind::Integer, start);
}

/// string ::= `"` ([^"\\] | `\` any)* `"`
Token Lexer::lexString(const char* start) {
  ++cur_;
  while (cur_ < end_) {
    char c = *cur_;
    if (c == '"') {
      ++cur_;
      return make(TokenKind::String, start);
    }
    if (c == '\\' && cur_ + 1 < end_)
      ++cur_;
    else if (c == '\0') {
      error_ = "NUL byte in string";
      Token t = make(TokenKind::Error, cur_);
      t.text = std::string_view(cur_, 1);
      ++cur_;
      return t;
    }
    ++cur_;
  }
  cur_ = start + 1;
  error_ = "unterminated string";
  return Token{TokenKind::Error, newline_, std::string_view(start, 1)};
}

Token Lexer::lexIdentifier(const char* start) {
  while (cur_ < end_ && isIdentChar(*cur_)) ++cur_;
  return make(TokenKind::Identifier, start);
}

/// value-id ::= `%` [A-Za-z0-9_.@]+
Token Lexer::lexValueId(const char* start) {
  ++cur_;
  while (cur_ < end_ && isValueIdChar(*cur_)) ++cur_;
  if (cur_ == start + 1) return error(start, "expected a value name after '%'");
  return make(TokenKind::ValueId, start);
}

/// `<<NULL VALUE>>`, `<<NULL TYPE>>`, `<#AttrNull>`, or a plain `<`.
Token Lexer::lexAngle(const char* start) {
  std::string_view rest(cur_, static_cast<size_t>(end_ - cur_));
  for (auto [text, kind] : {std::pair{std::string_view("<<NULL VALUE>>"), TokenKind::NullValue},
                            std::pair{std::string_view("<<NULL TYPE>>"), TokenKind::NullType},
                            std::pair{std::string_view("<#AttrNull>"), TokenKind::AttrNull}}) {
    if (rest.starts_with(text)) {
      cur_ += text.size();
      return make(kind, start);
    }
  }
  ++cur_;
  return make(TokenKind::LAngle, start);
}

}  // namespace pir::parser
