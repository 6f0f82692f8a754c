#!/usr/bin/env bash
# pir-run's benchmarks (issue 18), not timed tests: prints a table.
#
#   executor overhead: a chain of N tiny elementwise ops (2 floats each) run by
#     pir-run --steps 5, time per op from summary.yaml, next to PyTorch eager
#     doing the same chain (python3-torch from Debian; skipped if missing).
#     The chain uses pd_op.relu when pir-run has its kernel, else pd_op.assign.
#   in-process all_reduce of 64 MiB on 2 ranks against memcpy of the buffer.
#
# usage: scripts/bench-run.sh [BUILD_DIR] [N]   (default build/, N=100000)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
n=${2:-100000}
export OPENBLAS_NUM_THREADS=1
cmake --build "$build" --target pir-run runtime_allreduce_bench > /dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

chain() {  # chain OP N > FILE
  local op=$1 count=$2 i
  echo '{'
  echo '    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>'
  for ((i = 1; i <= count; i++)); do
    echo "    (%$i) = \"$op\" (%$((i - 1))) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>"
  done
  echo "    () = \"builtin.shadow_output\" (%$count) {output_name:\"y\"} : (builtin.tensor<2xf32>) -> "
  echo '}'
}

op=pd_op.relu
chain "$op" 1 > "$tmp/probe.pir"
"$build/app/pir-run" "$tmp/probe.pir" > /dev/null 2>&1 || op=pd_op.assign
chain "$op" "$n" > "$tmp/chain.pir"
steps=5
"$build/app/pir-run" "$tmp/chain.pir" --steps $steps --output-dir "$tmp/out" > /dev/null
secs=$(sed -n 's/^    seconds: //p' "$tmp/out/summary.yaml")
kern=$(sed -n 's/^    kernel_seconds: //p' "$tmp/out/summary.yaml")
printf '%-44s %10s\n' "benchmark" "result"
awk -v s="$secs" -v k="$kern" -v n="$n" -v st=$steps -v op="$op" 'BEGIN {
  printf "%-44s %8.3f us/op\n", "pir-run " op " chain (" n " ops), per op", s * 1e6 / (n * st);
  printf "%-44s %8.3f us/op\n", "  of which outside kernels (executor)", (s - k) * 1e6 / (n * st) }'

if ! /usr/bin/python3 -c 'import torch' 2> /dev/null; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y python3-torch > /dev/null 2>&1 || true; fi
fi
if /usr/bin/python3 -c 'import torch' 2> /dev/null; then
  /usr/bin/python3 - "$n" "$op" <<'PY'
import sys, time, torch
n, op = int(sys.argv[1]), sys.argv[2]
torch.set_num_threads(1)
f = torch.relu if op == "pd_op.relu" else torch.clone
x = torch.randn(2)
best = 1e9
for _ in range(5):
    t0 = time.perf_counter()
    y = x
    for _ in range(n):
        y = f(y)
    best = min(best, time.perf_counter() - t0)
print("%-44s %8.3f us/op" % ("torch eager %s chain, per op (best of 5)" % f.__name__, best * 1e6 / n))
PY
else
  echo "torch eager: skipped (python3-torch cannot be installed)"
fi

"$build/runtime/runtime_allreduce_bench"
