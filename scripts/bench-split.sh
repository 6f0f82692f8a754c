#!/usr/bin/env bash
# Interleaved rounds of split-ranks at 1M ops (issue 33's per-rank target):
# per round, for each binary given, parse + print of the 1M program to
# /dev/null, then `apply-partition,split-ranks --output-dir` of it into 8 ranks
# (mesh 2x4), then the same at 100k; wall, user and system time of each, the
# per-rank ratio to parse + print and 1M / 100k. `uptime` before each round.
# Nothing is asserted: this is a benchmark, read with the load it prints.
#
#   bash scripts/bench-split.sh [BIN...]   (default build/app/pir-opt; several binaries alternate in each round)
# Environment: DIR (inputs and outputs; default /dev/shm/pir-split, tmpfs so the disk is not timed), ROUNDS (3).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-3}
dir=${DIR:-/dev/shm/pir-split}
[ $# -gt 0 ] || set -- "$root/build/app/pir-opt"
mkdir -p "$dir"
[ -f "$dir/m1m.pir" ] || "$root/scripts/gen-program" --ops 1000000 --seed 1 --mesh 2x4 -o "$dir/m1m.pir"
[ -f "$dir/m100k.pir" ] || "$root/scripts/gen-program" --ops 100000 --seed 1 --mesh 2x4 -o "$dir/m100k.pir"
cat "$dir/m1m.pir" "$dir/m100k.pir" > /dev/null  # into the page cache

# timed LABEL CMD...: prints "LABEL wall user sys" (seconds) and leaves the wall time in $wall.
timed() {
  local label=$1 out
  shift
  out=$( { TIMEFORMAT='%R %U %S'; time "$@" > /dev/null 2>&1; } 2>&1 ) \
    || { echo "bench-split: '$*' failed" >&2; exit 1; }  # a failed run is no timing
  wall=${out%% *}
  echo "  $label $out"
}
split_ranks() {  # split_ranks BIN INPUT: into a fresh folder, so every round writes the same files
  rm -rf "$dir/ranks"
  "$1" "$2" --pass-pipeline=apply-partition,split-ranks --output-dir "$dir/ranks"
}
for r in $(seq 1 "$rounds"); do
  echo "round $r $(uptime | sed 's/.*load average/load/')"
  for bin in "$@"; do
    echo " $bin (wall user sys)"
    timed "p+p-1m" "$bin" "$dir/m1m.pir" -o /dev/null
    pp=$wall
    timed "split-1m" split_ranks "$bin" "$dir/m1m.pir"
    s1m=$wall
    timed "split-100k" split_ranks "$bin" "$dir/m100k.pir"
    awk -v pp="$pp" -v s="$s1m" -v s100="$wall" \
      'BEGIN { printf "  per rank / p+p %.2f, split 1M / 100k %.2f\n", s / 8 / pp, s / s100 }'
  done
done
rm -rf "$dir/ranks"
