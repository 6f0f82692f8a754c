#!/usr/bin/env bash
# CTest cases for scripts/gen-program (registered from app/tests/CMakeLists.txt):
#   gen-program-test.sh PIR_OPT CASE [PIR_RUN]
# Exit 0 pass, 1 fail, 77 skip (mlir-opt-14 not installed).
set -uo pipefail
pir_opt=$1
case=$2
pir_run=${3:-$(dirname "$pir_opt")/pir-run}
root=$(cd "$(dirname "$0")/.." && pwd)
gen=$root/scripts/gen-program
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-program-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Several shapes of program: meshes, optimizers, whole pipelines and one stage alone.
variants=("--ops 2000" "--ops 1500 --seed 3 --optimizer adamw" "--ops 800 --mesh 4" "--ops 900 --mesh 2x2x2"
          "--ops 1200 --stages 4 --mesh 1" "--ops 1200 --stages 2 --vpp 2 --mesh 2 --optimizer adamw"
          "--ops 900 --stages 2 --vpp 2 --vschedule --mesh 2x2" "--ops 1200 --stages 4 --last-stage"
          "--ops 1200 --stages 4 --vpp 2 --last-stage --optimizer adamw" "--ops 100"
          "--ops 1000 --mesh 2x2 --loss sum" "--ops 1200 --stages 2 --mesh 2 --loss sum --optimizer adamw")

case $case in
  verify)
    for v in "${variants[@]}"; do
      "$gen" $v -o "$tmp/p.pir" || fail "gen-program $v"
      "$pir_opt" "$tmp/p.pir" -o /dev/null || fail "does not verify: $v"
      n=$(grep -c '^    (' "$tmp/p.pir")
      [ "$n" = "$(set -- $v; echo "$2")" ] || fail "$v wrote $n ops"
    done ;;
  roundtrip)
    for v in "${variants[@]}"; do
      "$gen" $v -o "$tmp/p.pir" || fail "gen-program $v"
      "$pir_opt" "$tmp/p.pir" | cmp - "$tmp/p.pir" || fail "does not round-trip: $v"
    done ;;
  deterministic)
    "$gen" --ops 3000 --seed 5 -o "$tmp/a.pir" && "$gen" --ops 3000 --seed 5 -o "$tmp/b.pir" || fail "gen-program"
    cmp "$tmp/a.pir" "$tmp/b.pir" || fail "two runs with one seed differ"
    "$gen" --ops 3000 --seed 5 | cmp - "$tmp/a.pir" || fail "stdout differs from -o"
    "$gen" --ops 3000 --seed 6 -o "$tmp/c.pir" || fail "gen-program"
    ! cmp -s "$tmp/a.pir" "$tmp/c.pir" || fail "the seed changes nothing" ;;
  loss_sum)
    # --loss sum: the same program but sum/sum_grad for mean/mean_grad, and a loss B*S*H = 8192 times the mean's.
    [ -x "$pir_run" ] || fail "no pir-run at $pir_run"
    "$gen" --ops 600 --mesh 2x2 -o "$tmp/mean.pir" && "$gen" --ops 600 --mesh 2x2 --loss sum -o "$tmp/sum.pir" ||
      fail "gen-program"
    [ "$(diff "$tmp/mean.pir" "$tmp/sum.pir" | grep -c '^>')" = 2 ] || fail "more than the loss and its grad differ"
    grep -q '"pd_op.sum" ' "$tmp/sum.pir" && grep -q '"pd_op.sum_grad" ' "$tmp/sum.pir" || fail "no sum, sum_grad"
    "$pir_run" "$tmp/mean.pir" > "$tmp/m.out" && "$pir_run" "$tmp/sum.pir" > "$tmp/s.out" || fail "pir-run"
    python3 -c "import sys; m, s = (float(open(f).read().split()[-1]) for f in sys.argv[1:])
sys.exit(abs(s - 8192 * m) > 1e-4 * abs(s))" "$tmp/m.out" "$tmp/s.out" ||
      fail "the sum loss is not 8192 times the mean: $(cat "$tmp/m.out" "$tmp/s.out")" ;;
  apply_partition)
    for v in "${variants[@]}"; do
      "$gen" $v -o "$tmp/p.pir" || fail "gen-program $v"
      # newest era: a whole pipeline's cross-mesh reshards cannot be spelled in its dims_maping era
      "$pir_opt" "$tmp/p.pir" --pass-pipeline=apply-partition --pass-statistics --print-era=newest -o "$tmp/out.pir" \
        2>"$tmp/stats" ||
        fail "apply-partition failed: $v"
      grep -Eq 'reshards? inserted' "$tmp/stats" || { cat "$tmp/stats" >&2; fail "no reshard inserted: $v"; }
      grep -q '"dist_op.reshard"' "$tmp/out.pir" || fail "no dist_op.reshard in the output: $v"
    done ;;
  pipeline_split)
    "$gen" --ops 1200 --stages 4 --last-stage -o "$tmp/s.pir" || fail "gen-program"
    for m in FThenB 1F1B ZBH1; do
      "$pir_opt" "$tmp/s.pir" "--pass-pipeline=pipeline-split{mode=$m}" -o "$tmp/out.pir" || fail "pipeline-split $m"
      grep -q '^// ----- job: optimizer' "$tmp/out.pir" || fail "pipeline-split $m made no optimizer program"
    done
    "$pir_opt" "$tmp/s.pir" "--pass-pipeline=apply-partition,pipeline-split{mode=1F1B}" -o /dev/null ||
      fail "apply-partition then 1F1B"
    "$gen" --ops 1200 --stages 4 --vpp 2 --last-stage -o "$tmp/v.pir" || fail "gen-program --vpp 2"
    "$pir_opt" "$tmp/v.pir" "--pass-pipeline=pipeline-split{mode=VPP vpp=2}" -o /dev/null || fail "VPP vpp=2"
    "$pir_opt" "$tmp/v.pir" "--pass-pipeline=apply-partition,split-matmul-grad,pipeline-split{mode=VPP vpp=2 split-bw=true}" \
      -o /dev/null || fail "VPP split-bw"
    # The whole pipeline is several stages: refused unsplit.
    "$gen" --ops 200 --stages 2 --mesh 1 -o "$tmp/w.pir" || fail "gen-program --stages 2"
    ! "$pir_opt" "$tmp/w.pir" "--pass-pipeline=pipeline-split{mode=1F1B}" -o /dev/null 2>"$tmp/err" ||
      fail "a whole pipeline split unsplit"
    grep -q "one stage per program" "$tmp/err" || fail "no 'one stage per program': $(cat "$tmp/err")" ;;
  stages)
    # The whole pipeline: every stage on its mesh, dist-consistent once partitioned; split-ranks gives
    # each rank its stage's ops alone, the crossings as send_v2/recv_v2, and records each rank's stage.
    for v in "--ops 200 --stages 2 --mesh 1" "--ops 400 --stages 2 --mesh 2 --optimizer adamw" \
             "--ops 600 --stages 2 --vpp 2 --mesh 1" "--ops 600 --stages 2 --vpp 2 --vschedule --mesh 1"; do
      "$gen" $v -o "$tmp/p.pir" || fail "gen-program $v"
      "$pir_opt" "$tmp/p.pir" --pass-pipeline=apply-partition --verify-dist --print-era=newest -o /dev/null ||
        fail "apply-partition --verify-dist: $v"
      rm -rf "$tmp/d"
      "$pir_opt" "$tmp/p.pir" --pass-pipeline=apply-partition,split-ranks --output-dir "$tmp/d" ||
        fail "apply-partition,split-ranks: $v"
      n=$(echo "$v" | sed 's/.*--mesh \([0-9]*\).*/\1/')
      for f in "$tmp"/d/rank*.pir; do
        r=${f##*/rank}; r=${r%.pir}; s=$((r / n))
        grep -q '"pd_op.send_v2"' "$f" && grep -q '"pd_op.recv_v2"' "$f" || fail "$v: rank $r lacks send_v2/recv_v2"
        grep -q "\"learning_rate_$s\"" "$f" || fail "$v: rank $r lacks its stage's learning rate"
        for o in 0 1; do
          [ $o = $s ] || ! grep -q "\"learning_rate_$o\"" "$f" || fail "$v: rank $r holds stage $o's ops"
        done
        grep -A4 "name: rank$r\$" "$tmp/d/programs.yaml" | grep -qx "    stage: $s" ||
          fail "$v: programs.yaml does not give rank $r stage $s"
      done
      [ "$n" = 1 ] && want="stages: [0, 1]" || want="stages: [0, 0, 1, 1]"
      grep -qxF "$want" "$tmp/d/ranks.yaml" || fail "$v: ranks.yaml lacks '$want'"
    done
    # Every schedule mode has programs to run: the per-rank job programs pass `schedule --check`.
    "$gen" --ops 300 --stages 2 --mesh 2 -o "$tmp/p.pir" || fail "gen-program --stages 2"
    "$gen" --ops 600 --stages 2 --vpp 2 --mesh 1 -o "$tmp/vpp.pir" || fail "gen-program --vpp 2"
    "$gen" --ops 600 --stages 2 --vpp 2 --vschedule --mesh 1 -o "$tmp/v.pir" || fail "gen-program --vschedule"
    for c in "FThenB p 4" "1F1B p 4" "ZBH1 p 4" "ZB1P p 4" "VPP vpp 4" "ZBVPP v 2"; do
      set -- $c
      opts="mode=$1"; sched=(--mode "$1" --stages 2 --micro-batches "$3")
      [ "$1" = VPP ] && opts="$opts vpp=2" && sched+=(--vpp 2)
      rm -rf "$tmp/o"
      "$pir_opt" "$tmp/$2.pir" "--pass-pipeline=apply-partition,split-ranks,pipeline-split{$opts}" --output-dir "$tmp/o" ||
        fail "pipeline-split{$opts} on the per-rank programs"
      grep -q "^mode: \"\?$1\"\?$" "$tmp/o/programs.yaml" || fail "programs.yaml does not name mode $1"
      "$pir_opt" schedule "${sched[@]}" -o "$tmp/s.yaml" || fail "schedule $c"
      "$pir_opt" schedule --check "$tmp/s.yaml" --programs "$tmp/o" >/dev/null || fail "schedule --check $c"
    done
    # ZBVPP wants the V: VPP's placement is refused.
    ! "$pir_opt" "$tmp/vpp.pir" "--pass-pipeline=apply-partition,split-ranks,pipeline-split{mode=ZBVPP}" -o /dev/null \
      2>"$tmp/err" || fail "ZBVPP took chunks not in a V"
    grep -q "ZBVPP places chunks in a V" "$tmp/err" || fail "no V error: $(head -c 300 "$tmp/err")"
    # --vschedule puts the loss on stage 0, after the last layer there.
    "$gen" --ops 600 --stages 2 --vpp 2 --vschedule --mesh 1 -o "$tmp/v.pir" || fail "gen-program --vschedule"
    grep '"pd_op.mean"' "$tmp/v.pir" | grep -q 'process_ids:\[0\]},' || fail "--vschedule: the loss is not on stage 0"
    ! "$gen" --ops 600 --stages 2 --vpp 3 --vschedule 2>/dev/null || fail "--vschedule took --vpp 3" ;;
  mlir)
    command -v mlir-opt-14 >/dev/null || { echo "mlir-opt-14 not installed (scripts/install-deps.sh mlir-14-tools)"; exit 77; }
    for v in "--ops 2000" "--ops 1200 --stages 4 --vpp 2 --optimizer adamw" "--ops 800 --mesh 4"; do
      "$gen" $v --format mlir -o "$tmp/p.mlir" || fail "gen-program $v --format mlir"
      mlir-opt-14 --allow-unregistered-dialect --mlir-print-op-generic "$tmp/p.mlir" -o "$tmp/out.mlir" ||
        fail "mlir-opt-14 refuses $v"
      "$gen" $v -o "$tmp/p.pir"
      a=$(grep -c '^    (' "$tmp/p.pir"); c=$(grep -cE '"pd_(op|builtin)\.[a-z_0-9]+"\(' "$tmp/out.mlir")
      [ "$a" = "$c" ] || fail "$v: $a PIR ops but mlir-opt printed $c"
      pb=$(stat -c %s "$tmp/p.pir"); mb=$(stat -c %s "$tmp/p.mlir")
      awk -v p="$pb" -v m="$mb" 'BEGIN { exit !(m >= 0.8 * p && m <= 1.2 * p) }' ||
        fail "$v: MLIR is $mb bytes, PIR $pb (not within 20%)"
    done ;;
  pipeline_shapes)
    # --pipeline-shapes SEED (scripts/pipeline_shapes.py, issue 27): 20 seeds parse, round trip but for the
    # `// SHAPE:` line, depend only on the seed, and pass their first mode (FThenB for one chunk a stage, else
    # VPP or ZBVPP: one-chunk modes refuse chunk ids 1) under pir-run --check.
    [ -x "$pir_run" ] || fail "no pir-run at $pir_run"
    for s in $(seq 0 19); do
      "$gen" --pipeline-shapes "$s" -o "$tmp/p.pir" || fail "gen-program --pipeline-shapes $s"
      head -n 1 "$tmp/p.pir" | grep -q '^// SHAPE: [0-9] stages' || fail "seed $s: no // SHAPE: line"
      "$gen" --pipeline-shapes "$s" | cmp -s - "$tmp/p.pir" || fail "seed $s: two runs differ"
      "$pir_opt" "$tmp/p.pir" -o "$tmp/rt.pir" || fail "seed $s does not verify: $(head -n 1 "$tmp/p.pir")"
      tail -n +2 "$tmp/p.pir" | cmp -s - "$tmp/rt.pir" || fail "seed $s does not round-trip"
      "$gen" --pipeline-shapes "$s" --describe > "$tmp/modes" || fail "seed $s --describe"
      if grep -q '2 chunks a stage (V placement)' "$tmp/p.pir"; then want=ZBVPP first='--mode ZBVPP'
      elif grep -q '2 chunks a stage (VPP placement)' "$tmp/p.pir"; then want=VPP first='--mode VPP --vpp 2'
      else want=1F1B first='--mode FThenB'; fi
      head -n 1 "$tmp/modes" | grep -q -- "^$first --micro-batches" || fail "seed $s: modes $(cat "$tmp/modes")"
      grep -q -- "--mode $want " "$tmp/modes" || fail "seed $s: no $want among $(cat "$tmp/modes")"
      read -ra flags < "$tmp/modes"
      "$pir_run" "$tmp/p.pir" "${flags[@]}" --check --timeout 30 > "$tmp/out" 2>&1 ||
        fail "seed $s: ${flags[*]} --check: $(head -n 1 "$tmp/p.pir"): $(head -c 600 "$tmp/out")"
      grep -q '^check: [0-9]* tensors match' "$tmp/out" || fail "seed $s: no check line: $(cat "$tmp/out")"
      cp "$tmp/p.pir" "$tmp/seed$s.pir"
    done
    [ "$(cat "$tmp"/seed*.pir | sort -u | wc -l)" -gt 100 ] || fail "the seeds give the same programs"
    # The cases of testdata/pipeline_shapes are the module's CASES, as committed.
    python3 - "$root" << 'PY' || fail "testdata/pipeline_shapes differs from scripts/pipeline_shapes.py's CASES"
import sys
sys.path.insert(0, sys.argv[1] + "/scripts")
import pipeline_shapes as ps
bad = [n for n, c in ps.CASES.items()
       if open("%s/testdata/pipeline_shapes/%s.pir" % (sys.argv[1], n)).read() != ps.program(c)]
sys.exit("differ: %s" % bad if bad else 0)
PY
    ! "$gen" --describe --ops 100 2>/dev/null || fail "--describe without --pipeline-shapes" ;;
  *) fail "unknown case '$case'" ;;
esac
echo "ok: $case"
