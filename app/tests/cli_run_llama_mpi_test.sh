#!/usr/bin/env bash
# gen-program --model llama (issue 30) under mpirun, 4 processes on this 2-core machine: pir-run --check on
# --mesh 2x2 and on --mesh 2 --stages 2 under ZBH1. ctest label `mpi`. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
source "$HERE/llama_lib.sh"

test_llama_check_mpirun() {
  need_mpirun
  llama p.pir --mesh 2x2
  inputs in 2
  MPI_TIMEOUT=120 mpi 4 p.pir --inputs in --check
  check_ok
  llama s.pir --mesh 2 --stages 2
  inputs is 8
  MPI_TIMEOUT=120 mpi 4 s.pir --inputs is --mode ZBH1 --micro-batches 4 --check --timeout 30
  check_ok
}

cli_main
