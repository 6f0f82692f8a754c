//===- parser_types.cpp - types -------------------------------------------===//
#include <charconv>
#include <cstring>

#include "parser/parser_impl.h"
#include "parser/scan.h"

namespace pir::parser {

namespace {
bool endsWithTensor(std::string_view s) { return s == "tensor" || s.ends_with("_tensor") || s.ends_with(".tensor"); }
}  // namespace

// type ::= `<<NULL TYPE>>` | `vec` `[` (type (`,` type)*)? `]`
//        | `pd_dist.tensor` `<` tensor-body `,` tensor-dist-attr `>`
//        | tensor-spelling `<` tensor-body `>` | dtype | dialect-type `<` ... `>`
// `hint` is the mesh a dist type means when its era prints only the shape.
bool Parser::parseType(const Type*& out, const ProcessMesh* hint) {
  const char* start = tok_.text.data();
  const char* end = tok_.is(TokenKind::Identifier) ? extentOf(start, false) : nullptr;
  if (!end) return parseTypeUncached(out, hint);
  TypeKey key{std::string_view(start, static_cast<size_t>(end - start)), hint};
  if (auto it = typeCache_.find(key); it != typeCache_.end()) {
    out = it->second;
    lex_.resetTo(end);
    consume();
    return true;
  }
  size_t diagsBefore = diag_.size();
  if (!parseTypeUncached(out, hint)) return false;
  // A type that drew a diagnostic (a misspelled name) draws it each time.
  if (prevEnd_ == end && diag_.size() == diagsBefore) typeCache_.emplace(key, out);
  return true;
}

const char* Parser::extentOf(const char* p, bool braces) const {
  constexpr size_t kMaxExtent = 4096;
  const char* limit = text_.data() + std::min(text_.size(), static_cast<size_t>(p - text_.data()) + kMaxExtent);
  if (braces) {
    for (int depth = 0;; ++p) {
      p = findFirstOf(p, limit, '{', '}', '"', '\n');
      if (p == limit || *p == '\n') return nullptr;
      if (*p == '{') {
        ++depth;
      } else if (*p == '}') {
        if (--depth == 0) return p + 1;
      } else {  // a string: skip to its closing quote
        for (++p;; p += 2) {
          p = findFirstOf(p, limit, '"', '\\', '\n', '\n');
          if (p == limit || *p == '\n' || p + 1 == limit) return nullptr;
          if (*p == '"') break;
        }
      }
    }
  }
  while (p < limit && (isIdentChar(*p))) ++p;
  if (p < limit && *p == '<') {
    // Tensor types hold no '>' before their end; the line must not end first.
    const char* gt = findFirstOf(p, limit, '>', '\n', '>', '\n');
    return gt == limit || *gt == '\n' ? nullptr : gt + 1;
  }
  if (p < limit && *p == '[') {
    int depth = 0;
    for (; p < limit && *p != '\n'; ++p) {
      if (*p == '[')
        ++depth;
      else if (*p == ']' && --depth == 0)
        return p + 1;
    }
    return nullptr;
  }
  return p;
}

bool Parser::parseTypeUncached(const Type*& out, const ProcessMesh* hint) {
  if (consumeIf(TokenKind::NullType)) {
    out = ctx_.nullType();
    return true;
  }
  if (!tok_.is(TokenKind::Identifier)) return unexpected("a type");
  Token name = tok_;
  if (name.text == "vec") {
    consume();
    if (!enterNesting(name)) return false;
    if (!expect(TokenKind::LBracket, "'[' after 'vec'")) return false;
    std::vector<const Type*> elems;
    bool read = parseCommaList(TokenKind::RBracket, "',' or ']' in 'vec[...]'", [&] {
      const Type* t = nullptr;
      if (!parseType(t, hint)) return false;
      elems.push_back(t);
      return true;
    });
    if (!read) return false;
    leaveNesting();
    out = ctx_.vectorType(elems);
    return true;
  }
  const char* afterName = name.text.data() + name.text.size();
  bool angle = afterName < text_.data() + text_.size() && *afterName == '<';
  // The common spellings skip the name check (and its edit distances).
  std::string_view spelling = name.text;
  TypeNameCheck check{TypeNameCheck::Kind::Registered, spelling};
  if (spelling != "pd_dist.tensor" && spelling != "builtin.tensor") check = checkTypeName(spelling);
  if (!angle) {
    if (auto dt = parseDataType(name.text)) {
      consume();
      out = ctx_.scalarType(*dt);
      return true;
    }
    return syntaxError(name, "unknown type '" + std::string(name.text) + "'" + typeNameHint(check));
  }
  if (check.kind == TypeNameCheck::Kind::Misspelled || check.kind == TypeNameCheck::Kind::NotInDialect) {
    // Reported here, at the definition or use that has it, and read as the
    // type meant, so that the other spellings of the value do not mismatch.
    diag_.error(offsetOf(name), "unknown type '" + std::string(name.text) + "'" + typeNameHint(check));
    if (check.kind == TypeNameCheck::Kind::Misspelled) spelling = check.likely;
  }
  bool tensor =
      spelling == "pd_dist.tensor" || (check.kind != TypeNameCheck::Kind::NotInDialect && endsWithTensor(spelling));
  if (tensor) return parseTensorType(out, spelling, hint);
  // A dialect type we do not model: kept verbatim, angle brackets balanced.
  std::string_view body;
  lex_.resetTo(afterName);
  if (!parseOpaqueBalanced('<', '>', body)) return false;
  if (spelling.data() != name.text.data()) {
    out = ctx_.opaqueType(std::string(spelling) + std::string(body));
  } else {
    out = ctx_.opaqueType(
        std::string_view(name.text.data(), static_cast<size_t>(body.data() + body.size() - name.text.data())));
  }
  consume();
  return true;
}

std::string Parser::typeNameHint(const TypeNameCheck& check) {
  switch (check.kind) {
    case TypeNameCheck::Kind::Misspelled:
      return "; did you mean '" + std::string(check.likely) + "'?";
    case TypeNameCheck::Kind::NotInDialect:
      return "; the pd_dist dialect has one type, '" + std::string(check.likely) + "'";
    default:
      return {};
  }
}

// The rest of `spelling<tensor-body>` or `pd_dist.tensor<tensor-body, tensor-dist-attr>`,
// the current token being the type's name.
bool Parser::parseTensorType(const Type*& out, std::string_view spelling, const ProcessMesh* hint) {
  lex_.resetTo(tok_.text.data() + tok_.text.size() + 1);
  std::vector<int64_t> dims;
  DataType dtype;
  if (!parseTensorBody(dims, dtype)) return false;
  consume();
  if (spelling == "pd_dist.tensor") {
    if (!expect(TokenKind::Comma, "',' before the dist attribute of 'pd_dist.tensor'")) return false;
    const TensorDistAttr* dist = nullptr;
    if (!parseTensorDistAttr(dist, hint, /*inType=*/true)) return false;
    if (!tok_.is(TokenKind::RAngle)) return unexpected("'>' to close 'pd_dist.tensor<'");
    out = ctx_.distTensorType(dtype, dims, dist);
  } else {
    if (!tok_.is(TokenKind::RAngle)) return unexpected("'>' to close '" + std::string(spelling) + "<'");
    if (!sawTensorSpelling_ && style_) {
      sawTensorSpelling_ = true;
      style_->tensorSpelling = ctx_.intern(spelling);
    }
    out = ctx_.denseTensorType(spelling, dtype, dims);
  }
  consume();
  return true;
}

// tensor-body ::= (dim `x`)* dtype       dim ::= `-`? digit+
// Read from raw characters: `4x16xf32` is not a sequence of ordinary tokens.
bool Parser::parseTensorBody(std::vector<int64_t>& dims, DataType& dtype) {
  const char* p = lex_.position();
  const char* end = text_.data() + text_.size();
  while (true) {
    const char* start = p;
    if (p < end && (isDigit(*p) || (*p == '-' && p + 1 < end && isDigit(p[1])))) {
      if (*p == '-') ++p;
      while (p < end && isDigit(*p)) ++p;
      int64_t d = 0;
      auto [q, ec] = std::from_chars(start, p, d);
      if (ec != std::errc() || q != p) return syntaxErrorAt(start, "tensor dimension does not fit in 64 bits");
      if (d < -1) return syntaxErrorAt(start, "tensor dimension must be -1 (dynamic) or at least 0");
      if (p >= end || *p != 'x') return syntaxErrorAt(p, "expected 'x' after a tensor dimension");
      ++p;
      dims.push_back(d);
      continue;
    }
    if (p < end && isIdentStart(*p)) {
      while (p < end && (isIdentStart(*p) || isDigit(*p))) ++p;
      std::string_view name(start, static_cast<size_t>(p - start));
      auto dt = parseDataType(name);
      if (!dt) return syntaxErrorAt(start, "unknown element type '" + std::string(name) + "'");
      dtype = *dt;
      lex_.resetTo(p);
      return true;
    }
    return syntaxErrorAt(start, "expected a tensor dimension or an element type");
  }
}

/// Reads a balanced `open`...`close` run starting at the lexer position
/// (which must be `open`), nesting (), <>, [] and {}, and leaves the lexer
/// after it. Strings are skipped whole. Stops at a line end.
bool Parser::parseOpaqueBalanced(char open, char close, std::string_view& text) {
  const char* start = lex_.position();
  const char* end = text_.data() + text_.size();
  if (start >= end || *start != open) return syntaxErrorAt(start, std::string("expected '") + open + "'");
  std::string stack;
  const char* p = start;
  for (; p < end; ++p) {
    char c = *p;
    if (c == '\n' || c == '\0') break;
    if (c == '"') {
      for (++p; p < end && *p != '"' && *p != '\n'; ++p)
        if (*p == '\\') ++p;
      continue;
    }
    if (c == '(' || c == '<' || c == '[' || c == '{') {
      if (stack.size() >= static_cast<size_t>(kMaxNestingDepth))
        return syntaxErrorAt(p,
                             "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels (kMaxNestingDepth)");
      stack += c == '(' ? ')' : c == '<' ? '>' : c == '[' ? ']' : '}';
    } else if (c == ')' || c == '>' || c == ']' || c == '}') {
      // `->` inside a dialect value is not a closing bracket.
      if (c == '>' && p > start && p[-1] == '-') continue;
      if (stack.empty() || stack.back() != c) return syntaxErrorAt(p, std::string("unbalanced '") + c + "'");
      stack.pop_back();
      if (stack.empty()) {
        text = std::string_view(start, static_cast<size_t>(p + 1 - start));
        lex_.resetTo(p + 1);
        return true;
      }
    }
  }
  (void)close;
  return syntaxErrorAt(start, std::string("unterminated '") + open + "'");
}

bool Parser::parseTypeOnly(const Type*& out) {
  if (!parseType(out, nullptr)) return false;
  if (!tok_.is(TokenKind::Eof)) return unexpected("end of input after the type");
  return true;
}

}  // namespace pir::parser
