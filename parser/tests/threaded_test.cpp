// Reading, verifying and printing on several threads (--threads) against one
// thread: the same text out, the same diagnostics, byte for byte. Chunks and
// runs are made tiny so that every testdata program is cut many ways, and
// the fast path is checked against the general path on the same inputs.
// The cases tagged [tsan] are labelled concurrency: scripts/tsan-test.sh runs
// them under ThreadSanitizer (the broken-program variants take minutes there).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/printer.h"
#include "core/verifier.h"
#include "parser/tests/test_util.h"

namespace pir::parser {
namespace {

struct Read {
  bool ok = false;
  std::string printed;    // every program, or empty
  std::string uses;       // every value's uses, in order (usesOf)
  std::string diags;      // rendered
  size_t landmarked = 0;  // programs read on threads that kept the chains' landmarks
};

/// A joined read leaves landmarks (core/op_runs.h) for the threaded verifier
/// and printer: each names the op at its position, the first the front.
size_t checkLandmarks(const core::Program& p) {
  const core::OpLandmarks& l = p.bodyLandmarks();
  if (!l.usable(p.body())) return 0;
  REQUIRE(!l.landmarks().empty());
  REQUIRE(l.landmarks()[0].first == p.body().front());
  size_t at = 0, k = 0;
  for (const core::Operation& op : p.body()) {
    if (k < l.landmarks().size() && l.landmarks()[k].first == &op) {
      REQUIRE(l.landmarks()[k].second == at);
      ++k;
    }
    ++at;
  }
  REQUIRE(k == l.landmarks().size());
  return 1;
}

/// Every value's uses in the order of its use list, each as the user's
/// place in a walk and the operand's index: the join sets the operands
/// chunks deferred once all are read, and must leave each list as one
/// reader does (passes see that order).
std::string usesOf(const core::Program& p) {
  std::unordered_map<const core::Operation*, size_t> at;
  core::walk(p.body(), [&](const core::Operation& op) { at.emplace(&op, at.size()); });
  std::string out;
  auto list = [&](const core::Value* v) {
    for (const core::OpOperand* u = v->firstUse(); u; u = u->nextUse())
      out += std::to_string(at.at(u->owner())) + "." + std::to_string(u->index()) + " ";
    out += "\n";
  };
  auto block = [&](const core::Block& b) {
    for (const core::BlockArgument* a : b.arguments()) list(a);
    for (const core::BlockArgument* a : b.kwargs()) list(a);
  };
  block(p.body());
  core::walk(p.body(), [&](const core::Operation& op) {
    for (uint32_t i = 0; i < op.numResults(); ++i) list(op.result(i));
    for (uint32_t r = 0; r < op.numRegions(); ++r)
      for (const core::Block* b : op.region(r).blocks()) block(*b);
  });
  return out;
}

Read readWith(const std::string& text, const ParseOptions& options) {
  core::Context ctx;
  core::SourceFile src("t.pir", text);
  core::DiagnosticEngine diag(&src);
  auto r = parseFile(ctx, src, diag, options);
  Read out;
  out.ok = static_cast<bool>(r);
  if (r)
    for (const ParsedProgram& p : *r) {
      out.landmarked += checkLandmarks(*p.program);
      out.printed += p.marker + "\n" + core::printProgram(*p.program);
      out.uses += usesOf(*p.program);
    }
  out.diags = diag.render();
  return out;
}

ParseOptions threaded(unsigned threads, size_t chunkBytes) {
  ParseOptions o;
  o.threads = threads;
  o.chunkBytes = chunkBytes;
  return o;
}

void requireSame(const Read& a, const Read& b) {
  REQUIRE(a.ok == b.ok);
  REQUIRE(a.printed == b.printed);
  REQUIRE(a.uses == b.uses);
  REQUIRE(a.diags == b.diags);
}

/// `text` (one program) read with and without the fast path: the same, and
/// printed back as it is.
void requireFastPathReadsAsGeneral(const std::string& text) {
  ParseOptions general;
  general.fastPath = false;
  Read fast = readWith(text, ParseOptions{});
  requireSame(readWith(text, general), fast);
  REQUIRE(fast.ok);
  REQUIRE(fast.printed == "\n" + text);
}

/// Every .pir file of testdata and of the shared corpus.
std::vector<std::string> programs() {
  std::vector<std::string> files;
  for (const char* dir : {PIR_TESTDATA_DIR, PIR_CORPUS_DIR}) {
    if (!std::filesystem::exists(dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".pir") files.push_back(e.path().string());
  }
  return files;
}

/// Calls `fn(program, source)` for each program of programs() that reads.
template <class Fn>
void forEachParsed(Fn&& fn) {
  for (const std::string& f : programs()) {
    CAPTURE(f);
    core::Context ctx;
    std::string text = testing::readFile(f);
    core::SourceFile src("t.pir", text);
    core::DiagnosticEngine diag(&src);
    auto r = parseFile(ctx, src, diag);
    if (!r) continue;
    for (const ParsedProgram& p : *r) fn(*p.program, src);
  }
}

/// Variants of a program one reader says something about: each line dropped,
/// doubled, moved up one, a byte changed, a value renamed (a sample of lines).
std::vector<std::string> broken(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  auto join = [](const std::vector<std::string>& ls) {
    std::string s;
    for (const std::string& l : ls) s += l;
    return s;
  };
  std::vector<std::string> out;
  size_t step = std::max<size_t>(1, lines.size() / 12);
  for (size_t i = 1; i + 1 < lines.size(); i += step) {
    std::vector<std::string> v = lines;
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(join(v));
    v = lines;
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
    out.push_back(join(v));
    v = lines;
    std::swap(v[i], v[i + 1]);
    out.push_back(join(v));
    v = lines;
    if (v[i].size() > 12) {
      v[i][v[i].size() / 2] = '#';
      out.push_back(join(v));
    }
    v = lines;
    if (size_t pct = v[i].find("(%"); pct != std::string::npos) {
      v[i].insert(pct + 2, "9");
      out.push_back(join(v));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("threaded reading gives one thread's program and diagnostics on every testdata program", "[tsan]") {
  std::vector<std::string> files = programs();
  REQUIRE(files.size() > 100);
  size_t before = threadedReads(), tries = 0, landmarked = 0;
  for (const std::string& f : files) {
    CAPTURE(f);
    std::string text = testing::readFile(f);
    Read one = readWith(text, ParseOptions{});
    REQUIRE(one.landmarked == 0);  // one reader leaves none: the first walk makes them
    for (unsigned threads : {2u, 3u, 5u})
      for (size_t chunk : {size_t{1}, size_t{200}}) {
        Read many = readWith(text, threaded(threads, chunk));
        requireSame(one, many);
        tries += one.ok;
        landmarked += many.landmarked;
      }
  }
  // Most programs that read at all were read on threads, not given up on.
  INFO(threadedReads() - before << " of " << tries);
  REQUIRE((threadedReads() - before) * 2 > tries);
  REQUIRE(landmarked == threadedReads() - before);
}

TEST_CASE("a threaded read announces each chunk before it reads it, and is done with it after", "[tsan]") {
  std::string text = testing::readFile(std::string(PIR_SEEDS_DIR) + "/reshard_after.pir");
  std::mutex mutex;
  std::vector<std::pair<size_t, size_t>> announced, done;
  bool doneBeforeAnnounced = false;
  ParseOptions options = threaded(2, 200);
  options.aboutToRead = [&](size_t b, size_t e) {
    std::lock_guard<std::mutex> lock(mutex);
    announced.push_back({b, e});
  };
  options.doneWith = [&](size_t b, size_t e) {
    std::lock_guard<std::mutex> lock(mutex);
    done.push_back({b, e});
    if (std::find(announced.begin(), announced.end(), std::pair{b, e}) == announced.end()) doneBeforeAnnounced = true;
  };
  size_t before = threadedReads();
  requireSame(readWith(text, ParseOptions{}), readWith(text, options));
  REQUIRE(threadedReads() == before + 1);
  CHECK_FALSE(doneBeforeAnnounced);
  // The chunks cover the text once, without a gap: what is mapped in ahead is what is read.
  std::sort(announced.begin(), announced.end());
  REQUIRE(announced.size() > 2);
  CHECK(announced.front().first == 0);
  CHECK(announced.back().second == text.size());
  for (size_t k = 1; k < announced.size(); ++k) CHECK(announced[k].first == announced[k - 1].second);
  std::sort(done.begin(), done.end());
  CHECK(done == announced);
}

TEST_CASE("threaded reading reports what one thread reports on broken programs") {
  size_t compared = 0;
  for (const std::string& f : programs()) {
    std::string text = testing::readFile(f);
    if (text.size() < 2000) continue;  // a few ops: cut into few chunks
    CAPTURE(f);
    for (const std::string& variant : broken(text)) {
      requireSame(readWith(variant, ParseOptions{}), readWith(variant, threaded(3, 1)));
      ++compared;
    }
  }
  REQUIRE(compared > 200);
}

TEST_CASE("the fast path reads what the general path reads") {
  ParseOptions general;
  general.fastPath = false;
  for (const std::string& f : programs()) {
    CAPTURE(f);
    std::string text = testing::readFile(f);
    requireSame(readWith(text, general), readWith(text, ParseOptions{}));
    if (text.size() >= 2000)
      for (const std::string& variant : broken(text))
        requireSame(readWith(variant, general), readWith(variant, ParseOptions{}));
  }
}

TEST_CASE("the fast path keeps strings, escapes and hints apart") {
  // The same tail with different strings (holes), an escaped quote, a
  // string in a nested position (not a hole), and a type whose mesh comes
  // from its operand (the hint is part of the key).
  std::string text =
      "{\n"
      "    (%0) = \"pd_op.data\" () {name:\"a\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2]} : () -> "
      "builtin.tensor<2xf32>\n"
      "    (%1) = \"pd_op.data\" () {name:\"b\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2]} : () -> "
      "builtin.tensor<2xf32>\n"
      "    (%2) = \"pd_op.data\" () {name:\"c\\\"d\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2]} : () -> "
      "builtin.tensor<2xf32>\n"
      "    (%3) = \"pd_op.data\" () {name:\"e\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2]} : () -> "
      "builtin.tensor<2xf32>\n"
      "    (%4) = \"x.y\" () {a:[\"p\"],b:\"q\"} : () -> builtin.tensor<2xf32>\n"
      "    (%5) = \"x.y\" () {a:[\"r\"],b:\"q\"} : () -> builtin.tensor<2xf32>\n"
      "    (%6) = \"x.y\" () {a:[\"r\"],b:\"s\"} : () -> builtin.tensor<2xf32>\n"
      "    (%7) = \"x.y\" () {a:[\"r\"],b:\"t\"} : () -> builtin.tensor<2xf32>\n"
      "}\n";
  requireFastPathReadsAsGeneral(text);
}

TEST_CASE("the fast path reads op names of every length, and leaves those with an escape to the general path") {
  // Names of 1 to 24 bytes, plain and with an escaped quote, backslash or
  // newline at each place (the fast path looks for the name's end eight
  // bytes at a time); each line three times, so that its tail is memoized
  // and then read from the memo.
  std::string text = "{\n";
  int n = 0;
  auto line = [&](const std::string& name) {
    for (int k = 0; k < 3; ++k)
      text += "    (%" + std::to_string(n++) + ") = \"" + name + "\" () {a:(Int32)1} : () -> builtin.tensor<2xf32>\n";
  };
  for (size_t len = 1; len <= 24; ++len) {
    std::string plain;
    for (size_t i = 0; i < len; ++i) plain += static_cast<char>('a' + i % 26);
    line(plain);
    for (const char* escape : {"\\\"", "\\\\", "\\n"})
      for (size_t at = 0; at <= len; ++at) line(plain.substr(0, at) + escape + plain.substr(at));
  }
  text += "}\n";
  requireFastPathReadsAsGeneral(text);
}

TEST_CASE("a kwarg typed at its first use, in a later chunk, and named values across chunks, read as one thread does",
          "[tsan]") {
  // Kwargs have no type until their first use, and are named, not numbered
  // (their uses are set by the thread their name hashes to); one is used in
  // many ops, which each chunk of one op reads on its own. The broken copy
  // uses it with another type further on: one reader reports that.
  auto program = [](const std::string& laterType) {
    std::string text = "{\n    ^kw:\n        %kwarg_a {}\n        %kwarg_b {}\n        %kwarg_c {}\n";
    for (int i = 0; i < 24; ++i) {
      // %kwarg_c is first used by the 11th op, far from the chunk that declares it.
      std::string type = i == 18 ? laterType : "builtin.tensor<4x8xf32>";  // an op reading %kwarg_c
      std::string first = i >= 10 && i % 2 == 0 ? "%kwarg_c" : "%kwarg_a";
      std::string other = i % 3 == 0 ? "%kwarg_b" : "%" + std::to_string(i - 1);
      text += "    (%" + std::to_string(i) + ") = \"pd_op.add\" (" + first + ", " + other +
              ") {stop_gradient:[false]} : (" + type + ", builtin.tensor<4x8xf32>) -> builtin.tensor<4x8xf32>\n";
    }
    return text + "}\n";
  };
  for (const std::string& laterType :
       {std::string("builtin.tensor<4x8xf32>"), std::string("builtin.tensor<4x9xf32>")}) {
    CAPTURE(laterType);
    std::string text = program(laterType);
    Read one = readWith(text, ParseOptions{});
    CHECK(one.ok == (laterType == "builtin.tensor<4x8xf32>"));
    for (unsigned threads : {2u, 3u, 5u}) {
      CAPTURE(threads);
      size_t before = threadedReads();
      requireSame(one, readWith(text, threaded(threads, 1)));
      CHECK(threadedReads() == before + (one.ok ? 1 : 0));  // read on threads, or given up on as designed
    }
  }
}

TEST_CASE("an op whose string is new to the Context keeps its list to itself; one repeating a string shares") {
  // Parameters, each with its own name: the fast path reads the second on
  // with the first's tail, and the name is a new string each time. The last
  // repeats the third's name.
  std::string text = "{\n";
  auto param = [&](int id, const std::string& name) {
    text += "    (%" + std::to_string(id) + ") = \"builtin.parameter\" () {is_parameter:[true],parameter_name:\"" +
            name + "\",persistable:[true],stop_gradient:[false]} : () -> builtin.tensor<8x8xf32>\n";
  };
  for (int i = 0; i < 6; ++i) param(i, "linear_" + std::to_string(i) + ".w_0");
  param(6, "linear_2.w_0");
  text += "}\n";
  for (bool fast : {true, false}) {
    CAPTURE(fast);
    core::Context ctx;
    core::SourceFile src("t.pir", text);
    core::DiagnosticEngine diag(&src);
    ParseOptions options;
    options.fastPath = fast;
    auto r = parseFile(ctx, src, diag, options);
    REQUIRE(r);
    core::Program& program = *(*r)[0].program;
    REQUIRE(core::printProgram(program) == text);
    std::vector<const core::Operation*> ops;
    for (const core::Operation& op : program.body()) ops.push_back(&op);
    REQUIRE(ops.size() == 7);
    // (Asking the Context interns an own list's copy; no other op's list is equal to it but op 6's, which the
    // Context held already.)
    auto interned = [&](const core::Operation* op) {
      return ctx.attrList(op->attributes()).data() == op->attributes().data();
    };
    size_t own = 0;
    for (size_t i = 0; i < 6; ++i) own += !interned(ops[i]);
    // The fast path gives an op whose name it makes a list of its own; the general path interns every list.
    if (fast)
      CHECK(own >= 3);
    else
      CHECK(own == 0);
    CHECK(interned(ops[6]));  // its name was there: the list is looked up, and kept
    CHECK(ops[6]->attributes()[1].value == ops[2]->attributes()[1].value);
  }
  // On threads, a chunk an op: which of ops 2 and 6 makes the name depends on which is read first, but they share
  // the one attribute, and the text is one thread's.
  for (unsigned threads : {2u, 3u}) {
    CAPTURE(threads);
    core::Context ctx;
    core::SourceFile src("t.pir", text);
    core::DiagnosticEngine diag(&src);
    size_t before = threadedReads();
    auto r = parseFile(ctx, src, diag, threaded(threads, 1));
    REQUIRE(r);
    REQUIRE(threadedReads() == before + 1);
    core::Program& program = *(*r)[0].program;
    REQUIRE(core::printProgram(program) == text);
    std::vector<const core::Operation*> ops;
    for (const core::Operation& op : program.body()) ops.push_back(&op);
    REQUIRE(ops.size() == 7);
    CHECK(ops[6]->attributes()[1].value == ops[2]->attributes()[1].value);
  }
}

TEST_CASE("threaded verifying reports what one thread reports", "[tsan]") {
  forEachParsed([](core::Program& program, const core::SourceFile& src) {
    for (bool dist : {false, true}) {
      core::VerifyOptions v;
      v.distConsistency = dist;
      v.partialReads = dist ? core::CheckLevel::Error : core::CheckLevel::Warn;
      core::DiagnosticEngine one(&src), many(&src);
      size_t e1 = core::verifyProgram(program, one, v);
      size_t e3 = core::verifyProgram(program, many, v, 3, 1);
      REQUIRE(e1 == e3);
      REQUIRE(one.render() == many.render());
    }
  });
}

TEST_CASE("threaded printing prints what one thread prints, with Paddle's one counter", "[tsan]") {
  size_t printed = 0;
  forEachParsed([&](core::Program& program, const core::SourceFile& src) {
    core::DiagnosticEngine v(&src);
    if (core::verifyProgram(program, v)) return;  // the threaded printer wants a program that verifies
    std::string one = core::printProgram(program);
    for (unsigned threads : {2u, 3u})
      for (size_t opsPerRun : {size_t{1}, size_t{2}, size_t{5}}) {
        std::string many;
        core::Status s = core::printProgramThreaded(
            program,
            [&](std::string_view chunk) {
              many += chunk;
              return true;
            },
            threads, opsPerRun);
        REQUIRE(s.isOk());
        REQUIRE(many == one);
      }
    ++printed;
  });
  REQUIRE(printed > 100);
}

}  // namespace pir::parser
