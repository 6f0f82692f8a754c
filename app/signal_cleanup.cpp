//===- signal_cleanup.cpp -------------------------------------------------===//
#include "app/signal_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace pir::app {

namespace {

enum Kind : int { kFree = 0, kFile = 1, kFolder = 2 };

// At most one `-o` file and two staging folders are pending at a time.
constexpr int kSlots = 4;
char gPath[kSlots][PATH_MAX];
volatile std::sig_atomic_t gKind[kSlots];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

/// Unlinks the entries of the folder open as `fd`, and empties and removes
/// its folders (`rank0/` of an --output-dir), `depth` levels down at most.
/// Entries are read again from the start until none is left, as removing
/// them while reading may make getdents64 skip some.
void emptyFolder(int fd, int depth = 2) {
  alignas(8) char buf[8192];
  for (int pass = 0; pass < 64; ++pass) {
    if (lseek(fd, 0, SEEK_SET) != 0) return;
    bool removed = false;
    for (;;) {
      long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long pos = 0; pos < n;) {
        auto* d = reinterpret_cast<struct dirent64*>(buf + pos);
        pos += d->d_reclen;
        const char* name = d->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
        if (unlinkat(fd, name, 0) == 0) {
          removed = true;
        } else if (errno == EISDIR && depth > 0) {
          int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          if (sub >= 0) {
            emptyFolder(sub, depth - 1);
            close(sub);
          }
          removed = unlinkat(fd, name, AT_REMOVEDIR) == 0 || removed;
        }
      }
    }
    if (!removed) return;
  }
}

void removePendingAndDie(int sig) {
  int saved = errno;
  for (int i = 0; i < kSlots; ++i) {
    if (gKind[i] == kFile) {
      unlink(gPath[i]);
    } else if (gKind[i] == kFolder) {
      int fd = open(gPath[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd >= 0) {
        emptyFolder(fd);
        close(fd);
      }
      rmdir(gPath[i]);
    }
  }
  errno = saved;
  signal(sig, SIG_DFL);
  raise(sig);
}

void installHandlerOnce() {
  static bool installed = [] {
    for (int sig : kSignals) {
      struct sigaction sa {};
      sa.sa_handler = removePendingAndDie;
      sigemptyset(&sa.sa_mask);
      for (int other : kSignals) sigaddset(&sa.sa_mask, other);  // one cleanup at a time
      sigaction(sig, &sa, nullptr);
    }
    return true;
  }();
  (void)installed;
}

}  // namespace

void SignalCleanup::watch(const std::string& path, bool folder) {
  release();
  if (path.size() >= PATH_MAX) return;
  installHandlerOnce();
  for (int i = 0; i < kSlots; ++i) {
    if (gKind[i] != kFree) continue;
    std::memcpy(gPath[i], path.c_str(), path.size() + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);  // the path is whole before the handler may read it
    gKind[i] = folder ? kFolder : kFile;
    slot_ = i;
    return;
  }
}

void SignalCleanup::release() {
  if (slot_ < 0) return;
  gKind[slot_] = kFree;
  slot_ = -1;
}

DeferSignals::DeferSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kSignals) sigaddset(&set, sig);
  pthread_sigmask(SIG_BLOCK, &set, &old_);
}

DeferSignals::~DeferSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

}  // namespace pir::app
