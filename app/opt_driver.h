//===- opt_driver.h - the pir-opt command -----------------------*- C++ -*-===//
#pragma once

namespace pir::app {

/// Runs `pir-opt` with the given command line; returns the exit code:
/// 0 success, 1 bad input or options (a diagnostic was printed), 2 internal error.
int runOpt(int argc, char** argv);

}  // namespace pir::app
