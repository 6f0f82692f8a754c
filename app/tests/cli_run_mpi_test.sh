#!/usr/bin/env bash
# pir-run under mpirun (issue 18, MPI): one rank per process, stdout, the
# outputs and summary.yaml the same as the in-process run's; a wrong -np, a
# failing rank and a deadlock end the job with exit 1. ctest label `mpi`.
# See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# summary.yaml without what a run's timing makes differ (seconds).
untimed() {
  grep -Ev '^    (seconds|step_seconds|kernel_seconds|comm_seconds):' "$1"
}

# same_run A B: folders A and B hold the same files, byte for byte (the
# summaries' times aside).
same_run() {
  local f
  [ "$(ls "$1")" = "$(ls "$2")" ] || fail "different files: $(ls "$1" | tr '\n' ' ') / $(ls "$2" | tr '\n' ' ')"
  for f in "$1"/*.npy; do same "$f" "$2/${f##*/}" "${f##*/}"; done
  untimed "$1/summary.yaml" > "$1.summary"
  untimed "$2/summary.yaml" > "$2.summary"
  same "$1.summary" "$2.summary" "summary.yaml (times aside)"
}

# in_process_and_mpi NP ARGS... : the same run in-process (folder ip/) and
# under mpirun -np NP (folder mp/); stdout, outputs and summary agree.
in_process_and_mpi() {
  local np=$1
  shift
  prun "$@" --output-dir ip
  expect_rc 0 "in-process"
  mv out ip.out
  mpi "$np" "$@" --output-dir mp
  expect_rc 0 "under mpirun"
  same ip.out out "stdout"
  same_run ip mp
}

# ZB-V and DualPipeV (issue 32) under mpirun on 2 and 4 processes, with and without tensor
# parallelism: stdout (the loss and the check) as in process, equal to the serial step.
test_run_mpi_zbv_dualpipev() {
  need_mpirun
  local shapes=$PIR_TESTDATA/pipeline_shapes spec
  "$GEN" --ops 300 --stages 2 --vpp 2 --vschedule --mesh 2 -o tp.pir || fail "gen-program"
  # shellcheck disable=SC2086  # spec is a list of words
  for spec in "2 $shapes/12_transposed_matmuls_v.pir ZBV 4" "4 $shapes/13_transposed_matmuls_v_four_stages.pir DualPipeV 8" \
    "4 tp.pir DualPipeV 4" "4 tp.pir ZBV 4"; do
    set -- $spec
    prun "$2" --mode "$3" --micro-batches "$4" --check
    expect_rc 0 "in process: $spec"
    mv out ip.out
    mpi "$1" "$2" --mode "$3" --micro-batches "$4" --check
    expect_rc 0 "under mpirun: $spec"
    grep -q "tensors match" out || fail "$spec: no check line: $(cat out)"
    same ip.out out "stdout of $spec"
  done
}

test_run_mpi_seed_two_ranks() {
  need_mpirun
  in_process_and_mpi 2 "$SEED" --steps 2 --seed 5
  [ "$(wc -l < out)" = 2 ] || fail "not one loss line per step: $(cat out)"
  grep -q '^ranks: 2$' mp/summary.yaml || fail "not 2 ranks: $(cat mp/summary.yaml)"
  # --check on rank 0 after the gather, as in-process
  mpi 2 "$SEED_AFTER" --check
  expect_rc 0
  grep -Eq '^check: [0-9]+ tensors match' out || fail "no check line: $(cat out)"
}

# A 2-rank ring: all_reduce of two addends, so in-process and MPI agree bit
# for bit on every output and parameter (adamw: moments and beta pows too).
test_run_mpi_gen_program_two_ranks() {
  need_mpirun
  "$GEN" --ops 600 --mesh 2 --optimizer adamw -o p.pir || { fail "gen-program --mesh 2"; return; }
  "$PIR_OPT" p.pir --pass-pipeline=apply-partition,split-ranks --output-dir s 2> err || fail "split: $(cat err)"
  grep -q '"pd_op.all_reduce' s/rank0.pir || fail "the ranks do not all_reduce: nothing to compare"
  in_process_and_mpi 2 p.pir --steps 3
  [ "$(wc -l < out)" = 3 ] || fail "not one loss line per step: $(cat out)"
  ls mp/*moment1*.npy > /dev/null 2>&1 || fail "no adamw moment written: $(ls mp | tr '\n' ' ')"
}

# The MLP of bench_mlp_dist (issue 33), data and tensor parallel: under mpirun as in process, and --check passes.
test_run_mpi_mlp_data_and_tensor_parallel() {
  need_mpirun
  local m
  for m in 2x1 2; do
    "$GEN" --model mlp --layers 4 --hidden 16 --batch 8 --mesh $m -o p.pir || { fail "gen-program --mesh $m"; return; }
    in_process_and_mpi 2 p.pir --steps 2 --check
    grep -Eq '^check: [0-9]+ tensors match, and [0-9]+ gradients' out || fail "--mesh $m: no check line: $(cat out)"
  done
}

test_run_mpi_gen_program_four_ranks() {
  need_mpirun
  "$GEN" --ops 300 --mesh 2x2 -o p.pir || { fail "gen-program --mesh 2x2"; return; }
  in_process_and_mpi 4 p.pir --steps 2
  [ "$(wc -l < out)" = 2 ] || fail "not one loss line per step: $(cat out)"
  grep -q '^ranks: 4$' mp/summary.yaml || fail "not 4 ranks: $(cat mp/summary.yaml)"
}

# The cost planner's all-to-all (send_v2/recv_v2 of exact blocks) and gather on uneven dims: the same outputs and
# the same counted bytes per rank and ring in process and under mpirun (issue 31).
test_run_mpi_cost_planner_counts_as_in_process() {
  need_mpirun
  local ts='pd_dist.tensor<7x5xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[0,1]>'
  local td='pd_dist.tensor<7x5xf32, mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,0]>'
  local mesh='mesh:{shape:[2,2],process_ids:[0,1,2,3]}'
  cat > p.pir <<PIR
{
    (%0) = "builtin.parameter" () {op_dist_attr:{$mesh,result(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[0,1]}},parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> $ts
    (%1) = "dist_op.reshard" (%0) {} : ($ts) -> $td
    () = "builtin.shadow_output" (%1) {op_dist_attr:{$mesh,operand(0):{mesh_shape:[2,2],process_ids:[0,1,2,3],dims_mappings:[1,0]}},output_name:"out"} : ($td) -> 
}
PIR
  in_process_and_mpi 4 p.pir --planner cost --check
  grep -q 'bytes_received: {.*[1-9]' mp/summary.yaml || fail "nothing counted: $(cat mp/summary.yaml)"
}

test_run_mpi_wrong_process_count() {
  need_mpirun
  mpi 4 "$SEED"
  expect_rc 1
  stderr_has '^error: mpirun started 4 processes, the program has 2 ranks \(run it with -np 2\)$'
  [ "$(grep -c '^error: mpirun started' err)" = 1 ] || fail "the error is not printed once: $(cat err)"
  [ ! -s out ] || fail "stdout is not empty: $(cat out)"
}

# Every process meets a bad input before MPI is joined: rank 0 alone
# reports it (once), and the job still exits 1.
test_run_mpi_bad_input_reported_once() {
  need_mpirun
  printf '{\n    (%%0) = "pd_op.data" () {name:"x"} : () -> builtin.tensor<2xf32\n}\n' > bad.pir
  local i
  for i in 1 2 3; do  # the race was rank 1 exiting 1 before rank 0 printed
    mpi 3 bad.pir
    expect_rc 1
    [ "$(grep -c '^bad.pir:[0-9]*:[0-9]*: error: ' err)" = 1 ] || fail "the error is not printed once: $(cat err)"
  done
}

test_run_mpi_programs_and_trace() {
  need_mpirun
  write_split
  in_process_and_mpi 2 --programs dd --seed 3
  mpi 2 --programs dd --trace t.json
  expect_rc 0
  grep -q '"tid": 1, "args": {"name": "rank 1"}' t.json || fail "the trace has no track for rank 1"
  grep -q '"name": "pd_op.all_gather", "ph": "X", "pid": 0, "tid": 1' t.json || fail "rank 1's ops are not traced"
}

test_run_mpi_fault_on_rank1() {
  need_mpirun
  write_split
  # rank 1 reshapes its [2] piece to [3] before the gather: it fails, the job is aborted
  sed -i 's|^    (%1) = "pd_op.all_gather"|    (%9) = "pd_op.full_int_array" () {dtype:(pd_op.DataType)int64,place:(pd_op.Place)Place(cpu),value:[(Int64)3]} : () -> builtin.tensor<1xi64>\n    (%8) = "pd_op.reshape" (%0, %9) {} : (builtin.tensor<2xf32>, builtin.tensor<1xi64>) -> builtin.tensor<3xf32>\n&|' dd/rank1.pir
  local start end
  start=$(now_ms)
  mpi 2 --programs dd --timeout 30
  end=$(now_ms)
  expect_rc 1
  expect_located dd/rank1.pir 4
  stderr_has 'error: rank 1: pd_op.reshape: cannot reshape tensor<2xf32> to \[3\]$'
  [ $((end - start)) -lt 10000 ] || fail "stopping took $((end - start)) ms"
}

test_run_mpi_deadlock_two_ranks() {
  need_mpirun
  write_split
  # rank 1 receives rank 0's gather piece instead of gathering: rank 0 waits for ever
  sed -i 's|^    (%1) = "pd_op.all_gather" (%0) .*$|    (%1) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,out_shape:[(Int64)2],peer:(Int32)0,ring_id:(Int32)12,use_calc_stream:true} : () -> builtin.tensor<2xf32>|; s|^    () = "builtin.shadow_output" (%1) .*$||' dd/rank1.pir
  local start end
  start=$(now_ms)
  mpi 2 --programs dd --timeout 1
  end=$(now_ms)
  expect_rc 1
  stderr_has '^error: deadlock: a rank waited longer than --timeout 1 s'
  stderr_has 'dd/rank0.pir:3:[0-9]+: error: pd_op.all_gather: rank 0 waits on all_gather on ring 12, for rank 1$'
  [ $((end - start)) -lt 10000 ] || fail "the deadlock took $((end - start)) ms to report"
}

# Pipelines for any program under mpirun (issue 27): messages pair by message_index and micro-batch over
# MPI tags, so the backward reading a forward value across stages (ZBH1), tensor parallelism inside VPP
# chunks, and a schedule running micro-batches out of order equal the serial step; a folder written
# before the fix fails loudly at the receive.
test_run_mpi_pipeline_shapes() {
  need_mpirun
  local s=$PIR_TESTDATA/pipeline_shapes fx=$PIR_TESTDATA/comm_check
  mpi 2 "$s/01_backward_reads_forward.pir" --mode ZBH1 --micro-batches 4 --check
  expect_rc 0 "01 ZBH1"
  grep -q "tensors match" out || fail "01 ZBH1: $(cat out err)"
  mpi 4 "$s/04_tp_in_vpp.pir" --mode VPP --vpp 2 --micro-batches 4 --check
  expect_rc 0 "04 VPP"
  grep -q "tensors match" out || fail "04 VPP: $(cat out err)"
  "$PIR_OPT" "$s/05_three_stage_1f1b.pir" --output-dir d \
    '--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=3 avg=true},pipeline-split{mode=1F1B}' ||
    fail "pir-opt 05"
  mpi 3 --programs d --schedule "$fx/case5_1f1b_reordered/schedule.yaml" --check "$s/05_three_stage_1f1b.pir"
  expect_rc 0 "05 reordered"
  grep -q "tensors match" out || fail "05 reordered: $(cat out err)"
  mpi 2 --programs "$fx/case1_zbh1" --schedule "$fx/case1_zbh1/schedule.yaml" --timeout 10
  expect_rc 1 "the old case1_zbh1 folder"
  stderr_has "rank1/backward_b.pir:[0-9]+:[0-9]+: error: rank 1: job backward_b:0: pd_op.recv_v2: .* would take the message rank 0 sent in micro-batch 1"
}

# A deadlock under mpirun: rank 0 gathers every rank's wait and reports
# them once, each located in its rank's program, as in process.
test_run_mpi_deadlock_every_wait_on_rank0() {
  need_mpirun
  write_split
  # rank 1 receives where it should gather: rank 0 waits on the gather, rank 1 on the receive
  sed -i 's|^    (%1) = "pd_op.all_gather" (%0) .*$|    (%1) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,out_shape:[(Int64)2],peer:(Int32)0,ring_id:(Int32)12,use_calc_stream:true} : () -> builtin.tensor<2xf32>|; s|^    () = "builtin.shadow_output" (%1) .*$||' dd/rank1.pir
  mpi 2 --programs dd --timeout 1
  expect_rc 1
  [ "$(grep -c '^error: deadlock: ' err)" = 1 ] || fail "the report is not printed once: $(cat err)"
  stderr_has 'dd/rank0.pir:3:[0-9]+: error: pd_op.all_gather: rank 0 waits on all_gather on ring 12, for rank 1$'
  stderr_has 'dd/rank1.pir:3:[0-9]+: error: pd_op.recv_v2: rank 1 waits on recv_v2 from rank 0 on ring 12'
  # rank 1's wait is a note of the one report, after its header
  awk '/^error: deadlock: /{h=NR} /^dd\/rank1.pir:3:/{r=NR} END{exit !(h && r > h)}' err ||
    fail "rank 1's wait is not in rank 0's report: $(cat err)"
}

# A program on process_ids [2,3] runs on -np 4 (its world size), and
# summary.yaml says 4 ranks, as in process.
test_run_mpi_ranks_two_three() {
  need_mpirun
  sed 's/process_ids:\[0,1\]/process_ids:[2,3]/g' "$SEED" > s23.pir
  in_process_and_mpi 4 s23.pir --steps 2
  grep -qx 'ranks: 4' mp/summary.yaml || fail "ranks is not 4: $(head -3 mp/summary.yaml)"
  mpi 2 s23.pir
  expect_rc 1
  stderr_has '^error: mpirun started 2 processes, the program has 4 ranks \(run it with -np 4\)$'
}

# Rank 0 finished while rank 1 waits for a message rank 0 never sends:
# rank 0's report says it finished and gives rank 1's wait.
test_run_mpi_deadlock_rank0_finished() {
  need_mpirun
  write_split
  sed -i 's|^    (%1) = "pd_op.all_gather" (%0) .*$|    (%1) = "pd_op.recv_v2" () {dtype:(pd_op.DataType)float32,dynamic_shape:false,out_shape:[(Int64)2],peer:(Int32)0,ring_id:(Int32)12,use_calc_stream:true} : () -> builtin.tensor<2xf32>|; s|^    () = "builtin.shadow_output" (%1) .*$||' dd/rank1.pir
  sed -i 's|^    (%1) = "pd_op.all_gather" (%0) .*$||; s|^    () = "builtin.shadow_output" (%1) .*$||' dd/rank0.pir
  mpi 2 --programs dd --timeout 1
  expect_rc 1
  [ "$(grep -c '^error: deadlock: ' err)" = 1 ] || fail "the report is not printed once: $(cat err)"
  stderr_has '^rank 0: finished$'
  stderr_has 'dd/rank1.pir:3:[0-9]+: error: pd_op.recv_v2: rank 1 waits on recv_v2 from rank 0 on ring 12'
}

cli_main
