#!/usr/bin/env bash
# Configures and builds the one sanitizer tree that sanitize-test.sh and
# fuzz.sh share: clang-14 with ASan + UBSan, every library instrumented for
# libFuzzer's coverage (-DPIR_FUZZ=ON), the tests and the fuzz targets, into
# build-asan/ (or $ASAN_BUILD_DIR). Extra arguments are build targets.
#
# Why one tree, and clang: CI has two cores and its time is mostly builds.
# GCC took about 800 s to build the ASan tree and clang another 250 s for the
# fuzz tree; clang-14 compiles the same file under ASan in half GCC's time or
# less (compare_kernels.cpp: 15 s against 40 s of CPU), and building once
# serves both stages. The normal build (build.sh) stays GCC, so the suite
# still runs under both compilers.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASAN_BUILD_DIR:-$root/build-asan}
"$root/scripts/install-deps.sh" clang-14 libclang-rt-14-dev
# The benchmark targets measure speed, not correctness: left out. -O1 with
# line tables only: what the sanitizers' authors advise, and a fraction of the
# compile time of -O2 -g.
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-14 -DPIR_FUZZ=ON -DPIR_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" > "$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --parallel "$(nproc)" ${1:+--target "$@"}
