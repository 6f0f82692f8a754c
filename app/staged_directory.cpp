//===- staged_directory.cpp -----------------------------------------------===//
#include "app/staged_directory.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace pir::app {

namespace {
std::string err() { return std::strerror(errno); }

bool isEmptyFolder(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::is_empty(dir, ec) && !ec;
}
}  // namespace

StagedDirectory::~StagedDirectory() { removeStaging(); }

core::Status StagedDirectory::open(const std::string& dir, Existing existing, const std::string& marker) {
  target_ = dir;
  existing_ = existing;
  while (target_.size() > 1 && target_.back() == '/') target_.pop_back();
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    return core::Status::error("'" + dir + "' exists and is not a directory");
  if (existing == Existing::Replace && ::stat(target_.c_str(), &st) == 0 && !isEmptyFolder(target_) &&
      ::lstat((target_ + "/" + marker).c_str(), &st) != 0)
    return core::Status::error("'" + dir + "' is not empty and holds no " + marker +
                               ": an output folder is replaced as a whole, so give a new or empty folder, or one "
                               "an earlier run wrote");
  staging_ = target_ + ".pir-opt-tmp-XXXXXX";
  DeferSignals deferred;  // a signal between mkdtemp and watchFolder would leave the folder
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

core::Status StagedDirectory::makeParents(const std::string& root, const std::string& name,
                                          std::vector<std::string>& made) {
  for (size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1)) {
    std::string folder = root + "/" + name.substr(0, slash);
    struct stat st {};
    if (::lstat(folder.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        return core::Status::error("cannot write '" + root + "/" + name + "': '" + folder + "' is not a directory");
      continue;
    }
    if (::mkdir(folder.c_str(), 0777) != 0) return core::Status::error("cannot create '" + folder + "': " + err());
    made.push_back(folder);
  }
  return core::Status::ok();
}

core::Status StagedDirectory::writeFile(const std::string& name, std::string_view content) {
  return writeFile(name, [&](const core::OutputSink& sink) { return sink(content); });
}

core::Status StagedDirectory::writeFile(const std::string& name,
                                        const std::function<bool(const core::OutputSink&)>& produce) {
  std::string path = staging_ + "/" + name;
  int fd = -1;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (core::Status s = makeParents(staging_, name, folders_); !s) return s;
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return core::Status::error("cannot create '" + path + "': " + err());
    files_.push_back(name);
  }
  std::string error;
  auto sink = [&](std::string_view content) {
    while (!content.empty()) {
      ssize_t n = ::write(fd, content.data(), content.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        error = err();
        return false;
      }
      content.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  };
  if (!produce(sink)) {
    ::close(fd);
    return core::Status::error("error writing '" + path + "': " + error);
  }
  if (fsync(fd) != 0 || ::close(fd) != 0) return core::Status::error("error writing '" + path + "': " + err());
  return core::Status::ok();
}

core::Status StagedDirectory::replaceTarget() {
  // The old folder goes aside under a fresh name beside it, the new one
  // takes its place, and only then is the old one removed: a failure before
  // the second rename leaves the old folder as it was.
  std::string old = target_ + ".pir-old-XXXXXX";
  if (!mkdtemp(old.data())) return core::Status::error("cannot create a folder next to '" + target_ + "': " + err());
  if (::rename(target_.c_str(), old.c_str()) != 0) {
    std::string e = err();
    ::rmdir(old.c_str());
    return core::Status::error("cannot replace '" + target_ + "': " + e);
  }
  if (::rename(staging_.c_str(), target_.c_str()) != 0) {
    std::string e = err();
    ::rename(old.c_str(), target_.c_str());
    return core::Status::error("cannot replace '" + target_ + "': " + e);
  }
  cleanup_.release();
  staging_.clear();
  files_.clear();
  folders_.clear();
  std::error_code ec;
  std::filesystem::remove_all(old, ec);
  if (ec)
    return core::Status::error("replaced '" + target_ + "', but cannot remove the old folder '" + old +
                               "': " + ec.message());
  return core::Status::ok();
}

core::Status StagedDirectory::commit() {
  DeferSignals deferred;  // the renames below are all or nothing, a signal too
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0 && existing_ == Existing::Replace) return replaceTarget();
  if (::stat(target_.c_str(), &st) != 0) {
    if (::rename(staging_.c_str(), target_.c_str()) != 0)
      return core::Status::error("cannot create '" + target_ + "': " + err());
    cleanup_.release();
    staging_.clear();
    files_.clear();
    folders_.clear();
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
    for (size_t slash = f.find('/'); slash != std::string::npos; slash = f.find('/', slash + 1)) {
      std::string folder = target_ + "/" + f.substr(0, slash);
      if (::lstat(folder.c_str(), &old) == 0 && !S_ISDIR(old.st_mode))
        return core::Status::error("cannot write '" + to + "': '" + folder + "' is not a directory");
    }
  }
  // Old files go aside by index: a name may hold a '/'. Folders a file
  // needs in the target are made, and removed again if a rename fails.
  std::vector<bool> hadOld(files_.size(), false);
  std::vector<std::string> madeInTarget;
  auto aside = [&](size_t i) { return staging_ + "/.pir-opt-old-" + std::to_string(i); };
  size_t moved = 0;
  std::string failure;
  for (; moved < files_.size(); ++moved) {
    const std::string& f = files_[moved];
    std::string from = staging_ + "/" + f, to = target_ + "/" + f;
    if (core::Status s = makeParents(target_, f, madeInTarget); !s) {
      failure = s.message();
      break;
    }
    struct stat old {};
    if (::lstat(to.c_str(), &old) == 0) {
      if (::rename(to.c_str(), aside(moved).c_str()) != 0) {
        failure = "cannot replace '" + to + "': " + err();
        break;
      }
      hadOld[moved] = true;
    }
    if (::rename(from.c_str(), to.c_str()) != 0) {
      failure = "cannot write '" + to + "': " + err();
      if (hadOld[moved]) ::rename(aside(moved).c_str(), to.c_str());
      hadOld[moved] = false;
      break;
    }
  }
  if (!failure.empty()) {
    for (size_t i = moved; i-- > 0;) {
      std::string to = target_ + "/" + files_[i];
      ::rename(to.c_str(), (staging_ + "/" + files_[i]).c_str());
      if (hadOld[i]) ::rename(aside(i).c_str(), to.c_str());
    }
    for (size_t i = madeInTarget.size(); i-- > 0;) ::rmdir(madeInTarget[i].c_str());
    return core::Status::error(failure);
  }
  for (size_t i = 0; i < files_.size(); ++i)
    if (hadOld[i]) ::unlink(aside(i).c_str());
  files_.clear();
  removeStaging();
  return core::Status::ok();
}

void StagedDirectory::removeStaging() {
  if (staging_.empty()) return;
  for (const std::string& f : files_) ::unlink((staging_ + "/" + f).c_str());
  for (size_t i = folders_.size(); i-- > 0;) ::rmdir(folders_[i].c_str());
  ::rmdir(staging_.c_str());
  cleanup_.release();
  staging_.clear();
  files_.clear();
  folders_.clear();
}

}  // namespace pir::app
