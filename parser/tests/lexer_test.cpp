//===- lexer_test.cpp -----------------------------------------------------===//
#include <catch2/catch.hpp>
#include <vector>

#include "parser/lexer.h"

using namespace pir::parser;

namespace {
std::vector<Token> lexAll(std::string_view text) {
  Lexer lex(text);
  std::vector<Token> out;
  while (true) {
    Token t = lex.next();
    out.push_back(t);
    if (t.is(TokenKind::Eof) || t.is(TokenKind::Error)) return out;
  }
}
}  // namespace

TEST_CASE("lexer: an op line", "[parser][lexer]") {
  auto toks = lexAll(R"((%0, %arg_1) = "pd_op.x" (<<NULL VALUE>>) {a:(Int32)-1} : () -> <<NULL TYPE>>)");
  std::vector<TokenKind> kinds;
  for (const Token& t : toks) kinds.push_back(t.kind);
  using K = TokenKind;
  REQUIRE(kinds == std::vector<K>{K::LParen, K::ValueId, K::Comma,      K::ValueId, K::RParen,   K::Equal,
                                  K::String, K::LParen,  K::NullValue,  K::RParen,  K::LBrace,   K::Identifier,
                                  K::Colon,  K::LParen,  K::Identifier, K::RParen,  K::Integer,  K::RBrace,
                                  K::Colon,  K::LParen,  K::RParen,     K::Arrow,   K::NullType, K::Eof});
  REQUIRE(toks[3].text == "%arg_1");
  REQUIRE(toks[16].text == "-1");
}

TEST_CASE("lexer: numbers keep their spelling", "[parser][lexer]") {
  for (std::string_view s : {"1e-06", "0.5", "-0.25", "1.", "3e+10", "-inf", "-nan"}) {
    auto toks = lexAll(s);
    REQUIRE(toks[0].kind == TokenKind::Float);
    REQUIRE(toks[0].text == s);
  }
  REQUIRE(lexAll("-12")[0].kind == TokenKind::Integer);
  REQUIRE(lexAll("inf")[0].kind == TokenKind::Identifier);  // a number only after a tag
  REQUIRE(lexAll("- 1")[0].kind == TokenKind::Error);
}

TEST_CASE("lexer: comments, split markers, line breaks", "[parser][lexer]") {
  auto toks = lexAll("{ // comment\n  %1 // ----- not a marker\n// ----- job: forward0\r\n}");
  REQUIRE(toks[0].kind == TokenKind::LBrace);
  REQUIRE(toks[1].kind == TokenKind::ValueId);
  REQUIRE(toks[1].newlineBefore);
  REQUIRE(toks[2].kind == TokenKind::SplitMarker);
  REQUIRE(toks[2].text == "// ----- job: forward0");
  REQUIRE(toks[3].kind == TokenKind::RBrace);
  REQUIRE(toks[3].newlineBefore);
}

TEST_CASE("lexer: a byte-order mark is skipped, bad bytes are errors", "[parser][lexer]") {
  REQUIRE(lexAll("\xEF\xBB\xBF{")[0].kind == TokenKind::LBrace);
  Lexer nul(std::string_view("{\0}", 3));
  nul.next();
  Token t = nul.next();
  REQUIRE(t.kind == TokenKind::Error);
  REQUIRE(nul.errorMessage() == "NUL byte in input");
  Lexer high("\xff");
  REQUIRE(high.next().kind == TokenKind::Error);
  REQUIRE(high.errorMessage().find("0xFF") != std::string::npos);
}

TEST_CASE("lexer: strings", "[parser][lexer]") {
  auto toks = lexAll(R"("a\"b // not a comment" x)");
  REQUIRE(toks[0].kind == TokenKind::String);
  REQUIRE(toks[0].text == R"("a\"b // not a comment")");
  Lexer open("\"abc");
  REQUIRE(open.next().kind == TokenKind::Error);
  REQUIRE(open.errorMessage() == "unterminated string");
}
