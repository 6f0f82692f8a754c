//===- run_process.cpp - how a pir-run process speaks and ends ------------===//
#include "app/run_process.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "runtime/runner/world.h"

namespace pir::app {

namespace runner = runtime::runner;

namespace {

int gSpeakFd = 2;  // this process's own stderr, kept by quietUnlessRank0

}  // namespace

void quietUnlessRank0() {
  if (!runner::launchedByMpirun() || runner::mpirunRank() == 0) return;
  int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return;
  gSpeakFd = ::dup(2);
  if (gSpeakFd < 0) gSpeakFd = 2;
  std::fflush(stdout);
  std::fflush(stderr);
  ::dup2(null, 1);
  ::dup2(null, 2);
  ::close(null);
}

void speak(const std::string& text) {
  std::fflush(stderr);
  for (size_t at = 0; at < text.size();) {
    ssize_t n = ::write(gSpeakFd, text.data() + at, text.size() - at);
    if (n <= 0) break;
    at += size_t(n);
  }
}

int processExitCode(int rc) {
  if (rc != 0 && runner::launchedByMpirun() && !runner::mpiJoined() && runner::mpirunRank() != 0) return 0;
  return rc;
}

}  // namespace pir::app
