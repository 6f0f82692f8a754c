#!/usr/bin/env bash
# The pipeline property sweep (issue 27): programs of scripts/gen-program --pipeline-shapes SEED
# (2-4 stages, +/- VPP, +/- tensor parallelism, equal or unequal widths, backward reading forward
# values across stages, residuals, tied parameters, several crossings) under every mode that
# applies to them (--describe), on both paths:
#   1. in process:  pir-run PROGRAM --mode M ... --check
#   2. pir-opt PROGRAM --output-dir D (apply-partition, split-ranks, gradient-merge, split-matmul-grad for the
#      modes that split the backward, pipeline-split),
#      then pir-opt schedule --check S --programs D (the static communication check) and
#      pir-run --programs D --schedule S --check PROGRAM.
# Every run must pass --check, and the static check must say valid.
#   scripts/pipeline-sweep.sh PIR_OPT FROM TO      (CI runs a seeded slice; the full sweep: 0 299)
set -uo pipefail
pir_opt=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
pir_run=$(dirname "$pir_opt")/pir-run
from=$2
to=$3
gen=$(cd "$(dirname "$0")" && pwd)/gen-program
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 runs=0

fail() {
  echo "FAIL seed $1 [$2] $3: $(grep -m1 -E 'error|check:' "$work/err" "$work/out" 2> /dev/null | cut -c1-300)"
  failures=$((failures + 1))
}

# option SPEC NAME: the value of --NAME in SPEC (empty when absent).
option() { sed -n "s/.*--$2 \([^ ]*\).*/\1/p" <<< "$1"; }

for seed in $(seq "$from" "$to"); do
  p=$work/seed.pir
  "$gen" --pipeline-shapes "$seed" > "$p" || { echo "FAIL seed $seed: gen-program"; failures=$((failures + 1)); continue; }
  while read -r spec; do
    runs=$((runs + 1))
    # shellcheck disable=SC2086  # spec is a list of flags
    if ! timeout 120 "$pir_run" "$p" $spec --check --timeout 20 > "$work/out" 2> "$work/err" ||
      ! grep -q "tensors match" "$work/out"; then
      fail "$seed" "$spec" "in process"
      continue
    fi
    mode=$(option "$spec" mode)
    n=$(option "$spec" micro-batches)
    vpp=$(option "$spec" vpp)
    split=""
    grep -q -- "--split-bw" <<< "$spec" && split=" split-bw=true"
    set_mode=$mode
    [ "$mode" = ZB1P ] && set_mode=ZBH1  # ZB1P runs ZBH1's program set
    d=$work/dir
    rm -rf "$d"
    # The modes that split the backward split matmul_grad first (pir-run's pipelinePassPipeline).
    smg=""
    case "$mode" in ZBH1 | ZB1P | ZBVPP | ZBV | DualPipeV) smg=",split-matmul-grad" ;; esac
    [ -n "$split" ] && smg=",split-matmul-grad"
    pipeline="apply-partition,split-ranks,gradient-merge{k=$n avg=true}$smg,pipeline-split{mode=$set_mode${vpp:+ vpp=$vpp}$split}"
    if ! "$pir_opt" "$p" --output-dir "$d" "--pass-pipeline=$pipeline" > "$work/out" 2> "$work/err"; then
      fail "$seed" "$spec" "pir-opt --output-dir"
      continue
    fi
    stages=$(( $(sed -n 's/^stages: \[\(.*\)\]/\1/p' "$d/ranks.yaml" | tr ',' '\n' | sort -un | wc -l) ))
    sched_args=(--mode "$mode" --stages "$stages" --micro-batches "$n")
    [ -n "$vpp" ] && sched_args+=(--vpp "$vpp")
    [ -n "$split" ] && sched_args+=(--split-bw)
    if ! "$pir_opt" schedule "${sched_args[@]}" -o "$d/schedule.yaml" > "$work/out" 2> "$work/err"; then
      fail "$seed" "$spec" "pir-opt schedule"
      continue
    fi
    if [ "${PIPELINE_SWEEP_STATIC:-1}" = 1 ] &&
      ! "$pir_opt" schedule --check "$d/schedule.yaml" --programs "$d" > "$work/out" 2> "$work/err"; then
      fail "$seed" "$spec" "static check"
      continue
    fi
    if ! timeout 120 "$pir_run" --programs "$d" --schedule "$d/schedule.yaml" --check "$p" --timeout 20 \
      > "$work/out" 2> "$work/err" || ! grep -q "tensors match" "$work/out"; then
      fail "$seed" "$spec" "--programs"
    fi
  done < <("$gen" --pipeline-shapes "$seed" --describe)
done
echo "pipeline-sweep: seeds $from-$to, $runs mode runs, $failures failed"
[ "$failures" = 0 ]
