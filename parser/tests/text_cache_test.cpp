//===- text_cache_test.cpp - repeated text parses to the same IR ----------===//
//
// The parser caches types and op attribute dictionaries by their text; a
// cached result must be exactly what parsing the text again would give.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include "parser/scan.h"
#include "parser/tests/test_util.h"
#include "parser/text_memo.h"

using namespace pir;
using namespace pir::core;
using pir::parser::testing::errorsOf;
using pir::parser::testing::roundTrip;

namespace {
std::vector<Operation*> opsOf(Program& p) {
  std::vector<Operation*> ops;
  for (Operation& op : p.body()) ops.push_back(&op);
  return ops;
}
}  // namespace

TEST_CASE("ops with the same dictionary text share one attribute list", "[parser][cache]") {
  std::string text =
      "{\n"
      "    (%0) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,name:\"a}{\\\"b\",value:(Float)1} : () -> "
      "builtin.tensor<1xf32>\n"
      "    (%1) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,name:\"a}{\\\"b\",value:(Float)1} : () -> "
      "builtin.tensor<1xf32>\n"
      "    (%2) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,name:\"a}{\\\"b\",value:(Float)2} : () -> "
      "builtin.tensor<1xf32>\n"
      "    (%3) = \"pd_op.full\" () {dtype:(pd_op.DataType)float32,name:\"a}{\\\"b\",value:(Float)1} : () -> "
      "builtin.tensor<1xf32>\n"
      "}\n";
  Context ctx;
  SourceFile src("t.pir", text);
  DiagnosticEngine diag(&src);
  auto prog = parser::parseProgram(ctx, src, diag);
  REQUIRE(prog);
  auto ops = opsOf(**prog);
  REQUIRE(ops[0]->attributes().data() == ops[1]->attributes().data());
  REQUIRE(ops[0]->attributes().data() != ops[2]->attributes().data());
  REQUIRE(ops[0]->attributes().data() == ops[3]->attributes().data());  // from the memo
  REQUIRE(ops[1]->attrOf<StringAttr>("name")->value() == "a}{\"b");
  REQUIRE(printProgram(**prog) == text);
}

TEST_CASE("a repeated dictionary with a duplicate key is refused each time", "[parser][cache]") {
  std::string text = "{\n";
  for (int i = 0; i < 3; ++i)
    text += "    (%" + std::to_string(i) + ") = \"t.op\" () {a:true,a:false} : () -> builtin.tensor<1xf32>\n";
  text += "}\n";
  std::string errors = errorsOf(text);
  REQUIRE(errors.find("input.pir:2:") != std::string::npos);
  REQUIRE(errors.find("input.pir:3:") != std::string::npos);
  REQUIRE(errors.find("input.pir:4:") != std::string::npos);
}

TEST_CASE("the text memo keeps a value from the text's second sighting", "[parser][cache]") {
  parser::TextMemo<int> memo;
  std::string a = "{x:1}", a2 = "{x:1}", b = "{x:2}";
  bool admit = true;
  REQUIRE(memo.find(a, admit) == nullptr);
  REQUIRE_FALSE(admit);
  REQUIRE(memo.find(a2, admit) == nullptr);  // equal text elsewhere in the source
  REQUIRE(admit);
  memo.add(a2, 7);
  const int* hit = memo.find(a, admit);
  REQUIRE(hit);
  REQUIRE(*hit == 7);
  REQUIRE(memo.find(b, admit) == nullptr);
  REQUIRE_FALSE(admit);
}

TEST_CASE("the text memo forgets texts seen once when it fills, and keeps values", "[parser][cache]") {
  parser::TextMemo<int> memo;
  std::vector<std::string> texts;
  for (int i = 0; i < 300000; ++i) texts.push_back("{name:\"op_" + std::to_string(i) + "\"}");
  std::string early = "{early}", late = "{late}";
  bool admit = false;
  memo.find(early, admit);
  memo.find(early, admit);
  memo.add(early, 1);
  for (const std::string& t : texts) REQUIRE(memo.find(t, admit) == nullptr);
  memo.find(late, admit);
  REQUIRE(memo.find(late, admit) == nullptr);
  REQUIRE(admit);
  memo.add(late, 2);
  REQUIRE(memo.find(late, admit));
  REQUIRE(*memo.find(late, admit) == 2);
  REQUIRE(memo.find(early, admit));
  REQUIRE(*memo.find(early, admit) == 1);
}

TEST_CASE("texts whose slots collide still find their own values", "[parser][cache]") {
  // A hundred texts in a table of a few hundred slots: probes cross other
  // texts, some of the same length.
  parser::TextMemo<size_t> memo;
  std::vector<std::string> texts;
  for (size_t i = 0; i < 100; ++i) texts.push_back(std::string(i % 7 + 1, 'a') + std::to_string(i));
  bool admit = false;
  for (size_t i = 0; i < texts.size(); ++i) {
    memo.find(texts[i], admit);
    memo.find(texts[i], admit);
    REQUIRE(admit);
    memo.add(texts[i], i);
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    const size_t* v = memo.find(texts[i], admit);
    REQUIRE(v);
    REQUIRE(*v == i);
  }
}

TEST_CASE("a dictionary the scan cannot bound still parses", "[parser][cache]") {
  // An unterminated string on the line, and a dictionary that runs onto the
  // next line: no cache key, so the parser reads them token by token.
  REQUIRE(roundTrip("{\n    (%0) = \"t.op\" () {a:\"x\\\\\"} : () -> builtin.tensor<1xf32>\n}\n") ==
          "{\n    (%0) = \"t.op\" () {a:\"x\\\\\"} : () -> builtin.tensor<1xf32>\n}\n");
  REQUIRE(errorsOf("{\n    (%0) = \"t.op\" () {a:\"x} : () -> builtin.tensor<1xf32>\n}\n").find("error") !=
          std::string::npos);
}

TEST_CASE("findFirstOf finds the first of four bytes at any alignment", "[parser][scan]") {
  std::string s(100, 'x');
  for (size_t at = 0; at < s.size(); ++at)
    for (char c : {'{', '}', '"', '\n'}) {
      std::string t = s;
      t[at] = c;
      if (at + 7 < t.size()) t[at + 7] = '{';
      const char* p = parser::findFirstOf(t.data(), t.data() + t.size(), '{', '}', '"', '\n');
      REQUIRE(p == t.data() + at);
      // The end bounds the search.
      REQUIRE(parser::findFirstOf(t.data(), t.data() + at, '{', '}', '"', '\n') == t.data() + at);
    }
}

TEST_CASE("a few ops whose repeated lists outgrow the printer's kept text print as read", "[parser][cache]") {
  // Twelve ops: the printer keeps 64 KiB of text for so few, and the four
  // lists, each printed three times, hold 40 KB apiece. The first is kept
  // at its second sighting and copied at its third; the others no longer
  // fit and are printed again each time. The bytes must not change.
  std::string text = "{\n";
  for (int i = 0; i < 12; ++i) {
    std::string attrs = "{name:\"" + std::string(40000, static_cast<char>('a' + i % 4)) + "\",stop_gradient:[true]}";
    text += "    (%" + std::to_string(i) + ") = \"pd_op.full\" () " + attrs + " : () -> builtin.tensor<" +
            std::to_string(i % 4 + 1) + "xf32>\n";
  }
  text += "}\n";
  std::string once = roundTrip(text);
  REQUIRE(once == text);
  REQUIRE(roundTrip(once) == once);
}
