// scanTail (parser/tail_scan.cpp): an op line's end, its strings (the
// holes) and a hash of the bytes outside them. Both loops, the one the CPU
// gets and the 16-byte one of CPUs without AVX2, must find the same end and
// holes, refuse the same lines, and hash tails equal outside their holes
// alike and others apart. Cases put strings, escapes and line ends on each
// side of the 16- and 32-byte block edges.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "parser/tail_memo.h"
#include "parser/tests/test_util.h"

namespace pir::parser {
namespace {

using ScanFn = bool (*)(const char*, const char*, TailScan&);

struct Scanned {
  bool ok = false;
  size_t end = 0;
  std::vector<std::pair<size_t, size_t>> holes;  // offsets from the tail's start
  uint64_t hash = 0;
};

Scanned scan(ScanFn fn, const std::string& text) {
  TailScan t;
  Scanned s;
  s.ok = fn(text.data(), text.data() + text.size(), t);
  if (!s.ok) return s;
  s.end = static_cast<size_t>(t.end - text.data());
  for (auto [open, close] : t.holes)
    s.holes.emplace_back(static_cast<size_t>(open - text.data()), static_cast<size_t>(close - text.data()));
  s.hash = t.hash;
  return s;
}

/// What scanTail must find, written out byte by byte: the line's end (or
/// the text's), each string's contents; false on a NUL, a string that does
/// not close on the line, a backslash before the line's end, 33 strings.
Scanned expected(const std::string& text) {
  Scanned s;
  size_t i = 0;
  while (i < text.size() && text[i] != '\n') {
    char c = text[i];
    if (c == '\0') return s;
    if (c != '"') {
      ++i;
      continue;
    }
    size_t open = ++i;
    while (true) {
      if (i == text.size() || text[i] == '\n' || text[i] == '\0') return s;
      if (text[i] == '"') break;
      if (text[i] == '\\') {
        if (i + 1 == text.size() || text[i + 1] == '\n' || text[i + 1] == '\0') return s;
        i += 2;
        continue;
      }
      ++i;
    }
    if (s.holes.size() == 32) return s;
    s.holes.emplace_back(open, i);
    ++i;
  }
  s.ok = true;
  s.end = i;
  return s;
}

void checkBoth(const std::string& text) {
  CAPTURE(text);
  Scanned want = expected(text);
  for (ScanFn fn : {&scanTail, &scanTailSse2}) {
    Scanned got = scan(fn, text);
    REQUIRE(got.ok == want.ok);
    if (!want.ok) continue;
    REQUIRE(got.end == want.end);
    REQUIRE(got.holes == want.holes);
  }
}

/// `text` with every hole's contents replaced by `fill` (same holes).
std::string refill(const std::string& text, const Scanned& s, const std::string& fill) {
  std::string out;
  size_t at = 0;
  for (auto [open, close] : s.holes) {
    out += text.substr(at, open - at) + fill;
    at = close;
  }
  return out + text.substr(at);
}

}  // namespace

TEST_CASE("both tail scans find the line's end and strings, at every block edge") {
  std::vector<std::string> cases;
  for (size_t pad = 0; pad < 70; ++pad) {
    std::string p(pad, 'x');
    cases.push_back("{" + p + "}\n(%1) = next");
    cases.push_back("{" + p + "}");  // the text ends on the line
    cases.push_back("{a:\"" + p + "\",b:\"q\"} : () -> t\nrest \"x\"");
    cases.push_back("{" + p + "a:\"s\\\"t\",b:1}\n");    // an escaped quote
    cases.push_back("{" + p + "a:\"s\\\\\",b:\"\"}\n");  // an escaped backslash, an empty string
    cases.push_back("{" + p + "a:\"open\n\"}\n");        // a string that runs past the line
    cases.push_back("{" + p + "a:\"x\\\n\"}\n");         // a backslash before the line's end
    cases.push_back("{" + p + "a:1" + std::string(1, '\0') + "}\n");
    cases.push_back("{" + p + "a:\"unterminated");
  }
  std::string many = "{", tooMany = "{";
  for (int k = 0; k < 32; ++k) many += "k:\"" + std::to_string(k) + "\",";
  tooMany = many + "z:\"33\"}\n";
  cases.push_back(many + "}\n");
  cases.push_back(tooMany);
  for (const std::string& c : cases) checkBoth(c);
}

TEST_CASE("both tail scans agree with the general reader's lines on every testdata program") {
  size_t tails = 0;
  for (const char* dir : {PIR_TESTDATA_DIR "/roundtrip", PIR_TESTDATA_DIR "/errors", PIR_CORPUS_DIR}) {
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".pir") continue;
      std::string text = testing::readFile(e.path().string());
      for (size_t at = text.find(") {"); at != std::string::npos; at = text.find(") {", at + 1)) {
        checkBoth(text.substr(at + 2));
        ++tails;
      }
    }
  }
  REQUIRE(tails > 200);
}

TEST_CASE("tails equal outside their strings hash alike; others hash apart") {
  std::vector<std::string> tails = {
      "{name:\"a\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2]} : () -> builtin.tensor<2xf32>\n",
      "{a:[\"p\"],b:\"q\"} : () -> t\n",
      "{op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]}},stop_gradient:[false],x:\"" + std::string(40, 'y') +
          "\",z:\"\"} : (t) -> t\n",
  };
  for (const std::string& t : tails)
    for (ScanFn fn : {&scanTail, &scanTailSse2}) {
      CAPTURE(t);
      Scanned s = scan(fn, t);
      REQUIRE(s.ok);
      for (const std::string& fill : {std::string(), std::string("b"), std::string(33, 'c'), std::string("d\\\"e")}) {
        std::string other = refill(t, s, fill);
        Scanned o = scan(fn, other);
        REQUIRE(o.ok);
        REQUIRE(o.hash == s.hash);
      }
      // One byte changed outside the strings, anywhere: another hash.
      for (size_t i = 0; i + 1 < t.size(); ++i) {
        bool inHole = false;
        for (auto [open, close] : s.holes) inHole |= i >= open - 1 && i <= close;  // quotes too
        if (inHole || t[i] == '"' || t[i] == '\\') continue;
        std::string other = t;
        other[i] = other[i] == '#' ? '%' : '#';
        Scanned o = scan(fn, other);
        REQUIRE(o.ok);
        REQUIRE(o.hash != s.hash);
      }
    }
}

}  // namespace pir::parser
