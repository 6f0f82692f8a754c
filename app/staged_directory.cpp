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
  struct stat st {};
  if (::stat(target_.c_str(), &st) != 0) {
    if (::rename(staging_.c_str(), target_.c_str()) != 0)
      return core::Status::error("cannot create '" + target_ + "': " + err());
    staging_.clear();
    files_.clear();
    return core::Status::ok();
  }
  for (const std::string& f : files_) {
    std::string from = staging_ + "/" + f, to = target_ + "/" + f;
    if (::rename(from.c_str(), to.c_str()) != 0) return core::Status::error("cannot write '" + to + "': " + err());
  }
  files_.clear();
  removeStaging();
  return core::Status::ok();
}

void StagedDirectory::removeStaging() {
  if (staging_.empty()) return;
  for (const std::string& f : files_) ::unlink((staging_ + "/" + f).c_str());
  ::rmdir(staging_.c_str());
  staging_.clear();
  files_.clear();
}

}  // namespace pir::app
