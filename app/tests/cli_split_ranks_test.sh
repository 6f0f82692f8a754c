#!/usr/bin/env bash
# CLI tests of pir-opt: split-ranks and its output folder.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

LOWERING=$TESTDATA/lowering

# A distributed program on [0,1] that already holds an all_reduce on ring 5,
# whose ranks its text does not say.
write_ring5() {
  cat > "$1" <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,8],stop_gradient:[true]} : () -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    (%1) = "pd_op.all_reduce" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]},result(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}},reduce_type:(Int32)0,ring_id:(Int32)5} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]}},output_name:"y"} : (pd_dist.tensor<4x8xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[0,-1]>) -> 
}
PIR
}

# The folder holds rankN.pir, programs.yaml and ranks.yaml; each rank's file
# is what the stream form prints under its job line, and the seed's are the
# goldens testdata/lowering/seed_rankN.expected.
test_split_ranks_output_dir() {
  run "$SEED" --pass-pipeline=apply-partition,split-ranks --output-dir d
  expect_rc 0
  [ "$(ls d | tr '\n' ' ')" = "programs.yaml rank0.pir rank1.pir ranks.yaml " ] ||
    { fail "d/ holds '$(ls d | tr '\n' ' ')'"; return; }
  timeout 60 "$PIR_OPT" "$SEED" --pass-pipeline=apply-partition,split-ranks > stream 2> err
  local r
  for r in 0 1; do
    awk -v j="// ----- job: rank$r" '$0 == j {on=1; next} /^\/\/ ----- job:/ {on=0} on' stream > "expect_$r"
    same "expect_$r" "d/rank$r.pir" "d/rank$r.pir"
    tail -n +2 "$LOWERING/seed_rank$r.expected" > "golden_$r"
    same "golden_$r" "d/rank$r.pir" "d/rank$r.pir against the golden"
    grep -qx "    file: rank$r.pir" d/programs.yaml || fail "programs.yaml does not list rank$r.pir"
    grep -qx "    rank: $r" d/programs.yaml || fail "programs.yaml does not give rank $r"
  done
  grep -qx "world_size: 2" d/ranks.yaml || fail "ranks.yaml lacks the world size"
  grep -qx "  - {id: 12, ranks: \[0, 1\]}" d/ranks.yaml || fail "ranks.yaml lacks ring 12"
  grep -qx "      - {rank: 1, shape: \[8, 8\], ranges: \[\[8, 16\], \[0, 8\]\]}" d/ranks.yaml ||
    fail "ranks.yaml lacks rank 1's piece of parameter_1"
  no_temp_files
}

# Splits follow splits: each rank's jobs go to rankN/JOB.pir, ranks.yaml beside them.
test_split_ranks_then_jobs() {
  run "$TESTDATA/pipeline/07_seed_mlp_fthenb.pir" '--pass-pipeline=split-ranks,pipeline-split{mode=FThenB}' \
    --output-dir d
  expect_rc 0
  [ "$(ls d d/rank1 | tr '\n' ' ')" = "d: programs.yaml rank0 rank1 ranks.yaml  d/rank1: backward.pir forward.pir optimizer.pir " ] ||
    fail "d/ holds '$(ls d d/rank1 | tr '\n' ' ')'"
  grep -qx "  - name: rank1.backward" d/programs.yaml || fail "programs.yaml does not list rank1.backward"
}

# A ring the input already uses needs its ranks: a located error, and with
# rings=FILE the ranks that file gives (a one-rank ring's all_reduce goes).
test_split_ranks_unknown_ring() {
  write_ring5 in.pir
  run in.pir --pass-pipeline=split-ranks --output-dir d
  expect_rc 1
  expect_located in.pir 3
  stderr_has "error: op 'pd_op.all_reduce' communicates on ring 5, whose ranks are unknown; give them with split-ranks\{rings=FILE\}"
  [ ! -e d ] || fail "a failing run created d/"
  printf 'version: 1\nworld_size: 2\nranks: [0, 1]\nrings:\n  - {id: 5, ranks: [0, 1]}\nvalues: []\n' > rings.yaml
  run in.pir '--pass-pipeline=split-ranks{rings=rings.yaml}' --output-dir d
  expect_rc 0
  grep -q '"pd_op.all_reduce" (%0) {reduce_type:(Int32)0,ring_id:(Int32)5} : (builtin.tensor<2x8xf32>)' d/rank1.pir ||
    fail "rank 1 lacks its all_reduce on ring 5"
  grep -qx "  - {id: 5, ranks: \[0, 1\]}" d/ranks.yaml || fail "ranks.yaml lacks ring 5"
  printf 'version: 1\nworld_size: 2\nranks: [0, 1]\nrings:\n  - {id: 5, ranks: [1]}\nvalues: []\n' > one.yaml
  run in.pir '--pass-pipeline=split-ranks{rings=one.yaml}'
  expect_rc 0
  grep -q "pd_op.all_reduce" out && fail "a one-rank ring's all_reduce stayed"
  printf 'version: 1\nworld_size: 2\nranks: [0, 1]\nrings:\n  - {id: 5, ranks: [7]}\nvalues: []\n' > bad.yaml
  run in.pir '--pass-pipeline=split-ranks{rings=bad.yaml}'
  expect_rc 1
  stderr_has "bad.yaml:5:21: error: every entry of a ring's 'ranks' must be a whole number from 0 to 1"
}

# rank=R makes one rank; a rank in no mesh is refused.
test_split_ranks_one_rank() {
  run "$SEED" '--pass-pipeline=apply-partition,split-ranks{rank=1}'
  expect_rc 0
  [ "$(grep -c '^// ----- job:' out)" = 1 ] || fail "split-ranks{rank=1} made $(grep -c '^// ----- job:' out) programs"
  run "$SEED" '--pass-pipeline=apply-partition,split-ranks{rank=2}'
  expect_rc 1
  stderr_has "split-ranks: rank 2 is in no mesh of the program"
}

# The per-rank passes alone reach the same program as split-ranks.
test_rank_pipeline_matches_split_ranks() {
  printf 'version: 1\nworld_size: 2\nranks: [0, 1]\nrings:\n  - {id: 12, ranks: [0, 1]}\nvalues: []\n' > rings.yaml
  run "$SEED" '--pass-pipeline=apply-partition,lower-reshard{rank=0},partition-rank{rank=0},dist-to-dense{rank=0},remove-unuseful-comm{rings=rings.yaml}'
  expect_rc 0
  tail -n +2 "$LOWERING/seed_rank0.expected" > golden
  same golden out "the per-rank pipeline"
}

# ranks.yaml is written beside the ranks once the first is made (on a thread of its own with two
# cores, at the end with one). A program of 300 data values on 8 ranks has a ranks.yaml (~200 KB)
# larger than any rank's file (~57 KB): under `ulimit -f 100` only ranks.yaml fails to be written,
# which must fail the run with one error and leave neither the folder nor a temporary one, and with
# no limit the folder must be the same from one thread and from two.
test_split_ranks_layout_write_error() {
  local i
  {
    echo "{"
    for ((i = 0; i < 300; i++)); do
      echo "    (%$i) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x$i\",op_dist_attr:{mesh:{shape:[8],process_ids:[0,1,2,3,4,5,6,7]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[64,4],stop_gradient:[true]} : () -> pd_dist.tensor<64x4xf32, mesh_shape:[8],dims_mappings:[0,-1]>"
    done
    echo "}"
  } > many.pir
  for threads in 1 2; do
    run many.pir --threads "$threads" --pass-pipeline=split-ranks --output-dir "d$threads"
    expect_rc 0 "--threads $threads"
  done
  [ "$(stat -c %s d1/ranks.yaml)" -gt 150000 ] && [ "$(stat -c %s d1/rank7.pir)" -lt 80000 ] ||
    fail "ranks.yaml is $(stat -c %s d1/ranks.yaml) bytes and rank7.pir $(stat -c %s d1/rank7.pir): no limit between"
  diff -r d1 d2 > /dev/null || fail "the folders of one thread and of two differ: $(diff -rq d1 d2 | head -3)"
  for threads in 1 2; do
    (trap '' XFSZ; ulimit -f 100; exec timeout 60 "$PIR_OPT" many.pir --threads "$threads" --pass-pipeline=split-ranks \
      --output-dir d > out 2> err)
    rc=$?
    expect_rc 1 "ranks.yaml past the file size limit, --threads $threads"
    stderr_has "^pir-opt: error: error writing 'd\.pir-opt-tmp-[A-Za-z0-9]+/ranks\.yaml': File too large$"
    [ "$(wc -l < err)" = 1 ] || fail "more than one line on stderr: $(head -c 300 err)"
    [ ! -e d ] || fail "the folder was made although ranks.yaml was not written"
    no_temp_files
  done
}

# The layout (ranks.yaml) is described beside the first ranks on two threads, before them on one.
# A layout that cannot be described (one data name for two values) fails the run with its own
# located error alone, whichever ranks were made meanwhile, and no folder.
test_split_ranks_layout_error_on_threads() {
  local i
  {
    echo "{"
    for i in 0 1 2; do
      echo "    (%$i) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{dims_maping:[0,-1]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,4],stop_gradient:[true]} : () -> pd_dist.tensor<4x4xf32, mesh_shape:[2],dims_mappings:[0,-1]>"
    done
    echo "}"
  } > twice.pir
  for threads in 1 2; do
    run twice.pir --threads "$threads" --pass-pipeline=split-ranks --output-dir d
    expect_rc 1 "--threads $threads"
    expect_located twice.pir 3
    stderr_has "error: data name 'x' is given to two values$"
    [ "$(grep -c 'error:' err)" = 1 ] || fail "more than one error: $(head -c 400 err)"
    [ ! -e d ] || fail "a folder was made"
    no_temp_files
    cp err "err$threads"
  done
  same err1 err2 "one thread's and two threads' diagnostics"
}

cli_main
