#!/usr/bin/env bash
# pir-run over pipeline job lists (issue 20): every mode on a 2-stage program (stage 0 on [0], stage 1
# on [1]) and on a stage with tensor parallelism inside (the seed MLP on [0,1]), --check against the
# serial program run per micro-batch; --programs DIR with --schedule equal to the in-process run;
# feeds cut into micro-batches, a loss stacked per micro-batch; a --schedule the dry run reports as
# deadlocking is refused, a generated one ends with the per-rank report; a fault in one rank's job stops every rank; the trace's
# job spans and the measured costs `pir-opt schedule --costs` reads. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
TWO=$PIR_TESTDATA/gradient_merge/05_dist_two_stages.pir  # stage 0 on [0], stage 1 on [1], sgd_
SEED=$PIR_TESTDATA/pipeline/07_seed_mlp_fthenb.pir

# check_mode PROGRAM N ARGS...: pir-run --micro-batches N --check passes.
check_mode() {
  local p=$1 n=$2
  shift 2
  prun "$p" --micro-batches "$n" --check --timeout 10 "$@"
  expect_rc 0 "$(basename "$p") N=$n $*"
  grep -Eq '^check: [0-9]+ tensors match, and [0-9]+ gradients and [0-9]+ updates at each of [0-9]+ steps? \(.*\)$' out ||
    fail "$(basename "$p") N=$n $*: no 'check: N tensors match' line: $(cat out err)"
}

# pipeline_dir MODE DIR: the 2-stage program's job programs, as pir-opt writes them.
pipeline_dir() {
  "$PIR_OPT" "$TWO" --output-dir "$2" \
    "--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=2 avg=true},pipeline-split{mode=$1}" ||
    fail "pir-opt pipeline-split{mode=$1}"
}

# write_npy FILE D0 D1: a float32 [D0, D1] .npy of 0.01 * index (standard library only).
write_npy() {
  python3 - "$@" << 'PY'
import struct, sys
path, d0, d1 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (d0, d1)
hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
vals = [0.01 * i for i in range(d0 * d1)]
open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + struct.pack("<%df" % len(vals), *vals))
PY
}

test_run_pipeline_two_stages_every_mode() {
  for m in FThenB 1F1B ZBH1 ZB1P; do
    for n in 2 4; do check_mode "$TWO" "$n" --mode "$m"; done
  done
}

test_run_pipeline_tensor_parallel_stage() {
  for m in FThenB 1F1B ZBH1 ZB1P; do check_mode "$SEED" 2 --mode "$m"; done
  check_mode "$SEED" 4 --mode 1F1B --steps 2
}

# stdout is the mean of the micro-batches' losses; summary.yaml has each; the fetched loss is [N].
test_run_pipeline_loss_stacked() {
  prun "$TWO" --mode 1F1B --micro-batches 4 --output-dir o
  expect_rc 0
  local mean losses
  mean=$(sed -n 's/^step 1: loss_0 //p' out)
  losses=$(sed -n 's/^micro_batch_loss: \[\(.*\)\]$/\1/p' o/summary.yaml)
  [ "$(echo "$losses" | tr ',' '\n' | grep -c .)" = 4 ] || fail "micro_batch_loss is not 4 values: $losses"
  awk -v l="$losses" -v m="$mean" 'BEGIN { n = split(l, a, ", "); s = 0; for (i = 1; i <= n; i++) s += a[i];
    d = s / n - m; if (d < 0) d = -d; exit !(d < 1e-6) }' || fail "stdout $mean is not the mean of $losses"
  grep -q "'shape': (4,)" o/loss_0.npy || fail "loss_0.npy is not [4]: $(head -c 80 o/loss_0.npy)"
  grep -q '^micro_batches: 4$' o/summary.yaml || fail "no micro_batches: 4 in summary.yaml"
}

# What pir-opt writes, run with pir-opt schedule's job lists, is what the in-process pipeline gives.
test_run_pipeline_programs_dir_same_as_in_process() {
  pipeline_dir 1F1B d
  "$PIR_OPT" schedule --mode 1F1B --stages 2 --micro-batches 2 -o s.yaml || fail "pir-opt schedule"
  prun --programs d --schedule s.yaml --output-dir o1
  expect_rc 0 "--programs"
  cp out out1
  prun "$TWO" --mode 1F1B --micro-batches 2 --output-dir o2
  expect_rc 0 "in process"
  same out1 out "stdout"
  for f in o2/*.npy; do cmp -s "$f" "o1/$(basename "$f")" || fail "$(basename "$f") differs"; done
  [ "$(ls o1/*.npy | wc -l)" = "$(ls o2/*.npy | wc -l)" ] || fail "different outputs: $(ls o1 o2)"
}

# The optimizer before the last micro-batch's backward would miss its gradient: since issue 28 the
# list is refused before the run, as `pir-opt schedule --check` refuses it (it used to run, and the
# check caught the wrong parameters).
test_run_pipeline_check_fails_on_an_early_optimizer() {
  "$PIR_OPT" schedule --mode FThenB --stages 2 --micro-batches 2 -o s.yaml || fail "pir-opt schedule"
  sed -i 's/"backward:1", "optimizer:0"/"optimizer:0", "backward:1"/' s.yaml
  grep -q '"optimizer:0", "backward:1"' s.yaml || fail "the schedule was not edited: $(cat s.yaml)"
  prun "$TWO" --schedule s.yaml --micro-batches 2 --check --timeout 10
  expect_rc 1
  stderr_has "^s\.yaml:[0-9]+:[0-9]+: error: stage [01]: optimizer is not the last job$"
  grep -q '^check: ' out err && fail "it ran: $(cat out)"
}

# adamw_ is not linear in the gradient: the check feeds it the micro-batches' mean gradient once, so
# its parameters and moments are compared too (an early optimizer is refused before the run).
test_run_pipeline_check_adamw_parameters() {
  "$GEN" --ops 200 --stages 2 --optimizer adamw -o a.pir || fail "gen-program"
  check_mode a.pir 2 --mode 1F1B
  check_mode a.pir 4 --mode ZBH1 --steps 2
  "$PIR_OPT" schedule --mode FThenB --stages 2 --micro-batches 2 -o s.yaml || fail "pir-opt schedule"
  sed -i 's/"backward:1", "optimizer:0"/"optimizer:0", "backward:1"/' s.yaml
  prun a.pir --schedule s.yaml --micro-batches 2 --check --timeout 10
  expect_rc 1
  stderr_has "^s\.yaml:[0-9]+:[0-9]+: error: stage [01]: optimizer is not the last job$"
}

# Stage 1 runs both forwards before the first backward, stage 0 waits for that backward's gradient
# before its second forward: the dry run finds the deadlock, and pir-run, which checks a --schedule as
# `pir-opt schedule --check` does (issue 28), refuses it with the same report before it runs anything.
# (A generated list that deadlocks, VPP P=4 N=6 below, still runs to every rank's wait.)
test_run_pipeline_deadlock_refused_before_running() {
  cat > s.yaml << 'EOF2'
mode: 1F1B
stages: 2
micro_batches: 2
vpp: 1
stage_jobs:
  - stage: 0
    jobs: ["recv_forward:0", "forward:0", "backward:0", "send_backward:0", "recv_forward:1", "forward:1", "backward:1", "send_backward:1", "optimizer:0"]
  - stage: 1
    jobs: ["recv_forward:0", "forward:0", "recv_forward:1", "forward:1", "backward:0", "send_backward:0", "backward:1", "send_backward:1", "optimizer:0"]
EOF2
  "$PIR_OPT" schedule --check s.yaml > dry 2>&1 && fail "the dry run accepts the deadlocking schedule: $(cat dry)"
  grep -qi deadlock dry || fail "the dry run does not report a deadlock: $(cat dry)"
  pipeline_dir 1F1B d
  prun --programs d --schedule s.yaml --timeout 30
  expect_rc 1
  stderr_has '^s.yaml: error: deadlock after [0-9]+ steps: no stage can start its next job'
  stderr_has '^s.yaml:7:43: note: stage 0 is stuck at backward:0$'
  stderr_has '^s.yaml:9:43: note: stage 1 is stuck at recv_forward:1$'
  grep -q 'waits on' err && fail "it ran: $(head -c 400 err)"
}

# A bad shape in one rank's job: that rank's located error, every other rank stopped, no wait.
test_run_pipeline_fault_in_one_stage_stops_all() {
  pipeline_dir 1F1B d
  sed -i 's/out_shape:\[(Int32)4,(Int32)8\]\(.*\) : () -> builtin.tensor<4x8xf32>$/out_shape:[(Int32)4,(Int32)9]\1 : () -> builtin.tensor<4x9xf32>/; s/(builtin.tensor<4x8xf32>) -> $/(builtin.tensor<4x9xf32>) -> /' \
    d/rank1/recv_forward.pir
  grep -q '4x9xf32' d/rank1/recv_forward.pir || fail "the fault was not injected: $(cat d/rank1/recv_forward.pir)"
  local start=$SECONDS
  prun --programs d --mode 1F1B --micro-batches 2 --timeout 30
  expect_rc 1
  [ $((SECONDS - start)) -lt 10 ] || fail "the fault took $((SECONDS - start)) s to stop the ranks"
  expect_located d/rank1/recv_forward.pir 2
  stderr_has 'error: rank 1: job recv_forward:0: pd_op.recv_v2: '
  [ "$(grep -c 'error:' err)" = 1 ] || fail "not one message: $(cat err)"
}

test_run_pipeline_feed_not_divisible() {
  prun "$TWO" --mode FThenB --micro-batches 2 --output-dir o
  expect_rc 0 "the first run"
  mkdir in
  cp o/w0.npy o/w1.npy in/
  write_npy in/x.npy 5 8
  prun "$TWO" --mode FThenB --micro-batches 2 --inputs in
  expect_rc 1
  stderr_has "^error: feed 'x': dim 0 \(5\) is not divisible by --micro-batches 2$"
  write_npy in/x.npy 8 8
  prun "$TWO" --mode FThenB --micro-batches 2 --inputs in --check
  expect_rc 0 "a feed read from a file"
}

# Jobs as spans around their ops on each rank's track; measured costs that pir-opt schedule reads.
test_run_pipeline_trace_and_measured_costs() {
  prun "$TWO" --mode ZBH1 --micro-batches 2 --output-dir o --trace t.json
  expect_rc 0
  for r in 0 1; do
    grep -q "^{\"name\": \"forward:1\", \"ph\": \"X\", \"pid\": 0, \"tid\": $r, " t.json || fail "no forward:1 span on rank $r"
    grep -q "^{\"name\": \"optimizer:0\", \"ph\": \"X\", \"pid\": 0, \"tid\": $r, " t.json || fail "no optimizer span on rank $r"
  done
  grep -q '"name": "pd_op.matmul", "ph": "X"' t.json || fail "no op events in the trace"
  for k in forward backward_b backward_w optimizer communication; do
    grep -Eq "^  $k: [0-9]+$" o/summary.yaml || fail "summary.yaml has no measured $k: $(cat o/summary.yaml)"
  done
  "$PIR_OPT" schedule --mode ZBH1 --stages 2 --micro-batches 2 --costs o/summary.yaml > sim 2> err ||
    fail "pir-opt schedule --costs summary.yaml: $(cat err)"
  grep -q '^simulation: {makespan: [0-9]' sim || fail "no simulation: $(cat sim)"
}

# gen-program's whole pipelines: 4 stages, and tensor parallelism inside 2 and 4 stages.
test_run_pipeline_gen_four_stages() {
  "$GEN" --ops 300 --mesh 1 --stages 4 -o p.pir || { fail "gen-program --stages 4"; return; }
  for m in 1F1B ZBH1; do check_mode p.pir 4 --mode "$m"; done
  # ZBH1 (the zero-bubble paper's list) also takes fewer micro-batches than stages; 1F1B refuses, as Paddle.
  for n in 1 3; do check_mode p.pir "$n" --mode ZBH1; done
}

test_run_pipeline_gen_tensor_parallel_stages() {
  "$GEN" --ops 300 --mesh 2 --stages 2 -o p.pir || { fail "gen-program --mesh 2 --stages 2"; return; }
  for m in FThenB ZB1P; do check_mode p.pir 2 --mode "$m"; done
  "$GEN" --ops 500 --mesh 2 --stages 4 -o p4.pir || { fail "gen-program --mesh 2 --stages 4"; return; }
  check_mode p4.pir 4 --mode 1F1B
}

# VPP on 4 stages, and with backward split (N == P, as Paddle allows it).
test_run_pipeline_vpp() {
  "$GEN" --ops 400 --mesh 1 --stages 4 --vpp 2 -o p.pir || { fail "gen-program --stages 4 --vpp 2"; return; }
  check_mode p.pir 8 --mode VPP --vpp 2
  check_mode p.pir 4 --mode VPP --vpp 2 --split-bw
}

# ZBVPP on programs whose chunks are placed in a V (gen-program --vschedule), 4 stages and 2 with
# tensor parallelism inside.
test_run_pipeline_zbvpp() {
  "$GEN" --ops 400 --mesh 1 --stages 4 --vpp 2 --vschedule -o p.pir || { fail "gen-program --vschedule"; return; }
  check_mode p.pir 4 --mode ZBVPP --vpp 2
  "$GEN" --ops 400 --mesh 2 --stages 2 --vpp 2 --vschedule -o p2.pir || { fail "gen-program --mesh 2"; return; }
  check_mode p2.pir 2 --mode ZBVPP --vpp 2
}

# Paddle's VPP at P=4, N=6, V=2: the dry run reports the deadlock; pir-run ends with every rank's wait.
test_run_pipeline_vpp_deadlock_p4_n6() {
  "$PIR_OPT" schedule --mode VPP --stages 4 --micro-batches 6 --vpp 2 > dry 2>&1 &&
    fail "pir-opt schedule accepts VPP P=4 N=6 V=2: $(head -3 dry)"
  grep -q 'deadlock' dry || fail "no deadlock in the dry run: $(head -3 dry)"
  "$GEN" --ops 400 --mesh 1 --stages 4 --vpp 2 -o p.pir || { fail "gen-program --stages 4 --vpp 2"; return; }
  local start=$SECONDS
  prun p.pir --mode VPP --vpp 2 --micro-batches 6 --timeout 1
  expect_rc 1
  [ $((SECONDS - start)) -lt 20 ] || fail "the deadlock took $((SECONDS - start)) s to end"
  stderr_has '^error: deadlock: a rank waited longer than --timeout 1 s; what every rank waits on:$'
  for r in 0 1 2 3; do stderr_has "error: job [a-z_0-9]+:[0-9]+: pd_op.recv_v2: rank $r waits on recv_v2 from rank"; done
}

# One rank a process under mpirun -np 4 (4 stages, 1F1B): stdout and every output byte-identical.
test_run_pipeline_mpirun_same_as_in_process() {
  need_mpirun
  "$GEN" --ops 300 --mesh 1 --stages 4 -o p.pir || { fail "gen-program --stages 4"; return; }
  prun p.pir --mode 1F1B --micro-batches 4 --output-dir o1
  expect_rc 0 "in process"
  cp out out1
  mpi 4 p.pir --mode 1F1B --micro-batches 4 --output-dir o2
  expect_rc 0 "mpirun -np 4"
  same out1 out "stdout"
  for f in o1/*.npy; do cmp -s "$f" "o2/$(basename "$f")" || fail "$(basename "$f") differs under mpirun"; done
  [ "$(ls o1 | wc -l)" = "$(ls o2 | wc -l)" ] || fail "different outputs: $(ls o1 o2)"
}

cli_main
