#!/usr/bin/env bash
# The cost planner through the real binaries (issue 31): pir-opt
# explain-reshard's plans and totals, and pir-run --planner cost on its ranks
# with --check for every partial reduce type, uneven dims and across meshes,
# each rank's counted bytes equal to explain-reshard's prediction.
source "$(dirname "$0")/cli_lib.sh"

# write_reshard FILE DIMS MESH IDS SRC_MAP SRC_PARTIAL DST_MESH DST_IDS DST_MAP DST_PARTIAL:
# a parameter `w` laid out as the source, resharded to the destination and output as `out`.
write_reshard() {
  local f=$1 dims=$2 m=$3 ids=$4 sm=$5 sp=$6 dm=$7 dids=$8 dmap=$9 dp=${10}
  local ts="pd_dist.tensor<${dims}xf32, mesh_shape:[$m],process_ids:[$ids],dims_mappings:[$sm]$sp>"
  local td="pd_dist.tensor<${dims}xf32, mesh_shape:[$dm],process_ids:[$dids],dims_mappings:[$dmap]$dp>"
  cat > "$f" <<PIR
{
    (%0) = "builtin.parameter" () {op_dist_attr:{mesh:{shape:[$m],process_ids:[$ids]},result(0):{mesh_shape:[$m],process_ids:[$ids],dims_mappings:[$sm]$sp}},parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> $ts
    (%1) = "dist_op.reshard" (%0) {} : ($ts) -> $td
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[$dm],process_ids:[$dids]},operand(0):{mesh_shape:[$dm],process_ids:[$dids],dims_mappings:[$dmap]$dp}},output_name:"out"} : ($td) -> 
}
PIR
}

# Each rank's counted bytes (summary.yaml, summed over rings) as "RANK SENT RECEIVED" lines.
counted() {
  awk '/- rank:/ {r=$3} /bytes_sent:|bytes_received:/ {s=0; n=split($0, a, /[{},]/); for (i=2;i<n;i++) {split(a[i], kv, ": "); s+=kv[2]}; if ($1=="bytes_sent:") sent[r]=s; else rec[r]=s; seen[r]=1}
       END {for (r in seen) print r, sent[r]+0, rec[r]+0}' "$1" | sort -n
}

# explain-reshard's predicted bytes of the cost plan, as the same lines.
predicted() {
  awk '/planner: cost/ {on=1; next} /planner:/ {on=0} on && /sent:/ {gsub(/[{}:,]/, " "); print $1, $3, $5}' "$1" | sort -n
}

test_explain_reshard_prints_both_plans() {
  run explain-reshard --src 'S(0),S(1)' --dst 'S(1),S(0)' --mesh 2x2 --shape 8x6
  expect_rc 0
  grep -q '^reshard float32\[8x6\] from S(0),S(1) on \[2,2\] to S(1),S(0) on \[2,2\]$' out || fail "no header: $(cat out)"
  grep -q '^cost plan (cost): 3 steps, 192 bytes at most per rank' out || fail "cost plan: $(cat out)"
  grep -q '^paddle plan (NdMesh): 4 steps, 288 bytes at most per rank' out || fail "paddle plan: $(cat out)"
  grep -q 'AllToAll mesh dim 1: R,S(1) -> R,S(0), 96 bytes' out || fail "the all-to-all step: $(cat out)"
}

test_explain_reshard_prices_a_path_and_reads_batches() {
  run explain-reshard --src 'S(0)' --dst 'S(1)' --mesh 4 --shape 8x8 --path 'S(0);R;S(1)' --format yaml
  expect_rc 0
  grep -q 'planner: path' out || fail "no path plan: $(cat out)"
  grep -q 'max_bytes: 384' out || fail "the gather path moves 3 x 64 bytes out and in: $(cat out)"
  # A path step that swaps two mesh dims' axes goes through R on the first.
  run explain-reshard --src 'S(0),S(1)' --dst 'S(1),S(0)' --mesh 2x2 --shape 8x6 --path 'S(0),S(1);S(1),S(0)'
  expect_rc 0
  grep -q '^path plan (path): 3 steps, 192 bytes' out || fail "the swap path: $(cat out)"
  printf -- '--src P --dst R --mesh 2 --shape 4\n--src R --dst S(0) --mesh 2 --shape 4\n' > in
  run explain-reshard --batch < in
  expect_rc 0
  [ "$(grep -c '^---$' out)" = 2 ] || fail "two documents: $(cat out)"
}

test_explain_reshard_program_totals() {
  run explain-reshard "$SEED"
  expect_rc 0
  grep -q '^total cost: ' out || fail "no cost total: $(cat out)"
  grep -q '^total paddle: ' out || fail "no paddle total: $(cat out)"
  line=$(grep -m1 -o '^[^ ]*:[0-9]*:' out | cut -d: -f2)
  run explain-reshard "$SEED" --at "$line"
  expect_rc 0
  grep -q '^cost plan' out || fail "--at $line: $(cat out)"
}

test_explain_reshard_bad_input() {
  run explain-reshard --src 'S(2)' --dst R --mesh 2 --shape 4x4
  expect_rc 1
  stderr_has "names no axis"
  run explain-reshard --src 'S(0),S(0)' --dst R,R --mesh 2x2 --shape 4x4
  expect_rc 1
  stderr_has "co-shard is not modelled"
  run explain-reshard --src R --dst R --mesh 2
  expect_rc 1
  stderr_has "give PROGRAM, or all of"
}

# pir-run --planner cost --check on one reshard, and its counted bytes against explain-reshard's.
check_cost_run() {
  local what=$1
  shift
  prun p.pir --planner cost --check --output-dir o --seed 5
  [ "$rc" = 0 ] || { fail "$what: pir-run exit $rc: $(cat out err)"; return; }
  run explain-reshard "$@" --format yaml
  predicted out > want
  counted o/summary.yaml > got
  # ranks that move nothing are absent from the prediction
  grep -v ' 0 0$' got > got2
  cmp -s want got2 || fail "$what: predicted $(tr '\n' ';' < want), counted $(tr '\n' ';' < got2)"
}

test_run_cost_planner_every_reduce_type() {
  for t in SUM AVG MAX MIN PRODUCT; do
    short=$t; [ "$t" = PRODUCT ] && short=PROD
    # P -> R over both dims, P -> S(0) (a reduce_scatter for SUM only), R -> P, on uneven 5x3.
    write_reshard p.pir 5x3 2,2 0,1,2,3 -1,-1 ", partial(0,$t), partial(1,$t)" 2,2 0,1,2,3 -1,-1 ""
    check_cost_run "P($t),P($t) -> R,R" --src "P($short),P($short)" --dst R,R --mesh 2x2 --shape 5x3
    write_reshard p.pir 5x3 2,2 0,1,2,3 -1,1 ", partial(0,$t)" 2,2 0,1,2,3 0,-1 ""
    check_cost_run "P($t),S(1) -> S(0),R" --src "P($short),S(1)" --dst "S(0),R" --mesh 2x2 --shape 5x3
    write_reshard p.pir 5x3 2,2 0,1,2,3 1,-1 "" 2,2 0,1,2,3 -1,-1 ", partial(0,$t)"
    check_cost_run "R,S(0) -> P($t),R" --src "R,S(0)" --dst "P($short),R" --mesh 2x2 --shape 5x3
  done
}

test_run_cost_planner_across_meshes() {
  write_reshard p.pir 7x5 2 0,1 0,-1 "" 3 2,3,4 -1,0 ""
  check_cost_run "S(0) on [0,1] -> S(1) on [2,3,4]" --src 'S(0)' --dst 'S(1)' --mesh 2 --dst-mesh 3 --dst-ids 2,3,4 \
    --shape 7x5
  write_reshard p.pir 7x5 2 0,1 -1,-1 ", partial(0,SUM)" 2 1,2 -1,0 ""
  check_cost_run "P on [0,1] -> S(1) on [1,2]" --src 'P' --dst 'S(1)' --mesh 2 --dst-mesh 2 --dst-ids 1,2 --shape 7x5
}

test_split_ranks_planner_option() {
  write_reshard p.pir 8x6 2,2 0,1,2,3 0,1 "" 2,2 0,1,2,3 1,0 ""
  run p.pir '--pass-pipeline=split-ranks{planner=cost}'
  expect_rc 0
  grep -q 'pd_op.send_v2' out || fail "no all-to-all messages: $(head -30 out)"
  run p.pir '--pass-pipeline=split-ranks{planner=fastest}'
  expect_rc 1
  stderr_has "planner"
}

# gen-program --mesh 2x4: explain-reshard's totals of a step with both planners, side by side, are what
# pir-run counts running the program with each (every rank's bytes summed).
test_gen_program_2x4_totals_both_planners() {
  "$HERE/../../scripts/gen-program" --ops 120 --mesh 2x4 -o g.pir || { fail "gen-program"; return; }
  run explain-reshard g.pir
  expect_rc 0
  cp out totals
  for planner in cost paddle; do
    want=$(awk -v p="$planner" '$1=="total" && $2==p":" {print $9}' totals)
    [ -n "$want" ] || { fail "no $planner total: $(tail -3 out)"; continue; }
    prun g.pir --planner $planner --output-dir "o_$planner" --seed 2
    [ "$rc" = 0 ] || { fail "pir-run --planner $planner: $(cat err)"; continue; }
    got=$(counted "o_$planner/summary.yaml" | awk '{s+=$2+$3} END {print s}')
    [ "$got" = "$want" ] || fail "$planner: explain-reshard predicts $want bytes on all ranks, pir-run counted $got"
  done
}

# A folder split with the cost planner checks against its program: ranks.yaml records the planner, and
# the check plans PROGRAM's rings with it (Paddle's planner plans other rings, which the check refused).
test_run_folder_made_with_the_cost_planner() {
  write_reshard p.pir 8x6 2,2 0,1,2,3 0,1 "" 2,2 0,1,2,3 1,0 ""
  run p.pir '--pass-pipeline=apply-partition,split-ranks{planner=cost}' --output-dir dd
  expect_rc 0
  grep -q '^planner: cost$' dd/ranks.yaml || fail "ranks.yaml records no planner: $(head -8 dd/ranks.yaml)"
  prun --programs dd --check p.pir --output-dir o --seed 5
  expect_rc 0
  grep -q '^check: 2 tensors match' out || fail "no check result: $(cat out)"
  # The same folder said to be Paddle's: its all-to-all rings are none Paddle's planner plans.
  sed -i '/^planner: cost$/d' dd/ranks.yaml
  prun --programs dd --check p.pir
  expect_rc 1
  stderr_has "is no ring this program's lowering plans"
  # Paddle's planner leaves the key out, so older folders read as before.
  run p.pir '--pass-pipeline=apply-partition,split-ranks' --output-dir pd
  expect_rc 0
  grep -q '^planner:' pd/ranks.yaml && fail "Paddle's planner is written: $(head -8 pd/ranks.yaml)"
  prun --programs pd --check p.pir --seed 5
  expect_rc 0
  # A planner ranks.yaml does not know is an error at it.
  sed -i 's/^ranks: \(.*\)$/ranks: \1\nplanner: fastest/' pd/ranks.yaml
  prun --programs pd --check p.pir
  expect_rc 1
  stderr_has "ranks.yaml:[0-9]+:[0-9]+: error: 'planner' must be paddle or cost"
}

cli_main
