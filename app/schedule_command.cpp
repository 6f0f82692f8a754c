//===- schedule_command.cpp - `pir-opt schedule ...` ------------------------===//
//
// Generate: options -> job lists -> validate + dry run (a failure here is
// our bug: exit 2) -> simulate -> render. Check: read YAML -> validate ->
// programs -> dry run -> the programs' communication (a split-ranks
// folder) -> simulate -> a one-line summary (or --format).
//
//===----------------------------------------------------------------------===//
#include "app/schedule_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "app/cli_checks.h"
#include "app/output_file.h"
#include "app/verify_comm_command.h"
#include "passes/manifest.h"
#include "passes/rank_layout.h"
#include "passes/schedule/dry_run.h"
#include "passes/schedule/formats.h"
#include "passes/schedule/generate.h"
#include "passes/schedule/list_check.h"
#include "passes/schedule/validator.h"

namespace pir::app {

namespace {

namespace sched = passes::schedule;

struct ScheduleArgs {
  sched::ScheduleOptions options;
  std::string costsFile, format, output = "-", check, programs;
  // Whether --stages / --micro-batches were given at all: 0 is a value to
  // refuse as such, not a missing option.
  bool stagesGiven = false, microBatchesGiven = false;
};

int fail(const std::string& message, int code = 1) { return cliError("pir-opt schedule", message, code); }

int failAll(const std::string& what, const std::vector<std::string>& errors) {
  for (const std::string& e : errors) fail(what + e);
  return 1;
}

std::string render(const std::string& format, const sched::Schedule& s, const sched::Simulation& sim) {
  if (format == "grid") return sched::renderTimeGrid(s, sim);
  if (format == "chrome-trace") return sched::renderChromeTrace(s, sim);
  if (format == "svg") return sched::renderSvg(s, sim);
  if (format == "torch-csv") return sched::scheduleToTorchCsv(s);
  return sched::scheduleToYaml(s, &sim);
}

int write(const std::string& path, const std::string& text) {
  OutputFile out;
  if (core::Status s = out.open(path); !s) return fail(s.message());
  out.write(text);
  if (core::Status s = out.commit(); !s) return fail(s.message());
  return 0;
}

std::string summary(const std::string& file, const sched::Simulation& sim) {
  char line[128];
  std::snprintf(line, sizeof line, "%s: valid; makespan %lld, bubble_ratio %.4f, peak_in_flight [", file.c_str(),
                static_cast<long long>(sim.makespan), sim.bubbleRatio);
  std::string text = line;
  for (size_t s = 0; s < sim.peakInFlight.size(); ++s) text += (s ? ", " : "") + std::to_string(sim.peakInFlight[s]);
  return text + "]\n";
}

/// `schedule` with each full backward that DIR has no program for, but its
/// halves, run as backward_b then backward_w (sched::withBackwardHalves).
sched::Schedule withHalves(const ScheduleArgs& args, const sched::Schedule& schedule) {
  auto manifest = passes::loadManifest((std::filesystem::path(args.programs) / passes::kManifestName).string());
  return sched::withBackwardHalves(schedule, [&](int stage, const std::string& type) {
    if (!manifest) return std::filesystem::exists(std::filesystem::path(args.programs) / (type + ".pir"));
    return std::any_of(manifest->programs.begin(), manifest->programs.end(), [&](const passes::ManifestProgram& p) {
      return p.job == type && (p.stage < 0 || p.stage == stage);
    });
  });
}

/// `--programs DIR`: with a DIR/programs.yaml (what `pir-opt --output-dir`
/// writes), every job type of each stage needs a program of that job on
/// that stage (or on no stage in particular); without one, a DIR/TYPE.pir
/// (or DIR/TYPE) per type. Returns the exit code when something is missing.
int checkPrograms(const ScheduleArgs& args, const sched::Schedule& schedule) {
  std::string manifestPath = (std::filesystem::path(args.programs) / passes::kManifestName).string();
  std::error_code ec;
  if (!std::filesystem::exists(manifestPath, ec)) {
    if (auto errors = sched::checkProgramsExist(schedule, args.programs); !errors.empty())
      return failAll(args.check + ": ", errors);
    return 0;
  }
  auto manifest = passes::loadManifest(manifestPath);
  if (!manifest) {
    std::fprintf(stderr, "%s\n", manifest.status().message().c_str());
    return 1;
  }
  if (auto errors = passes::checkScheduleHasPrograms(schedule, *manifest, manifestPath); !errors.empty())
    return failAll(args.check + ": ", errors);
  return 0;
}

/// `--programs DIR` of split-ranks (a DIR/ranks.yaml beside its
/// programs.yaml): the job programs' communication, run as the list says
/// (app/verify_comm_command.h). Returns the exit code.
int checkCommunication(const ScheduleArgs& args, const sched::Schedule& schedule) {
  std::error_code ec;
  const std::filesystem::path dir(args.programs);
  if (!std::filesystem::exists(dir / passes::kManifestName, ec) ||
      !std::filesystem::exists(dir / passes::kRankLayoutName, ec))
    return 0;
  sched::CommCheckReport report;
  return checkFolderComm("pir-opt schedule", args.programs, &schedule, report);
}

/// The list's own problems (passes/schedule/list_check.h, as pir-run checks
/// it), each `pir-opt schedule: error: FILE:LINE:COL: ...` and notes as
/// `FILE:LINE:COL: note: ...`. Returns the exit code.
int reportListProblems(const std::string& file, const std::vector<sched::ScheduleProblem>& problems) {
  for (const sched::ScheduleProblem& p : problems) {
    std::string at = file + ":" + (p.at.line ? p.at.str() + ":" : "");
    if (p.note) {
      std::fprintf(stderr, "%s note: %s\n", at.c_str(), p.message.c_str());
      continue;
    }
    std::string text = p.at.line ? at + " " + p.message : file + ": " + p.message;
    while (!text.empty() && text.back() == '\n') text.pop_back();  // a deadlock's report ends in one
    fail(text);
  }
  return problems.empty() ? 0 : 1;
}

int runCheck(const ScheduleArgs& args) {
  auto schedule = sched::loadScheduleFile(args.check, args.options.mode);
  if (!schedule) return fail(schedule.status().message());
  if (int rc = reportListProblems(args.check, sched::checkScheduleList(*schedule)); rc != 0) return rc;
  if (!args.programs.empty()) {
    // The programs checked: a full backward without its own runs as its halves (as pir-run runs it).
    sched::Schedule run = withHalves(args, *schedule);
    if (int rc = checkPrograms(args, run); rc != 0) return rc;
    if (int rc = checkCommunication(args, run); rc != 0) return rc;
  }
  auto sim = sched::simulate(*schedule, args.options.costs);
  if (!sim) return fail(sim.status().message(), 2);
  return write(args.output, args.format.empty() ? summary(args.check, *sim) : render(args.format, *schedule, *sim));
}

int runGenerate(const ScheduleArgs& args) {
  auto schedule = sched::generateSchedule(args.options);
  if (!schedule) return fail(schedule.status().message());
  if (auto errors = sched::validateSchedule(*schedule); !errors.empty())
    return failAll("internal: generated list is invalid: ", errors) + 1;
  sched::DryRunResult dry = sched::dryRun(*schedule);
  if (dry.deadlock) {
    // Paddle's own list can deadlock (VPP with a remainder): show it, keep the list.
    std::fprintf(stderr, "pir-opt schedule: error: the %s list deadlocks under the dependency model: %s",
                 schedule->mode.c_str(), dry.report.c_str());
    if (!args.format.empty() && args.format != "yaml") return 1;
    (void)write(args.output, sched::scheduleToYaml(*schedule, nullptr));
    return 1;
  }
  auto sim = sched::simulate(*schedule, args.options.costs);
  if (!sim) return fail(sim.status().message(), 2);
  return write(args.output, render(args.format, *schedule, *sim));
}

void addOptions(CLI::App& app, ScheduleArgs& a) {
  const CLI::Validator path = nonEmptyPath();
  app.add_option("--mode", a.options.mode,
                 "FThenB, 1F1B, VPP, ZBH1, ZBVPP, ZB1P, ZBV or DualPipeV; with --check FILE.csv, the program set "
                 "torch's CSV is read for (default: inferred)");
  app.add_option_function<int>(
      "--stages",
      [&a](int p) {
        a.options.stages = p;
        a.stagesGiven = true;
      },
      "pipeline stages P (1 or more)");
  app.add_option_function<int>(
      "--micro-batches",
      [&a](int n) {
        a.options.microBatches = n;
        a.microBatchesGiven = true;
      },
      "micro-batches N (1 or more)");
  app.add_option("--vpp", a.options.vpp, "chunks per stage V (VPP, ZBVPP)");
  app.add_flag("--split-bw", a.options.splitBw, "VPP: split backward into backward_b/backward_w (needs N == P)");
  app.add_option("--costs", a.costsFile,
                 "YAML costs: forward, backward_b, backward_w, communication, optimizer, memory, max_memory")
      ->check(path);
  app.add_option("--max-in-flight", a.options.maxInFlight, "ZB1P: micro-batches a stage may hold (default P)");
  app.add_option("--format", a.format, "yaml (default), grid, chrome-trace, svg or torch-csv");
  app.add_option("-o,--output", a.output, "output file, or - for stdout (written atomically)")->check(path);
  app.add_option("--check", a.check,
                 "validate a job-list file instead of generating one: our YAML, or torch's CSV (FILE.csv)")
      ->check(path);
  app.add_option("--programs", a.programs,
                 "with --check: every job type needs a program, one DIR/programs.yaml lists (per stage), "
                 "else a DIR/TYPE.pir; with a DIR/ranks.yaml, the programs' communication is checked too")
      ->check(path);
}

/// Cross-option checks CLI11 cannot express; empty when fine.
std::string checkArgs(const ScheduleArgs& a) {
  if (!a.format.empty() && a.format != "yaml" && a.format != "grid" && a.format != "chrome-trace" &&
      a.format != "svg" && a.format != "torch-csv")
    return "unknown --format '" + a.format + "' (expected yaml, grid, chrome-trace, svg or torch-csv)";
  if (!a.check.empty()) {
    const bool csv = sched::isTorchCsvPath(a.check);
    if ((!a.options.mode.empty() && !csv) || a.stagesGiven || a.microBatchesGiven)
      return "--check reads the stages and micro-batches from the file, and a YAML file its mode; drop --stages "
             "and --micro-batches (--mode only names the program set of a torch CSV)";
    if (csv && !a.options.mode.empty() && passes::schedule::canonicalMode(a.options.mode).empty())
      return "unknown --mode '" + a.options.mode + "'";
    return "";
  }
  if (!a.programs.empty()) return "--programs goes with --check";
  if (a.options.mode.empty()) return "--mode is required (FThenB, 1F1B, VPP, ZBH1, ZBVPP, ZB1P, ZBV or DualPipeV)";
  if (!a.stagesGiven) return "--stages is required";
  if (!a.microBatchesGiven) return "--micro-batches is required";
  return "";
}

}  // namespace

int runSchedule(int argc, char** argv) {
  CLI::App app{"pir-opt schedule: pipeline job lists (Paddle's modes, ZB1P, ZBV, DualPipeV), checked and simulated"};
  app.name("pir-opt schedule");
  ScheduleArgs args;
  addOptions(app, args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return exitAfterParse("pir-opt schedule", app, e);
  }
  if (std::string problem = checkArgs(args); !problem.empty()) return fail(problem);
  if (!args.costsFile.empty()) {
    auto costs = sched::loadCosts(args.costsFile);
    if (!costs) return fail(costs.status().message());
    args.options.costs = *costs;
  }
  try {
    return args.check.empty() ? runGenerate(args) : runCheck(args);
  } catch (const std::exception& e) {
    return fail(std::string("internal: ") + e.what(), 2);
  }
}

}  // namespace pir::app
