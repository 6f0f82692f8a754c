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
#
# bench_mlp: the SGD step of `gen-program --model mlp` (the seed MLP L layers deep: relu(h @ W) per layer, no bias,
#   loss sum((h - label)^2) / (B H), the backward with the input's gradient, sgd_ at learning rate 0.1) at the
#   shapes BENCH_MLP (LAYERSxHIDDENxBATCH, default 8x128x64 4x512x256 4x1024x512 2x2048x1024), by pir-run on one
#   rank against the same step in PyTorch eager (scripts/mlp_torch.py: autograd, torch.optim.SGD's update), one
#   thread each (OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1)); and the step's 3L GEMMs (forward x·W, backward
#   dO·Wᵀ and xᵀ·dO, as the matmul kernels call cblas_sgemm) timed alone (runtime_gemm_bench). What is timed:
#   forward + backward + update of one step (pir-run: summary.yaml's step_seconds, inputs drawn beforehand;
#   PyTorch: the step in one process). PyTorch is timed in two spellings in the same process: as one writes it
#   (nn.Linear(bias=False), torch.optim.SGD: the target's reference) and functional (tensors, h @ W, add_: its
#   fewest calls). Each run is one warm-up step then BENCH_MLP_STEPS timed ones (default: about 2 GFLOP of steps,
#   3 to 50); BENCH_REPS runs of each, alternating; the figure is the best step. Targets: pir-run / PyTorch <= 0.7x
#   on 8x128x64; the GEMMs alone >= 98% of pir-run's step on 4x1024x512 and 2x2048x1024. The GEMMs alone and
#   pir-run run in different processes, which a busy machine slows differently: the last column is the matmul
#   kernels' share of pir-run's best step in one traced run (pir-run --trace), robust to that; the target is
#   judged on the lower of the two.
#
# bench_mlp_dist: the same step on 2 ranks at the shapes BENCH_MLP_DIST (default 8x128x64 4x512x256), data parallel
#   (`--mesh 2x1`: half the batch a rank, each weight's gradient and the loss all-reduced) and tensor parallel
#   (`--mesh 2`: Megatron's column/row pairs, an all_reduce after each row-parallel matmul and one of the input
#   gradient of each column-parallel layer but the first), by pir-run in process and under `mpirun -np 2`, against
#   PyTorch on 2 processes with torch.distributed (gloo on localhost) making the same all_reduces. A step's time is
#   its slowest rank's; runs and steps as in bench_mlp. Target: pir-run <= 0.7x PyTorch's time, both ways.
#
# OpenBLAS's kernels: Debian 12's OpenBLAS 0.3.21 does not know this VM's CPU model (Sapphire Rapids) and falls back
# to its Prescott (SSE3) kernels, a fifth of the AVX-512 kernels' rate on a large sgemm. Every side of every
# comparison loads the same libopenblas, so unless OPENBLAS_CORETYPE is set the script sets it for all of them from
# the CPU's flags (SkylakeX with AVX-512, Haswell with AVX2); BENCH_BLAS_CORE=default keeps OpenBLAS's own choice.
# The header line names the kernels used.
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

# mlp_steps L H B: the timed steps a run (BENCH_MLP_STEPS, else about 2 GFLOP of steps, 3 to 50).
mlp_steps() {
  [ -n "${BENCH_MLP_STEPS:-}" ] && { echo "$BENCH_MLP_STEPS"; return; }
  awk -v l="$1" -v h="$2" -v b="$3" 'BEGIN { s = int(2e9 / (6 * l * b * h * h)); print (s < 3 ? 3 : (s > 50 ? 50 : s)) }'
}

# mlp_gemms L H B: the M,N,K,TA,TB[,ACC] of the MLP step's GEMMs, as the matmul kernels make them (a weight's
# gradient GEMM makes its update: ACC, runtime/update_fusion.h).
mlp_gemms() {
  local i
  for ((i = 0; i < $1; i++)); do echo "$3,$2,$2,0,0 $3,$2,$2,0,1 $2,$2,$3,1,0,1"; done
}

# mlp_report dense | dp tp: the markdown table of bench_mlp (bench_mlp_dist) from the runs in $tmp/mlp.
mlp_report() {
  /usr/bin/python3 - "$tmp/mlp" "$reps" "$@" <<'PY'
import glob, json, os, sys, yaml
folder, reps, kinds = sys.argv[1], sys.argv[2], sys.argv[3:]
def pir_best(shape, kind):  # the best timed step (not the warm-up) of any run; a step is its slowest rank's
    best = float("inf")
    for f in glob.glob("%s/%s-%s-*/summary.yaml" % (folder, kind, shape)):
        ranks = yaml.safe_load(open(f))["per_rank"]
        steps = list(zip(*(r["step_seconds"] for r in ranks)))
        best = min([best] + [max(s) for s in steps[1:]])
    return best
def in_step(shape):  # the matmul kernels' share of the best traced step (same run: robust to load drifts)
    ev = json.load(open("%s/trace-%s.json" % (folder, shape)))["traceEvents"]
    steps = [e for e in ev if e.get("name", "").startswith("step ")][1:]
    best = min(steps, key=lambda e: e["dur"])
    mm = sum(e["dur"] for e in ev if e.get("name") in ("pd_op.matmul", "pd_op.matmul_grad")
             and best["ts"] <= e["ts"] < best["ts"] + best["dur"])
    return 100 * mm / best["dur"]
def column_min(name, col=0):  # the best of a file's lines' column
    path = os.path.join(folder, name)
    return min(float(x.split()[col]) for x in open(path))
def verdict(r, target, better):
    return "%s (target %s %s: %s)" % (r, "<=" if better == "low" else ">=", target, "met" if
                                      (float(r.rstrip("x%")) <= float(target.rstrip("x%")) if better == "low" else
                                       float(r.rstrip("x%")) >= float(target.rstrip("x%"))) else "not met")
shapes = open(os.path.join(folder, "shapes")).read().split()
if kinds == ["dense"]:
    print("| shape (layers x hidden x batch) | pir-run step s | PyTorch s (nn.Linear, optim.SGD) | pir-run / PyTorch "
          "| PyTorch functional s | pir-run / functional | GEMMs alone s | GEMMs / pir-run step "
          "| matmul kernels in the step (--trace) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for sh in shapes:
        ours, gemm = pir_best(sh, "dense"), column_min("gemm-" + sh)
        module, functional = column_min("torch-dense-" + sh, 0), column_min("torch-dense-" + sh, 1)
        ratio = "%.2fx" % (ours / module)
        if sh == "8x128x64":
            ratio = verdict(ratio, "0.70x", "low")
        share, traced = "%.1f%%" % (100 * gemm / ours), "%.1f%%" % in_step(sh)
        if sh in ("4x1024x512", "2x2048x1024"):  # judged by the lower of the two measures
            low = min(100 * gemm / ours, in_step(sh))
            share, traced = (verdict(v, "98%", "high") if float(v.rstrip("%")) == round(low, 1) else v
                             for v in (share, traced))
        print("| %s | %.5f | %.5f | %s | %.5f | %.2fx | %.5f | %s | %s |" % (
            sh, ours, module, ratio, functional, ours / functional, gemm, share, traced))
else:
    print("| shape (layers x hidden x batch) | layout | pir-run in process s | pir-run mpirun s "
          "| PyTorch gloo s (nn.Linear, optim.SGD) | PyTorch functional s | in process / PyTorch | mpirun / PyTorch "
          "| in process, mpirun / functional |")
    print("|---|---|---|---|---|---|---|---|---|")
    for sh in shapes:
        for kind, what in (("dp", "data parallel (2x1)"), ("tp", "tensor parallel (2)")):
            a, m = pir_best(sh, kind), pir_best(sh, "mpi" + kind)
            t, f = column_min("torch-%s-%s" % (kind, sh), 0), column_min("torch-%s-%s" % (kind, sh), 1)
            print("| %s | %s | %.5f | %.5f | %.5f | %.5f | %s | %s | %.2fx, %.2fx |" % (
                sh, what, a, m, t, f, verdict("%.2fx" % (a / t), "0.70x", "low"),
                verdict("%.2fx" % (m / t), "0.70x", "low"), a / f, m / f))
print()
print("Best step of %s runs each (after a warm-up step), the runs alternating; one BLAS thread a rank." % reps)
PY
}

bench_mlp() {
  export OPENBLAS_NUM_THREADS=1
  cmake --build "$build" --target pir-run runtime_gemm_bench > /dev/null
  /usr/bin/python3 -c 'import torch' 2> /dev/null || { echo "skipped: no python3-torch"; return; }
  local shapes=${BENCH_MLP:-"8x128x64 4x512x256 4x1024x512 2x2048x1024"} steps sh l h b i
  mkdir -p "$tmp/mlp"
  echo "$shapes" > "$tmp/mlp/shapes"
  for sh in $shapes; do
    IFS=x read -r l h b <<< "$sh"
    steps=$(mlp_steps "$l" "$h" "$b")
    python3 "$root/scripts/gen-program" --model mlp --layers "$l" --hidden "$h" --batch "$b" -o "$tmp/mlp/$sh.pir"
    for i in $(seq "$reps"); do
      "$build/app/pir-run" "$tmp/mlp/$sh.pir" --steps $((steps + 1)) --output-dir "$tmp/mlp/dense-$sh-$i" > /dev/null
      /usr/bin/python3 "$root/scripts/mlp_torch.py" bench --layers "$l" --hidden "$h" --batch "$b" --steps "$steps" \
        >> "$tmp/mlp/torch-dense-$sh"
      # shellcheck disable=SC2046
      "$build/runtime/runtime_gemm_bench" "$steps" $(mlp_gemms "$l" "$h" "$b") >> "$tmp/mlp/gemm-$sh"
    done
    "$build/app/pir-run" "$tmp/mlp/$sh.pir" --steps $((steps + 1)) --trace "$tmp/mlp/trace-$sh.json" > /dev/null
  done
  echo "gen-program --model mlp: one SGD step (forward, backward with the input's gradient, update; lr 0.1), one thread"
  echo
  mlp_report dense
}

bench_mlp_dist() {
  export OPENBLAS_NUM_THREADS=1
  cmake --build "$build" --target pir-run > /dev/null
  /usr/bin/python3 -c 'import torch' 2> /dev/null || { echo "skipped: no python3-torch"; return; }
  local shapes=${BENCH_MLP_DIST:-"8x128x64 4x512x256"} steps sh l h b i kind mesh
  mkdir -p "$tmp/mlp"
  echo "$shapes" > "$tmp/mlp/shapes"
  for sh in $shapes; do
    IFS=x read -r l h b <<< "$sh"
    steps=$(mlp_steps "$l" "$h" "$b")
    for kind in dp tp; do
      mesh=$([ $kind = dp ] && echo 2x1 || echo 2)
      python3 "$root/scripts/gen-program" --model mlp --layers "$l" --hidden "$h" --batch "$b" --mesh "$mesh" \
        -o "$tmp/mlp/$kind-$sh.pir"
      for i in $(seq "$reps"); do
        "$build/app/pir-run" "$tmp/mlp/$kind-$sh.pir" --steps $((steps + 1)) --output-dir "$tmp/mlp/$kind-$sh-$i" \
          > /dev/null
        mpirun --allow-run-as-root --oversubscribe -np 2 "$build/app/pir-run" "$tmp/mlp/$kind-$sh.pir" \
          --steps $((steps + 1)) --output-dir "$tmp/mlp/mpi$kind-$sh-$i" > /dev/null
        /usr/bin/python3 "$root/scripts/mlp_torch.py" bench --layers "$l" --hidden "$h" --batch "$b" --mesh "$mesh" \
          --steps "$steps" >> "$tmp/mlp/torch-$kind-$sh"
      done
    done
  done
  echo "gen-program --model mlp on 2 ranks: one SGD step, one thread a rank"
  echo
  mlp_report dp tp
}

# OPENBLAS_CORETYPE for the CPU (see the header comment), unless set or BENCH_BLAS_CORE=default.
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ "${BENCH_BLAS_CORE:-}" != default ]; then
  flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
  if [[ $flags =~ avx512f && $flags =~ avx512bw && $flags =~ avx512vl && $flags =~ avx512dq ]]; then
    export OPENBLAS_CORETYPE=SKYLAKEX
  elif [[ $flags =~ avx2 && $flags =~ fma ]]; then
    export OPENBLAS_CORETYPE=HASWELL
  fi
fi
blas_core=$(/usr/bin/python3 -c 'import ctypes; b = ctypes.CDLL("libopenblas.so.0"); b.openblas_get_corename.restype = ctypes.c_char_p
print(b.openblas_get_corename().decode())' 2> /dev/null || echo unknown)

sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(bench_matmul bench_executor bench_mpi bench_step bench_llama bench_mlp bench_mlp_dist)
echo "# pir-run benchmarks ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), OpenBLAS kernels: $blas_core${OPENBLAS_CORETYPE:+ (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE)})"
for s in "${sections[@]}"; do
  echo
  echo "## $s"
  "$s"
done
