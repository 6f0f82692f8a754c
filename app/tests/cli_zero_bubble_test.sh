#!/usr/bin/env bash
# Zero-bubble pipelines (issue 32). The modes that split the backward (ZBH1, ZB1P, ZBVPP, ZBV, DualPipeV,
# VPP split-bw) run split-matmul-grad before pipeline-split, in pir-run and in the documented pir-opt
# pipeline, so a matmul_grad's weight gradient lands in backward_w; the hand-written programs
# testdata/pipeline_shapes/10-12 hold one matmul per transpose case (the weight the left operand in one),
# placed on one chunk, interleaved and in a V, and every mode runs them equal to the serial step. ZB-V and
# DualPipeV (V-placed, ZBVPP's programs) run on 2 and 4 ranks, with and without tensor parallelism, in
# process and through pir-opt --output-dir (DualPipeV's full backwards run as their two halves); under
# mpirun in cli_run_mpi_test.sh. torch.distributed.pipelining's schedule CSV: `schedule --format
# torch-csv` writes it, `--check FILE.csv` and `pir-run --schedule FILE.csv` read it, and torch's own
# fixtures (testdata/schedule/torch/) check and run on programs of their shape. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
SHAPES=$PIR_TESTDATA/pipeline_shapes
ONE=$SHAPES/10_transposed_matmuls_one_chunk.pir
VPP=$SHAPES/11_transposed_matmuls_vpp.pir
V=$SHAPES/12_transposed_matmuls_v.pir
V4=$SHAPES/13_transposed_matmuls_v_four_stages.pir

# passes ARGS...: pir-run ARGS --check exits 0 with a 'check: N tensors match' line.
passes() { check_passes zero-bubble "$@"; }

# split_dir PROGRAM DIR N PIPELINE-SPLIT-OPTIONS: the job programs of the documented pipeline.
split_dir() {
  "$PIR_OPT" "$1" --output-dir "$2" \
    "--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=$3 avg=true},split-matmul-grad,pipeline-split{$4}" ||
    fail "pir-opt $(basename "$1") pipeline-split{$4}"
}

test_zero_bubble_transposed_matmuls_every_mode() {
  local m
  for m in FThenB 1F1B ZBH1 ZB1P; do passes "$ONE" --mode "$m" --micro-batches 4; done
  passes "$VPP" --mode VPP --vpp 2 --micro-batches 4
  passes "$VPP" --mode VPP --vpp 2 --split-bw --micro-batches 2
  passes "$V" --mode ZBVPP --micro-batches 4
}

# Every matmul_grad is split, and each weight gradient's matmul is in a backward_w job; pir-run's own
# pipeline runs the pass too (its --timing lists it).
test_zero_bubble_weight_grads_in_backward_w() {
  split_dir "$ONE" one 4 "mode=ZBH1"
  split_dir "$VPP" vpp 2 "mode=VPP vpp=2 split-bw=true"
  split_dir "$V" v 4 "mode=ZBVPP"
  local d
  for d in one vpp v; do
    ! grep -rq matmul_grad "$d" || fail "$d: a matmul_grad is left: $(grep -rl matmul_grad "$d")"
    # One weight-gradient matmul a layer, four layers: each in a backward_w program.
    [ "$(cat "$d"/rank*/backward_w*.pir | grep -c '"pd_op.matmul"')" = 4 ] ||
      fail "$d: backward_w holds $(cat "$d"/rank*/backward_w*.pir | grep -c '"pd_op.matmul"') matmuls, not 4"
  done
  prun "$ONE" --mode ZBH1 --micro-batches 2 --timing
  expect_rc 0
  grep -q "split-matmul-grad" err || fail "pir-run --mode ZBH1 ran no split-matmul-grad: $(cat err)"
  prun "$ONE" --mode 1F1B --micro-batches 2 --timing
  ! grep -q "split-matmul-grad" err || fail "pir-run --mode 1F1B ran split-matmul-grad"
}

# 2 ranks (12), 4 stages on 4 ranks (13), 2 stages of 2 tensor-parallel ranks (gen-program --mesh 2).
test_zero_bubble_zbv_dualpipev_in_process() {
  "$GEN" --ops 300 --stages 2 --vpp 2 --vschedule --mesh 2 -o tp.pir || fail "gen-program"
  local m
  for m in ZBV DualPipeV; do
    passes "$V" --mode "$m" --micro-batches 4
    passes "$V4" --mode "$m" --micro-batches 8
    passes tp.pir --mode "$m" --micro-batches 4
  done
  passes "$V" --mode ZBV --micro-batches 3  # fewer than 2P-1: the construction's extra micro-batches dropped
  prun "$V" --mode DualPipeV --micro-batches 3
  expect_rc 1
  grep -q "DualPipeV needs at least 2D micro-batches" err || fail "DualPipeV N=3 on 2 ranks: $(cat err)"
}

# The documented pipeline's folder: the static check and pir-run --programs --schedule --check, the
# YAML spelling DualPipeV's overlapped pairs "F & B"; its full backwards run as backward_b then backward_w.
test_zero_bubble_zbv_dualpipev_folder() {
  local m
  for m in ZBV DualPipeV; do
    split_dir "$V" "$m" 4 "mode=$m"
    run schedule --mode "$m" --stages 2 --micro-batches 4 -o "$m.yaml"
    expect_rc 0 "schedule --mode $m"
    run schedule --check "$m.yaml" --programs "$m"
    expect_rc 0 "schedule --check $m.yaml --programs"
    grep -q "^$m.yaml: valid" out || fail "$m: $(cat out err)"
    passes --programs "$m" --schedule "$m.yaml" "$V"
  done
  grep -q '"forward0:3 & backward1:1"' DualPipeV.yaml || fail "no overlapped pair in DualPipeV.yaml"
  grep -q "mode: DualPipeV" DualPipeV/programs.yaml || fail "programs.yaml names no DualPipeV"
}

# summary.yaml: per stage and job the costs and bytes sent, per rank the peak in flight (as the
# simulator counts it: a rank runs its list in order, so the same) and peak tensor bytes; the simulation
# of the list that ran, with those costs, reads them.
test_zero_bubble_measured_costs() {
  run schedule --mode DualPipeV --stages 2 --micro-batches 4 -o v.yaml
  passes "$V" --schedule v.yaml --output-dir o
  grep -Eq '^    bytes_sent: \{.*forward0: [1-9]' o/summary.yaml || fail "no bytes_sent: $(cat o/summary.yaml)"
  grep -Eq '^  peak_tensor_bytes: \[[1-9][0-9]*, [1-9][0-9]*\]$' o/summary.yaml || fail "no peak_tensor_bytes"
  run schedule --check v.yaml --costs o/summary.yaml
  expect_rc 0
  local measured simulated
  measured=$(sed -n 's/^  peak_in_flight: //p' o/summary.yaml)
  simulated=$(sed -n 's/.*peak_in_flight \(\[.*\]\).*/\1/p' out)
  [ "$measured" = "$simulated" ] && [ "$measured" = "[5, 5]" ] || fail "peak in flight $measured, simulated $simulated"
}

test_zero_bubble_torch_csv() {
  local torch=$PIR_TESTDATA/schedule/torch f
  run schedule --mode DualPipeV --stages 4 --micro-batches 10 --format torch-csv -o v.csv
  expect_rc 0
  same v.csv "$torch/dualpipev_4rank_10mb.csv" "DualPipeV P=4 N=10 against torch's artifact"
  for f in dualpipev_4rank_10mb zb1p_2rank_2stagep_compute zb1p_2rank_2stagep_comms; do
    run schedule --check "$torch/$f.csv"
    expect_rc 0 "--check $f.csv"
    grep -q "$f.csv: valid; makespan" out || fail "$f.csv: $(cat out err)"
  done
  # Torch's ZB1P on 2 ranks of 2 interleaved stages runs on 11 (VPP split-bw's programs, inferred from
  # its I and W), its DualPipeV on 13; the comms form through a folder and the static check too.
  passes "$VPP" --schedule "$torch/zb1p_2rank_2stagep_compute.csv"
  passes "$V4" --schedule "$torch/dualpipev_4rank_10mb.csv"
  split_dir "$VPP" zb 8 "mode=VPP vpp=2 split-bw=true"
  run schedule --check "$torch/zb1p_2rank_2stagep_comms.csv" --programs zb
  expect_rc 0 "--check comms.csv --programs"
  passes --programs zb --schedule "$torch/zb1p_2rank_2stagep_comms.csv" "$VPP"
  printf '0F0,0F1\n1F0,0X1\n' > bad.csv
  run schedule --check bad.csv
  expect_rc 1
  grep -q "bad.csv:2:5: '0X1': unknown action type" err || fail "bad.csv: $(cat err)"
}

cli_main
