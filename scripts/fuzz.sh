#!/usr/bin/env bash
# Builds the libFuzzer targets of app/fuzz in the sanitizer tree that
# sanitize-test.sh also uses (scripts/sanitizer-build.sh: clang-14, build-asan/
# or $ASAN_BUILD_DIR; after sanitize-test.sh only the targets are left to
# link) and runs them.
#
#   fuzz.sh                          CI mode: for each target, replay the
#                                    committed corpus (testdata/fuzz/TARGET),
#                                    then a deterministic budget (-seed=1
#                                    -runs=N, about a minute per target)
#   fuzz.sh --long SECONDS [TARGET]  soak: each target (or only TARGET) for
#                                    SECONDS with -jobs=1, new corpus entries
#                                    and crashes in $FUZZ_SCRATCH (default
#                                    /tmp/pir-fuzz), never in the repository
#
# A crash, hang (-timeout), leak or out-of-memory fails the script; the input
# is printed as a hex dump with its path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASAN_BUILD_DIR:-$root/build-asan}
scratch=${FUZZ_SCRATCH:-/tmp/pir-fuzz}
targets=(fuzz_roundtrip fuzz_reading fuzz_passes fuzz_pipeline fuzz_executor)
# Deterministic budget per target, sized so the five take about 2 minutes
# together on the 2-core CI machine, inside CI's 30 minutes (the first three
# were 200k, 200k, 400k before fuzz_executor, which runs about 60 inputs a
# second, came; fuzz_reading reads each input three times, on threads too;
# soaks are for --long).
declare -A runs=([fuzz_roundtrip]=${FUZZ_RUNS_ROUNDTRIP:-100000}
                 [fuzz_reading]=${FUZZ_RUNS_READING:-12000}
                 [fuzz_passes]=${FUZZ_RUNS_PASSES:-100000}
                 [fuzz_pipeline]=${FUZZ_RUNS_PIPELINE:-200000}
                 [fuzz_executor]=${FUZZ_RUNS_EXECUTOR:-2000})
common=(-max_len=65536 -timeout=10 -rss_limit_mb=2048 -dict="$root/testdata/fuzz/pir.dict"
        -print_final_stats=1)

long=0
if [ "${1:-}" = --long ]; then
  long=${2:?usage: fuzz.sh --long SECONDS [TARGET]}
  if [ -n "${3:-}" ]; then targets=("$3"); fi
fi

"$root/scripts/sanitizer-build.sh" "${targets[@]}"

# Prints every crash/leak/timeout/oom artifact under $1 (hex dump + path);
# returns 1 if there was one.
report_artifacts() {
  local found=0 f
  for f in "$1"/crash-* "$1"/leak-* "$1"/timeout-* "$1"/oom-* "$1"/slow-unit-*; do
    [ -e "$f" ] || continue
    case $f in */slow-unit-*) continue;; esac
    found=1
    echo "fuzz: FAILING INPUT $f ($(stat -c %s "$f") bytes):"
    od -A x -t x1z -v "$f" | head -200
  done
  return $found
}

status=0
for t in "${targets[@]}"; do
  bin=$build/app/fuzz/$t
  seeds=$root/testdata/fuzz/${t#fuzz_}
  [ "$t" = fuzz_reading ] && seeds=$root/testdata/fuzz/roundtrip  # the same texts, read three ways
  work=$scratch/$t
  mkdir -p "$work/corpus" "$work/artifacts"
  rm -rf "$work/artifacts"/*  # a finding of an earlier run is not this run's
  start=$(date +%s)
  if [ "$long" -eq 0 ]; then
    # 1. Replay every committed input once.
    if ! "$bin" "${common[@]}" "$seeds"/* > "$work/replay.log" 2>&1; then
      tail -60 "$work/replay.log"
      last=$(grep '^Running: ' "$work/replay.log" | tail -1 | sed 's/^Running: //')
      echo "fuzz: $t FAILED on committed input $last:"
      [ -n "$last" ] && od -A x -t x1z -v "$last" | head -200
      status=1
      continue
    fi
    echo "fuzz: $t replayed $(ls "$seeds" | wc -l) committed inputs"
    # 2. A deterministic budget from the seeds; new inputs go to scratch.
    rm -rf "$work/corpus"/*
    if ! "$bin" "${common[@]}" -seed=1 -runs="${runs[$t]}" -artifact_prefix="$work/artifacts/" \
         "$work/corpus" "$seeds" > "$work/run.log" 2>&1; then
      tail -60 "$work/run.log"
      report_artifacts "$work/artifacts" || true
      echo "fuzz: $t FAILED (log: $work/run.log)"
      status=1
      continue
    fi
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+.*DONE' "$work/run.log" | tr '\n' ' '
    echo
    echo "fuzz: $t ok: ${runs[$t]} runs in $(( $(date +%s) - start )) s"
  else
    # Soak: one job, one worker, so one core stays free.
    (cd "$work" && "$bin" "${common[@]}" -jobs=1 -workers=1 -max_total_time="$long" \
        -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds" > "$work/long.log" 2>&1) || true
    if ! report_artifacts "$work/artifacts"; then
      echo "fuzz: $t FAILED after $(( $(date +%s) - start )) s (logs: $work/long.log, $work/fuzz-0.log)"
      status=1
    else
      grep -E '^#[0-9]+' "$work/fuzz-0.log" | tail -1 || true
      echo "fuzz: $t ok after $(( $(date +%s) - start )) s; corpus $(ls "$work/corpus" | wc -l) inputs in $work/corpus"
    fi
  fi
done
exit $status
