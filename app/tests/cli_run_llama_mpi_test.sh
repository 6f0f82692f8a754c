#!/usr/bin/env bash
# gen-program --model llama (issue 30) under mpirun, 4 processes on this 2-core machine: pir-run --check on
# --mesh 2x2 and on --mesh 2 --stages 2 under ZBH1. ctest label `mpi`. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
source "$HERE/llama_lib.sh"

test_llama_check_mpirun() {
  command -v mpirun > /dev/null || skip "no mpirun (openmpi-bin)"
  llama p.pir --mesh 2x2
  inputs in 2
  timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4 "$PIR_RUN" p.pir --inputs in --check > out 2> err
  rc=$?
  check_ok
  llama s.pir --mesh 2 --stages 2
  inputs is 8
  timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4 "$PIR_RUN" s.pir --inputs is --mode ZBH1 \
    --micro-batches 4 --check --timeout 30 > out 2> err
  rc=$?
  check_ok
}

cli_main
