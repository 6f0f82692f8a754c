//===- signal_cleanup.h - no partial output left by a signal ----*- C++ -*-===//
//
// An output being written (the temporary file of `-o`, the staging folder
// of `--output-dir` or `--print-ir-tree-dir`) is registered here; a SIGINT,
// SIGTERM or SIGHUP removes every registered path, then the process dies of
// the signal as it would have. The handler makes only async-signal-safe
// calls: paths are kept in fixed arrays, and a folder (plain files, and
// folders of them two levels down) is emptied with getdents64 and unlinkat.
//
// A commit's renames run inside a DeferSignals scope, so a signal never
// lands between them: it is delivered once the output is whole.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <signal.h>

#include <string>

namespace pir::app {

class SignalCleanup {
 public:
  SignalCleanup() = default;
  SignalCleanup(const SignalCleanup&) = delete;
  SignalCleanup& operator=(const SignalCleanup&) = delete;
  ~SignalCleanup() { release(); }

  /// Removes the file `path` if a signal kills the process before release().
  void watchFile(const std::string& path) { watch(path, /*folder=*/false); }
  /// Removes the folder `path` and the files in it, likewise.
  void watchFolder(const std::string& path) { watch(path, /*folder=*/true); }
  /// Forgets the path (it was committed or removed).
  void release();

 private:
  void watch(const std::string& path, bool folder);
  int slot_ = -1;
};

/// Holds SIGINT, SIGTERM and SIGHUP back for its lifetime.
class DeferSignals {
 public:
  DeferSignals();
  DeferSignals(const DeferSignals&) = delete;
  DeferSignals& operator=(const DeferSignals&) = delete;
  ~DeferSignals();

 private:
  sigset_t old_;
};

}  // namespace pir::app
