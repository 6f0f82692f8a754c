//===- run_process.h - how a pir-run process speaks and ends -----*- C++ -*-===//
//
// Under mpirun every process reads, splits and compiles the whole program
// (the same work, so the same plans and inputs), runs its own rank, and
// sends what it computed to rank 0, which prints, checks and writes the
// output folder exactly as an in-process run does. The other processes
// print nothing and exit 0 after their send; a rank that fails on its own
// speaks on its own stderr and ends the job (World::abort).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace pir::app {

/// Under mpirun, on every process but rank 0: stdout and stderr go to
/// /dev/null (rank 0 speaks for the job: every process meets the same
/// errors before the run).
void quietUnlessRank0();

/// Writes `text` on this process's own stderr, even where quietUnlessRank0
/// silenced it (a rank's own failure after the ranks started).
void speak(const std::string& text);

/// The exit code of this process for the job's code `rc`: under mpirun,
/// before MPI is joined, only rank 0 exits with a failure. Every process
/// meets the same errors up to there and rank 0 reports them; were another
/// process to exit 1 first, mpirun would kill rank 0 before it printed.
int processExitCode(int rc);

}  // namespace pir::app
