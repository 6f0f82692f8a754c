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
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
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

sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(bench_matmul)
echo "# pir-run benchmarks ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
for s in "${sections[@]}"; do
  echo
  echo "## $s"
  "$s"
done
