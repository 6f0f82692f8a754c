#!/usr/bin/env bash
# Side-by-side `--timing` phases of two pir-opt (or, with --run, pir-run)
# binaries, runs interleaved (old, new, old, new, ...) so both see the same
# machine; prints the minimum of each phase per binary and the ratio new/old.
#
#   scripts/timing-compare.sh [--run] OLD NEW [RUNS] INPUT...
#
# pir-opt's workloads per input: parse + print (no pass), apply-partition,
# and pipeline-split{mode=1F1B}; output goes to /dev/null, so printing is
# timed without the disk. pir-run's (--run, a distributed INPUT): one step
# split in process, three steps, and 1F1B over 2 micro-batches. RUNS
# defaults to 5.
set -euo pipefail
tool=opt
if [ "${1:-}" = --run ]; then tool=run; shift; fi
[ $# -ge 3 ] || { echo "usage: $0 [--run] OLD NEW [RUNS] INPUT..." >&2; exit 2; }
old=$1 new=$2
shift 2
runs=5
if [[ $1 =~ ^[0-9]+$ ]]; then runs=$1; shift; fi
if [ $tool = opt ]; then
  workloads=("" "--pass-pipeline=apply-partition" "--pass-pipeline=pipeline-split{mode=1F1B}")
  out=(-o /dev/null)
else
  workloads=("" "--steps 3" "--mode 1F1B --micro-batches 2")
  out=()
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| input | workload | phase | old (ms) | new (ms) | new/old |\n|---|---|---|---:|---:|---:|\n'
for input in "$@"; do
  cat "$input" > /dev/null  # into the page cache
  for w in "${workloads[@]}"; do
    : > "$tmp/old" && : > "$tmp/new"
    for ((i = 0; i < runs; i++)); do
      for which in old new; do
        bin=$old; [ $which = new ] && bin=$new
        # shellcheck disable=SC2086
        "$bin" "$input" $w --timing "${out[@]}" 2>> "$tmp/$which" > /dev/null || true  # a refused input still times its parse
      done
    done
    name=${w#--pass-pipeline=}; name=${name:-$([ $tool = opt ] && echo parse+print || echo 1 step)}
    # timing: PHASE X ms  ->  min per phase, in first-seen order
    python3 - "$tmp/old" "$tmp/new" "$(basename "$input")" "$name" <<'PY'
import sys, re
def mins(path):
    order, best = [], {}
    for line in open(path):
        m = re.match(r'timing: (.*) ([0-9.]+) ms$', line.strip())
        if not m: continue
        k, v = m.group(1), float(m.group(2))
        if k not in best: order.append(k); best[k] = v
        else: best[k] = min(best[k], v)
    return order, best
oo, ob = mins(sys.argv[1]); no, nb = mins(sys.argv[2])
for k in oo:
    if k.startswith('verify'): continue
    if k not in nb: continue
    print(f"| {sys.argv[3]} | {sys.argv[4]} | {k} | {ob[k]:.1f} | {nb[k]:.1f} | {nb[k]/ob[k]:.3f} |")
PY
  done
done
