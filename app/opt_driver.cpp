//===- opt_driver.cpp - parse, run passes, verify, print ------------------===//
//
// A straight line: read the pipeline, read the input, verify, run the passes
// on each program, verify, then print. Output is written only when every
// program succeeded, so a failure never leaves a half-written file.
//
//===----------------------------------------------------------------------===//
#include "app/opt_driver.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <set>
#include <string>

#include "app/cli_checks.h"
#include "app/input_file.h"
#include "app/opt_options.h"
#include "app/output_file.h"
#include "app/staged_directory.h"
#include "core/context.h"
#include "core/printer.h"
#include "core/verifier.h"
#include "parser/parser.h"
#include "passes/manifest.h"
#include "passes/pass_manager.h"
#include "passes/pass_registry.h"

namespace pir::app {

namespace {

using Clock = std::chrono::steady_clock;

int fail(const std::string& message) {
  std::fprintf(stderr, "pir-opt: error: %s\n", message.c_str());
  return 1;
}

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
    InputFile file;
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

std::string dumpHeader(const std::string& pass, const char* when) {
  return "// -----// IR Dump " + std::string(when) + " " + pass + " //----- //\n";
}

struct Session {
  explicit Session(const OptOptions& o) : opts(o) {}
  const OptOptions& opts;
  core::Context ctx;
  StagedDirectory treeDir;
  int treeIndex = 0;
  size_t programIndex = 0;
  size_t programCount = 1;
  double verifyMs = 0;        // verifying the input programs, for --timing
  double checkPrintMs = 0;    // checking the output can be printed, timed as printing
  std::string pipelineText;   // what --pass-pipeline or --config gave, for diagnostics
  std::string internalError;  // the first internal error (a pass's bug), reported after the diagnostics

  void dump(const std::string& pass, const char* when, const core::Program& program) {
    if (opts.printIrAfterAll || !opts.printIrBefore.empty() || !opts.printIrAfter.empty()) {
      if ((std::string(when) == "Before" && contains(opts.printIrBefore, pass)) ||
          (std::string(when) == "After" && (opts.printIrAfterAll || contains(opts.printIrAfter, pass)))) {
        std::string text = dumpHeader(pass, when) + core::printProgram(program);
        std::fputs(text.c_str(), stderr);
      }
    }
    if (treeDir.isOpen() && std::string(when) == "After") writeTree(pass, program);
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
bool processProgram(Session& session, const std::vector<passes::PassSpec>& specs, core::ProgramSet& set,
                    core::DiagnosticEngine& diag, std::vector<std::pair<std::string, double>>& timings,
                    std::vector<std::unique_ptr<passes::PassManager>>& managers) {
  const OptOptions& opts = session.opts;
  core::Program& program = *set.programs[0].program;
  if (!opts.noVerify) {
    core::VerifyOptions v;
    v.distConsistency = opts.verifyDist && specs.empty();
    // A partial read no entry fixes: an error with --verify-dist (after the
    // passes when there are any), else a warning once, here.
    v.partialReads = !opts.verifyDist ? core::CheckLevel::Warn
                     : specs.empty()  ? core::CheckLevel::Error
                                      : core::CheckLevel::Off;
    auto start = Clock::now();
    size_t errors = core::verifyProgram(program, diag, v);
    session.verifyMs += msSince(start);
    if (errors) return false;
  }
  if (session.treeDir.isOpen()) session.writeTree("input", program);
  passes::PassManagerOptions pmOpts;
  pmOpts.verifyEach = !opts.noVerify;
  pmOpts.verifyDist = opts.verifyDist;
  pmOpts.printBefore.insert(opts.printIrBefore.begin(), opts.printIrBefore.end());
  pmOpts.printAfter.insert(opts.printIrAfter.begin(), opts.printIrAfter.end());
  // The tree dir is fed by the "After" dump hook, which the pass manager
  // calls only for passes it is told to print after.
  pmOpts.printAfterAll = opts.printIrAfterAll || session.treeDir.isOpen();
  auto pm = std::make_unique<passes::PassManager>(pmOpts);
  if (!buildPassManager(opts, session.pipelineText, specs, *pm)) return false;
  pm->setIrDumpHook(
      [&](const std::string& pass, const char* when, const core::Program& p) { session.dump(pass, when, p); });
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
    if (core::Status ps = core::checkPrintable(*p.program); !ps) {
      diag.error(ps.offset(), ps.message());
      return false;
    }
  session.checkPrintMs += msSince(checkStart);
  return true;
}

void printStatistics(const std::vector<std::unique_ptr<passes::PassManager>>& managers) {
  std::fputs(
      "===-------------------------------------------------------------------------===\n"
      "                         ... Pass statistics report ...\n"
      "===-------------------------------------------------------------------------===\n",
      stderr);
  for (const auto& pm : managers)
    for (const auto& pass : pm->passes()) {
      std::fprintf(stderr, "%.*s\n", static_cast<int>(pass->name().size()), pass->name().data());
      if (pass->statistics().entries().empty()) std::fputs("  (no changes)\n", stderr);
      for (const auto& [name, value] : pass->statistics().entries())
        std::fprintf(stderr, "  (S) %lld %s\n", static_cast<long long>(value), name.c_str());
    }
}

/// One input program and what the pipeline made of it.
struct Unit {
  std::string marker;  // the `// -----` line it had in the input, or empty
  core::ProgramSet set;
};

/// Prints every program: named ones (what a split made) each after a
/// `// ----- job: NAME` line, others after their input marker line.
core::Status writeOutput(const std::string& path, const std::vector<Unit>& units) {
  OutputFile out;
  if (core::Status s = out.open(path); !s) return s;
  core::OutputSink sink = [&](std::string_view chunk) { return out.write(chunk); };
  for (const Unit& u : units)
    for (const core::NamedProgram& p : u.set.programs) {
      std::string header = !p.name.empty() ? "// ----- job: " + p.name : u.marker;
      if (!header.empty()) {
        out.write(header);
        out.write("\n");
      }
      (void)core::printProgram(*p.program, sink);
    }
  return out.commit();
}

/// `--output-dir`: each program to its file (passes/manifest.h: rankN/JOB.pir
/// or NAME.pir) and DIR/programs.yaml listing them in order.
core::Status writeOutputDir(const std::string& dir, const std::vector<Unit>& units) {
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
  if (core::Status s = staged.writeFile(std::string(passes::kManifestName), passes::writeManifest(manifest)); !s)
    return s;
  return staged.commit();
}

int process(const OptOptions& opts) {
  std::vector<passes::PassSpec> specs;
  std::string pipelineText;
  if (!readPipeline(opts, specs, pipelineText)) return 1;
  {  // Unknown passes fail before any input is read.
    passes::PassManager probe;
    if (!buildPassManager(opts, pipelineText, specs, probe)) return 1;
  }

  Session session(opts);
  session.pipelineText = std::move(pipelineText);
  InputFile input;
  if (core::Status s = input.open(opts.input); !s) return fail(s.message());
  core::SourceFile source(opts.input == "-" ? "<stdin>" : opts.input, input.text());
  core::DiagnosticEngine diag(&source);

  auto parseStart = Clock::now();
  auto parsed = parser::parseFile(session.ctx, source, diag);
  double parseMs = msSince(parseStart);
  if (!parsed) return failWith(diag);
  input.releaseResidentPages();  // the passes' peak memory is the IR's, not the IR's plus the text's
  spdlog::debug("parsed {} program(s) in {:.1f} ms", parsed->size(), parseMs);
  if (parsed->size() > 1 && !opts.splitInputFile) {
    diag.error((*parsed)[1].offset, "multiple programs; use --split-input-file");
    return failWith(diag);
  }
  if (!opts.printIrTreeDir.empty())
    if (core::Status s = session.treeDir.open(opts.printIrTreeDir); !s) return fail(s.message());

  std::vector<std::pair<std::string, double>> timings;
  std::vector<std::unique_ptr<passes::PassManager>> managers;
  session.programCount = parsed->size();
  std::vector<Unit> units(parsed->size());
  bool ok = true;
  for (size_t i = 0; i < parsed->size(); ++i) {
    session.programIndex = i;
    session.treeIndex = 0;  // p1_00_input.pir, not p1_02_input.pir
    units[i].marker = (*parsed)[i].marker;
    units[i].set.programs.push_back({std::string(), std::move((*parsed)[i].program)});
    ok = processProgram(session, specs, units[i].set, diag, timings, managers) && ok;
  }
  if (!ok) {
    diag.sortByPosition();
    if (session.internalError.empty()) return failWith(diag);
    std::fputs(diag.render().c_str(), stderr);
    std::fprintf(stderr, "pir-opt: internal error: %s (a bug in pir-opt, not in the input)\n",
                 session.internalError.c_str());
    return 2;
  }
  if (!session.treeStatus) return fail(session.treeStatus.message());
  if (diag.size()) {  // warnings only
    diag.sortByPosition();
    std::fputs(diag.render().c_str(), stderr);
  }

  auto printStart = Clock::now();
  if (!opts.outputDir.empty()) {
    if (core::Status s = writeOutputDir(opts.outputDir, units); !s) return fail(s.message());
  } else if (core::Status s = writeOutput(opts.output, units); !s) {
    return fail(s.message());
  }
  double printMs = session.checkPrintMs + msSince(printStart);
  if (session.treeDir.isOpen())
    if (core::Status s = session.treeDir.commit(); !s) return fail(s.message());

  if (opts.passStatistics) printStatistics(managers);
  if (opts.timing) {
    std::fprintf(stderr, "timing: parse %.3f ms\n", parseMs);
    if (!opts.noVerify) std::fprintf(stderr, "timing: verify %.3f ms\n", session.verifyMs);
    for (const auto& [label, seconds] : timings)
      std::fprintf(stderr, "timing: %s %.3f ms\n", label.c_str(), seconds * 1e3);
    std::fprintf(stderr, "timing: print %.3f ms\n", printMs);
  }
  return 0;
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
  pir-opt cases.pir --split-input-file        programs separated by '// -----' lines
  pir-opt --list-passes

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
  app.add_flag("--print-ir-after-all", opts.printIrAfterAll, "print the IR after every pass (on stderr)");
  app.add_option("--print-ir-tree-dir", opts.printIrTreeDir, "write the IR after each pass to numbered files in DIR")
      ->check(path);
  app.add_flag("--split-input-file", opts.splitInputFile, "handle programs separated by '// -----' lines one by one");
  app.add_flag("--pass-statistics", opts.passStatistics, "report what each pass changed (on stderr)");
  app.add_flag("--timing", opts.timing,
               "report the time of parsing, verifying the input, each pass and printing (on stderr)");
  app.add_option("--log-level", opts.logLevel, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  app.set_version_flag("--version", "pir-opt 0.1.0");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return exitAfterParse(app, e);
  }
  try {
    setUpLogging(opts.logLevel);
    if (opts.listPasses) {
      listPasses();
      return stdoutWritten() ? 0 : 1;
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
