#!/usr/bin/env bash
# compare-outputs.sh OLD NEW: runs two pir-opt binaries on every program of
# testdata/ and ../shared/corpus/ through a set of pipelines, and compares
# what each run leaves byte for byte: its exit code, stdout, stderr (with the
# scratch folder's path blanked) and every file of its --output-dir. For a
# change that must not change any output (a faster pass, a threaded reader):
# run it with the binary before and after.
#
#   COMPARE_INPUTS   the programs (default: every .pir of testdata and the corpus, and two
#                    generated ones of 10 MB, big enough to be read on threads)
#   COMPARE_RUNS     one run a line, its arguments after the program; OUT
#                    stands for a fresh output folder (default: the list below)
#   COMPARE_TIMEOUT  seconds a run may take (default 60)
#
# Prints each run that differs and a summary; exits 1 if any differs.
set -uo pipefail
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 OLD-PIR-OPT NEW-PIR-OPT" >&2
  exit 2
fi
old=$1 new=$2
root=$(cd "$(dirname "$0")/.." && pwd)
default_runs='--threads 1
--threads 2
--pass-pipeline=split-ranks --output-dir OUT
--pass-pipeline=split-ranks{planner=cost} --output-dir OUT
--pass-pipeline=apply-partition,split-ranks --output-dir OUT
--pass-pipeline=apply-partition,split-ranks{planner=cost} --output-dir OUT
--pass-pipeline=lower-reshard{rank=0}
--pass-pipeline=apply-partition,lower-reshard{rank=1},partition-rank{rank=1},dist-to-dense{rank=1},remove-unuseful-comm'
runs=${COMPARE_RUNS:-$default_runs}
timeout=${COMPARE_TIMEOUT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${COMPARE_INPUTS:-}" ]; then
  inputs=$COMPARE_INPUTS
else
  # testdata and the corpus are under 100 KB a program: --threads reads a
  # program on threads only from two chunks of 4 MB, so two bigger ones
  # (gen-program, one of them on a 2x4 mesh for split-ranks) run that path.
  mkdir -p "$work/gen"
  "$root/scripts/gen-program" --ops 20000 --seed 3 -o "$work/gen/big.pir" || exit 2
  "$root/scripts/gen-program" --ops 20000 --seed 5 --mesh 2x4 -o "$work/gen/big_mesh.pir" || exit 2
  inputs=$(find "$root/testdata" "$root/../shared/corpus" -name '*.pir' 2>/dev/null | sort)
  inputs+=$'\n'"$work/gen/big.pir"$'\n'"$work/gen/big_mesh.pir"
fi

# One run of one binary into $work/$side: rc, out, err and the folder OUT.
run_one() {
  local side=$1 bin=$2 input=$3 line=$4
  rm -rf "${work:?}/$side"
  mkdir -p "$work/$side"
  local -a args
  read -r -a args <<< "${line//OUT/$work/$side/out-dir}"
  timeout "$timeout" "$bin" "$input" "${args[@]}" > "$work/$side/stdout" 2> "$work/$side/stderr"
  echo $? > "$work/$side/rc"
  sed -i "s|$work/$side|OUT|g" "$work/$side/stdout" "$work/$side/stderr"
}

total=0 differing=0
while IFS= read -r input; do
  [ -n "$input" ] || continue
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    run_one old "$old" "$input" "$line"
    run_one new "$new" "$input" "$line"
    total=$((total + 1))
    if ! diff -r "$work/old" "$work/new" > /dev/null; then
      differing=$((differing + 1))
      echo "differs: $input $line"
    fi
  done <<< "$runs"
done <<< "$inputs"
echo "compare-outputs: $total runs, $differing differing"
[ "$differing" -eq 0 ]
