//===- output_file.cpp ----------------------------------------------------===//
#include "app/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "core/threads.h"

namespace pir::app {

namespace {
std::string dirName(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string errnoText(int e) { return std::strerror(e); }

/// The descriptor an already open stream's path names (`/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`), or -1.
int streamDescriptor(const std::string& path) {
  if (path == "/dev/stdin") return STDIN_FILENO;
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    int n = 0;
    for (size_t i = prefix.size(); i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9' || n > 100000) return -1;
      n = n * 10 + (path[i] - '0');
    }
    return n;
  }
  return -1;
}

/// Whether `path` is in /dev itself or under /proc or /sys, where files are
/// not made: they are written where they stand or not at all. /dev's
/// subdirectories (`/dev/shm`, a tmpfs) hold files as any directory does.
bool inDevOrProc(const std::string& path) {
  return dirName(path) == "/dev" || path.rfind("/proc/", 0) == 0 || path.rfind("/sys/", 0) == 0;
}

/// What would really be written: symlinks followed.
std::string resolveTarget(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

}  // namespace

OutputFile::OutputFile() = default;
OutputFile::~OutputFile() { discard(); }

bool OutputFile::openTemporary(const std::string& path) {
  // What open() writes in place, checked before anything is opened (a
  // device path would be truncated, a FIFO waited on).
  if (path == "-" || streamDescriptor(path) >= 0 || inDevOrProc(path)) return false;
  struct stat st {};
  if (::stat(resolveTarget(path).c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return false;
  if (!open(path).isOk()) return false;
  if (temp_.empty()) {  // it became something else meanwhile
    discard();
    return false;
  }
  return true;
}

core::Status OutputFile::open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    return core::Status::ok();
  }
  // An open stream is written where it stands, as a shell redirect would
  // (appending if it was opened to append); renaming over the file behind
  // it would lose what is already there.
  if (int n = streamDescriptor(path); n >= 0) {
    fd_ = fcntl(n, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) return core::Status::error("cannot write '" + path + "': " + errnoText(errno));
    ownsFd_ = true;
    return core::Status::ok();
  }
  // Nor is a temporary file ever made in /dev or /proc. (O_TRUNC, as a
  // shell's `>`, matters only for a regular file behind /proc/PID/fd/N.)
  if (inDevOrProc(path)) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd_ < 0) return core::Status::error("cannot open '" + path + "': " + errnoText(errno));
    ownsFd_ = true;
    return core::Status::ok();
  }
  std::string resolved = resolveTarget(path);
  struct stat st {};
  bool exists = ::stat(resolved.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return core::Status::error("cannot write '" + path + "': it is a directory");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, pipe or socket: write straight to it, never rename over it.
    fd_ = ::open(resolved.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) return core::Status::error("cannot open '" + path + "': " + errnoText(errno));
    ownsFd_ = true;
    return core::Status::ok();
  }
  target_ = resolved;
  temp_ = dirName(resolved) + "/.pir-opt-tmp-XXXXXX";
  fd_ = mkstemp(temp_.data());
  if (fd_ < 0) {
    int e = errno;
    temp_.clear();
    return core::Status::error("cannot create a temporary file next to '" + path + "': " + errnoText(e));
  }
  ownsFd_ = true;
  cleanup_.watchFile(temp_);
  mode_t mode = exists ? (st.st_mode & 07777) : static_cast<mode_t>(0666 & ~[] {
    mode_t m = umask(0);
    umask(m);
    return m;
  }());
  fchmod(fd_, mode);
  return core::Status::ok();
}

/// writeBehind()'s state. The caller fills `current`; full buffers queue
/// for the thread, which writes them in order and hands them back as spares.
struct OutputFile::Behind {
  struct Buffer {
    std::unique_ptr<char[]> bytes;
    size_t size = 0;
  };
  // Large enough that a write's fixed cost does not count, few enough that
  // they stay a few MB: the printer hands over 1 MB at a time.
  static constexpr size_t kBufferBytes = size_t{4} << 20;
  static constexpr size_t kBuffers = 4;

  std::mutex mutex;
  std::condition_variable queued, returned;
  std::deque<Buffer> queue;    // full, in order
  std::vector<Buffer> spares;  // written, to be filled again
  size_t made = 0;             // buffers allocated so far, at most kBuffers
  bool closing = false;        // nothing more will be queued
  bool failed = false;         // a write failed: what is queued is dropped
  Buffer current;              // the caller's, being filled
  bool refused = false;        // the caller's: handOn() found `failed`
  std::thread thread;

  /// The caller's next empty buffer: a spare, a new one while fewer than
  /// kBuffers exist, or else the first the thread hands back.
  Buffer next() {
    std::unique_lock<std::mutex> lock(mutex);
    if (spares.empty() && made < kBuffers) {
      ++made;
      lock.unlock();
      return {std::unique_ptr<char[]>(new char[kBufferBytes]), 0};  // not zeroed: written before read
    }
    returned.wait(lock, [&] { return !spares.empty(); });
    Buffer b = std::move(spares.back());
    spares.pop_back();
    b.size = 0;
    return b;
  }
  /// Queues `current` for the thread; false once a write has failed.
  bool handOn() {
    std::lock_guard<std::mutex> lock(mutex);
    if (current.bytes && failed)
      spares.push_back(std::move(current));
    else if (current.bytes)
      queue.push_back(std::move(current));
    current = {};
    queued.notify_one();
    refused = failed;
    return !failed;
  }
};

void OutputFile::writeBehind(size_t bytes) {
  if (temp_.empty() || behind_) return;
  behind_ = std::make_unique<Behind>();
  // The thread blocks every signal, so that handlers (signal_cleanup.h) run on the others.
  behind_->thread = core::startHelperThread([this, bytes] {
    // The file's size becomes `bytes` (zeros past what is written), so
    // that commit can free what is not written by truncating to it.
    if (bytes && fallocate(fd_, 0, 0, static_cast<off_t>(bytes)) == 0) reserved_ = bytes;
    Behind& b = *behind_;
    std::unique_lock<std::mutex> lock(b.mutex);
    for (;;) {
      b.queued.wait(lock, [&] { return !b.queue.empty() || b.closing; });
      if (b.queue.empty()) return;
      Behind::Buffer buffer = std::move(b.queue.front());
      b.queue.pop_front();
      lock.unlock();
      bool ok = writeNow({buffer.bytes.get(), buffer.size});
      lock.lock();
      b.spares.push_back(std::move(buffer));
      if (!ok) {  // the rest is dropped; the caller learns it at its next hand-on, commit() why
        b.failed = true;
        for (Behind::Buffer& q : b.queue) b.spares.push_back(std::move(q));
        b.queue.clear();
      }
      b.returned.notify_one();
    }
  });
  if (!behind_->thread.joinable()) behind_.reset();  // written as it comes, then
}

void OutputFile::finishBehind(bool cancel) {
  if (!behind_) return;
  Behind& b = *behind_;
  if (!cancel && b.current.size) b.handOn();
  {
    std::lock_guard<std::mutex> lock(b.mutex);
    if (cancel) b.queue.clear();
    b.closing = true;
    b.queued.notify_one();
  }
  b.thread.join();
  behind_.reset();
}

bool OutputFile::write(std::string_view data) {
  if (!behind_) return writeNow(data);
  Behind& b = *behind_;
  if (b.refused) return false;
  while (!data.empty()) {
    if (!b.current.bytes) b.current = b.next();
    size_t n = std::min(data.size(), Behind::kBufferBytes - b.current.size);
    std::memcpy(b.current.bytes.get() + b.current.size, data.data(), n);
    b.current.size += n;
    data.remove_prefix(n);
    if (b.current.size == Behind::kBufferBytes && !b.handOn()) return false;
  }
  return true;
}

bool OutputFile::writeNow(std::string_view data) {
  if (writeErrno_) return false;
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      writeErrno_ = errno;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
    written_ += static_cast<size_t>(n);
  }
  // A file to be fsynced: its pages start for the disk as they are written,
  // so that commit's fsync waits for the last few MB, not for the whole file.
  if (!temp_.empty() && written_ - flushedTo_ >= kWritebackStep) {
#if defined(__linux__)
    sync_file_range(fd_, static_cast<off_t>(flushedTo_), static_cast<off_t>(written_ - flushedTo_),
                    SYNC_FILE_RANGE_WRITE);
#endif
    flushedTo_ = written_;
  }
  return true;
}

core::Status OutputFile::commit() {
  std::string name = path_ == "-" ? "<stdout>" : path_;
  finishBehind(false);
  if (writeErrno_) {
    int e = writeErrno_;
    discard();
    return core::Status::error("error writing '" + name + "': " + errnoText(e));
  }
  if (!temp_.empty()) {
    // A reservation larger than the text: the file ends where the text does.
    if (reserved_ > written_ && ftruncate(fd_, static_cast<off_t>(written_)) != 0) {
      int e = errno;
      discard();
      return core::Status::error("error writing '" + name + "': " + errnoText(e));
    }
    if (fsync(fd_) != 0 || ::close(fd_) != 0) {
      int e = errno;
      fd_ = -1;
      discard();
      return core::Status::error("error writing '" + name + "': " + errnoText(e));
    }
    fd_ = -1;
    DeferSignals deferred;  // a signal now comes after the rename, and finds nothing to remove
    if (::rename(temp_.c_str(), target_.c_str()) != 0) {
      int e = errno;
      discard();
      return core::Status::error("cannot replace '" + name + "': " + errnoText(e));
    }
    cleanup_.release();
    temp_.clear();
    return core::Status::ok();
  }
  // Direct output: a device like /dev/full reports its error on fsync/close.
  if (ownsFd_) {
    int rc = ::close(fd_);
    fd_ = -1;
    ownsFd_ = false;
    if (rc != 0) return core::Status::error("error writing '" + name + "': " + errnoText(errno));
  }
  return core::Status::ok();
}

void OutputFile::discard() {
  finishBehind(true);
  if (ownsFd_ && fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ownsFd_ = false;
  if (!temp_.empty()) {
    cleanup_.release();
    ::unlink(temp_.c_str());
    temp_.clear();
  }
}

}  // namespace pir::app
