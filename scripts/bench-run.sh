#!/usr/bin/env bash
# Benchmarks of the runner (pir-run): one function per section, all run by
# default, or the ones named on the command line.
#
#   bash scripts/bench-run.sh [SECTION...]     # e.g. bench_matmul
#
# bench_matmul: pir-kernels-bench (app/bench/kernels_bench.cpp). The matmul
#   kernel against direct cblas_sgemm calls on the same shapes in the same
#   run (1024^3, 4096x1024x1024, batched 8x512x64x512, transposed operands),
#   one OpenBLAS thread, BENCH_REPS repetitions (default 5, interleaved at
#   random so that load drifts hit both alike): best and median GFLOP/s and
#   the kernel's share of the direct rate (the target is >= 90%); then the 1M add
#   and 1024x1024 softmax kernels against a plain loop and Eigen. Prints
#   markdown tables; nothing is asserted about times.
# Environment: BUILD_DIR (default build/), BENCH_REPS.
#
# bench_executor: executor overhead on a chain of BENCH_OPS (default 100000)
#   tiny elementwise ops (2 floats each) run by pir-run --steps 5, time per op
#   from summary.yaml, next to PyTorch eager doing the same chain
#   (python3-torch from Debian; skipped if missing); then the in-process
#   all_reduce of 64 MiB on 2 ranks against memcpy of the buffer.
#
# bench_mpi: runtime_mpi_allreduce_bench under mpirun -np 2: all_reduce of
#   64 MiB f32 through MpiWorld's communicator against raw MPI_Allreduce on
#   the same buffer, median of 20 each, interleaved, and their ratio.
#
# bench_step: one training step of `gen-program --ops BENCH_STEP_OPS (default
#   100000) --mesh 2` on 2 in-process ranks: per rank, the step's time and its
#   shares in kernels (communication kernels and their waits included: the
#   target is >= 90%), in communication, and outside kernels (the executor).
#
# bench_llama: one training step of `gen-program --model llama` (dense; BENCH_LLAMA, default
#   "--layers 2 --hidden 256 --heads 4 --seq 128 --vocab 1000 --batch 2") by pir-run on one rank
#   against the same step in PyTorch eager (scripts/llama_torch.py: forward, autograd, AdamW),
#   both on one thread (OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1)), best of BENCH_REPS runs
#   each (pir-run: the step's seconds from summary.yaml, inputs read beforehand; PyTorch: the
#   step timed in one process); prints both and the ratio (the target is <= 1.0x).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
n=${BENCH_OPS:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reps=${BENCH_REPS:-5}

bench_matmul() {
  cmake --build "$build" --target pir-kernels-bench -j2 >/dev/null
  local json
  json=$(mktemp)
  OPENBLAS_NUM_THREADS=1 "$build/app/bench/pir-kernels-bench" --benchmark_repetitions="$reps" \
    --benchmark_enable_random_interleaving=true --benchmark_format=json --benchmark_out="$json" \
    --benchmark_out_format=json >/dev/null
  python3 - "$json" <<'PY'
import json, re, statistics, sys
from collections import defaultdict
runs = defaultdict(list)  # run name -> one result per repetition
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("run_type") == "iteration":
        runs[b["run_name"]].append(b)
def args(name):
    return dict(re.findall(r"(\w+):(\d+)", name))
rate = defaultdict(dict)
for name, bs in runs.items():
    kind = name.split("/")[0]
    if kind in ("BM_SgemmDirect", "BM_MatmulKernel"):
        a = args(name)
        key = (int(a["batch"]), int(a["M"]), int(a["K"]), int(a["N"]), int(a["tx"]), int(a["ty"]))
        g = [b["GFLOP/s"] for b in bs]
        rate[key][kind] = (max(g), statistics.median(g))
print("| shape (batch x M x K x N) | tx | ty | cblas_sgemm GFLOP/s best (median) | matmul kernel GFLOP/s best (median) "
      "| kernel / direct, best (median) |")
print("|---|---|---|---|---|---|")
for key in sorted(rate):
    batch, m, k, n, tx, ty = key
    d, kern = rate[key].get("BM_SgemmDirect", (0, 0)), rate[key].get("BM_MatmulKernel", (0, 0))
    shape = f"{batch}x{m}x{k}x{n}" if batch > 1 else f"{m}x{k}x{n}"
    ratio = lambda i: f"{100 * kern[i] / d[i]:.0f}%" if d[i] else "-"
    print(f"| {shape} | {tx} | {ty} | {d[0]:.1f} ({d[1]:.1f}) | {kern[0]:.1f} ({kern[1]:.1f}) | {ratio(0)} ({ratio(1)}) |")
print()
print("| elementwise (f32) | best CPU time (us) | median (us) |")
print("|---|---|---|")
for name in sorted(runs):
    if name.startswith(("BM_Add", "BM_Softmax")):
        t = [b["cpu_time"] for b in runs[name]]
        print(f"| {name[3:]} | {min(t):.0f} | {statistics.median(t):.0f} |")
PY
  rm -f "$json"
}

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

bench_executor() {
  export OPENBLAS_NUM_THREADS=1
  cmake --build "$build" --target pir-run runtime_allreduce_bench > /dev/null

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
}

bench_mpi() {
  cmake --build "$build" --target runtime_mpi_allreduce_bench > /dev/null
  OPENBLAS_NUM_THREADS=1 mpirun --allow-run-as-root --oversubscribe -np 2 "$build/runtime/runtime_mpi_allreduce_bench"
}

bench_step() {
  export OPENBLAS_NUM_THREADS=1
  cmake --build "$build" --target pir-run > /dev/null
  local ops=${BENCH_STEP_OPS:-100000}
  python3 "$root/scripts/gen-program" --ops "$ops" --mesh 2 -o "$tmp/step.pir"
  "$build/app/pir-run" "$tmp/step.pir" --output-dir "$tmp/step" > /dev/null
  python3 - "$tmp/step/summary.yaml" "$ops" <<'PY'
import sys, yaml
summary, ops = yaml.safe_load(open(sys.argv[1])), sys.argv[2]
print(f"gen-program --ops {ops} --mesh 2, one step on 2 ranks (in process)")
print()
print("| rank | step s | in kernels (communication included) | in communication (waits included) | outside kernels |")
print("|---|---|---|---|---|")
for r in summary["per_rank"]:
    s, k, c = r["seconds"], r["kernel_seconds"], r["comm_seconds"]
    print(f"| {r['rank']} | {s:.2f} | {100 * k / s:.1f}% | {100 * c / s:.1f}% | {100 * (s - k) / s:.1f}% |")
PY
}

bench_llama() {
  cmake --build "$build" --target pir-run > /dev/null
  /usr/bin/python3 -c 'import torch' 2> /dev/null || { echo "skipped: no python3-torch"; return; }
  local sizes=${BENCH_LLAMA:-"--layers 2 --hidden 256 --heads 4 --seq 128 --vocab 1000 --batch 2"} i
  # shellcheck disable=SC2086
  python3 "$root/scripts/gen-program" --model llama $sizes --write-inputs "$tmp/llama-in" -o "$tmp/llama.pir"
  for i in $(seq "$reps"); do
    OPENBLAS_NUM_THREADS=1 "$build/app/pir-run" "$tmp/llama.pir" --inputs "$tmp/llama-in" \
      --output-dir "$tmp/llama-$i" > /dev/null
  done
  # shellcheck disable=SC2086
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 "$root/scripts/llama_torch.py" bench $sizes --repeat "$reps" \
    > "$tmp/llama-torch"
  python3 - "$tmp" "$reps" "$sizes" <<'PY'
import glob, sys, yaml
tmp, reps, sizes = sys.argv[1], sys.argv[2], sys.argv[3]
ours = min(yaml.safe_load(open(f))["per_rank"][0]["seconds"] for f in glob.glob(tmp + "/llama-*/summary.yaml"))
torch = float(open(tmp + "/llama-torch").read())
print(f"gen-program --model llama {sizes}: one training step, one thread, best of {reps}")
print()
print("| pir-run s | PyTorch eager s | pir-run / PyTorch |")
print("|---|---|---|")
print(f"| {ours:.4f} | {torch:.4f} | {ours / torch:.2f}x |")
PY
}

sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(bench_matmul bench_executor bench_mpi bench_step bench_llama)
echo "# pir-run benchmarks ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
for s in "${sections[@]}"; do
  echo
  echo "## $s"
  "$s"
done
