#!/usr/bin/env bash
# pir-run through the real binary (beside pir-opt): runs, outputs and every
# error class. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# A dense program using only data-movement kernels: t = transpose(x) is
# assigned into the parameter w; loss is a constant 0-D output.
write_dense() { write_dense_named loss t; }

# npy_header DICT: a v1 .npy header for DICT (padded to 128 bytes).
npy_header() {
  printf '\x93NUMPY\x01\x00\x76\x00'
  printf '%-117s\n' "$1"
}

# --timing: one stderr line per phase, in the order they ran, then the
# rest and the whole; stdout as without it; nothing without the flag.
test_run_timing_phases() {
  prun "$SEED_AFTER" --output-dir o --check
  expect_rc 0
  mv out plain.out
  grep -q '^timing:' err && fail "timing lines without --timing: $(cat err)"
  rm -rf o
  prun "$SEED_AFTER" --output-dir o --check --timing
  expect_rc 0
  same plain.out out "stdout"
  local want='read pass_apply-partition verify_after_apply-partition pass_split-ranks verify_after_split-ranks'
  # --check exports each optimizer's gradient from the rank programs (export-gradients{feed=false}).
  want+=' pass_export-gradients verify_after_export-gradients compile inputs run assemble check write other total'
  local got
  got=$(sed -n 's/^timing: \(.*\) [0-9][0-9]*\.[0-9][0-9][0-9] ms$/\1/p' err | tr ' ' _ | tr '\n' ' ')
  [ "$got" = "$want " ] || fail "phases '$got', want '$want'"
  # the phases and `other` add up to `total` (to rounding)
  awk '/^timing: / { ms = $(NF - 1); if ($2 == "total") total = ms; else sum += ms }
       END { d = sum - total; if (d < 0) d = -d; exit !(total > 0 && d < 0.1) }' err ||
    fail "the phases do not add up to the total: $(cat err)"
}

test_run_dense_outputs() {
  write_dense
  prun p.pir --steps 2 --output-dir o --trace t.json
  expect_rc 0
  grep -qx 'step 1: loss 0.5' out || fail "no loss line for step 1: $(cat out)"
  grep -qx 'step 2: loss 0.5' out || fail "no loss line for step 2"
  for f in loss.npy t.npy w.npy summary.yaml; do [ -f "o/$f" ] || fail "o/$f not written"; done
  grep -q '^loss: \[0.5, 0.5\]$' o/summary.yaml || fail "summary.yaml has no loss list"
  grep -q '"name": "pd_op.transpose", "ph": "X"' t.json || fail "the trace has no transpose"
  # w (the parameter) ends as transpose(x): the same bytes as t
  cmp -s o/t.npy o/w.npy || fail "w.npy differs from t.npy"
}

test_run_inputs_round_trip() {
  write_dense
  prun p.pir --output-dir a --seed 7
  expect_rc 0
  mkdir in && cp a/w.npy in/w.npy
  prun p.pir --output-dir b --seed 7
  cmp -s a/t.npy b/t.npy || fail "the same seed gave different inputs"
  prun p.pir --output-dir c --seed 8
  cmp -s a/t.npy c/t.npy && fail "another seed gave the same inputs"
  if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    /usr/bin/python3 -c "
import numpy as np
t = np.load('a/t.npy'); assert t.shape == (3, 2) and t.dtype == np.float32, t
np.save('in/x.npy', np.arange(6, dtype=np.float32).reshape(2, 3))
" || fail "numpy cannot read what pir-run wrote"
    prun p.pir --inputs in --output-dir d
    expect_rc 0
    /usr/bin/python3 -c "
import numpy as np
assert (np.load('d/t.npy') == np.arange(6, dtype=np.float32).reshape(2, 3).T).all()
" || fail "t is not x transposed"
  fi
}

# --blas-threads N sets OpenBLAS's threads for every matmul: the same
# losses and outputs on the seed (its matmuls are small: one block either
# way), and a count out of range is an option error.
test_run_blas_threads() {
  prun "$SEED_AFTER" --steps 2 --output-dir one
  expect_rc 0
  cp out one.out
  prun "$SEED_AFTER" --steps 2 --output-dir two --blas-threads 2
  expect_rc 0
  same one.out out "stdout with --blas-threads 2"
  for f in one/*.npy; do same "$f" "two/$(basename "$f")" "$(basename "$f")"; done
  prun "$SEED_AFTER" --blas-threads 0
  expect_rc 1
  stderr_has 'blas-threads'
}

# A dense program is its own serial meaning: --check refuses it and names
# --check-determinism, which runs it twice and compares the bits.
test_run_check_dense() {
  write_dense
  prun p.pir --check
  expect_rc 1
  stderr_has '^error: --check compares a distributed program with its serial meaning; .*--check-determinism'
  prun p.pir --check-determinism
  expect_rc 0
  grep -qx 'check: 3 tensors match (bitwise)' out || fail "no check line: $(cat out)"
  prun p.pir --check-determinism --programs .
  expect_rc 1
}

test_run_missing_inputs_listed() {
  write_dense
  mkdir in
  prun p.pir --inputs in
  expect_rc 1
  stderr_has '^error: 2 inputs missing in in: x.npy, w.npy$'
}

test_run_wrong_shape() {
  write_dense
  mkdir in
  prun p.pir --output-dir a
  cp a/t.npy in/x.npy && cp a/w.npy in/w.npy  # x is 2x3, t.npy holds 3x2
  prun p.pir --inputs in
  expect_rc 1
  expect_located p.pir 2
  stderr_has "error: 'x' is tensor<2x3xf32>, in/x.npy holds tensor<3x2xf32>$"
}

test_run_fortran_order() {
  write_dense
  mkdir in
  { npy_header "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }"; head -c 24 /dev/zero; } > in/x.npy
  prun p.pir --inputs in
  expect_rc 1
  expect_located p.pir 2
  stderr_has 'in/x.npy: Fortran-order arrays are not supported'
}

test_run_missing_kernel_located() {
  cat > p.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2],stop_gradient:[true]} : () -> builtin.tensor<2xf32>
    (%1) = "pd_op.no_such_op" (%0) {} : (builtin.tensor<2xf32>) -> builtin.tensor<2xf32>
}
PIR
  prun p.pir
  expect_rc 1
  expect_located p.pir 3
  stderr_has 'error: pd_op.no_such_op: no kernel for this op$'
}

test_run_kernel_failure_located() {
  cat > p.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%1) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)4]} : () -> builtin.tensor<1xi64>
    (%2) = "pd_op.reshape" (%0, %1) {} : (builtin.tensor<2x3xf32>, builtin.tensor<1xi64>) -> builtin.tensor<4xf32>
}
PIR
  prun p.pir
  expect_rc 1
  expect_located p.pir 4
  stderr_has 'error: rank 0: pd_op.reshape: cannot reshape tensor<2x3xf32> to \[4\]$'
}

test_run_deadlock_ends_within_timeout() {
  # a rank receiving from itself on the world ring waits for ever
  cat > p.pir <<'PIR'
{
    (%0) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,out_shape:[(Int64)2],peer:(Int32)0,ring_id:(Int32)0,use_calc_stream:true} : () -> builtin.tensor<2xf32>
}
PIR
  local start end
  start=$(now_ms)
  prun p.pir --timeout 1
  end=$(now_ms)
  expect_rc 1
  stderr_has '^error: deadlock: a rank waited longer than --timeout 1 s'
  stderr_has 'p.pir:2:[0-9]+: error: pd_op.recv_v2: rank 0 waits on recv_v2 from rank 0 on ring 0$'
  [ $((end - start)) -lt 10000 ] || fail "the deadlock took $((end - start)) ms to report"
}


test_run_bad_options() {
  write_dense
  prun
  expect_rc 1
  stderr_has '^pir-run: error: give a PROGRAM or --programs DIR'
  prun p.pir --steps 0
  expect_rc 1
  prun p.pir --ranks 2
  expect_rc 1
  stderr_has 'a dense program runs on one rank'
}

# write_split (cli_lib.sh), and dense.pir: the same program dense.
write_split_and_dense() {
  write_split
  cat > dense.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> builtin.tensor<4xf32>
    () = "builtin.shadow_output" (%0) {output_name:"y"} : (builtin.tensor<4xf32>) -> 
}
PIR
}

test_run_programs_match_dense() {
  write_split_and_dense
  prun --programs dd --output-dir o --seed 3
  expect_rc 0
  prun dense.pir --output-dir e --seed 3
  expect_rc 0
  # inputs are drawn at the global shape and sliced: the gathered y is x, bit for bit
  same o/y.npy e/y.npy "the 2-rank y"
  # each rank's 2 floats to the other on ring 12, counted where they move
  grep -q 'bytes_sent: {12: 8}' o/summary.yaml || fail "summary.yaml lacks ring 12's bytes: $(cat o/summary.yaml)"
  grep -q 'bytes_received: {12: 8}' o/summary.yaml || fail "summary.yaml lacks ring 12's bytes: $(cat o/summary.yaml)"
}

test_run_distributed_split_in_process() {
  write_split_and_dense
  prun d.pir --output-dir o --seed 3
  expect_rc 0
  prun dense.pir --output-dir e --seed 3
  same o/y.npy e/y.npy "y of the distributed program"
  grep -q '^ranks: 2$' o/summary.yaml || fail "not run on 2 ranks: $(cat o/summary.yaml)"
  prun d.pir --check --steps 2
  expect_rc 0
  grep -qx 'check: 1 tensors match (every element equal)' out || fail "no check line: $(cat out)"
}

test_run_fault_on_rank1() {
  write_split
  # rank 1 reshapes its [2] piece to [3] before the gather: it fails, rank 0 is stopped
  sed -i 's|^    (%1) = "pd_op.all_gather"|    (%9) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)3]} : () -> builtin.tensor<1xi64>\n    (%8) = "pd_op.reshape" (%0, %9) {} : (builtin.tensor<2xf32>, builtin.tensor<1xi64>) -> builtin.tensor<3xf32>\n&|' dd/rank1.pir
  local start end
  start=$(now_ms)
  prun --programs dd --timeout 30
  end=$(now_ms)
  expect_rc 1
  expect_located dd/rank1.pir 4
  stderr_has 'error: rank 1: pd_op.reshape: cannot reshape tensor<2xf32> to \[3\]$'
  [ "$(grep -c 'error:' err)" = 1 ] || fail "more than one error message: $(cat err)"
  [ $((end - start)) -lt 5000 ] || fail "stopping took $((end - start)) ms"
}

test_run_deadlock_two_ranks() {
  write_split
  # rank 1 receives rank 0's gather piece instead of gathering: rank 0 waits for ever
  sed -i 's|^    (%1) = "pd_op.all_gather" (%0) .*$|    (%1) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,out_shape:[(Int64)2],peer:(Int32)0,ring_id:(Int32)12,use_calc_stream:true} : () -> builtin.tensor<2xf32>|; s|^    () = "builtin.shadow_output" (%1) .*$||' dd/rank1.pir
  prun --programs dd --timeout 1
  expect_rc 1
  stderr_has '^error: deadlock: a rank waited longer than --timeout 1 s'
  stderr_has 'dd/rank0.pir:3:[0-9]+: error: pd_op.all_gather: rank 0 waits on all_gather on ring 12, for rank 1$'
  stderr_has '^rank 1: finished$'
}

# --inputs of a folder that is not there says so, before anything runs.
test_run_inputs_missing_folder() {
  write_dense
  prun p.pir --inputs nowhere
  expect_rc 1
  [ "$(cat err)" = "error: --inputs nowhere: no such folder" ] || fail "not the folder's error: $(cat err)"
  prun p.pir --inputs p.pir
  expect_rc 1
  [ "$(cat err)" = "error: --inputs p.pir: not a folder" ] || fail "not the folder's error: $(cat err)"
}

# A folder's manifest naming a file that is not there: the located error,
# its source line and its caret each on a line of their own, once.
test_run_programs_missing_file_lines() {
  write_split
  rm dd/rank1.pir
  prun --programs dd
  expect_rc 1
  expect_located dd/programs.yaml
  [ "$(wc -l < err)" = 3 ] || fail "not three lines: $(od -c err | head)"
  grep -q '?' err && fail "a line break is garbled: $(cat err)"
  tail -n 1 err | grep -Eq '^ +\^$' || fail "no caret line last: $(cat err)"
  [ "$(tail -c 1 err | od -An -c | tr -d ' ')" = '\n' ] || fail "no final newline: $(od -c err | tail -2)"
  # pir-opt verify-comm reads the folder alike
  run verify-comm dd
  expect_rc 1
  expect_located dd/programs.yaml
  [ "$(wc -l < err)" = 3 ] || fail "verify-comm: not three lines: $(od -c err | head)"
}

# Each step's loss line is printed as the step finishes: a run that fails
# in step 2 (the parameter it set in step 1 has another shape) still
# printed step 1's. w is read as [1, 3]: step 1's loss, its mean, is 2.
test_run_loss_printed_before_a_late_failure() {
  cat > late.pir <<'PIR'
{
    (%0) = "builtin.parameter" () {is_parameter:[true],parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> builtin.tensor<2xf32>
    (%1) = "pd_op.mean" (%0) {axis:(pd_op.IntArray)[],keepdim:false,stop_gradient:[false]} : (builtin.tensor<2xf32>) -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%1) {output_name:"loss"} : (builtin.tensor<f32>) -> 
    (%2) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[3],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<3xf32>
    () = "builtin.set_parameter" (%2) {parameter_name:"w"} : (builtin.tensor<3xf32>) -> 
}
PIR
  mkdir in
  /usr/bin/python3 -c 'import numpy as np; np.save("in/w.npy", np.array([1, 3], dtype=np.float32))' ||
    skip "no numpy"
  prun late.pir --inputs in --steps 3
  expect_rc 1
  expect_located late.pir 2
  stderr_has "rank 0: builtin.parameter: 'w' is tensor<2xf32>, the fed tensor tensor<3xf32>$"
  [ "$(cat out)" = "step 1: loss 2" ] || fail "not step 1's loss line alone: $(cat out)"
}

# --trace: a span per step on every rank's track (`step K`), enclosing
# that step's ops; a pipeline's job spans inside their step's.
check_step_spans() {  # TRACE STEPS RANKS
  /usr/bin/python3 - "$@" <<'PY' || fail "step spans: see above"
import json, sys
events = json.load(open(sys.argv[1]))
events = events["traceEvents"] if isinstance(events, dict) else events
steps, ranks = int(sys.argv[2]), int(sys.argv[3])
bad = []
for r in range(ranks):
    mine = [e for e in events if e.get("ph") == "X" and e.get("tid") == r]
    spans = {e["name"]: e for e in mine if e["name"].startswith("step ")}
    if sorted(spans) != sorted("step %d" % (k + 1) for k in range(steps)):
        bad.append("rank %d: step spans %s" % (r, sorted(spans)))
        continue
    for e in mine:
        if e["name"].startswith("step "):
            continue
        t0, t1 = float(e["ts"]), float(e["ts"]) + float(e["dur"])
        if not any(float(s["ts"]) <= t0 + 1e-3 and t1 <= float(s["ts"]) + float(s["dur"]) + 1e-3
                   for s in spans.values()):
            bad.append("rank %d: %s at %s is in no step span" % (r, e["name"], e["ts"]))
    ordered = sorted(spans.values(), key=lambda s: float(s["ts"]))
    if [s["name"] for s in ordered] != ["step %d" % (k + 1) for k in range(steps)]:
        bad.append("rank %d: steps out of order" % r)
for b in bad[:10]:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

test_run_trace_step_spans() {
  write_split
  prun --programs dd --steps 3 --trace t.json
  expect_rc 0
  check_step_spans t.json 3 2
  prun "$TESTDATA/gradient_merge/05_dist_two_stages.pir" --mode 1F1B --micro-batches 2 --steps 2 --trace p.json
  expect_rc 0
  check_step_spans p.json 2 2
  grep -q '"name": "forward:1", "ph": "X"' p.json || fail "no job spans beside the step spans"
}

# A program on process_ids [2,3]: summary.yaml's ranks is the world size
# (4, what mpirun -np must be), per_rank lists ranks 2 and 3.
test_run_summary_ranks_world_size() {
  sed 's/process_ids:\[0,1\]/process_ids:[2,3]/g' "$SEED" > s23.pir
  grep -q 'process_ids:\[2,3\]' s23.pir || { fail "no mesh [2,3]"; return; }
  prun s23.pir --output-dir o
  expect_rc 0
  grep -qx 'ranks: 4' o/summary.yaml || fail "ranks is not 4: $(head -3 o/summary.yaml)"
  [ "$(grep '^  - rank: ' o/summary.yaml | tr -d ' -' | tr '\n' ' ')" = "rank:2 rank:3 " ] ||
    fail "per_rank is not ranks 2 and 3: $(cat o/summary.yaml)"
}

cli_main
