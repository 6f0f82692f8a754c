#!/usr/bin/env bash
# Throughput of pir-opt against mlir-opt-14 on generated programs.
#
#   bash scripts/bench.sh [--quick]
#
# Installs what it needs (mlir-14-tools, GNU time), builds pir-opt
# (RelWithDebInfo) if needed, generates programs of 10k, 100k, 200k and 1M ops
# (--quick: 10k only) with scripts/gen-program into a temp folder, and times
# (best of BENCH_RUNS runs, default 3, at 100k again after the 1M runs;
# BENCH_RUNS_1M at 1M, default 1, each once the machine is steady):
#   parse+print         pir-opt F.pir -o /dev/null
#   apply-partition     pir-opt F.pir --pass-pipeline=apply-partition -o /dev/null
#   pipeline-split 1F1B pir-opt S.pir --pass-pipeline=pipeline-split{mode=1F1B} -o /dev/null
#                       (S.pir: the same size with --stages 4)
#   mlir-opt-14         mlir-opt-14 --allow-unregistered-dialect --mlir-print-op-generic F.mlir -o /dev/null
# Then split-ranks (BENCH_SPLIT_SIZES, default 100k and 1M; --quick: 10k):
#   parse+print         pir-opt M.pir -o /dev/null
#   split-ranks         pir-opt M.pir --pass-pipeline=apply-partition,split-ranks --output-dir D
#                       (M.pir: gen-program --mesh 2x4, 8 ranks)
# with its own table: time per rank (wall time / ranks) against parse+print,
# the 1M/100k ratio, and peak RSS against parse+print's plus 1.5x the input
# per core (the issue's bounds: 1.5x, 11x, that sum).
# It also prints a markdown table (ops/s, MB/s, peak RSS, pir-opt ops/s over
# mlir-opt's from the same run), the core count, the 1M/100k time ratio (with
# the probe: how fast the machine was around each 1M run) and peak RSS /
# input size at 1M. Nothing is asserted about times.
# Environment: BUILD_DIR (default build/), PIR_OPT (a binary to use instead of
# building), BENCH_SIZES (e.g. "10000 200000"), BENCH_RUNS, BENCH_RUNS_1M,
# BENCH_SETTLE (seconds to wait for a steady machine before a 1M run).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
quick=0
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument '$a'" >&2; exit 1 ;;
  esac
done

bash "$root/scripts/install-deps.sh" mlir-14-tools time
mlir_opt=$(command -v mlir-opt-14 || true)
[ -n "$mlir_opt" ] || { echo "bench.sh: mlir-opt-14 not found after installing mlir-14-tools" >&2; exit 1; }

# Build (incrementally) an optimised pir-opt, unless PIR_OPT names a binary.
build=${BUILD_DIR:-$root/build}
if [ -n "${PIR_OPT:-}" ]; then
  pir_opt=$PIR_OPT
else
  if [ -f "$build/CMakeCache.txt" ]; then
    type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")
    if [ "$type" != RelWithDebInfo ] && [ "$type" != Release ]; then
      echo "bench.sh: $build is a '$type' build; using $root/build-bench instead" >&2
      build=$root/build-bench
    fi
  fi
  [ -f "$build/CMakeCache.txt" ] || cmake -G Ninja -B "$build" -S "$root" -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
  ninja -C "$build" pir-opt >&2
  pir_opt=$build/app/pir-opt
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pir-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -n "${BENCH_SPLIT_SIZES+x}" ]; then split_sizes=($BENCH_SPLIT_SIZES)
elif [ $quick = 1 ]; then split_sizes=(10000)
else split_sizes=(100000 1000000); fi

if [ -n "${BENCH_SIZES:-}" ]; then sizes=($BENCH_SIZES)
elif [ $quick = 1 ]; then sizes=(10000)
else sizes=(10000 100000 200000 1000000); fi

# measure RUNS CMD...: sets best (seconds), rss (KB) and cpu (user+sys seconds, all threads) of the best run.
measure() {
  local runs=$1; shift
  best= rss= cpu=
  for ((i = 0; i < runs; i++)); do
    local t0=$EPOCHREALTIME
    if ! /usr/bin/time -f '%M %U %S' -o "$tmp/rss" "$@" 2>"$tmp/err"; then
      echo "bench.sh: failed: $*" >&2; cat "$tmp/err" >&2; exit 1
    fi
    local t1=$EPOCHREALTIME
    local t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then
      best=$t
      read -r rss cpu_user cpu_sys < <(tail -n 1 "$tmp/rss")
      cpu=$(awk -v u="$cpu_user" -v s="$cpu_sys" 'BEGIN { printf "%.2f", u + s }')
    fi
  done
}

# One run at 1M, as issue 8 asks. On this project's VM a single 1M run varies
# by up to 50% (the first touch of a page costs ~2 us, and repeated runs reuse
# pages a single one cannot): BENCH_RUNS_1M=3 takes the same best of 3 as the
# smaller sizes.
runs_each=${BENCH_RUNS:-3}
runs_1m=${BENCH_RUNS_1M:-1}

# This VM's kernel pages out file cache that looks idle (a DAMON "pageout"
# scheme: /sys/kernel/mm/damon/admin), and a program file read a minute
# earlier may be half gone: a lone 1M run would then time the disk. So each
# input is read into the cache just before it is timed, at every size.
warm() { cat "$@" > /dev/null; }

# This VM's memory-bound speed drifts by up to 50% for tens of seconds at a
# time. So each 1M run is bracketed by a probe, parse+print of the 100k
# program, timed against its best: at 1.00 the 1M run had the machine the
# 100k runs had; well above, the 1M/100k ratio overstates the growth; below,
# the 100k runs were the slowed ones and it understates it.
probe() {
  warm "$tmp/100000/f.pir"
  local t0=$EPOCHREALTIME
  "$pir_opt" "$tmp/100000/f.pir" -o /dev/null 2>/dev/null || { echo "bench.sh: probe failed" >&2; exit 1; }
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" -v best="${T[100000/parse+print]}" 'BEGIN { printf "%.2f", (b - a) / best }'
}

# Before each 1M run, wait (up to BENCH_SETTLE seconds, default 60) until the
# probe is back within 10% of its best: the one run then starts on the machine
# the 100k runs had, and the probe after it says whether it kept it.
settle() {
  local start=$SECONDS p waited=0
  while true; do
    p=$(probe)
    if awk -v p="$p" 'BEGIN { exit !(p <= 1.10) }'; then break; fi
    if (( SECONDS - start >= ${BENCH_SETTLE:-60} )); then break; fi
    sleep 1
    waited=1
  done
  if [ $waited = 1 ]; then echo "${p}x before, after waiting $(( SECONDS - start )) s"; else echo "${p}x before"; fi
}

declare -A T R B P  # time, peak RSS (KB), input bytes, probes by "N/workload"
workloads=(parse+print apply-partition "pipeline-split{mode=1F1B}" mlir-opt-14)

# time_workload N W RUNS: times W on the programs of N ops in $tmp/N; sets
# best, rss and in (the input file).
time_workload() {
  local dir=$tmp/$1 w=$2 runs=$3
  case $w in mlir-opt-14) in=$dir/f.mlir ;; pipeline-split*) in=$dir/s.pir ;; *) in=$dir/f.pir ;; esac
  warm "$in"
  case $w in
    parse+print) measure "$runs" "$pir_opt" "$in" -o /dev/null ;;
    apply-partition) measure "$runs" "$pir_opt" "$in" --pass-pipeline=apply-partition -o /dev/null ;;
    pipeline-split*) measure "$runs" "$pir_opt" "$in" "--pass-pipeline=$w" -o /dev/null ;;
    mlir-opt-14) measure "$runs" "$mlir_opt" --allow-unregistered-dialect --mlir-print-op-generic "$in" -o /dev/null ;;
  esac
}

for n in "${sizes[@]}"; do
  echo "bench.sh: generating $n ops" >&2
  mkdir -p "$tmp/$n"
  "$root/scripts/gen-program" --ops "$n" -o "$tmp/$n/f.pir"
  "$root/scripts/gen-program" --ops "$n" --stages 4 --last-stage -o "$tmp/$n/s.pir"
  "$root/scripts/gen-program" --ops "$n" --format mlir -o "$tmp/$n/f.mlir"
  runs=$runs_each
  [ "$n" -ge 1000000 ] && runs=$runs_1m
  for w in "${workloads[@]}"; do
    echo "bench.sh: $n ops: $w ($runs run(s))" >&2
    probing=0
    if [ "$n" -ge 1000000 ] && [ -n "${T[100000/parse+print]:-}" ]; then probing=1; P[$n/$w]=$(settle); fi
    time_workload "$n" "$w" "$runs"
    T[$n/$w]=$best R[$n/$w]=$rss B[$n/$w]=$(stat -c %s "$in")
    if [ $probing = 1 ]; then P[$n/$w]="probe ${P[$n/$w]}, $(probe)x after"; fi
  done
  # The 100k programs stay: the probe and the second 100k round use them.
  [ "$n" = 100000 ] || rm -rf "${tmp:?}/$n"
done

# The 100k times are the linearity ratio's reference: a slow stretch during
# them understates the ratio as one during a 1M run overstates it. So they
# are timed again after the 1M runs, and the best of both rounds counts.
if [ -d "$tmp/100000" ] && [ -n "${T[1000000/parse+print]:-}" ]; then
  for w in "${workloads[@]}"; do
    echo "bench.sh: 100000 ops again: $w ($runs_each run(s))" >&2
    time_workload 100000 "$w" "$runs_each"
    if awk -v t="$best" -v b="${T[100000/$w]}" 'BEGIN { exit !(t < b) }'; then T[100000/$w]=$best R[100000/$w]=$rss; fi
  done
fi
rm -rf "${tmp:?}/100000"

# split-ranks on an 8-rank program (mesh 2x4), against parse+print of it.
declare -A ST SR SB SC SL
for n in "${split_sizes[@]}"; do
  echo "bench.sh: generating $n ops on mesh 2x4" >&2
  mkdir -p "$tmp/split$n"
  m=$tmp/split$n/m.pir
  "$root/scripts/gen-program" --ops "$n" --mesh 2x4 -o "$m"
  runs=$runs_each
  [ "$n" -ge 1000000 ] && runs=$runs_1m
  echo "bench.sh: $n ops (mesh 2x4): parse+print, split-ranks ($runs run(s))" >&2
  warm "$m"
  measure "$runs" "$pir_opt" "$m" -o /dev/null
  ST[$n/parse]=$best SR[$n/parse]=$rss SC[$n/parse]=$cpu SB[$n]=$(stat -c %s "$m")
  warm "$m"
  measure "$runs" bash -c 'rm -rf "$1" && exec "$2" "$3" --pass-pipeline=apply-partition,split-ranks --output-dir "$1"' \
    _ "$tmp/split$n/out" "$pir_opt" "$m"
  ST[$n/split]=$best SR[$n/split]=$rss SC[$n/split]=$cpu SL[$n]=$(cut -d' ' -f1 /proc/loadavg)
  ranks=$(grep -c '^  - name: rank' "$tmp/split$n/out/programs.yaml")
  ST[$n/ranks]=$ranks
  rm -rf "${tmp:?}/split$n"
done

cores=$(nproc)
echo
echo "Cores: $cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))."
again=""
[ -n "${T[1000000/parse+print]:-}" ] && [ -n "${T[100000/parse+print]:-}" ] && again=", at 100k before and after the 1M runs"
echo "Command: \`bash scripts/bench.sh$([ $quick = 1 ] && echo ' --quick')\` (best of $runs_each runs$again; $runs_1m at 1M ops)."
echo
echo "| ops | workload | time (s) | ops/s | MB/s | peak RSS (MB) | RSS / input | ops/s vs mlir-opt-14 |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  mt=${T[$n/mlir-opt-14]}
  for w in "${workloads[@]}"; do
    k=$n/$w
    awk -v n="$n" -v w="$w" -v t="${T[$k]}" -v r="${R[$k]}" -v b="${B[$k]}" -v mt="$mt" 'BEGIN {
      ratio = (w == "mlir-opt-14") ? "1" : sprintf("%.2fx", mt / t)
      printf "| %d | %s | %.3f | %.0f | %.1f | %.1f | %.2f | %s |\n",
             n, w, t, n / t, b / 1e6 / t, r / 1024, r * 1024 / b, ratio
    }'
  done
done
big=${sizes[${#sizes[@]}-1]}
if [ -n "${T[100000/parse+print]:-}" ] && [ -n "${T[1000000/parse+print]:-}" ]; then
  echo
  echo "Linearity, time at 1M ops / time at 100k ops (10 is linear), and the probe"
  echo "(parse+print of the 100k program) around the 1M run, as a multiple of its best:"
  for w in "${workloads[@]}"; do
    awk -v w="$w" -v a="${T[1000000/$w]}" -v b="${T[100000/$w]}" -v p="${P[1000000/$w]:-}" \
      'BEGIN { printf "- %s: %.2f%s\n", w, a / b, p == "" ? "" : " (" p ")" }'
  done
fi
echo
echo "Peak RSS / input size at $big ops:"
for w in "${workloads[@]}"; do
  awk -v w="$w" -v r="${R[$big/$w]}" -v b="${B[$big/$w]}" 'BEGIN { printf "- %s: %.2f\n", w, r * 1024 / b }'
done

if [ ${#split_sizes[@]} -gt 0 ]; then
  echo
  echo "split-ranks (\`apply-partition,split-ranks --output-dir\`, gen-program --mesh 2x4; $cores cores):"
  echo
  echo "Wall time per rank (split-ranks' / ranks) is what the bound is on; CPU (user+sys of all threads) says"
  echo "what the work costs when the machine is shared (load: the 1-minute load average after the run)."
  echo
  echo "| ops | ranks | parse+print (s) | split-ranks (s) | per rank (s) | per rank / parse+print | CPU parse+print (s) | CPU split-ranks (s) | CPU per rank / parse+print | peak RSS (MB) | RSS bound (MB) | load |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for n in "${split_sizes[@]}"; do
    awk -v n="$n" -v k="${ST[$n/ranks]}" -v p="${ST[$n/parse]}" -v t="${ST[$n/split]}" -v pr="${SR[$n/parse]}" \
      -v r="${SR[$n/split]}" -v b="${SB[$n]}" -v c="$cores" -v cp="${SC[$n/parse]}" -v ct="${SC[$n/split]}" \
      -v l="${SL[$n]}" 'BEGIN {
      printf "| %d | %d | %.3f | %.3f | %.3f | %.2fx | %.2f | %.2f | %.2fx | %.1f | %.1f | %s |\n",
             n, k, p, t, t / k, t / k / p, cp, ct, ct / k / (cp > 0 ? cp : 0.01), r / 1024,
             (pr * 1024 + 1.5 * b * c) / 1048576, l
    }'
  done
  if [ -n "${ST[100000/split]:-}" ] && [ -n "${ST[1000000/split]:-}" ]; then
    awk -v a="${ST[1000000/split]}" -v b="${ST[100000/split]}" \
      'BEGIN { printf "\nsplit-ranks at 1M / at 100k: %.2f (the bound: 11)\n", a / b }'
  fi
fi
