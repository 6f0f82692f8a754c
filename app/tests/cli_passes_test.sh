#!/usr/bin/env bash
# CLI tests of pir-opt: passes on program sets, typed options, test passes
# and internal errors.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

DENSE=$TESTDATA/pipeline/01_dense_fthenb.pir

# job_lines: the `// ----- job:` lines of ./out, one a line, space-joined.
job_lines() { grep '^// ----- job: ' out | sed 's/^\/\/ ----- job: //' | tr '\n' ' '; }

#===----------------------------------------------------------------------===#
# Passes on a set of programs
#===----------------------------------------------------------------------===#

# A splitting pass after a splitting pass splits every program (this was
# refused: "'pipeline-split' splits one program, but there are 3").
test_split_after_split() {
  run "$DENSE" '--pass-pipeline=pipeline-split,pipeline-split'
  expect_rc 0
  grep -q "splits one program" err && fail "the old refusal: $(head -c 300 err)"
  [ "$(job_lines)" = "forward.forward forward.backward forward.optimizer backward.forward backward.backward \
backward.optimizer optimizer.forward optimizer.backward optimizer.optimizer " ] || fail "jobs: $(job_lines)"
  # Each piece of `forward` is pipeline-split's split of the forward job.
  timeout 60 "$PIR_OPT" "$DENSE" '--pass-pipeline=pipeline-split' > once 2> /dev/null
  awk '$0 == "// ----- job: forward" {on=1; next} /^\/\/ ----- job:/ {on=0} on' once > forward.pir
  timeout 60 "$PIR_OPT" forward.pir '--pass-pipeline=pipeline-split' > twice 2> /dev/null
  awk '$0 == "// ----- job: forward.forward" {on=1; next} /^\/\/ ----- job:/ {on=0} on' out > got
  awk '$0 == "// ----- job: forward" {on=1; next} /^\/\/ ----- job:/ {on=0} on' twice > want
  same want got "forward.forward"
}

# Ranks, then jobs on each rank: rank0.forward, ... in order.
test_split_ranks_then_pipeline_split() {
  PIR_OPT_TEST_PASSES=1 run "$DENSE" '--pass-pipeline=test-split-ranks{ranks=2},pipeline-split{mode=FThenB}'
  expect_rc 0
  [ "$(job_lines)" = "rank0.forward rank0.backward rank0.optimizer rank1.forward rank1.backward rank1.optimizer " ] ||
    fail "jobs: $(job_lines)"
  PIR_OPT_TEST_PASSES=1 run "$DENSE" '--pass-pipeline=test-split-ranks{ranks=3}'
  expect_rc 0
  [ "$(job_lines)" = "rank0 rank1 rank2 " ] || fail "jobs: $(job_lines)"
}

# split-ranks hands each rank's lower-reshard the copy's reshards, found once
# in the input: every reshard of every rank is lowered from that list, and
# lower-reshard run alone finds them itself.
test_split_ranks_lists_the_reshards() {
  timeout 60 "$PIR_OPT" "$TESTDATA/seeds/reshard_before.pir" --pass-pipeline=apply-partition > dist.pir 2> /dev/null ||
    fail "apply-partition"
  local n
  n=$(grep -c '"dist_op.reshard"' dist.pir)
  [ "$n" -gt 0 ] || fail "no reshard to lower"
  run dist.pir --pass-pipeline=split-ranks --pass-statistics --output-dir split
  expect_rc 0
  grep -q "^  (S) $((2 * n)) lower-reshard: reshards listed by the program's maker$" err ||
    fail "not every rank's reshards came from split-ranks' list (want $((2 * n))): $(grep listed err)"
  # One mesh, no one-rank ring: neither rank pass has anything to do on either rank, and says so.
  grep -q "^  (S) 2 partition-rank: walks skipped: nothing to erase$" err ||
    fail "partition-rank walked a rank with nothing to erase: $(grep partition-rank err)"
  grep -q "^  (S) 2 remove-unuseful-comm: walks skipped: nothing to replace$" err ||
    fail "remove-unuseful-comm walked a rank with nothing to replace: $(grep remove-unuseful err)"
  run dist.pir '--pass-pipeline=lower-reshard{rank=0}' --pass-statistics
  expect_rc 0
  ! grep -q "listed by" err || fail "lower-reshard alone was given a list"
  # Two stages on two meshes: each rank has the other stage's ops to erase, so partition-rank walks.
  run "$TESTDATA/gradient_merge/05_dist_two_stages.pir" --pass-pipeline=apply-partition,split-ranks --pass-statistics \
    --output-dir stages
  expect_rc 0
  grep -q "^  (S) [0-9]* partition-rank: ops of other ranks erased$" err || fail "no op of another rank was erased"
  ! grep -q "partition-rank: walks skipped" err || fail "partition-rank skipped a rank with ops to erase"
}

# A 1-to-1 pass after a split runs on every piece.
test_program_pass_after_split() {
  run "$DENSE" '--pass-pipeline=pipeline-split,fold-reshard' --pass-statistics
  expect_rc 0
  [ "$(job_lines)" = "forward backward optimizer " ] || fail "jobs: $(job_lines)"
  timeout 60 "$PIR_OPT" "$DENSE" '--pass-pipeline=pipeline-split' > want 2> /dev/null
  same want out "fold-reshard on programs with no reshard"
}

#===----------------------------------------------------------------------===#
# Options, parsed in one place
#===----------------------------------------------------------------------===#

test_pass_option_values() {
  run "$DENSE" '--pass-pipeline=apply-partition{share=maybe}'
  expect_rc 1
  expect_located '<pass-pipeline>' 1
  [ "$(error_col)" = 23 ] || fail "the error points at column $(error_col), expected 23 (the value)"
  stderr_has "option 'share' of 'apply-partition' takes true or false, not 'maybe'"
  local v
  for v in 0 1025 2x -1 ''; do
    run "$DENSE" "--pass-pipeline=pipeline-split{mode=VPP vpp=$v}"
    expect_rc 1 "vpp=$v"
    [ -z "$v" ] && continue
    [ "$(error_col)" = 29 ] || fail "vpp=$v: the error points at column $(error_col), expected 29"
    stderr_has "option 'vpp' of 'pipeline-split' takes a whole number from 1 to 1024, not '$v'"
  done
  printf 'pipeline:\n  - pipeline-split: {mode: VPP, vpp: 3, split-bw: yes}\n' > c.yaml
  run "$DENSE" --config c.yaml
  expect_rc 1
  expect_located c.yaml 2
  [ "$(error_col)" = 51 ] || fail "the error points at column $(error_col), expected 51 (yes)"
  stderr_has "option 'split-bw' of 'pipeline-split' takes true or false, not 'yes'"
}

# --list-passes reads each pass's own description and options.
test_list_passes_options() {
  run --list-passes
  expect_rc 0
  grep -Eq '^      mode=FThenB\|1F1B\|VPP\|ZBH1\|ZBVPP\|ZB1P\|ZBV\|DualPipeV  pipeline mode \(default FThenB\)$' out ||
    fail "--list-passes lacks pipeline-split's mode: $(cat out)"
  grep -Eq '^      vpp=1\.\.1024  ' out || fail "--list-passes lacks vpp's range"
  grep -Eq '^      share=true\|false  .*\(default false\)$' out || fail "--list-passes lacks share"
}

#===----------------------------------------------------------------------===#
# Test passes and internal errors (exit 2)
#===----------------------------------------------------------------------===#

# Test passes exist only with PIR_OPT_TEST_PASSES=1.
test_test_passes_hidden() {
  run --list-passes
  grep -q 'test-' out && fail "--list-passes lists test passes: $(grep test- out)"
  run "$DENSE" --pass-pipeline=test-internal-error
  expect_rc 1
  stderr_has "unknown pass 'test-internal-error'"
  PIR_OPT_TEST_PASSES=0 run "$DENSE" --pass-pipeline=test-split-ranks
  expect_rc 1
  PIR_OPT_TEST_PASSES=1 run --list-passes
  grep -q '^  test-internal-error ' out || fail "PIR_OPT_TEST_PASSES=1 --list-passes lacks test-internal-error"
}

# A pass whose output fails the verifier has a bug: exit 2, said so, after
# the verifier's located errors; nothing is written.
test_internal_error_exits_2() {
  PIR_OPT_TEST_PASSES=1 timeout 60 "$PIR_OPT" "$DENSE" --pass-pipeline=test-internal-error -o o.pir > out 2> err
  rc=$?
  expect_rc 2
  stderr_has "^pir-opt: internal error: pass 'test-internal-error' broke the IR"
  expect_located "$DENSE"
  [ -e o.pir ] && fail "an output was written"
  [ -s out ] && fail "stdout is not empty"
  # An input error stays 1 with the same binary: the dist check --verify-dist asks for.
  run "$SEED" --pass-pipeline=fold-reshard --verify-dist
  expect_rc 1 "a dist-consistency failure of the input"
  return 0
}

#===----------------------------------------------------------------------===#

cli_main
