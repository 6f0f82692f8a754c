#!/usr/bin/env bash
# Pipelines for any program (issue 27): testdata/pipeline_shapes/ holds training programs shaped the way
# Paddle's partition pass leaves them (no pd_op.assign at the stage crossings; see its README): the
# backward reading forward values of an earlier stage through its own reshard, a residual read five
# groups later, uneven widths, tensor parallelism inside VPP chunks, tied parameters, several values
# crossing in one job, partial gradients crossing under tensor parallelism. Every mode that applies runs
# each equal to the serial step (--check), in process and through pir-opt --output-dir + pir-run
# --programs DIR --check PROGRAM; the job programs of today's failures (testdata/comm_check/, written
# before the fix) fail loudly instead of running to wrong numbers. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
SHAPES=$PIR_TESTDATA/pipeline_shapes
FIXTURES=$PIR_TESTDATA/comm_check
ONE_CHUNK="01_backward_reads_forward 05_three_stage_1f1b 06_tied_embedding 07_several_crossings
  08_partial_grads_cross_stage_tp 09_tied_last_stage_without_parameters"

# passes NAME ARGS...: pir-run ARGS --check exits 0 with a 'check: N tensors match' line.
passes() { check_passes "$@"; }

# folder CASE DIR N PIPELINE-SPLIT-OPTIONS: the case's job programs as pir-opt writes them.
folder() {
  "$PIR_OPT" "$SHAPES/$1.pir" --output-dir "$2" \
    "--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=$3 avg=true},pipeline-split{$4}" ||
    fail "pir-opt $1 pipeline-split{$4}"
}

test_pipeline_shapes_one_chunk_every_mode_in_process() {
  local c m
  for c in $ONE_CHUNK; do
    for m in FThenB 1F1B ZBH1 ZB1P; do passes "$c" "$SHAPES/$c.pir" --mode "$m" --micro-batches 4; done
  done
  # ZBH1 with fewer micro-batches than stages.
  for n in 1 2; do passes 05 "$SHAPES/05_three_stage_1f1b.pir" --mode ZBH1 --micro-batches "$n"; done
}

test_pipeline_shapes_vpp_in_process() {
  local c
  for c in 02_three_stage_residual_vpp 03_three_stage_residual_uneven; do
    passes "$c" "$SHAPES/$c.pir" --mode VPP --vpp 2 --micro-batches 3
    passes "$c" "$SHAPES/$c.pir" --mode VPP --vpp 2 --micro-batches 6
    passes "$c" "$SHAPES/$c.pir" --mode VPP --vpp 2 --split-bw --micro-batches 3
  done
  passes 04 "$SHAPES/04_tp_in_vpp.pir" --mode VPP --vpp 2 --micro-batches 4
  passes 04 "$SHAPES/04_tp_in_vpp.pir" --mode VPP --vpp 2 --split-bw --micro-batches 2
}

# The second path: folders, a schedule pir-opt writes, and --check against the program they came from.
test_pipeline_shapes_programs_folder_check() {
  local c m set
  for c in $ONE_CHUNK; do
    for m in 1F1B ZBH1 ZB1P; do
      set=$m
      [ "$m" = ZB1P ] && set=ZBH1
      rm -rf d
      folder "$c" d 4 "mode=$set"
      passes "$c" --programs d --mode "$m" --micro-batches 4 "$SHAPES/$c.pir"
    done
  done
  rm -rf d
  folder 02_three_stage_residual_vpp d 6 "mode=VPP vpp=2"
  passes 02 --programs d --micro-batches 6 "$SHAPES/02_three_stage_residual_vpp.pir"
  rm -rf d
  folder 04_tp_in_vpp d 2 "mode=VPP vpp=2 split-bw=true"
  passes 04 --programs d --micro-batches 2 "$SHAPES/04_tp_in_vpp.pir"
}

# Issue 27's case 3: apply-partition{share=true}, 3 stages under VPP, a residual from stage 0 to the last.
test_pipeline_shapes_shared_reshard_vpp() {
  "$PIR_OPT" "$SHAPES/02_three_stage_residual_vpp.pir" --output-dir d \
    '--pass-pipeline=apply-partition{share=true},split-ranks,gradient-merge{k=6 avg=true},pipeline-split{mode=VPP vpp=2}' ||
    fail "pir-opt share=true"
  passes 02 --programs d --micro-batches 6 "$SHAPES/02_three_stage_residual_vpp.pir"
}

# Issue 27's case 5: stage 0 runs micro-batch 1's forward before micro-batch 0's. Messages pair by
# message_index and micro-batch, so the values still meet their own micro-batch.
test_pipeline_shapes_reordered_schedule_pairs_by_key() {
  folder 05_three_stage_1f1b d 3 "mode=1F1B"
  grep -q '"recv_forward:1", "forward:1", "recv_forward:0", "forward:0"' "$FIXTURES/case5_1f1b_reordered/schedule.yaml" ||
    fail "the fixture's schedule lost its reordering"
  passes 05 --programs d --schedule "$FIXTURES/case5_1f1b_reordered/schedule.yaml" "$SHAPES/05_three_stage_1f1b.pir"
  grep -q 'message_index:(Int64)0' d/rank0/forward.pir || fail "no message_index in rank0/forward.pir"
}

# The job programs pipeline-split wrote before the fix (no message_index): an ordered receive that would
# take another micro-batch's message is an error at the receive, never a run to wrong numbers.
test_pipeline_shapes_old_fixtures_fail_loudly() {
  local d
  for d in case1_zbh1 case1_1f1b case3_vpp_share case5_1f1b_reordered; do
    prun --programs "$FIXTURES/$d" --schedule "$FIXTURES/$d/schedule.yaml" --timeout 10
    expect_rc 1 "$d"
    stderr_has "^$FIXTURES/$d/rank[0-9]/[a-z_0-9]+\.pir:[0-9]+:[0-9]+: error: rank [0-9]: job [a-z_0-9]+:[0-9]+: pd_op.recv_v2: .* would take the message rank [0-9] sent in micro-batch [0-9]+"
  done
}

test_pipeline_shapes_check_needs_the_program_the_folder_came_from() {
  folder 01_backward_reads_forward d 2 "mode=1F1B"
  sed 's/linear_1.w_0/linear_1.w_9/g' "$SHAPES/01_backward_reads_forward.pir" > other.pir
  prun --programs d --micro-batches 2 --check other.pir
  expect_rc 1 "another program"
  stderr_has "^other.pir:[0-9]+:5: error: parameter 'linear_1.w_9' is not in the folder: PROGRAM is not the program d was made from$"
  prun --programs d --micro-batches 2 --check "$SHAPES/05_three_stage_1f1b.pir"
  expect_rc 1 "a program on other ranks"
  stderr_has "05_three_stage_1f1b.pir:[0-9]+:5: error: its ranks are \[0, 1, 2\], the folder's \[0, 1\]: PROGRAM is not"
  prun --programs d --micro-batches 2 --check
  expect_rc 1 "--check without PROGRAM"
  stderr_has "needs the distributed PROGRAM DIR was made from"
  prun "$SHAPES/01_backward_reads_forward.pir" --programs d --micro-batches 2
  expect_rc 1 "both without --check"
  stderr_has "one of them; both with --check"
}

# A last stage that owns no parameter (the tied weight lives on stage 0): gradient-merge leaves its rank's
# program unchanged, counted, instead of refusing it.
test_pipeline_shapes_stage_without_optimizer() {
  run "$SHAPES/09_tied_last_stage_without_parameters.pir" --pass-statistics -o /dev/null \
    '--pass-pipeline=apply-partition,split-ranks,gradient-merge{k=2 avg=true}'
  expect_rc 0 "09 gradient-merge"
  stderr_has "1 rank program without an optimizer or parameter, left unchanged"
}

# Paddle asserts N <= P for ZBVPP; gradient-merge averages, so N = 2P and 3P run and equal the serial step.
test_pipeline_shapes_zbvpp_multiples_of_stages() {
  local n
  for n in 4 6; do passes zbvpp "$PIR_TESTDATA/pipeline/37_pp_mlp_zbvpp.pir" --mode ZBVPP --micro-batches "$n"; done
  "$HERE/../../scripts/gen-program" --ops 400 --mesh 1 --stages 3 --vpp 2 --vschedule > v3.pir || fail "gen-program"
  for n in 3 6 9; do passes "v3" v3.pir --mode ZBVPP --micro-batches "$n"; done
}

# Independent of the kernels: numpy recomputes every micro-batch's loss from the program text.
test_pipeline_shapes_numpy_reference() {
  /usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no python3-numpy"
  local spec
  for spec in "01_backward_reads_forward --mode ZBH1 --micro-batches 4" \
    "02_three_stage_residual_vpp --mode VPP --vpp 2 --micro-batches 3" \
    "06_tied_embedding --mode 1F1B --micro-batches 3"; do
    # shellcheck disable=SC2086
    PIR_RUN=$PIR_RUN /usr/bin/python3 "$SHAPES/numpy_ref.py" $spec > out 2> err || fail "numpy_ref $spec: $(cat out err)"
  done
}

cli_main "$@"
