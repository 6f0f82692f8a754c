//===- staged_directory.h - write several files, all or none ---*- C++ -*-===//
//
// Files are written into a temporary folder beside the target. commit()
// renames the folder into place when the target does not exist yet. An
// existing target is merged (pir-opt: each file moved in, every file put
// back as it was if one cannot be moved) or replaced as a whole (pir-run:
// the old folder renamed aside, the new one renamed in, the old one then
// removed; a folder is replaced only when it is empty or holds the marker
// file an earlier run wrote, never a user's folder). Until then the target
// is untouched, and
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

  /// What commit() does to a target folder that exists.
  enum class Existing {
    Merge,    // move each file in
    Replace,  // swap the whole folder, when it is empty or holds `marker`
  };
  /// Stages files for `dir`; with Replace, a non-empty `dir` without
  /// `marker` is refused here, before anything is written.
  core::Status open(const std::string& dir, Existing existing = Existing::Merge, const std::string& marker = "");
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
  core::Status replaceTarget();
  /// Makes the folders of `name` under `root` that do not exist yet, noting
  /// each in `made` (outermost first).
  static core::Status makeParents(const std::string& root, const std::string& name, std::vector<std::string>& made);

  std::mutex mutex_;  // over files_ and folders_, for writers on several threads
  std::string target_;
  Existing existing_ = Existing::Merge;
  std::string staging_;
  std::vector<std::string> files_;
  std::vector<std::string> folders_;  // made in staging_, outermost first
  SignalCleanup cleanup_;             // removes staging_ on SIGINT, SIGTERM or SIGHUP
};

}  // namespace pir::app
