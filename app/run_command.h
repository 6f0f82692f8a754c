//===- run_command.h - pir-run: execute programs with real tensors -*- C++ -*-===//
#pragma once

namespace pir::app {

/// pir-run's main: 0 on success, 1 for a user error (bad input, a failing
/// rank, a deadlock, a --check mismatch), 2 for an internal one.
int runRun(int argc, char** argv);

}  // namespace pir::app
