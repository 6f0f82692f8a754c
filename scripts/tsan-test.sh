#!/usr/bin/env bash
# The concurrency tests under ThreadSanitizer: several ranks' programs, each
# in its own Context, parsed, cloned, run through passes, verified and printed
# on as many threads at once (passes/tests/concurrency_test.cpp), one program
# read, verified and printed on several threads (--threads: the [tsan] cases
# of parser/tests/threaded_test.cpp and core/tests/verifier_threads_test.cpp),
# the runner's rank threads (runtime/tests/comm_test.cpp and the like), and
# -o FILE's write-behind thread (app/tests/output_file_test.cpp) and the input's
# read-ahead thread (parser/tests/input_file_test.cpp). Builds with
# -DPIR_TSAN=ON into build-tsan/ (or $TSAN_BUILD_DIR), only the test binaries and
# the libraries they link (CI has two cores), and runs `ctest -L concurrency`.
# Any report fails the test that triggered it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TSAN_BUILD_DIR:-$root/build-tsan}
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIR_TSAN=ON -DPIR_BUILD_BENCH=OFF \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" "$@" \
  > "$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" --parallel "$(nproc)" --target concurrency_tests runtime_comm_tests parser_tests core_tests app_tests
# The first report ends the process with exit code 66, which no test expects.
export OPENBLAS_NUM_THREADS=1  # ranks are the parallelism; OpenBLAS threads are not instrumented
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66:second_deadlock_stack=1}
cd "$build"
ctest --output-on-failure --label-regex concurrency
