#!/usr/bin/env bash
# CLI tests of pir-opt: --print-era, and the schedule command's pictures and edges.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# --print-era
#===----------------------------------------------------------------------===#

# The seeds to the newest era and back: the identity, both ways.
test_print_era_seed_round_trip() {
  for seed in "$SEED" "$SEED_AFTER"; do
    run "$seed" --print-era=newest -o newest.pir
    expect_rc 0 "$(basename "$seed") to newest"
    grep -q "dims_maping\|(pd_op\.\|(Float)" newest.pir && fail "the newest era still tags or says dims_maping"
    grep -q "process_ids:\[0,1\],dims_mappings" newest.pir || fail "the newest era's types lack process_ids"
    run newest.pir
    expect_rc 0 "newest reads back"
    same newest.pir out "the newest text prints as read"
    run newest.pir --print-era=2024
    expect_rc 0 "back to 2024"
    same "$seed" out "seed -> newest -> 2024"
    run "$seed" --print-era=input
    same "$seed" out "--print-era=input"
  done
}

# A pass whose output the seed's era cannot spell runs when printed newest.
test_print_era_lets_a_pass_spell_what_the_input_era_cannot() {
  sed 1,2d "$TESTDATA/reshard/20_error_cross_mesh_dims_maping.pir" > cross.pir
  run cross.pir --pass-pipeline=apply-partition
  expect_rc 1 "the dims_maping era refuses"
  expect_located cross.pir 5
  run cross.pir --pass-pipeline=apply-partition --print-era=newest
  expect_rc 0 "printed newest"
  grep -q '"dist_op.reshard".*mesh:{shape:\[4\],process_ids:\[0,1,2,3\]}' out || fail "no cross-mesh reshard"
  # And printing it in 2024 again is a located error, not a silent drop.
  mv out newest.pir
  run newest.pir --print-era=2024
  expect_rc 1 "2024 cannot spell the reshard"
  expect_located newest.pir 5
  stderr_has "op 'dist_op.reshard': result 0 has a dist type on another mesh than its op's"
}

# Into --output-dir, each program is checked printable as it prints: the
# first op that is not is the same located error, and no directory is left.
test_print_era_error_into_output_dir_leaves_nothing() {
  sed 1,2d "$TESTDATA/reshard/20_error_cross_mesh_dims_maping.pir" > cross.pir
  run cross.pir --pass-pipeline=apply-partition --output-dir outdir
  expect_rc 1 "the dims_maping era refuses"
  expect_located cross.pir 5
  stderr_has "dims_maping era cannot print"
  [ ! -e outdir ] || fail "a directory was left"
  run cross.pir --pass-pipeline=apply-partition --print-era=newest --output-dir outdir
  expect_rc 0 "printed newest"
  [ -f outdir/programs.yaml ] || fail "no programs.yaml"
}

test_print_era_errors_are_located() {
  run "$TESTDATA/roundtrip/10_dist_partial_placements_attrnull_list.pir" --print-era=2024
  expect_rc 1 "chunk_id 0"
  stderr_has "error: op 'pd_op.data' has chunk_id 0, which the 2024 era cannot print"
  printf '{\n    (%%0) = "my.op" () {k:7} : () -> tensor<2xf32>\n}\n' > bare.pir
  run bare.pir --print-era=2024
  expect_rc 1 "an untaggable number"
  expect_located bare.pir 2
  run bare.pir --print-era=newest
  expect_rc 0 "newest spells it"
  same bare.pir out "a newest program printed newest"
  run bare.pir --print-era=1999
  expect_rc 1 "an unknown era"
  stderr_has "print-era"
  # Nothing is written when the conversion fails.
  run bare.pir --print-era=2024 -o out.pir
  expect_rc 1
  [ -e out.pir ] && fail "out.pir written though the conversion failed"
  no_temp_files
}

#===----------------------------------------------------------------------===#
# schedule: option edges
#===----------------------------------------------------------------------===#

test_schedule_zero_stages_says_what_is_wrong() {
  run schedule --mode 1F1B --stages 0 --micro-batches 4
  expect_rc 1 "--stages 0"
  stderr_has "^pir-opt schedule: error: --stages must be at least 1 \(got 0\)"
  run schedule --mode 1F1B --stages 4 --micro-batches 0
  expect_rc 1 "--micro-batches 0"
  stderr_has "^pir-opt schedule: error: --micro-batches must be at least 1 \(got 0\)"
  # Not given at all is another message.
  run schedule --mode 1F1B --micro-batches 4
  expect_rc 1 "no --stages"
  stderr_has "^pir-opt schedule: error: --stages is required$"
  run schedule --mode 1F1B --stages -2 --micro-batches 4
  expect_rc 1 "--stages -2"
  stderr_has "at least 1 \(got -2\)"
}

# Paddle's ZBVPP pass (pipeline_zero_bubble.py at 0ab6998c) asserts N % P == 0 and N <= P, because its
# gradients explode past N = P; gradient-merge here averages, and the V schedule exists for every N >= 1
# (docs/schedules.md): each list is valid and runs to its end under the dependency model.
test_schedule_zbvpp_takes_any_micro_batch_count() {
  local n
  for n in 1 3 4 6 8 12; do
    run schedule --mode ZBVPP --stages 4 --micro-batches "$n" -o z.yaml
    expect_rc 0 "ZBVPP P=4 N=$n"
    run schedule --check z.yaml
    expect_rc 0 "ZBVPP P=4 N=$n: --check"
    grep -q "valid; makespan" out || fail "ZBVPP P=4 N=$n: $(cat out err)"
  done
  run schedule --mode ZBVPP --stages 4 --micro-batches 4
  expect_rc 0 "ZBVPP N == P"
  grep -q "makespan: 28" out || fail "ZBVPP P=N=4: $(tail -1 out)"
}

test_schedule_check_errors_are_located() {
  printf 'stages: 2\nmicro_batches: 1\nstage_jobs:\n  - jobs: ["forward:0", "backward:0"]\n  - jobs: ["backward:0", "forward:0"]\n' > order.yaml
  run schedule --check order.yaml
  expect_rc 1 "backward before forward"
  stderr_has "^pir-opt schedule: error: order\.yaml:5:12: stage 1: backward:0 comes before forward:0$"
  printf 'stages: 2\nmicro_batches: 1\nstage_jobs:\n  - jobs: ["forward:0", "backward:0"]\n  - jobs: ["forward:0", "backwad:0"]\n' > typo.yaml
  run schedule --check typo.yaml
  expect_rc 1 "unknown job type"
  stderr_has "^pir-opt schedule: error: typo\.yaml:5:25: stage 1: unknown job type 'backwad'"
  # A missing job stands at its stage's list; a count mismatch at `stages:`.
  printf 'stages: 1\nmicro_batches: 2\nstage_jobs:\n  - jobs: ["forward:0", "backward:0"]\n' > missing.yaml
  run schedule --check missing.yaml
  expect_rc 1 "missing job"
  stderr_has "^pir-opt schedule: error: missing\.yaml:4:11: stage 0: missing job forward:1$"
  printf 'stages: 3\nmicro_batches: 1\nstage_jobs:\n  - jobs: ["forward:0", "backward:0"]\n' > count.yaml
  run schedule --check count.yaml
  expect_rc 1 "stage count"
  stderr_has "^pir-opt schedule: error: count\.yaml:1:9: stages is 3 but 1 stage lists are given$"
  # YAML syntax errors and repeated keys carry line:col too.
  printf 'stages: 1\nstages: 2\n' > twice.yaml
  run schedule --check twice.yaml
  expect_rc 1 "repeated key"
  stderr_has "^pir-opt schedule: error: twice\.yaml:2:1: duplicate key 'stages'$"
  # A deadlock names where each stuck stage stops.
  run schedule --check "$TESTDATA/schedule/deadlock_fthenb.yaml"
  expect_rc 1 "deadlock"
  stderr_has "deadlock_fthenb\.yaml:10:25: note: stage 0 is stuck at backward:0$"
  stderr_has "deadlock_fthenb\.yaml:12:12: note: stage 1 is stuck at forward:1$"
}

test_top_level_help_lists_schedule() {
  run --help
  expect_rc 0 "--help"
  grep -Eq "^  pir-opt schedule --mode" out || fail "--help does not list schedule: $(cat out)"
}

#===----------------------------------------------------------------------===#
# schedule: SVG pictures
#===----------------------------------------------------------------------===#

test_schedule_svg_scales_and_draws_the_optimizer() {
  printf 'optimizer: 2\n' > costs.yaml
  run schedule --mode VPP --stages 8 --micro-batches 32 --vpp 2 --format svg --costs costs.yaml
  expect_rc 0 "VPP P=8 N=32 svg"
  mv out vpp.svg
  run schedule --mode VPP --stages 8 --micro-batches 32 --vpp 2 --costs costs.yaml
  makespan=$(sed -nE 's/^simulation: \{makespan: ([0-9]+),.*/\1/p' out)
  [ -n "$makespan" ] || fail "no makespan in $(tail -1 out)"
  # 32 px a time unit (the shortest job), the stage labels' 70 px and a 20 px margin.
  grep -q "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"$((70 + 32 * makespan + 20))\"" vpp.svg ||
    fail "width does not follow the makespan $makespan: $(head -1 vpp.svg)"
  grep -q "makespan $makespan (optimizer included)" vpp.svg || fail "title without the makespan"
  grep -q "<title>optimizer:0 \[" vpp.svg || fail "optimizer not drawn"
  grep -q ">forward chunk 1</text>" vpp.svg || fail "no legend entry for chunk 1"
  grep -q ">time</text>" vpp.svg || fail "no time axis"
  # Without an optimizer cost the makespan is Paddle's unit-cost one.
  run schedule --mode 1F1B --stages 4 --micro-batches 8
  grep -q "makespan: 33" out || fail "1F1B P=4 N=8: $(tail -1 out)"
  run schedule --mode 1F1B --stages 4 --micro-batches 8 --costs costs.yaml
  grep -q "makespan: 35" out || fail "1F1B with optimizer 2: $(tail -1 out)"
}

test_schedule_svg_goldens() {
  for m in 1f1b:1F1B zbh1:ZBH1 zb1p:ZB1P; do
    run schedule --mode "${m#*:}" --stages 4 --micro-batches 8 --format svg
    expect_rc 0 "$m svg"
    same "$TESTDATA/schedule/${m%%:*}_p4_n8.svg" out "${m%%:*} golden"
  done
}

cli_main
