//===- staged_directory.cpp -----------------------------------------------===//
#include "app/staged_directory.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pir::app {

namespace {
std::string err() { return std::strerror(errno); }
}  // namespace

StagedDirectory::~StagedDirectory() { removeStaging(); }

core::Status StagedDirectory::open(const std::string& dir) {
  target_ = dir;
  while (target_.size() > 1 && target_.back() == '/') target_.pop_back();
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    return core::Status::error("'" + dir + "' exists and is not a directory");
  staging_ = target_ + ".pir-opt-tmp-XXXXXX";
  if (!mkdtemp(staging_.data())) {
    std::string e = err();
    staging_.clear();
    return core::Status::error("cannot create a folder next to '" + dir + "': " + e);
  }
  // mkdtemp makes the folder 0700; a new DIR gets the mode mkdir would give.
  mode_t mask = umask(0);
  umask(mask);
  ::chmod(staging_.c_str(), 0777 & ~mask);
  cleanup_.watchFolder(staging_);
  return core::Status::ok();
}

core::Status StagedDirectory::writeFile(const std::string& name, std::string_view content) {
  std::string path = staging_ + "/" + name;
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return core::Status::error("cannot create '" + path + "': " + err());
  files_.push_back(name);
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string e = err();
      ::close(fd);
      return core::Status::error("error writing '" + path + "': " + e);
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
  if (fsync(fd) != 0 || ::close(fd) != 0) return core::Status::error("error writing '" + path + "': " + err());
  return core::Status::ok();
}

core::Status StagedDirectory::commit() {
  DeferSignals deferred;  // the renames below are all or nothing, a signal too
  struct stat st {};
  if (::stat(target_.c_str(), &st) != 0) {
    if (::rename(staging_.c_str(), target_.c_str()) != 0)
      return core::Status::error("cannot create '" + target_ + "': " + err());
    cleanup_.release();
    staging_.clear();
    files_.clear();
    return core::Status::ok();
  }
  // Into an existing folder, all or nothing: a file that cannot be replaced
  // (a folder of that name) is found before anything moves; an old file is
  // moved aside into the staging folder first, and put back if a later
  // rename fails.
  for (const std::string& f : files_) {
    std::string to = target_ + "/" + f;
    struct stat old {};
    if (::lstat(to.c_str(), &old) == 0 && S_ISDIR(old.st_mode))
      return core::Status::error("cannot write '" + to + "': it is a directory");
  }
  std::vector<bool> hadOld(files_.size(), false);
  auto aside = [&](const std::string& f) { return staging_ + "/.pir-opt-old-" + f; };
  size_t moved = 0;
  std::string failure;
  for (; moved < files_.size(); ++moved) {
    const std::string& f = files_[moved];
    std::string from = staging_ + "/" + f, to = target_ + "/" + f;
    struct stat old {};
    if (::lstat(to.c_str(), &old) == 0) {
      if (::rename(to.c_str(), aside(f).c_str()) != 0) {
        failure = "cannot replace '" + to + "': " + err();
        break;
      }
      hadOld[moved] = true;
    }
    if (::rename(from.c_str(), to.c_str()) != 0) {
      failure = "cannot write '" + to + "': " + err();
      if (hadOld[moved]) ::rename(aside(f).c_str(), to.c_str());
      hadOld[moved] = false;
      break;
    }
  }
  if (!failure.empty()) {
    for (size_t i = moved; i-- > 0;) {
      std::string to = target_ + "/" + files_[i];
      ::rename(to.c_str(), (staging_ + "/" + files_[i]).c_str());
      if (hadOld[i]) ::rename(aside(files_[i]).c_str(), to.c_str());
    }
    return core::Status::error(failure);
  }
  for (size_t i = 0; i < files_.size(); ++i)
    if (hadOld[i]) ::unlink(aside(files_[i]).c_str());
  files_.clear();
  removeStaging();
  return core::Status::ok();
}

void StagedDirectory::removeStaging() {
  if (staging_.empty()) return;
  for (const std::string& f : files_) ::unlink((staging_ + "/" + f).c_str());
  ::rmdir(staging_.c_str());
  cleanup_.release();
  staging_.clear();
  files_.clear();
}

}  // namespace pir::app
