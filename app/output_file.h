//===- output_file.h - outputs that never lose data -------------*- C++ -*-===//
//
// `-o` resolves its target first. A regular file (or a new path) is written
// to a temporary file in the same folder, fsynced, and renamed over the
// target, keeping its permissions; a symlink to a regular file replaces the
// target, not the link. Anything else (a pipe, /dev/stdout, /dev/null,
// /dev/full, any path in /dev or /proc) is written straight to and never
// renamed over. A temporary file's bytes are handed to the disk every 8 MB
// as they come (sync_file_range), so that the one fsync at commit waits only
// for the rest. writeBehind() gives a temporary file a thread of its own,
// for a core the caller leaves spare: it allocates the file's blocks while
// the program is read and transformed, and later makes the writes while the
// caller prints (writing 534 MB into tmpfs: 0.29 s, of which allocating
// 0.15). Until commit() succeeds the old file is untouched; a destroyed,
// uncommitted output removes its temporary file, and so does a SIGINT,
// SIGTERM or SIGHUP before the process dies of it (signal_cleanup.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "app/signal_cleanup.h"
#include "core/status.h"

namespace pir::app {

class OutputFile {
 public:
  OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  /// Prepares to write `path` ("-" is stdout).
  core::Status open(const std::string& path);
  /// open(), where `path` is written through a temporary file (a regular
  /// file or a new path); false, with nothing opened or created, where it
  /// is not or cannot be.
  bool openTemporary(const std::string& path);
  /// For a temporary file: starts a thread of its own that allocates
  /// `bytes` for it (the output's likely size; what is not written is freed
  /// at commit; where the file system cannot, it allocates nothing) and
  /// then makes every write: write() copies its bytes into a few large
  /// buffers that the thread writes in order, and waits only when they are
  /// all queued.
  void writeBehind(size_t bytes);
  /// Appends bytes; false after a write error (reported by commit()).
  bool write(std::string_view data);
  /// Finishes the output: flush, fsync and rename for regular files.
  core::Status commit();
  /// Drops the output: the temporary file is removed, the target untouched.
  void discard();

  /// The target file a temporary stands for (empty when writing directly).
  const std::string& target() const { return target_; }

 private:
  int fd_ = -1;
  bool ownsFd_ = false;
  std::string path_;
  std::string target_;  // resolved target when renaming
  std::string temp_;    // temporary file path when renaming
  int writeErrno_ = 0;
  size_t written_ = 0, flushedTo_ = 0;  // bytes written; handed to the disk (sync_file_range)
  size_t reserved_ = 0;                 // bytes allocated ahead (fallocate; read once the thread is joined)
  struct Behind;                        // writeBehind()'s thread and buffers
  std::unique_ptr<Behind> behind_;
  bool writeNow(std::string_view data);  // the write itself, on whichever thread makes it
  void finishBehind(bool cancel);        // hands on the last buffer (unless cancelled) and joins the thread
  static constexpr size_t kWritebackStep = size_t{8} << 20;
  SignalCleanup cleanup_;  // removes temp_ on SIGINT, SIGTERM or SIGHUP
};

}  // namespace pir::app
