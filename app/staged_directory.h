//===- staged_directory.h - write several files, all or none ---*- C++ -*-===//
//
// Files are written into a temporary folder beside the target. commit()
// renames the folder into place when the target does not exist yet, or
// moves each file into an existing target folder, putting every file back
// as it was if one cannot be moved; until then the target is untouched, and
// a staged folder that is never committed is removed, by a SIGINT, SIGTERM
// or SIGHUP too (signal_cleanup.h). A file name may hold folders
// (`rank0/forward.pir`): they are made as needed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "app/signal_cleanup.h"
#include "core/printer.h"
#include "core/status.h"

namespace pir::app {

class StagedDirectory {
 public:
  StagedDirectory() = default;
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;
  ~StagedDirectory();

  core::Status open(const std::string& dir);
  core::Status writeFile(const std::string& name, std::string_view content);
  /// Writes file `name` with what `produce` hands the sink it is given, in
  /// chunks (core::printProgram's sink form): the text is never whole in
  /// memory. `produce` returns false when the sink did. Several threads may
  /// write different files at once.
  core::Status writeFile(const std::string& name, const std::function<bool(const core::OutputSink&)>& produce);
  core::Status commit();
  bool isOpen() const { return !staging_.empty(); }

 private:
  void removeStaging();
  /// Makes the folders of `name` under `root` that do not exist yet, noting
  /// each in `made` (outermost first).
  static core::Status makeParents(const std::string& root, const std::string& name, std::vector<std::string>& made);

  std::mutex mutex_;  // over files_ and folders_, for writers on several threads
  std::string target_;
  std::string staging_;
  std::vector<std::string> files_;
  std::vector<std::string> folders_;  // made in staging_, outermost first
  SignalCleanup cleanup_;             // removes staging_ on SIGINT, SIGTERM or SIGHUP
};

}  // namespace pir::app
