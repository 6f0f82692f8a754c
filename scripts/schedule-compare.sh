#!/usr/bin/env bash
# Measured against simulated pipeline schedules (issue 32): every mode on gen-program pipelines of P stages
# (one chunk a stage; 2 interleaved chunks for VPP; 2 chunks in a V for ZBVPP, ZBV and DualPipeV; the same
# --ops each), N micro-batches. For each mode: the list (`pir-opt schedule`, default costs), a run of it
# (`pir-run PROGRAM --schedule LIST --output-dir O`, under `mpirun --bind-to core` with MPI=1: one process
# and one core a rank), then the same list simulated with the run's measured costs
# (`pir-opt schedule --check LIST --costs O/summary.yaml`: per stage and job type, communication from the
# bytes sent). Prints a markdown table: bubble ratio measured and simulated, |difference| against the
# target max(0.1 x measured, 0.03), peak micro-batches in flight (measured / simulated) and peak tensor
# bytes per rank; `uptime` before each run on stderr.
#   scripts/schedule-compare.sh PIR_OPT P N [OPS]      (OPS default 4000)
set -euo pipefail
pir_opt=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
pir_run=$(dirname "$pir_opt")/pir-run
p=$2
n=$3
ops=${4:-4000}
gen=$(cd "$(dirname "$0")" && pwd)/gen-program
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$gen" --ops "$ops" --stages "$p" --mesh 1 -o "$work/one.pir"
"$gen" --ops "$ops" --stages "$p" --vpp 2 --mesh 1 -o "$work/vpp.pir"
"$gen" --ops "$ops" --stages "$p" --vpp 2 --vschedule --mesh 1 -o "$work/v.pir"

# value KEY FILE: the value after `  KEY: ` in a summary's measured map.
value() { sed -n "s/^  $1: //p" "$2" | head -1; }

echo "| mode | bubble measured | simulated | difference | target | in flight measured / simulated | peak tensor MB per rank |"
echo "|---|---|---|---|---|---|---|"
for spec in "FThenB one" "1F1B one" "ZBH1 one" "ZB1P one" "VPP vpp 2" "ZBVPP v" "ZBV v" "DualPipeV v"; do
  read -r mode program vpp <<< "$spec"
  list=$work/$mode.yaml out=$work/$mode
  "$pir_opt" schedule --mode "$mode" --stages "$p" --micro-batches "$n" ${vpp:+--vpp "$vpp"} -o "$list"
  echo "$mode: $(uptime)" >&2
  if [ "${MPI:-0}" = 1 ]; then
    mpirun --allow-run-as-root --oversubscribe --bind-to core -np "$p" "$pir_run" "$work/$program.pir" \
      --schedule "$list" --output-dir "$out" > /dev/null
  else
    "$pir_run" "$work/$program.pir" --schedule "$list" --output-dir "$out" > /dev/null
  fi
  sim=$("$pir_opt" schedule --check "$list" --costs "$out/summary.yaml")
  measured=$(value bubble_ratio "$out/summary.yaml")
  simulated=$(sed -n 's/.*bubble_ratio \([0-9.]*\),.*/\1/p' <<< "$sim")
  flight=$(value peak_in_flight "$out/summary.yaml")
  simflight=$(sed -n 's/.*peak_in_flight \(\[.*\]\).*/\1/p' <<< "$sim")
  bytes=$(value peak_tensor_bytes "$out/summary.yaml")
  python3 - "$mode" "$measured" "$simulated" "$flight" "$simflight" "$bytes" << 'PY'
import sys
mode, m, s, flight, simflight, peak = sys.argv[1:]
m, s = float(m), float(s)
target = max(0.1 * m, 0.03)
mb = ", ".join("%.1f" % (int(b) / 2**20) for b in peak.strip("[]").split(","))
print("| %s | %.3f | %.3f | %.3f | %.3f %s | %s / %s | %s |" % (
    mode, m, s, abs(s - m), target, "met" if abs(s - m) <= target else "**missed**", flight, simflight, mb))
PY
done
