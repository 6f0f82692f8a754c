//===- opt_driver.cpp - parse, run passes, verify, print ------------------===//
//
// A straight line: read the pipeline, read the input, verify, run the passes
// on each program, verify, then print. Output is written only when every
// program succeeded, so a failure never leaves a half-written file.
//
//===----------------------------------------------------------------------===//
#include "app/opt_driver.h"
#include "app/timing_text.h"

#include <re2/re2.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>

#include "app/cli_checks.h"
#include "app/opt_options.h"
#include "app/output_file.h"
#include "app/staged_directory.h"
#include "app/verify_diagnostics.h"
#include "core/context.h"
#include "core/print_era.h"
#include "core/printer.h"
#include "core/threads.h"
#include "core/verifier.h"
#include "parser/input_file.h"
#include "parser/parser.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"

namespace pir::app {

namespace {

using Clock = std::chrono::steady_clock;

int fail(const std::string& message) { return cliError("pir-opt", message); }

int failWith(const core::DiagnosticEngine& diag) {
  std::fputs(diag.render().c_str(), stderr);
  return 1;
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Reads the pipeline from --pass-pipeline or --config; false after
/// reporting an error.
/// `text` keeps what was read, for later diagnostics: a config file is read
/// once (it may be a pipe).
bool readPipeline(const OptOptions& opts, std::vector<passes::PassSpec>& specs, std::string& text) {
  if (!opts.passPipeline.empty() && !opts.configFile.empty()) {
    fail("--pass-pipeline and --config both give a pipeline; use one");
    return false;
  }
  if (opts.configFile == "-" && opts.input == "-") {
    fail("--config - and the input - would both read standard input; give one a file");
    return false;
  }
  text = opts.configFile.empty() ? opts.passPipeline : std::string();
  if (!opts.passPipeline.empty()) {
    core::SourceFile src("<pass-pipeline>", opts.passPipeline);
    core::DiagnosticEngine diag(&src);
    if (!passes::parsePassPipeline(opts.passPipeline, specs, diag)) return failWith(diag), false;
    return true;
  }
  if (!opts.configFile.empty()) {
    parser::InputFile file;
    if (core::Status s = file.open(opts.configFile); !s) return fail(s.message()), false;
    text = std::string(file.text());
    core::SourceFile src(opts.configFile, text);
    core::DiagnosticEngine diag(&src);
    if (!passes::parsePipelineYaml(text, specs, diag)) return failWith(diag), false;
    return true;
  }
  return true;
}

/// Builds a pass manager; unknown passes and bad options are reported with
/// a caret into the pipeline text (`text`: the pipeline string or the config
/// file's contents, as readPipeline read them).
bool buildPassManager(const OptOptions& opts, const std::string& text, const std::vector<passes::PassSpec>& specs,
                      passes::PassManager& pm) {
  core::SourceFile src(opts.configFile.empty() ? "<pass-pipeline>" : opts.configFile, text);
  core::DiagnosticEngine diag(&src);
  if (!pm.addPipeline(specs, diag)) return failWith(diag), false;
  for (const auto* names : {&opts.printIrBefore, &opts.printIrAfter})
    for (const std::string& n : *names)
      if (!passes::PassRegistry::instance().contains(n)) {
        fail("--print-ir-before/after names unknown pass '" + n +
             "'; known passes: " + passes::PassRegistry::instance().namesJoined());
        return false;
      }
  return true;
}

/// The pipeline's pass names, each once, in order: "a, b".
std::string pipelineNames(const passes::PassManager& pm) {
  std::vector<std::string_view> names;
  for (const auto& pass : pm.passes())
    if (std::find(names.begin(), names.end(), pass->name()) == names.end()) names.push_back(pass->name());
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

/// `--print-ir-before-re` or `--print-ir-after-re` (`option`): adds to
/// `names` each pass of `pm` whose whole name `pattern` matches. False after
/// reporting an invalid regex, or one that matches no pass of the pipeline
/// (a typo would otherwise print nothing, silently).
bool addPassesMatching(const std::string& option, const std::optional<std::string>& pattern,
                       const passes::PassManager& pm, std::vector<std::string>& names) {
  if (!pattern) return true;
  RE2::Options quiet;
  quiet.set_log_errors(false);  // the error is reported here, once
  RE2 re(*pattern, quiet);
  if (!re.ok()) return fail(option + ": invalid regex '" + *pattern + "': " + re.error()), false;
  bool any = false;
  for (const auto& pass : pm.passes()) {
    std::string_view name = pass->name();
    if (!RE2::FullMatch(re2::StringPiece(name.data(), name.size()), re)) continue;
    any = true;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
  }
  if (any) return true;
  std::string passes = pm.passes().empty() ? "the pipeline is empty" : "its passes: " + pipelineNames(pm);
  return fail(option + " '" + *pattern + "' matches no pass of the pipeline; " + passes), false;
}

/// One `--split-input-file` chunk (without the flag: the whole input),
/// parsed on its own so that a bad chunk leaves the others. Its offsets
/// (diagnostics, op locations) count from its first byte: `begin` in the
/// input.
struct Chunk {
  Chunk(const std::string& name, std::string_view text, parser::TextChunk cut, size_t n)
      : source(name, text.substr(cut.begin, cut.end - cut.begin)), diag(&source), begin(cut.begin), index(n) {}
  core::SourceFile source;
  core::DiagnosticEngine diag;
  size_t begin;
  size_t index;       // 1-based
  uint64_t line = 1;  // in the input, of its first byte
  bool ok = true;
  bool sortDiagnostics = false;  // a pass or the verifier failed: by position, as one list
};

/// One input program and what the pipeline made of it.
struct Unit {
  std::string marker;  // the `// -----` line it had in the input, or empty
  core::ProgramSet set;
  Chunk* chunk = nullptr;
  const passes::PassManager* manager = nullptr;  // what ran on it
  bool ok = true;
};

const char* pointName(passes::IrDumpPoint when) { return when == passes::IrDumpPoint::Before ? "Before" : "After"; }

struct Session {
  explicit Session(const OptOptions& o) : opts(o) {}
  const OptOptions& opts;
  core::Context ctx;
  const core::SourceFile* file = nullptr;  // the whole input
  parser::InputFile* input = nullptr;      // its text
  StagedDirectory treeDir;
  int treeIndex = 0;
  size_t programIndex = 0;
  size_t programCount = 1;
  double verifyMs = 0;            // verifying the input programs, for --timing
  double checkPrintMs = 0;        // checking the output can be printed, timed as printing
  std::string pipelineText;       // what --pass-pipeline or --config gave, for diagnostics
  std::string internalError;      // the first internal error (a pass's bug), reported after the diagnostics
  const Unit* current = nullptr;  // being run or printed, for dumps and --print-locations
  // The passes to print before and after: --print-ir-before/after's names,
  // then those of the pipeline the -re forms matched.
  std::vector<std::string> printBefore, printAfter;
  core::OpAnnotator annotator = [this](std::string& out, const core::Operation& op) { annotate(out, op); };

  const core::OpAnnotator* annotation() const { return opts.printLocations ? &annotator : nullptr; }

  /// ` // loc: FILE:LINE`, or ` // loc: made by PASS from FILE:LINE` for an
  /// op a pass made (its location is the op it was made for, when the pass
  /// said so).
  void annotate(std::string& out, const core::Operation& op) const {
    passes::PassManager::Origin origin;
    if (current && current->manager) origin = current->manager->createdBy(op);
    int64_t loc = origin.pass.empty() ? op.location() : origin.from;
    out += " // loc: ";
    if (!origin.pass.empty()) {
      out += "made by ";
      out += origin.pass;
      if (loc >= 0) out += " from ";
    }
    if (loc >= 0 && current) {
      out += file->name();
      out += ':';
      out += std::to_string(file->lineCol(current->chunk->begin + static_cast<uint64_t>(loc)).line);
    } else if (origin.pass.empty()) {
      out += "unknown";
    }
  }

  /// ` (chunk N, line L)` under --split-input-file, else empty.
  std::string chunkLabel() const {
    if (!opts.splitInputFile || !current) return {};
    return " (chunk " + std::to_string(current->chunk->index) + ", line " + std::to_string(current->chunk->line) + ")";
  }

  void dump(const std::string& pass, passes::IrDumpPoint when, bool changed, const core::Program& program) {
    bool wanted = false;
    switch (when) {
      case passes::IrDumpPoint::Before:
        wanted = opts.printIrBeforeAll || contains(printBefore, pass);
        break;
      case passes::IrDumpPoint::After:
        wanted = opts.printIrAfterAll || contains(printAfter, pass) || changed;
        break;
      case passes::IrDumpPoint::AfterFailure:
        wanted = opts.printIrAfterFailure;
        break;
    }
    if (wanted) {
      std::string text = "// -----// IR Dump " + std::string(pointName(when)) + " " + pass +
                         (when == passes::IrDumpPoint::AfterFailure ? " Failed" : "") + chunkLabel() + " //----- //\n" +
                         core::printProgram(program, annotation());
      std::fputs(text.c_str(), stderr);
    }
    if (treeDir.isOpen() && when == passes::IrDumpPoint::After) writeTree(pass, program);
  }

  void writeTree(const std::string& label, const core::Program& program) {
    char name[64];
    if (programCount > 1)
      std::snprintf(name, sizeof name, "p%zu_%02d_", programIndex, treeIndex++);
    else
      std::snprintf(name, sizeof name, "%02d_", treeIndex++);
    if (core::Status s = treeDir.writeFile(name + label + ".pir", core::printProgram(program)); !s) treeStatus = s;
  }

  static bool contains(const std::vector<std::string>& v, const std::string& s) {
    for (const std::string& e : v)
      if (e == s) return true;
    return false;
  }

  core::Status treeStatus;
};

/// Runs the pipeline on one input program (which a splitting pass may turn
/// into several named ones); false after reporting errors.
bool processProgram(Session& session, const std::vector<passes::PassSpec>& specs, Unit& unit,
                    std::vector<std::pair<std::string, double>>& timings,
                    std::vector<std::unique_ptr<passes::PassManager>>& managers,
                    const passes::SplittingPass::PieceSink& sink) {
  const OptOptions& opts = session.opts;
  core::DiagnosticEngine& diag = unit.chunk->diag;
  core::ProgramSet& set = unit.set;
  core::Program& program = *set.programs[0].program;
  core::PrintEra era = *core::parsePrintEra(opts.printEra);
  // With no pass and no era to convert to, the program prints as verified:
  // the verifier's walk checks it can be spelled, and printing does not
  // walk it again (and no tree is dumped on the way).
  bool printChecked = false;
  if (!opts.noVerify) {
    core::VerifyOptions v;
    v.printable = printChecked = specs.empty() && era == core::PrintEra::Input && !session.treeDir.isOpen();
    v.distConsistency = opts.verifyDist && specs.empty();
    // A partial read no entry fixes: an error with --verify-dist (after the
    // passes when there are any), else a warning once, here.
    v.partialReads = !opts.verifyDist ? core::CheckLevel::Warn
                     : specs.empty()  ? core::CheckLevel::Error
                                      : core::CheckLevel::Off;
    auto start = Clock::now();
    size_t errors = core::verifyProgram(program, diag, v, opts.threads);
    session.verifyMs += msSince(start);
    if (errors) return false;
  }
  if (session.treeDir.isOpen()) session.writeTree("input", program);
  if (core::Status s = core::convertToEra(program, era); !s) {
    diag.error(s.offset(), s.message());  // passes run, and IR dumps print, in the era printed
    return false;
  }
  passes::PassManagerOptions pmOpts;
  pmOpts.verifyEach = !opts.noVerify;
  pmOpts.verifyDist = opts.verifyDist;
  pmOpts.printBefore.insert(session.printBefore.begin(), session.printBefore.end());
  pmOpts.printAfter.insert(session.printAfter.begin(), session.printAfter.end());
  // The tree dir is fed by the "After" dump hook, which the pass manager
  // calls only for passes it is told to print after.
  pmOpts.printAfterAll = opts.printIrAfterAll || session.treeDir.isOpen();
  pmOpts.printBeforeAll = opts.printIrBeforeAll;
  pmOpts.printAfterChange = opts.printIrAfterChange;
  pmOpts.printAfterFailure = opts.printIrAfterFailure;
  pmOpts.trackCreatedOps = opts.printLocations;
  auto pm = std::make_unique<passes::PassManager>(pmOpts);
  if (!buildPassManager(opts, session.pipelineText, specs, *pm)) return false;
  pm->setIrDumpHook([&](const std::string& pass, passes::IrDumpPoint when, bool changed, const core::Program& p) {
    session.dump(pass, when, changed, p);
  });
  unit.manager = pm.get();
  session.current = &unit;
  if (sink) pm->setFinalSink(sink);
  core::Status s = pm->run(set, diag);
  for (const auto& t : pm->timings()) timings.push_back(t);
  managers.push_back(std::move(pm));
  if (!s) {
    if (s.isInternal()) {
      if (session.internalError.empty()) session.internalError = s.message();
    } else if (!diag.hasErrors()) {
      diag.error(s.offset(), s.message());
    }
    return false;
  }
  auto checkStart = Clock::now();
  for (const core::NamedProgram& p : set.programs)
    if (core::Status ps = printChecked ? core::Status::ok() : core::prepareToPrint(*p.program, era, opts.threads);
        !ps) {
      diag.error(ps.offset(), ps.message());
      return false;
    }
  session.checkPrintMs += msSince(checkStart);
  return true;
}

void printStatistics(const Session& session, const std::vector<Unit>& units) {
  std::fputs(
      "===-------------------------------------------------------------------------===\n"
      "                         ... Pass statistics report ...\n"
      "===-------------------------------------------------------------------------===\n",
      stderr);
  for (const Unit& u : units) {
    if (!u.ok || !u.manager) continue;
    if (session.opts.splitInputFile)
      std::fprintf(stderr, "chunk %zu (line %llu):\n", u.chunk->index, static_cast<unsigned long long>(u.chunk->line));
    for (const auto& pass : u.manager->passes()) {
      std::fprintf(stderr, "%.*s\n", static_cast<int>(pass->name().size()), pass->name().data());
      if (pass->statistics().entries().empty()) std::fputs("  (no changes)\n", stderr);
      for (const auto& [name, value] : pass->statistics().entries())
        std::fprintf(stderr, "  (S) %lld %s\n", static_cast<long long>(value), name.c_str());
    }
  }
}

/// Prints every program of the units that succeeded: named ones (what a
/// split made) each after a `// ----- job: NAME` line, others after their
/// input marker line.
core::Status writeOutput(OutputFile& out, Session& session, const std::vector<Unit>& units) {
  core::OutputSink sink = [&](std::string_view chunk) { return out.write(chunk); };
  for (const Unit& u : units) {
    if (!u.ok) continue;
    session.current = &u;
    for (const core::NamedProgram& p : u.set.programs) {
      std::string header = !p.name.empty() ? "// ----- job: " + p.name : u.marker;
      if (!header.empty()) {
        out.write(header);
        out.write("\n");
      }
      // A verified program prints on the threads; what printing one verified.
      if (session.opts.threads > 1 && !session.opts.noVerify && !session.annotation()) {
        if (core::Status s = core::printProgramThreaded(*p.program, sink, session.opts.threads); s.isInternal())
          return s;
      } else {
        (void)core::printProgram(*p.program, sink, session.annotation());
      }
    }
  }
  return out.commit();
}

/// ranks.yaml into `staged`, a megabyte at a time.
core::Status writeRankLayoutFile(StagedDirectory& staged, const passes::RankLayout& layout) {
  return staged.writeFile(std::string(passes::kRankLayoutName),
                          [&](const core::OutputSink& sink) { return passes::writeRankLayout(layout, sink); });
}

/// `name` among the folder's files; taken already, an error.
core::Status claimPassFile(std::set<std::string>& files, const std::string& name) {
  if (!files.insert(name).second) return core::Status::error("two outputs would be written to '" + name + "'");
  return core::Status::ok();
}

/// The files the passes' results stand for (split-ranks' layout, as
/// ranks.yaml) into `staged`; a name taken already in `files` is an error.
/// `written`: a layout written already (StreamedOutputDir's early one), skipped.
core::Status writePassFiles(StagedDirectory& staged, const std::vector<std::unique_ptr<passes::PassManager>>& managers,
                            std::set<std::string>& files, const passes::RankLayout* written = nullptr) {
  for (const auto& pm : managers)
    if (const passes::RankLayout* layout = pm->results().get<passes::RankLayout>(); layout && layout != written) {
      if (core::Status s = claimPassFile(files, std::string(passes::kRankLayoutName)); !s) return s;
      if (core::Status s = writeRankLayoutFile(staged, *layout); !s) return s;
    }
  return core::Status::ok();
}

/// programs.yaml's source_hash (passes::sourceHashOf over the input's
/// bytes). With a second core it is taken there while the parser reads the
/// same pages: at the end it was a serial pass over the whole input (a
/// second at 1M ops), faulted back in after the parser had dropped it.
class SourceHash {
 public:
  void start(std::string_view text) {
    text_ = text;
    if (core::workerThreads() < 2) return;
    try {
      thread_ = std::thread([this] { hash_ = passes::sourceHashOf(text_); });
    } catch (const std::system_error&) {  // no thread to be had: taken when asked
    }
  }
  const std::string& get() {
    if (thread_.joinable()) thread_.join();
    if (hash_.empty()) hash_ = passes::sourceHashOf(text_);
    return hash_;
  }
  ~SourceHash() {
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::string_view text_;
  std::string hash_;
  std::thread thread_;
};

/// programs.yaml's set-wide keys, from the passes that ran (pipeline-split's
/// mode) and the input's bytes (the source hash pir-run --check compares).
void annotateManifest(passes::Manifest& manifest, const std::vector<std::unique_ptr<passes::PassManager>>& managers,
                      SourceHash& input) {
  for (const auto& pm : managers) passes::annotateManifest(manifest, pm->results());
  manifest.sourceHash = input.get();
}

/// `--output-dir` when the last pass streams its pieces (a splitting pass):
/// each piece is printed and written into the staging folder as it comes,
/// from whichever thread made it, and freed; the manifest lists them in
/// their order once all are in.
struct StreamedOutputDir {
  StagedDirectory staged;
  std::mutex mutex;
  std::vector<passes::ManifestProgram> entries;  // by piece index
  std::vector<bool> present;
  std::set<std::string> names, files;
  // ranks.yaml, written beside the pieces (split-ranks publishes its layout
  // before its first piece): written last, its 100 MB at 1M ops took
  // 0.35-0.55 s on one core while the other had nothing left to do.
  bool layoutStarted = false;
  const passes::RankLayout* layoutWritten = nullptr;
  core::Status layoutStatus;
  std::thread layoutThread;

  ~StreamedOutputDir() {
    if (layoutThread.joinable()) layoutThread.join();
  }

  /// `results`: the streaming manager's, whose layout is written at the first piece.
  core::Status take(size_t index, core::NamedProgram piece, const passes::PassResults* results = nullptr) {
    std::string name = !piece.name.empty() ? piece.name : "program";
    std::string file = passes::manifestFilePath(piece.rank, piece.job, name);
    passes::ManifestProgram entry = passes::describeProgramHeader(piece, name, file);
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!names.insert(name).second) return core::Status::error("two programs are named '" + name + "'");
      if (!files.insert(file).second) return core::Status::error("two programs would be written to '" + file + "'");
      if (core::Status s = startRankLayout(results); !s) return s;
    }
    // Printed straight into the file, a chunk at a time, while other threads
    // write theirs. As the ops print, the entry's exports are gathered and
    // each op is checked printable in the program's era (each a walk of its
    // own before); one that is not fails the whole directory, which is then
    // never committed.
    const core::Block* top = &piece.program->body();
    core::PrintableCheck printable(*piece.program);
    core::OpAnnotator visit = [&](std::string&, const core::Operation& op) {
      printable.check(op);
      if (op.parentBlock() == top) passes::addExport(entry, op);
    };
    core::Status written = staged.writeFile(
        file, [&](const core::OutputSink& sink) { return core::printProgram(*piece.program, sink, &visit).isOk(); });
    if (!printable.status()) return printable.status();
    if (!written) return written;
    piece = core::NamedProgram();
    std::lock_guard<std::mutex> lock(mutex);
    if (entries.size() <= index) entries.resize(index + 1), present.resize(index + 1);
    entries[index] = std::move(entry);
    present[index] = true;
    return core::Status::ok();
  }

  core::Status finish(const std::vector<std::unique_ptr<passes::PassManager>>& managers, SourceHash& input) {
    passes::Manifest manifest;
    for (size_t i = 0; i < entries.size(); ++i)
      if (present[i]) manifest.programs.push_back(std::move(entries[i]));
    if (layoutThread.joinable()) layoutThread.join();
    if (!layoutStatus) return layoutStatus;
    if (core::Status s = writePassFiles(staged, managers, files, layoutWritten); !s) return s;
    annotateManifest(manifest, managers, input);
    if (core::Status s = staged.writeFile(std::string(passes::kManifestName), passes::writeManifest(manifest)); !s)
      return s;
    return staged.commit();
  }

 private:
  /// At the first piece (under `mutex`): ranks.yaml on a thread of its own,
  /// when the manager has a layout by then.
  core::Status startRankLayout(const passes::PassResults* results) {
    if (layoutStarted || !results || core::workerThreads() < 2) return core::Status::ok();  // else at the end
    layoutStarted = true;
    const passes::RankLayout* layout = results->get<passes::RankLayout>();
    if (!layout) return core::Status::ok();
    if (core::Status s = claimPassFile(files, std::string(passes::kRankLayoutName)); !s) return s;
    layoutWritten = layout;
    try {
      layoutThread = std::thread([this, layout] { layoutStatus = writeRankLayoutFile(staged, *layout); });
    } catch (const std::system_error&) {  // no thread to be had: written here
      layoutStatus = writeRankLayoutFile(staged, *layout);
    }
    return core::Status::ok();
  }
};

/// `--output-dir`: each program to its file (passes/manifest.h: rankN/JOB.pir
/// or NAME.pir), the passes' files, and DIR/programs.yaml listing the programs in order.
core::Status writeOutputDir(const std::string& dir, const std::vector<Unit>& units,
                            const std::vector<std::unique_ptr<passes::PassManager>>& managers, SourceHash& input) {
  StagedDirectory staged;
  if (core::Status s = staged.open(dir); !s) return s;
  passes::Manifest manifest;
  std::set<std::string> names, files;
  for (size_t u = 0; u < units.size(); ++u)
    for (const core::NamedProgram& p : units[u].set.programs) {
      std::string name = !p.name.empty() ? p.name : units.size() > 1 ? "program" + std::to_string(u) : "program";
      if (!names.insert(name).second) return core::Status::error("two programs are named '" + name + "'");
      std::string file = passes::manifestFilePath(p.rank, p.job, name);
      if (!files.insert(file).second) return core::Status::error("two programs would be written to '" + file + "'");
      if (core::Status s = staged.writeFile(file, core::printProgram(*p.program)); !s) return s;
      manifest.programs.push_back(passes::describeProgram(p, name, file));
    }
  if (core::Status s = writePassFiles(staged, managers, files); !s) return s;
  annotateManifest(manifest, managers, input);
  if (core::Status s = staged.writeFile(std::string(passes::kManifestName), passes::writeManifest(manifest)); !s)
    return s;
  return staged.commit();
}

/// `--dump-pass-pipeline`: the pipeline as --pass-pipeline reads it, every
/// option spelled out (given or default).
void dumpPassPipeline(const std::vector<passes::PassSpec>& specs, const passes::PassManager& pm) {
  std::string text;
  for (size_t i = 0; i < pm.passes().size(); ++i) {
    const passes::Pass& pass = *pm.passes()[i];
    if (i) text += ',';
    text += pass.name();
    std::string options;
    for (const passes::PassOption* o : pass.options()) {
      auto given = specs[i].options.values.find(std::string(o->name()));
      options += (options.empty() ? "" : " ") + std::string(o->name()) + "=" +
                 (given != specs[i].options.values.end() ? given->second : o->defaultText());
    }
    if (!options.empty()) text += "{" + options + "}";
  }
  std::fprintf(stderr, "%s\n", text.c_str());
}

/// Parses each chunk of the input into units; a chunk that does not parse
/// keeps its diagnostics and makes none.
void parseChunks(Session& session, std::string_view text, std::deque<Chunk>& chunks, std::vector<Unit>& units) {
  const OptOptions& opts = session.opts;
  std::vector<parser::TextChunk> cuts =
      opts.splitInputFile ? parser::splitInputChunks(text) : std::vector<parser::TextChunk>{{0, text.size()}};
  for (const parser::TextChunk& cut : cuts) {
    Chunk& chunk = chunks.emplace_back(session.file->name(), text, cut, chunks.size() + 1);
    if (cut.begin > 0) chunk.line = session.file->lineCol(cut.begin).line;  // (the first needs no line table)
    auto parseStart = Clock::now();
    parser::ParseOptions parseOptions;
    parseOptions.staleOperandTypesWarn = opts.noVerify;  // warnings stay in chunk.diag, reported with the rest
    parseOptions.threads = opts.threads;
    // The pages of the text read are dropped as the reader goes (peak memory).
    parser::InputFile& file = *session.input;
    parseOptions.doneWith = [&file, &cut](size_t begin, size_t end) {
      file.releaseResidentPages(cut.begin + begin, cut.begin + end);
    };
    parseOptions.aboutToRead = [&file, &cut](size_t begin, size_t end) {
      file.mapIn(cut.begin + begin, cut.begin + end);
    };
    size_t threadedBefore = parser::threadedReads();
    auto parsed = parser::parseFile(session.ctx, chunk.source, chunk.diag, parseOptions);
    spdlog::debug("parsed chunk {} in {:.1f} ms{}", chunk.index, msSince(parseStart),
                  parser::threadedReads() > threadedBefore ? " on threads" : "");
    if (!parsed) {
      chunk.ok = false;
      // A marker with no program after it: said of the marker, as when the
      // whole input is read at once.
      const auto& d = chunk.diag.diagnostics();
      if (chunk.index > 1 && d.size() == 1 && d[0].message.starts_with("empty input")) {
        chunk.diag.clear();
        chunk.diag.error(0, chunk.index == cuts.size() ? "'// -----' at the end of the input, with no program after it"
                                                       : "'// -----' with no program after it, before the next one");
      }
      continue;
    }
    if (parsed->size() > 1 && !opts.splitInputFile) {
      chunk.diag.error((*parsed)[1].offset, "multiple programs; use --split-input-file");
      chunk.ok = false;
      continue;
    }
    for (parser::ParsedProgram& p : *parsed) {
      Unit& u = units.emplace_back();
      u.marker = std::move(p.marker);
      u.set.programs.push_back({std::string(), std::move(p.program)});
      u.chunk = &chunk;
    }
  }
}

/// Every chunk's diagnostics, at their place in the whole input.
std::vector<core::Diagnostic> collectDiagnostics(std::deque<Chunk>& chunks) {
  std::vector<core::Diagnostic> all;
  auto shift = [](core::Diagnostic& d, int64_t by, auto& self) -> void {
    if (d.offset >= 0) d.offset += by;
    for (core::Diagnostic& n : d.notes) self(n, by, self);
  };
  for (Chunk& c : chunks) {
    if (c.sortDiagnostics) c.diag.sortByPosition();
    for (core::Diagnostic d : c.diag.diagnostics()) {
      shift(d, static_cast<int64_t>(c.begin), shift);
      all.push_back(std::move(d));
    }
  }
  return all;
}

/// Reports the diagnostics (or, with --verify-diagnostics, what they and
/// the expectations disagree on); true when the run may exit 0 on their
/// account.
bool reportDiagnostics(const Session& session, const std::vector<core::Diagnostic>& diags, bool allOk) {
  std::string text;
  if (session.opts.verifyDiagnostics) {
    DiagnosticVerifier verifier(*session.file);
    bool verified = verifier.verify(diags, text);
    std::fputs(text.c_str(), stderr);
    return verified;
  }
  for (const core::Diagnostic& d : diags) text += core::renderDiagnostic(session.file, d);
  std::fputs(text.c_str(), stderr);
  return allOk;
}

int process(const OptOptions& opts) {
  std::vector<passes::PassSpec> specs;
  std::string pipelineText;
  if (!readPipeline(opts, specs, pipelineText)) return 1;
  Session session(opts);
  session.printBefore = opts.printIrBefore;
  session.printAfter = opts.printIrAfter;
  {  // Unknown passes, and patterns that match none, fail before any input is read.
    passes::PassManager probe;
    if (!buildPassManager(opts, pipelineText, specs, probe)) return 1;
    if (!addPassesMatching("--print-ir-before-re", opts.printIrBeforeRe, probe, session.printBefore) ||
        !addPassesMatching("--print-ir-after-re", opts.printIrAfterRe, probe, session.printAfter))
      return 1;
    if (opts.dumpPassPipeline) dumpPassPipeline(specs, probe);
  }
  session.pipelineText = std::move(pipelineText);
  parser::InputFile input;
  if (core::Status s = input.open(opts.input); !s) return fail(s.message());
  core::SourceFile file(opts.input == "-" ? "<stdin>" : opts.input, input.text());
  session.file = &file;
  session.input = &input;

  SourceHash sourceHash;  // before the parse: it reads the input beside the parser
  if (!opts.outputDir.empty()) sourceHash.start(input.text());
  // `-o FILE`'s temporary file is made now. Where a core is left over
  // (fewer --threads than cores), a thread there allocates its blocks while
  // the input is read (as big as the input, the likely size of the text)
  // and later writes the text while it is printed. With every core reading
  // and printing, that would only slow them (measured). Any other output (a
  // device, a pipe), or a file that cannot be made now, is opened at the
  // end, after any error in the input, as before.
  OutputFile output;
  bool outputOpened = opts.outputDir.empty() && output.openTemporary(opts.output);
  if (outputOpened && opts.threads < std::thread::hardware_concurrency()) output.writeBehind(input.text().size());
  // One reader goes through the text front to back; a core it leaves idle
  // maps the pages in ahead of it. (Readers on threads take chunks in no
  // set order.)
  if (opts.threads == 1 && std::thread::hardware_concurrency() > 1) input.readAhead();

  auto parseStart = Clock::now();
  std::deque<Chunk> chunks;  // stable addresses: units and diagnostic engines point into them
  std::vector<Unit> units;
  parseChunks(session, input.text(), chunks, units);
  double parseMs = msSince(parseStart);
  input.releaseResidentPages();  // the passes' peak memory is the IR's, not the IR's plus the text's
  if (!opts.printIrTreeDir.empty() && !units.empty())
    if (core::Status s = session.treeDir.open(opts.printIrTreeDir); !s) return fail(s.message());

  std::vector<std::pair<std::string, double>> timings;
  std::vector<std::unique_ptr<passes::PassManager>> managers;
  session.programCount = units.size();
  // One program into --output-dir with nothing dumped along the way: the
  // last pass's pieces, if it splits, are written as they are made.
  std::unique_ptr<StreamedOutputDir> streamed;
  passes::SplittingPass::PieceSink sink;
  if (!opts.outputDir.empty() && units.size() == 1 && !session.treeDir.isOpen() && !opts.printIrAfterAll &&
      !opts.printIrBeforeAll && !opts.printIrAfterChange && !opts.printIrAfterFailure && session.printAfter.empty() &&
      session.printBefore.empty()) {
    streamed = std::make_unique<StreamedOutputDir>();
    if (core::Status s = streamed->staged.open(opts.outputDir); !s) return fail(s.message());
    sink = [&](size_t index, core::NamedProgram piece) {
      return streamed->take(index, std::move(piece), &session.current->manager->results());
    };
  }
  for (size_t i = 0; i < units.size(); ++i) {
    session.programIndex = i;
    session.treeIndex = 0;  // p1_00_input.pir, not p1_02_input.pir
    units[i].ok = processProgram(session, specs, units[i], timings, managers, sink);
    if (!units[i].ok) units[i].chunk->ok = false, units[i].chunk->sortDiagnostics = true;
  }
  bool allOk = true;
  for (const Chunk& c : chunks) allOk = allOk && c.ok;
  for (Unit& u : units) u.ok = u.chunk->ok;  // a chunk prints whole or not at all
  bool diagnosticsOk = reportDiagnostics(session, collectDiagnostics(chunks), allOk);
  if (!session.internalError.empty()) {
    std::fprintf(stderr, "pir-opt: internal error: %s (a bug in pir-opt, not in the input)\n",
                 session.internalError.c_str());
    return 2;
  }
  if (!session.treeStatus) return fail(session.treeStatus.message());

  // A file (or directory) is all or nothing; stdout gets the chunks that succeeded.
  auto printStart = Clock::now();
  if (streamed) {
    // What the last pass did not stream (no splitting pass last) goes in as before.
    if (allOk) {
      for (Unit& u : units)
        for (core::NamedProgram& p : u.set.programs)
          if (core::Status s = streamed->take(streamed->entries.size(), std::move(p)); !s) return fail(s.message());
      if (core::Status s = streamed->finish(managers, sourceHash); !s) return fail(s.message());
    }
  } else if (!opts.outputDir.empty()) {
    if (allOk)
      if (core::Status s = writeOutputDir(opts.outputDir, units, managers, sourceHash); !s) return fail(s.message());
  } else if (allOk || opts.output == "-") {
    // The file opened before the parse, or (where that failed) opened now, to report why.
    if (!outputOpened)
      if (core::Status s = output.open(opts.output); !s) return fail(s.message());
    if (core::Status s = writeOutput(output, session, units); !s) return fail(s.message());
  }
  double printMs = session.checkPrintMs + msSince(printStart);
  if (session.treeDir.isOpen() && allOk)
    if (core::Status s = session.treeDir.commit(); !s) return fail(s.message());

  bool anyOk = false;
  for (const Unit& u : units) anyOk = anyOk || u.ok;
  if (opts.passStatistics && anyOk) printStatistics(session, units);
  if (opts.timing && allOk) {
    std::string text = timingLine("parse", parseMs / 1e3);
    if (!opts.noVerify) text += timingLine("verify", session.verifyMs / 1e3);
    for (const auto& [label, seconds] : timings) text += timingLine(label, seconds);
    text += timingLine("print", printMs / 1e3);
    std::fputs(text.c_str(), stderr);
  }
  return diagnosticsOk ? 0 : 1;
}

void listPasses() {
  std::puts("Available passes:");
  for (const auto& e : passes::PassRegistry::instance().entries()) {
    std::unique_ptr<passes::Pass> pass = e.factory();
    std::printf("  %-20s %.*s\n", e.name.c_str(), static_cast<int>(pass->description().size()),
                pass->description().data());
    for (const passes::PassOption* o : pass->options())
      std::printf("      %.*s=%s  %.*s (default %s)\n", static_cast<int>(o->name().size()), o->name().data(),
                  o->syntax().c_str(), static_cast<int>(o->description().size()), o->description().data(),
                  o->defaultText().c_str());
  }
}

void setUpLogging(const std::string& level) {
  auto logger = spdlog::stderr_logger_mt("pir-opt");
  logger->set_pattern("pir-opt: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
}

constexpr const char* kExamples = R"(
Examples:
  pir-opt program.pir                         parse, verify and print (byte-identical for Paddle output)
  cat program.pir | pir-opt - -o out.pir      read stdin, write out.pir atomically
  pir-opt program.pir --pass-pipeline=fold-reshard --pass-statistics
  pir-opt program.pir --config pipeline.yaml --print-ir-after-all
  pir-opt program.pir --config pipeline.yaml --print-ir-after-re='split-.*'
  pir-opt cases.pir --split-input-file        programs separated by '// -----' lines
  pir-opt --list-passes

Commands:
  pir-opt schedule --mode 1F1B --stages 4 --micro-batches 8 [--format svg]
                                              pipeline job lists: generate, --check, draw (pir-opt schedule --help)

Exit codes: 0 success, 1 bad input or options, 2 internal error.)";

}  // namespace

int runOpt(int argc, char** argv) {
  passes::registerAllPasses();
  // Test passes (test-internal-error, ...) exist only when asked for.
  if (const char* test = std::getenv("PIR_OPT_TEST_PASSES"); test && std::string_view(test) == "1")
    passes::registerTestPasses();
  OptOptions opts;
  CLI::App app{"pir-opt: read, transform and print PaddlePaddle PIR programs"};
  app.footer(kExamples);
  const CLI::Validator path = nonEmptyPath();
  app.add_option("input", opts.input, "input file, or - for stdin")->capture_default_str()->check(path);
  auto* output = app.add_option("-o,--output", opts.output, "output file, or - for stdout (written atomically)")
                     ->capture_default_str()
                     ->check(path);
  app.add_option("--output-dir", opts.outputDir,
                 "write each program to DIR/NAME.pir (DIR/rankN/JOB.pir with a rank) and a DIR/programs.yaml "
                 "listing them (all files or none)")
      ->check(path)
      ->excludes(output);
  app.add_option("--pass-pipeline", opts.passPipeline,
                 "passes to run: 'a,b{key=value ...}', of " + passes::PassRegistry::instance().namesJoined() +
                     " (--list-passes gives their options)");
  app.add_option("--config", opts.configFile, "YAML file with a 'pipeline:' list of passes")->check(path);
  app.add_flag("--list-passes", opts.listPasses, "list the registered passes and their options");
  app.add_flag(
      "--verify-each,!--no-verify", [&](int64_t n) { opts.noVerify = n < 0; },
      "verify after parsing and after every pass (default), or not");
  app.add_flag("--verify-dist", opts.verifyDist, "also check that every operand carries the dist attr its op expects");
  app.add_option("--print-ir-before", opts.printIrBefore, "print the IR before this pass (on stderr)")->delimiter(',');
  app.add_option("--print-ir-after", opts.printIrAfter, "print the IR after this pass (on stderr)")->delimiter(',');
  app.add_option_function<std::string>(
         "--print-ir-before-re", [&](const std::string& re) { opts.printIrBeforeRe = re; },
         "print the IR before each pass whose whole name matches this RE2 regex (on stderr); it must match a pass "
         "of the pipeline")
      ->type_name("REGEX");
  app.add_option_function<std::string>(
         "--print-ir-after-re", [&](const std::string& re) { opts.printIrAfterRe = re; },
         "print the IR after each pass whose whole name matches this RE2 regex (on stderr); it must match a pass "
         "of the pipeline")
      ->type_name("REGEX");
  app.add_flag("--print-ir-after-all", opts.printIrAfterAll, "print the IR after every pass (on stderr)");
  app.add_flag("--print-ir-before-all", opts.printIrBeforeAll, "print the IR before every pass (on stderr)");
  app.add_flag("--print-ir-after-change", opts.printIrAfterChange,
               "print the IR after each pass that changed it (a structural fingerprint differs; on stderr)");
  app.add_flag("--print-ir-after-failure", opts.printIrAfterFailure, "print the IR a failing pass left (on stderr)");
  app.add_flag("--print-locations", opts.printLocations,
               "append '// loc: FILE:LINE' (or '// loc: made by PASS ...') to each op's line");
  app.add_flag("--dump-pass-pipeline", opts.dumpPassPipeline,
               "print the pipeline with every option's value, as --pass-pipeline reads it (on stderr)");
  app.add_flag("--verify-diagnostics", opts.verifyDiagnostics,
               "check the diagnostics against '// expected-error {{text}}' comments in the input (mlir-opt's), or "
               "'// expected-error-re {{text {{regex}} text}}' (clang's; RE2)");
  app.add_option("--print-ir-tree-dir", opts.printIrTreeDir, "write the IR after each pass to numbered files in DIR")
      ->check(path);
  app.add_flag("--split-input-file", opts.splitInputFile,
               "handle programs separated by '// -----' lines one by one (a failing one prints nothing)");
  app.add_flag("--pass-statistics", opts.passStatistics, "report what each pass changed (on stderr)");
  app.add_flag("--timing", opts.timing,
               "report the time of parsing, verifying the input, each pass and printing (on stderr)");
  app.add_option("--threads", opts.threads,
                 "threads to read, verify and print a big program with, and to make split-ranks' programs on "
                 "(default: the cores present); the output is the same")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("--print-era", opts.printEra,
                 "print in the era read (input), the seeds' dims_maping era (2024) or newest")
      ->check(CLI::IsMember({"input", "2024", "newest"}))
      ->capture_default_str();
  app.add_option("--log-level", opts.logLevel, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  app.set_version_flag("--version", "pir-opt 0.1.0");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return exitAfterParse("pir-opt", app, e);
  }
  if (opts.threads) core::setWorkerThreads(opts.threads);
  opts.threads = core::workerThreads();
  try {
    setUpLogging(opts.logLevel);
    if (opts.listPasses) {
      listPasses();
      return stdoutWritten("pir-opt") ? 0 : 1;
    }
    return process(opts);
  } catch (const std::bad_alloc&) {
    // Input too large for this machine (an endless stream, say): the input's
    // fault, not ours.
    std::fprintf(stderr, "pir-opt: error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pir-opt: internal error: %s\n", e.what());
    return 2;
  }
}

}  // namespace pir::app
