#!/usr/bin/env bash
# pir-run validates everything a run reads before it computes (issue 28): a --schedule as
# `pir-opt schedule --check` validates it (the same code and messages: a job of a micro-batch past N
# crashed, a job listed twice ran to wrong numbers), programs.yaml's gradient-merge k against N (a set
# split without gradient-merge, or with another k, ran silently), ranks.yaml's pieces against the
# mesh and dims_mapping and its dtypes against the programs, the rings the programs name (a missing
# or reordered ring was found only when its op ran), every op's kernel (all missing ones listed at
# once), and pipeline-split's chunk ids (chunk 1 under 1F1B deadlocked). Each is a located error,
# exit 1. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
TWO=$TESTDATA/gradient_merge/05_dist_two_stages.pir  # stage 0 on [0], stage 1 on [1], sgd_

# pipeline DIR [PIPELINE]: TWO's 1F1B job programs (gradient-merge{k=2} unless PIPELINE is given),
# and s.yaml, 1F1B's list for 2 stages and 2 micro-batches.
pipeline() {
  local p='apply-partition,split-ranks,gradient-merge{k=2 avg=true},pipeline-split{mode=1F1B}'
  [ $# -lt 2 ] || p=$2
  "$PIR_OPT" "$TWO" --output-dir "$1" "--pass-pipeline=$p" 2> err || fail "pir-opt $p: $(cat err)"
  "$PIR_OPT" schedule --mode 1F1B --stages 2 --micro-batches 2 -o s.yaml || fail "pir-opt schedule"
}

# edit_stage0 FILE FROM TO: s.yaml with the first FROM job of stage 0's list replaced by TO.
edit_stage0() {
  sed -e "/^  - stage: 0$/{n;s/\"$2\"/\"$3\"/}" s.yaml > "$1"
  ! cmp -s s.yaml "$1" || fail "could not edit $1"
}

# same_as_schedule_check FILE: pir-run's first error is `pir-opt schedule --check FILE`'s, located.
same_as_schedule_check() {
  cp err run_err
  run schedule --check "$1"
  expect_rc 1 "schedule --check $1"
  local want
  want=$(head -n 1 err | sed 's/^pir-opt schedule: error: //')
  [ -n "$want" ] || fail "schedule --check printed nothing"
  local file=${want%%: *} msg=${want#*: }
  grep -qxF "$file: error: $msg" run_err || fail "pir-run did not print '$file: error: $msg': $(head -c 600 run_err)"
  mv run_err err
}

test_run_validate_schedule_micro_batch_past_n() {
  pipeline d
  edit_stage0 s9.yaml forward:1 forward:9
  prun --programs d --schedule s9.yaml --micro-batches 2 --timeout 10
  expect_rc 1 "a job of micro-batch 9 with N=2"
  expect_located s9.yaml
  stderr_has "^s9\.yaml:[0-9]+:[0-9]+: error: stage 0: job forward:9 names micro-batch 9 but there are 2$"
  same_as_schedule_check s9.yaml
}

test_run_validate_schedule_duplicate_forward() {
  pipeline d
  edit_stage0 twice.yaml forward:1 forward:0
  prun --programs d --schedule twice.yaml --timeout 10
  expect_rc 1 "forward:0 twice"
  stderr_has "^twice\.yaml:[0-9]+:[0-9]+: error: stage 0: duplicate job forward:0$"
  grep -q '^step ' out && fail "it computed: $(cat out)"
  same_as_schedule_check twice.yaml
  # In process too (PROGRAM --schedule): the same check.
  prun "$TWO" --schedule twice.yaml --timeout 10
  expect_rc 1 "in process"
  stderr_has "^twice\.yaml:[0-9]+:[0-9]+: error: stage 0: duplicate job forward:0$"
}

test_run_validate_schedule_order() {
  pipeline d
  # Stage 1 lists backward:0 before its forward:0.
  sed -e "/^  - stage: 1$/{n;s/jobs: .*/jobs: [\"backward:0\", \"recv_forward:0\", \"forward:0\", \"send_backward:0\", \"recv_forward:1\", \"forward:1\", \"backward:1\", \"send_backward:1\", \"optimizer:0\"]/}" s.yaml > dead.yaml
  prun --programs d --schedule dead.yaml --timeout 10
  expect_rc 1
  stderr_has "^dead\.yaml:[0-9]+:[0-9]+: error: stage 1: backward:0 comes before forward:0$"
}

test_run_validate_no_gradient_merge() {
  pipeline nd "apply-partition,split-ranks,pipeline-split{mode=1F1B}"
  grep -q gradient_merge_k nd/programs.yaml && fail "programs.yaml records a k without gradient-merge"
  prun --programs nd --micro-batches 2 --timeout 10
  expect_rc 1 "split without gradient-merge"
  stderr_has "^error: nd/programs\.yaml records no gradient_merge_k: the programs were split without gradient-merge"
  stderr_has "make them again with gradient-merge\{k=N avg=true\} before pipeline-split$"
  grep -q '^step ' out && fail "it computed: $(cat out)"
}

test_run_validate_k_differs_from_n() {
  pipeline d
  grep -qx 'gradient_merge_k: 2' d/programs.yaml || fail "programs.yaml: $(cat d/programs.yaml)"
  prun --programs d --micro-batches 4 --timeout 10
  expect_rc 1 "--micro-batches 4, k=2"
  stderr_has "^error: --micro-batches 4, but the programs merge the gradients of k=2 \(d/programs\.yaml\): run 2 micro-batches"
  "$PIR_OPT" schedule --mode 1F1B --stages 2 --micro-batches 4 -o s4.yaml || fail "pir-opt schedule"
  prun --programs d --schedule s4.yaml --timeout 10
  expect_rc 1 "a schedule of 4, k=2"
  stderr_has "^error: s4\.yaml has 4 micro-batches, but the programs merge the gradients of k=2"
  # N not given: the merge's k.
  prun --programs d --mode 1F1B --timeout 10
  expect_rc 0 "N from k"
  grep -q '^step 1: loss_0 ' out || fail "no loss line: $(cat out err)"
}

# A folder of whole-step programs that merge k=2 gradients (no pipeline-split): a plain run gives each
# step one batch, so each optimizer would see half its gradient. Old main ran it, exit 0 ('w0' gradient
# -0.0303, serially -0.0606 under --check); --micro-batches 2 on it said "a pipeline program needs a rank
# and a job".
test_run_validate_whole_steps_merging_k() {
  pipeline gm 'apply-partition,split-ranks,gradient-merge{k=2 avg=true}'
  grep -qx 'gradient_merge_k: 2' gm/programs.yaml || fail "programs.yaml: $(cat gm/programs.yaml)"
  prun --programs gm --timeout 10
  expect_rc 1 "whole steps merging k=2"
  stderr_has "^error: gm/programs\.yaml records gradient_merge_k: 2, but its programs are whole steps \(no pipeline-split made them\): a run of one batch would give each optimizer 1/2 of its gradient"
  grep -q '^step ' out && fail "it computed: $(cat out)"
  prun --programs gm --micro-batches 2 --timeout 10
  expect_rc 1 "--micro-batches on whole steps"
  stderr_has "^error: gm/programs\.yaml lists whole-step programs \(no pipeline-split made them\): --mode, --schedule and --micro-batches run a pipeline's job programs"
  # k=1 merges nothing: it runs.
  pipeline g1 'apply-partition,split-ranks,gradient-merge{k=1 avg=true}'
  prun --programs g1 --timeout 10
  expect_rc 0 "k=1"
}

test_run_validate_tampered_pieces() {
  write_split
  prun --programs dd --seed 3
  expect_rc 0 "untampered"
  # Rank 0's piece of x moved to rank 1's range and back: every range fits the dim.
  sed -i -e 's/{rank: 0, shape: \[2\], ranges: \[\[0, 2\]\]}/{rank: 0, shape: [2], ranges: [[2, 4]]}/' \
    -e 's/{rank: 1, shape: \[2\], ranges: \[\[2, 4\]\]}/{rank: 1, shape: [2], ranges: [[0, 2]]}/' dd/ranks.yaml
  grep -q 'rank: 0, shape: \[2\], ranges: \[\[2, 4\]\]' dd/ranks.yaml || fail "edit failed: $(cat dd/ranks.yaml)"
  prun --programs dd --seed 3
  expect_rc 1 "swapped pieces"
  expect_located dd/ranks.yaml
  stderr_has "^dd/ranks\.yaml:[0-9]+:[0-9]+: error: rank 0's piece of 'x' is \[\[2, 4\]\], but mesh \[2\] \[0, 1\] and dims_mapping \[0\] give \[\[0, 2\]\]$"
}

test_run_validate_dims_mapping_contradicts_pieces() {
  write_split
  # x's dims_mapping says replicated, its pieces say sharded.
  sed -i -e '/name: x$/,/pieces:/s/dims_mapping: \[0\]/dims_mapping: [-1]/' dd/ranks.yaml
  grep -q 'dims_mapping: \[-1\]' dd/ranks.yaml || fail "edit failed"
  prun --programs dd --seed 3
  expect_rc 1
  stderr_has "^dd/ranks\.yaml:[0-9]+:[0-9]+: error: rank 0's piece of 'x' is \[\[0, 2\]\], but mesh \[2\] \[0, 1\] and dims_mapping \[-1\] give \[\[0, 4\]\]$"
}

test_run_validate_dtype_differs_from_program() {
  write_split
  sed -i -e '/name: x$/,/pieces:/s/dtype: float32/dtype: float64/' dd/ranks.yaml
  prun --programs dd --seed 3
  expect_rc 1
  expect_located dd/rank0.pir
  stderr_has "^dd/rank0\.pir:[0-9]+:[0-9]+: error: rank 0 reads 'x' as f32\[2\], but ranks\.yaml gives dtype float64$"
}

test_run_validate_reordered_ring() {
  pipeline d
  grep -q '{id: 12, ranks: \[0, 1\]}' d/ranks.yaml || fail "no ring 12 [0, 1]: $(cat d/ranks.yaml)"
  sed -i 's/{id: 12, ranks: \[0, 1\]}/{id: 12, ranks: [1, 0]}/' d/ranks.yaml
  prun --programs d --schedule s.yaml --timeout 10
  expect_rc 1 "ring 12 reordered"
  stderr_has "^d/rank0/forward\.pir:[0-9]+:[0-9]+: error: rank 0, job forward: pd_op\.send_v2: peer 1 in ring 12 \[1, 0\] is rank 0 itself \(the ring's ranks are not in the ring plan's order\)$"
  stderr_has "^d/rank1/recv_forward\.pir:[0-9]+:[0-9]+: error: rank 1, job recv_forward: pd_op\.recv_v2: peer 0 in ring 12 \[1, 0\] is rank 1 itself"
  grep -q '^step ' out && fail "it computed: $(cat out)"
}

test_run_validate_missing_ring() {
  pipeline d
  grep -q '{id: 13, ranks: \[1, 0\]}' d/ranks.yaml || fail "no ring 13: $(cat d/ranks.yaml)"
  sed -i '/{id: 13, ranks: \[1, 0\]}/d' d/ranks.yaml
  prun --programs d --schedule s.yaml --timeout 10
  expect_rc 1 "ring 13 missing"
  # Found before anything ran: the first line is the located op, and no job started.
  expect_located d/rank0/backward.pir
  stderr_has "^d/rank0/backward\.pir:[0-9]+:[0-9]+: error: rank 0, job backward: pd_op\.recv_v2: ring 13 is not in the ring table \(ranks\.yaml\)$"
  stderr_has "^d/rank1/send_backward\.pir:[0-9]+:[0-9]+: error: rank 1, job send_backward: pd_op\.send_v2: ring 13 is not in the ring table"
  grep -q '^step ' out && fail "it computed: $(cat out)"
}

test_run_validate_missing_kernels_listed_at_once() {
  cat > p.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%2) = "pd_op.frobnicate" (%1) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%3) = "pd_op.relu" (%2) {stop_gradient:[true]} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    (%4) = "pd_op.twiddle" (%3) {} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%4) {output_name:"y"} : (builtin.tensor<4xf32>) -> 
}
PIR
  prun p.pir
  expect_rc 1
  expect_located p.pir 4
  stderr_has "^p\.pir:4:5: error: pd_op\.frobnicate: no kernel for this op$"
  stderr_has "^p\.pir:6:5: error: pd_op\.twiddle: no kernel for this op$"
}

test_run_validate_chunk_1_under_1f1b() {
  # Two chunks a stage (VPP placement) split as 1F1B: refused at the op, not a 60 s deadlock.
  prun "$TESTDATA/pipeline_shapes/02_three_stage_residual_vpp.pir" --mode 1F1B --micro-batches 3 --timeout 10
  expect_rc 1
  stderr_has "^.*02_three_stage_residual_vpp\.pir:[0-9]+:[0-9]+: error: .*op '[a-z_.]+' is in chunk 1, but mode 1F1B has one chunk per stage \(chunk 0; give mode=VPP vpp=V for more\)$"
  grep -q 'waits on' err && fail "it ran to a deadlock: $(head -c 400 err)"
  run "$TESTDATA/pipeline/39_err_chunk_in_1f1b.pir" --pass-pipeline=pipeline-split{mode=1F1B}
  expect_rc 1
  expect_located "$TESTDATA/pipeline/39_err_chunk_in_1f1b.pir" 6
}

# programs.yaml records the hash of the program the set was made from: --check against a program
# whose layout agrees but whose bytes differ (a constant changed) is refused, after made_from's checks.
test_run_validate_check_program_source_hash() {
  pipeline d
  grep -Eq '^source_hash: "xxh64:[0-9a-f]{16}"$' d/programs.yaml || fail "no source_hash: $(cat d/programs.yaml)"
  # The hash is XXH64 of the file's bytes, as Debian's libxxhash (which apt links) computes it.
  local want
  want=$(python3 -c 'import ctypes, sys
lib = ctypes.CDLL("libxxhash.so.0")
lib.XXH64.restype = ctypes.c_ulonglong
lib.XXH64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_ulonglong]
data = open(sys.argv[1], "rb").read()
print("xxh64:%016x" % lib.XXH64(data, len(data), 0))' "$TWO") || fail "no libxxhash to check against"
  grep -qx "source_hash: \"$want\"" d/programs.yaml || fail "source_hash is not $want: $(grep source_hash d/programs.yaml)"
  prun --programs d --check "$TWO" --micro-batches 2 --mode 1F1B --timeout 20
  expect_rc 0 "--check against the program d was made from"
  # A programs.yaml of an older pir-opt records FNV-1a (computed here in Python): still taken.
  local fnv
  fnv=$(python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("fnv1a64:%016x" % h)' "$TWO")
  cp -r d old && sed -i "s/^source_hash: .*/source_hash: \"$fnv\"/" old/programs.yaml
  prun --programs old --check "$TWO" --micro-batches 2 --mode 1F1B --timeout 20
  expect_rc 0 "--check with an older FNV-1a source_hash"
  sed -i 's/^source_hash: .*/source_hash: "fnv1a64:0000000000000000"/' old/programs.yaml
  prun --programs old --check "$TWO" --micro-batches 2 --mode 1F1B --timeout 20
  expect_rc 1 "--check with a wrong FNV-1a source_hash"
  stderr_has "its hash is $fnv, programs\.yaml's source_hash fnv1a64:0000000000000000"
  sed -i 's/^source_hash: .*/source_hash: "sha1:0000000000000000"/' old/programs.yaml
  prun --programs old --check "$TWO" --micro-batches 2 --mode 1F1B --timeout 20
  expect_rc 1 "a source_hash of no kind pir-run knows"
  stderr_has "programs\.yaml:[0-9]+:[0-9]+: error: 'source_hash' must be 'xxh64:' or 'fnv1a64:' and 16 lowercase hex digits"
  # The loss gradient's seed (a full of 1) is not in the layout: only the hash sees it.
  sed 's/value:(Float)1\b/value:(Float)2/' "$TWO" > other.pir
  ! cmp -s "$TWO" other.pir || fail "could not edit the full's value"
  prun --programs d --check other.pir --micro-batches 2 --mode 1F1B --timeout 20
  expect_rc 1 "--check against another program"
  stderr_has "other\.pir is not the program d was made from: its hash is xxh64:[0-9a-f]{16}, programs\.yaml's source_hash xxh64:[0-9a-f]{16}"
}

# A collective's ring reordered in ranks.yaml (an all_gather's [0, 1] as [1, 0]) gathers the pieces
# in another order; with --check PROGRAM the folder's rings are compared with PROGRAM's ring plan by
# their ordered ranks, and the reordered one is refused before anything runs.
test_run_validate_check_reordered_collective_ring() {
  write_split
  grep -q 'ranks: \[0, 1\]}' dd/ranks.yaml || fail "no ring [0, 1]: $(cat dd/ranks.yaml)"
  sed -i 's/ranks: \[0, 1\]}/ranks: [1, 0]}/' dd/ranks.yaml
  prun --programs dd --check d.pir
  expect_rc 1 "a reordered all_gather ring under --check"
  expect_located d.pir
  stderr_has "the folder's ring [0-9]+ \[1, 0\] is no ring this program's lowering plans"
  grep -q '^check: ' out && fail "it computed: $(cat out)"
  return 0
}

cli_main
