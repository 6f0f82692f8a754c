//===- verify_comm_command.cpp - `pir-opt verify-comm DIR` ----------------===//
//
// Read the folder (passes/program_folder.h) -> the schedule, validated, when
// given -> the communication check -> its errors, or a one-line summary.
//
//===----------------------------------------------------------------------===//
#include "app/verify_comm_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/cli_checks.h"
#include "core/diagnostics.h"
#include "passes/program_folder.h"
#include "passes/schedule/formats.h"
#include "passes/schedule/validator.h"

namespace pir::app {

namespace {

namespace sched = passes::schedule;
constexpr const char* kTool = "pir-opt verify-comm";

int failAll(const std::string& what, const std::vector<std::string>& errors) {
  for (const std::string& e : errors) cliError(kTool, what + e);
  return 1;
}

}  // namespace

int checkFolderComm(const char* tool, const std::string& dir, const sched::Schedule* schedule,
                    sched::CommCheckReport& report) {
  passes::ProgramFolder folder;
  if (core::Status s = passes::loadProgramFolder(dir, folder); !s) {
    std::fputs(core::renderStatus(s).c_str(), stderr);
    return 1;
  }
  if (!schedule)
    for (const passes::ManifestProgram& mp : folder.manifest.programs)
      if (!mp.job.empty())
        return cliError(tool, dir + " holds job programs (" + mp.name + "): give their job lists, --schedule S.yaml");
  passes::FolderComm comm = passes::folderComm(folder);
  report = sched::checkCommunication({comm.programs, schedule, &comm.rings});
  if (report.valid()) return 0;
  std::fputs(sched::renderCommErrors(report).c_str(), stderr);
  return 1;
}

int runVerifyComm(int argc, char** argv) {
  CLI::App app{"pir-opt verify-comm: follow the communication of the programs pir-opt --output-dir wrote"};
  app.name("pir-opt verify-comm");
  std::string dir, schedulePath;
  app.add_option("DIR", dir, "a folder pir-opt --output-dir wrote (programs.yaml, ranks.yaml)")
      ->required()
      ->check(nonEmptyPath());
  app.add_option("--schedule", schedulePath, "the job lists (pir-opt schedule's YAML) of a pipeline-split folder")
      ->check(nonEmptyPath());
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return exitAfterParse(kTool, app, e);
  }
  try {
    std::optional<sched::Schedule> schedule;
    if (!schedulePath.empty()) {
      auto s = sched::loadScheduleFile(schedulePath);
      if (!s) return cliError(kTool, s.status().message());
      // The validator's errors start with LINE:COL in the file.
      if (auto errors = sched::validateSchedule(*s); !errors.empty()) return failAll(schedulePath + ":", errors);
      schedule = std::move(s.value());
    }
    sched::CommCheckReport report;
    if (int rc = checkFolderComm(kTool, dir, schedule ? &*schedule : nullptr, report); rc != 0) return rc;
    std::printf("%s: communication valid (%lld messages, %lld collectives)\n", dir.c_str(),
                static_cast<long long>(report.messages), static_cast<long long>(report.collectives));
    return stdoutWritten(kTool) ? 0 : 1;
  } catch (const std::exception& e) {
    return cliError(kTool, std::string("internal: ") + e.what(), 2);
  }
}

}  // namespace pir::app
