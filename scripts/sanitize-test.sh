#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer:
# builds the sanitizer tree (scripts/sanitizer-build.sh: clang-14, shared
# with fuzz.sh) into build-asan/ (or $ASAN_BUILD_DIR) and runs ctest there.
# Any sanitizer report fails the test that triggered it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASAN_BUILD_DIR:-$root/build-asan}
"$root/scripts/sanitizer-build.sh"
# The first report ends the process with exit code 86, which no test expects
# (an error case expects 1, so a plain exit 1 could pass unnoticed); leaks
# are reported too.
# intercept_tls_get_addr=0: the sanitizer runtimes of GCC 12 and of LLVM
# before 17 (https://reviews.llvm.org/D147459) take a dynamic TLS block that happens to
# start at offset 16 of a page for a pre-2.25 glibc header and reads garbage
# as its bounds; LeakSanitizer's tracer then dies with "Tracer caught signal
# 11" at exit and no report (pir-run under mpirun: OpenMPI's dlopen'ed plugins
# hold dynamic TLS). CI failed so on cli/run_mpi_gen_program_four_ranks.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:exitcode=86:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0}
# OpenMPI's own allocations outlive MPI_Finalize (pir-run under mpirun).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan-mpi.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=86:print_stacktrace=1}
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --label-exclude bench
