//===- parser_attrs.cpp - attribute values --------------------------------===//
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "parser/parser_impl.h"

namespace pir::parser {

// attr ::= `true` | `false` | string | number | `(` tag `)` attr | `(` opaque `)`
//        | `(Array)`? `[` (attr (`,` attr)*)? `]` | `<#AttrNull>` | `<` opaque `>`
//        | `{` opaque `}` | identifier (`(` opaque `)`)?
bool Parser::parseAttribute(const Attribute*& out) {
  switch (tok_.kind) {
    case TokenKind::String:
      out = ctx_.stringAttr(tok_.text.substr(1, tok_.text.size() - 2));
      consume();
      return true;
    case TokenKind::Integer:
    case TokenKind::Float:
      return parseNumber({}, out);
    case TokenKind::LBracket:
      return parseArray(out, false);
    case TokenKind::AttrNull:
      consume();
      out = ctx_.nullAttr();
      return true;
    case TokenKind::LParen:
      return parseTaggedOrParenthesized(out);
    case TokenKind::LAngle:
    case TokenKind::LBrace: {
      std::string_view text;
      lex_.resetTo(tok_.text.data());
      if (!parseOpaqueBalanced(tok_.text[0], tok_.is(TokenKind::LAngle) ? '>' : '}', text)) return false;
      out = ctx_.opaqueAttr(text);
      consume();
      return true;
    }
    case TokenKind::Identifier: {
      if (tok_.text == "true" || tok_.text == "false") {
        out = ctx_.boolAttr(tok_.text == "true");
        consume();
        return true;
      }
      // `Place(cpu)`: a call-like dialect value, kept verbatim.
      const char* after = tok_.text.data() + tok_.text.size();
      if (after < text_.data() + text_.size() && *after == '(') {
        const char* start = tok_.text.data();
        lex_.resetTo(after);
        std::string_view args;
        if (!parseOpaqueBalanced('(', ')', args)) return false;
        out = ctx_.symbolAttr(std::string_view(start, static_cast<size_t>(args.data() + args.size() - start)));
        consume();
        return true;
      }
      out = ctx_.symbolAttr(tok_.text);
      consume();
      return true;
    }
    default:
      return unexpected("an attribute value");
  }
}

// `(` tag `)` followed by a number, an array or a dialect value; any other
// parenthesized text, such as `(0x7f437760d7c0)`, is kept verbatim.
bool Parser::parseTaggedOrParenthesized(const Attribute*& out) {
  Token open = tok_;
  Token next = peek();
  const char* afterTag = next.text.data() + next.text.size();
  bool isTag = next.is(TokenKind::Identifier) && afterTag < text_.data() + text_.size() && *afterTag == ')';
  if (!isTag) {
    std::string_view text;
    lex_.resetTo(open.text.data());
    if (!parseOpaqueBalanced('(', ')', text)) return false;
    out = ctx_.opaqueAttr(text);
    consume();
    return true;
  }
  consume();  // (
  std::string_view tag = tok_.text;
  consume();  // tag
  consume();  // )
  if (tag == "Array" && tok_.is(TokenKind::LBracket)) return parseArray(out, true);
  if (tok_.is(TokenKind::Integer) || tok_.is(TokenKind::Float)) return parseNumber(tag, out);
  if ((tag == "Float" || tag == "Double") && (tok_.isIdent("inf") || tok_.isIdent("nan"))) {
    noteNumberStyle(true);
    out = ctx_.numberAttr(tag, tok_.text);
    consume();
    return true;
  }
  if (!enterNesting(open)) return false;
  // A dialect value's own numbers are bare in every era (2024's
  // `(pd_op.IntArray)[4,16]`): the value says the era, not its numbers.
  bool dialect = tag.find('.') != std::string_view::npos;
  if (dialect) noteNumberStyle(true);
  const Attribute* inner = nullptr;
  dialectDepth_ += dialect;
  bool read = parseAttribute(inner);
  dialectDepth_ -= dialect;
  if (!read) return false;
  leaveNesting();
  out = ctx_.taggedAttr(tag, inner);
  return true;
}

void Parser::noteNumberStyle(bool tagged) {
  if (sawNumberStyle_ || !style_ || dialectDepth_ > 0) return;
  sawNumberStyle_ = true;
  style_->taggedNumbers = tagged;
}

namespace {
bool parseWhole(std::string_view text, int64_t& v) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && p == text.data() + text.size();
}
}  // namespace

/// A number keeps its spelling; its value must fit the tag's type:
/// Int32, Int64/Index (and bare integers) in 64 bits, Float in a float,
/// Double (and bare reals) in a double. `inf`/`nan` are allowed as written.
bool Parser::parseNumber(std::string_view tag, const Attribute*& out) {
  Token t = tok_;
  std::string_view text = t.text;
  bool isSpecial = text.find("inf") != std::string_view::npos || text.find("nan") != std::string_view::npos;
  if (t.is(TokenKind::Integer)) {
    int64_t v = 0;
    if (!parseWhole(text, v)) return syntaxError(t, "integer " + std::string(text) + " does not fit in 64 bits");
    if (tag == "Int32" && (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()))
      return syntaxError(t, "integer " + std::string(text) + " does not fit in Int32");
  } else if (!isSpecial) {
    // std::from_chars (no locale, no copy); it says out of range for a
    // number too small as well, which strtod tells apart (0 is fine).
    double d = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    bool overflow = false;
    if (ec == std::errc::result_out_of_range) {
      std::string copy(text);
      errno = 0;
      d = std::strtod(copy.c_str(), nullptr);
      overflow = errno == ERANGE && std::isinf(d);
    }
    if (tag == "Float" && std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max())) overflow = true;
    if (overflow)
      return syntaxError(
          t, "number " + std::string(text) + " overflows " + (tag.empty() ? std::string("Double") : std::string(tag)));
    if (tag.starts_with("Int") || tag == "Index")
      return syntaxError(t, "expected an integer after '(" + std::string(tag) + ")'");
  }
  noteNumberStyle(!tag.empty());
  out = ctx_.numberAttr(tag, text);
  consume();
  return true;
}

// array ::= `[` (attr (`,` attr)*)? `]`
bool Parser::parseArray(const Attribute*& out, bool arrayPrefix) {
  if (!enterNesting(tok_)) return false;
  consume();  // [
  std::vector<const Attribute*> elems;
  bool read = parseCommaList(TokenKind::RBracket, "',' or ']' in the array", [&] {
    const Attribute* a = nullptr;
    if (!parseAttribute(a)) return false;
    elems.push_back(a);
    return true;
  });
  if (!read) return false;
  leaveNesting();
  out = ctx_.arrayAttr(elems, arrayPrefix);
  return true;
}

bool Parser::parseInt64(const Token& t, int64_t& out, std::string_view what) {
  if (!parseWhole(t.text, out))
    return syntaxError(t, std::string(what) + " " + std::string(t.text) + " does not fit in 64 bits");
  return true;
}

// int-list ::= `[` (integer (`,` integer)*)? `]`
bool Parser::parseIntList(std::vector<int64_t>& out, std::string_view what, std::string_view element) {
  out.clear();
  if (!consumeIf(TokenKind::LBracket)) return unexpected("'[' to start ", what);
  return parseCommaList(TokenKind::RBracket, "',' or ']' in ", what, [&] {
    if (!tok_.is(TokenKind::Integer)) return unexpected("an integer in ", what);
    int64_t v = 0;
    if (!parseInt64(tok_, v, element)) return false;
    out.push_back(v);
    consume();
    return true;
  });
}

bool Parser::parseAttributeOnly(const Attribute*& out) {
  const ProcessMesh* mesh = nullptr;
  if (tok_.is(TokenKind::LBrace)) {
    if (!parseOpDistAttr(out, mesh)) return false;
  } else if (!parseAttribute(out)) {
    return false;
  }
  if (!tok_.is(TokenKind::Eof)) return unexpected("end of input after the attribute");
  return true;
}

}  // namespace pir::parser
