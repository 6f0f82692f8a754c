//===- output_file_test.cpp - OutputFile's write-behind thread ------------===//
//
// writeBehind() hands the writes to a thread of its own through a few
// buffers. These cases check what a caller sees: the file's bytes, in order,
// across buffers and in pieces larger than one; nothing left by a discard;
// and a failing write that neither hangs the caller nor goes unreported.
// Tagged [tsan]: scripts/tsan-test.sh runs them under ThreadSanitizer.
//
//===----------------------------------------------------------------------===//
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "app/output_file.h"

namespace fs = std::filesystem;
using pir::app::OutputFile;

namespace {

/// A fresh directory, removed with what is in it.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "pir-output-file-XXXXXX").string();
    REQUIRE(mkdtemp(name.data()));
    path = name;
  }
  ~TempDir() { fs::remove_all(path); }
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(path), {})); }
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// Text in pieces of mixed sizes: single bytes, a printer's 1 MB flushes,
/// and one larger than a buffer (4 MB).
std::vector<std::string> pieces() {
  std::mt19937 rng(7);
  std::vector<std::string> out;
  for (size_t size : {size_t{1}, size_t{1} << 20, size_t{3}, (size_t{9} << 20) + 5, size_t{1} << 20, size_t{4} << 20,
                      size_t{0}, size_t{777}, (size_t{1} << 20) + 17, size_t{2} << 20}) {
    std::string s(size, '\0');
    for (char& c : s) c = static_cast<char>('a' + rng() % 26);
    out.push_back(std::move(s));
  }
  for (int i = 0; i < 40; ++i) out.push_back(std::string(1 + rng() % 300000, static_cast<char>('A' + i % 26)));
  return out;
}

void writeFile(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("OutputFile::writeBehind writes every byte in order", "[tsan]") {
  TempDir dir;
  fs::path target = dir.path / "out.pir";
  for (size_t reserve : {size_t{0}, size_t{1} << 20, size_t{64} << 20}) {  // none, short of the text, past it
    std::string expected;
    OutputFile out;
    REQUIRE(out.openTemporary(target.string()));
    out.writeBehind(reserve);
    for (const std::string& p : pieces()) {
      REQUIRE(out.write(p));
      expected += p;
    }
    REQUIRE(out.commit().isOk());
    CHECK(readAll(target) == expected);
    CHECK(dir.entries() == 1);  // no temporary file left
  }
}

TEST_CASE("OutputFile::writeBehind discarded leaves the old file and no temporary one", "[tsan]") {
  TempDir dir;
  fs::path target = dir.path / "out.pir";
  writeFile(target, "old content\n");
  {
    OutputFile out;
    REQUIRE(out.openTemporary(target.string()));
    out.writeBehind(size_t{32} << 20);
    for (const std::string& p : pieces()) REQUIRE(out.write(p));
  }  // destroyed uncommitted, with buffers still queued
  CHECK(readAll(target) == "old content\n");
  CHECK(dir.entries() == 1);
}

// The file size limit makes a write fail with EFBIG (SIGXFSZ ignored). The
// caller must learn it (a later write() says false) without waiting forever
// for a buffer, and commit() must say why and keep the old file.
TEST_CASE("OutputFile::writeBehind reports a failed write and does not hang", "[tsan]") {
  TempDir dir;
  fs::path target = dir.path / "out.pir";
  writeFile(target, "old content\n");
  struct sigaction ignore = {}, old = {};
  ignore.sa_handler = SIG_IGN;
  REQUIRE(sigaction(SIGXFSZ, &ignore, &old) == 0);
  rlimit saved{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &saved) == 0);
  rlimit limited = saved;
  limited.rlim_cur = size_t{2} << 20;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &limited) == 0);
  bool refused = false;
  pir::core::Status committed;
  {
    OutputFile out;
    REQUIRE(out.openTemporary(target.string()));
    out.writeBehind(0);
    for (int round = 0; round < 4 && !refused; ++round)
      for (const std::string& p : pieces())
        if (!out.write(p)) refused = true;
    committed = out.commit();
  }
  setrlimit(RLIMIT_FSIZE, &saved);
  sigaction(SIGXFSZ, &old, nullptr);
  CHECK(refused);
  REQUIRE(!committed.isOk());
  CHECK(committed.message().find("File too large") != std::string::npos);
  CHECK(readAll(target) == "old content\n");
  CHECK(dir.entries() == 1);
}
