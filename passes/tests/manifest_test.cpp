//===- manifest_test.cpp - programs.yaml: round trips and strict reading --===//
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/diagnostics.h"
#include "passes/manifest.h"
#include "passes/schedule/job.h"

using namespace pir;
using namespace pir::passes;

namespace {

namespace fs = std::filesystem;

/// A temporary folder holding the files `files` (empty), removed afterwards.
struct Folder {
  std::string path;
  explicit Folder(const std::vector<std::string>& files) {
    std::string t = (fs::temp_directory_path() / "pir-manifest-test-XXXXXX").string();
    REQUIRE(mkdtemp(t.data()));
    path = t;
    for (const std::string& f : files) {
      fs::create_directories((fs::path(path) / f).parent_path());
      std::ofstream(fs::path(path) / f) << "{\n}\n";
    }
  }
  ~Folder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

Manifest sample() {
  Manifest m;
  ManifestProgram a;
  a.name = "rank0.forward";
  a.file = "rank0/forward.pir";
  a.rank = 0;
  a.stage = 0;
  a.job = "forward";
  a.imports = {"x", "var_4_pd_op.relu_0"};
  a.exports = {"loss_0"};
  ManifestProgram b;
  b.name = "program";
  b.file = "program.pir";
  // Names that are no plain YAML scalars: quotes, a backslash, spaces, a
  // newline, a number, a boolean, a leading dash, a colon.
  b.imports = {"a \"b\" \\c", "two words", "line\nbreak", "12", "true", "-x", "k: v", "null", "#c"};
  m.programs = {a, b};
  return m;
}

/// Where a failure stands: "LINE:COL: MESSAGE".
std::string where(std::string_view text, const core::Status& s) {
  core::SourceFile src("m.yaml", text);
  if (s.offset() < 0) return "?:?: " + s.message();
  auto lc = src.lineCol(static_cast<uint64_t>(s.offset()));
  return std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " + s.message();
}

const char* kGood =
    "version: 1\n"             // 1
    "programs:\n"              // 2
    "  - name: forward\n"      // 3
    "    file: forward.pir\n"  // 4
    "    rank: null\n"         // 5
    "    stage: 2\n"           // 6
    "    job: forward\n"       // 7
    "    imports: [a]\n"       // 8
    "    exports: []\n";       // 9

/// kGood with line `line` (1-based) replaced by `with` (or removed when empty).
std::string edit(int line, const std::string& with) {
  std::string out, text = kGood;
  size_t start = 0;
  for (int i = 1; start < text.size(); ++i) {
    size_t end = text.find('\n', start) + 1;
    if (i != line)
      out += text.substr(start, end - start);
    else if (!with.empty())
      out += with + "\n";
    start = end;
  }
  return out;
}

}  // namespace

TEST_CASE("a manifest reads back as written", "[passes][manifest]") {
  Manifest m = sample();
  Folder dir({"rank0/forward.pir", "program.pir"});
  std::string text = writeManifest(m);
  auto back = parseManifest(text, dir.path);
  INFO(text);
  REQUIRE(back.isOk());
  CHECK(*back == m);
  // And again: writing what was read gives the same text.
  CHECK(writeManifest(*back) == text);
  // An empty set too.
  auto none = parseManifest(writeManifest(Manifest{}), dir.path);
  REQUIRE(none.isOk());
  CHECK(none->programs.empty());
}

TEST_CASE("the schedule keys pipeline-split adds: written last, read back, optional", "[passes][manifest]") {
  Manifest m = sample();
  m.mode = "1F1B";
  m.vpp = 2;
  m.splitBw = 0;
  Folder dir({"rank0/forward.pir", "program.pir"});
  std::string text = writeManifest(m);
  CHECK(text.ends_with("\nmode: \"1F1B\"\nvpp: 2\nsplit_bw: false\n"));
  CHECK(text.find("version: 1\nprograms:\n") != std::string::npos);  // entries on the lines they were
  auto back = parseManifest(text, dir.path);
  REQUIRE(back.isOk());
  CHECK(*back == m);
  auto old = parseManifest(writeManifest(sample()), dir.path);  // without them: none given
  REQUIRE(old.isOk());
  CHECK(old->mode.empty());
  CHECK(old->vpp == -1);
  CHECK(old->splitBw == -1);
  Folder one({"forward.pir"});
  auto fails = [&](const std::string& extra) {
    auto r = parseManifest(std::string(kGood) + extra, one.path);
    REQUIRE_FALSE(r.isOk());
    return where(std::string(kGood) + extra, r.status());
  };
  CHECK(fails("vpp: 0\n") == "10:6: 'vpp' must be a whole number from 1 to 1048576");
  CHECK(fails("split_bw: maybe\n") == "10:11: 'split_bw' must be true or false");
  CHECK(fails("mode: \"\"\n") == "10:7: 'mode' must be a non-empty string");
}

TEST_CASE("gradient-merge's k: written after the schedule keys, read back, optional, checked", "[passes][manifest]") {
  Manifest m = sample();
  m.mode = "1F1B";
  m.vpp = 1;
  m.splitBw = 0;
  m.gradientMergeK = 4;
  Folder dir({"rank0/forward.pir", "program.pir"});
  std::string text = writeManifest(m);
  CHECK(text.ends_with("\nsplit_bw: false\ngradient_merge_k: 4\n"));
  auto back = parseManifest(text, dir.path);
  REQUIRE(back.isOk());
  CHECK(back->gradientMergeK == 4);
  CHECK(*back == m);
  auto old = parseManifest(writeManifest(sample()), dir.path);
  REQUIRE(old.isOk());
  CHECK(old->gradientMergeK == -1);
  Folder one({"forward.pir"});
  auto fails = [&](const std::string& extra) {
    auto r = parseManifest(std::string(kGood) + extra, one.path);
    REQUIRE_FALSE(r.isOk());
    return where(std::string(kGood) + extra, r.status());
  };
  CHECK(fails("gradient_merge_k: 0\n") == "10:19: 'gradient_merge_k' must be a whole number from 1 to 1048576");
  CHECK(fails("gradient_merge_k: two\n").find("'gradient_merge_k' must be a whole number") != std::string::npos);
}

TEST_CASE("the source program's hash: XXH64 of its bytes, written last, read back, optional", "[passes][manifest]") {
  CHECK(sourceHashOf("") == "xxh64:ef46db3751d8e999");  // XXH64's published vector for no bytes, seed 0
  CHECK(sourceHashOf("abc") == "xxh64:44bc2cf5ad770999");
  // An older pir-opt's FNV-1a is taken the same way; anything else is no hash.
  CHECK(sourceHashLike("xxh64:0000000000000000", "abc") == "xxh64:44bc2cf5ad770999");
  CHECK(sourceHashLike("fnv1a64:0000000000000000", "foobar") == "fnv1a64:85944171f73967e8");  // FNV-1a's vector
  CHECK(sourceHashLike("fnv1a64:0000000000000000", "") == "fnv1a64:cbf29ce484222325");
  for (const char* bad : {"", "xxh64:", "xxh64:44BC2CF5AD770999", "xxh64:44bc2cf5ad77099", "md5:44bc2cf5ad770999",
                          "xxh64:44bc2cf5ad7709990"})
    CHECK(sourceHashLike(bad, "abc").empty());
  Manifest m = sample();
  m.gradientMergeK = 2;
  m.sourceHash = sourceHashOf("{\n}\n");
  Folder dir({"rank0/forward.pir", "program.pir"});
  std::string text = writeManifest(m);
  CHECK(text.ends_with("\ngradient_merge_k: 2\nsource_hash: \"" + m.sourceHash + "\"\n"));
  auto back = parseManifest(text, dir.path);
  REQUIRE(back.isOk());
  CHECK(*back == m);
  auto old = parseManifest(writeManifest(sample()), dir.path);
  REQUIRE(old.isOk());
  CHECK(old->sourceHash.empty());
  Folder one({"forward.pir"});
  auto fnv = parseManifest(std::string(kGood) + "source_hash: \"fnv1a64:85944171f73967e8\"\n", one.path);
  REQUIRE(fnv.isOk());
  CHECK(fnv->sourceHash == "fnv1a64:85944171f73967e8");
  auto bad = parseManifest(std::string(kGood) + "source_hash: \"sha1:85944171f73967e8\"\n", one.path);
  REQUIRE_FALSE(bad.isOk());
  CHECK(where(std::string(kGood) + "source_hash: \"sha1:85944171f73967e8\"\n", bad.status()) ==
        "10:14: 'source_hash' must be 'xxh64:' or 'fnv1a64:' and 16 lowercase hex digits");
}

TEST_CASE("annotateManifest records what pipeline-split and gradient-merge left", "[passes][manifest]") {
  PassResults results;
  results.set(PipelineSplitResult{"VPP", 2, true});
  results.set(GradientMergeResult{6});
  Manifest m;
  annotateManifest(m, results);
  CHECK(m.mode == "VPP");
  CHECK(m.vpp == 2);
  CHECK(m.splitBw == 1);
  CHECK(m.gradientMergeK == 6);
  Manifest none;
  annotateManifest(none, PassResults{});
  CHECK(none.gradientMergeK == -1);
}

TEST_CASE("words YAML reads as null or a bool, in any case, come back as strings", "[passes][manifest]") {
  Manifest m;
  ManifestProgram p;
  p.name = "NULL";
  p.file = "NULL.pir";
  p.job = "Null";
  p.imports = {"True", "OFF", "Yes", "~x", "null_0"};
  p.exports = {"N", "No"};
  m.programs.push_back(p);
  Folder dir({"NULL.pir"});
  std::string text = writeManifest(m);
  INFO(text);
  auto back = parseManifest(text, dir.path);
  REQUIRE(back.isOk());
  CHECK(*back == m);
}

TEST_CASE("what the writer writes, line by line", "[passes][manifest]") {
  Manifest m = sample();
  m.programs.resize(1);
  CHECK(writeManifest(m) ==
        "# pir-opt program manifest (passes/manifest.h)\n"
        "version: 1\n"
        "programs:\n"
        "  - name: rank0.forward\n"
        "    file: rank0/forward.pir\n"
        "    rank: 0\n"
        "    stage: 0\n"
        "    job: forward\n"
        "    imports: [x, var_4_pd_op.relu_0]\n"
        "    exports: [loss_0]\n");
}

TEST_CASE("a program's file: rankN/JOB.pir with a rank and a job, NAME.pir otherwise", "[passes][manifest]") {
  CHECK(manifestFilePath(3, "backward_b1", "rank3.backward_b1") == "rank3/backward_b1.pir");
  CHECK(manifestFilePath(-1, "forward", "forward") == "forward.pir");
  CHECK(manifestFilePath(0, "", "rank0") == "rank0.pir");
}

TEST_CASE("the reader refuses what it does not expect, where it stands", "[passes][manifest]") {
  Folder dir({"forward.pir"});
  REQUIRE(parseManifest(kGood, dir.path).isOk());
  auto fails = [&](const std::string& text) {
    auto r = parseManifest(text, dir.path);
    REQUIRE_FALSE(r.isOk());
    return where(text, r.status());
  };
  // Unknown keys.
  CHECK(fails(edit(5, "    rnak: 0")) ==
        "5:5: unknown key 'rnak' in a program entry (expected name, file, rank, stage, job, imports, exports)");
  CHECK(fails(std::string(kGood) + "extra: 1\n") ==
        "10:1: unknown key 'extra' in a manifest (expected version, programs)");
  // Repeated keys.
  CHECK(fails(edit(6, "    rank: 1")) == "6:5: duplicate key 'rank'");
  CHECK(fails(std::string(kGood) + "version: 1\n") == "10:1: duplicate key 'version'");
  // Missing fields.
  CHECK(fails(edit(7, "")) == "3:5: program entry lacks 'job'");
  CHECK(fails(edit(1, "")) == "1:1: manifest lacks 'version'");
  // Wrong types.
  CHECK(fails(edit(6, "    stage: two")) == "6:12: 'stage' must be a whole number from 0 to 1048576, or null");
  CHECK(fails(edit(6, "    stage: \"2\"")) == "6:12: 'stage' must be a whole number from 0 to 1048576, or null");
  CHECK(fails(edit(6, "    stage: -1")) == "6:12: 'stage' must be a whole number from 0 to 1048576, or null");
  CHECK(fails(edit(8, "    imports: a")) == "8:14: 'imports' must be a list of names");
  CHECK(fails(edit(8, "    imports: [[a]]")) == "8:15: every name in 'imports' must be a non-empty string");
  CHECK(fails(edit(3, "  - name: [a]")) == "3:11: 'name' must be a non-empty string");
  CHECK(fails("version: 1\nprograms: {}\n") == "2:11: 'programs' must be a list of program entries");
  CHECK(fails("version: 1\nprograms: [7]\n") ==
        "2:12: a program entry must be a map of name, file, rank, stage, job, imports, exports");
  CHECK(fails(edit(1, "version: 2")) == "1:10: this manifest's version is not 1, the one read here");
  CHECK(fails("- a\n") == "1:1: a manifest is a map of 'version' and 'programs'");
  // Files that are not there, or not inside.
  CHECK(fails(edit(4, "    file: gone.pir")) == "4:11: file 'gone.pir' does not exist in " + dir.path);
  CHECK(fails(edit(4, "    file: /etc/passwd")) ==
        "4:11: file '/etc/passwd' is not a path inside the manifest's folder");
  CHECK(fails(edit(4, "    file: ../forward.pir")) ==
        "4:11: file '../forward.pir' is not a path inside the manifest's folder");
  // Two programs of one name.
  std::string twice = std::string(kGood) + std::string(kGood).substr(std::string(kGood).find("  - name"));
  CHECK(fails(twice) == "10:11: program 'forward' is listed twice");
  // Not YAML at all.
  CHECK(fails("programs: [\n").rfind("invalid YAML: ", 5) != std::string::npos);
}

TEST_CASE("loadManifest renders a located error with the file's name", "[passes][manifest]") {
  Folder dir({"forward.pir"});
  std::string path = dir.path + "/programs.yaml";
  std::ofstream(path) << edit(5, "    rank: x");
  auto r = loadManifest(path);
  REQUIRE_FALSE(r.isOk());
  CHECK(r.status().message() == path +
                                    ":5:11: error: 'rank' must be a whole number from 0 to 1048576, or null\n"
                                    "    rank: x\n"
                                    "          ^");
  std::ofstream(path) << kGood;
  auto ok = loadManifest(path);
  REQUIRE(ok.isOk());
  CHECK(ok->programs.at(0).stage == 2);
  CHECK(ok->programs.at(0).rank == -1);
  auto missing = loadManifest(dir.path + "/none.yaml");
  REQUIRE_FALSE(missing.isOk());
  CHECK(missing.status().message() == dir.path + "/none.yaml: error: cannot read the manifest");
}

TEST_CASE("a schedule needs a program per job type and stage", "[passes][manifest]") {
  schedule::Schedule s;
  s.mode = "FThenB";
  s.stages = 2;
  s.microBatches = 1;
  auto job = [](schedule::JobKind k) {
    schedule::Job j;
    j.kind = k;
    return j;
  };
  s.stageJobs = {{job(schedule::JobKind::Forward), job(schedule::JobKind::Backward)},
                 {job(schedule::JobKind::Forward), job(schedule::JobKind::Backward)}};
  Manifest m;
  auto add = [&](const std::string& jobName, int stage) {
    ManifestProgram p;
    p.name = jobName + std::to_string(stage);
    p.job = jobName;
    p.stage = stage;
    m.programs.push_back(p);
  };
  add("forward", 0);
  add("backward", 0);
  add("forward", 1);
  CHECK(checkScheduleHasPrograms(s, m, "M") ==
        std::vector<std::string>{"stage 1: job type 'backward' has no program in M"});
  add("backward", -1);  // on no stage in particular: serves every stage
  CHECK(checkScheduleHasPrograms(s, m, "M").empty());
}
