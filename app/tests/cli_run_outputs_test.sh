#!/usr/bin/env bash
# pir-run's outputs stay in their folder and its options are bounded (issue 28): output names that
# cannot be file names, two outputs of one name, an output named like a parameter, a reused
# --output-dir, an unwritable path found before the compute; --timeout, counts, --loss, --vpp and
# --split-bw without --mode. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

test_run_output_name_cannot_leave_the_folder() {
  mkdir -p a/b
  write_dense_named loss "../../x"
  cd a/b
  prun ../../p.pir --output-dir o
  expect_rc 1 "an output named ../../x"
  expect_located ../../p.pir 8
  stderr_has "'\.\./\.\./x' cannot name a file in --output-dir \(a '/'\)"
  cd ../..
  { [ -e x.npy ] || [ -e a/x.npy ]; } && fail "x.npy was written outside the output folder"
  [ -e a/b/o ] && fail "the output folder was written"
  # Without --output-dir nothing becomes a file: the name is fine.
  prun p.pir
  expect_rc 0
  for bad in '.' '..' "$(printf 'a\tb')"; do
    write_dense_named loss "$bad"
    prun p.pir --output-dir o
    expect_rc 1 "output named '$bad'"
    stderr_has "cannot name a file in --output-dir"
  done
  return 0
}

test_run_two_outputs_of_one_name() {
  write_dense_named t t
  prun p.pir
  expect_rc 1 "two outputs named t"
  expect_located p.pir 8
  stderr_has "a second output named 't': a run's results are one tensor per name"
}

test_run_output_named_like_a_parameter() {
  write_dense_named loss w
  prun p.pir
  expect_rc 1 "an output named like the parameter w"
  expect_located p.pir 8
  stderr_has "output 'w' is named like a parameter or state"
}

test_run_output_dir_is_replaced_not_merged() {
  write_dense_named loss t
  prun p.pir --output-dir o
  expect_rc 0
  write_dense_named loss u
  prun p.pir --output-dir o
  expect_rc 0
  [ -e o/u.npy ] || fail "the second run's u.npy is missing"
  [ -e o/t.npy ] && fail "the first run's t.npy is still beside the second run's files"
  [ "$(ls o | tr '\n' ' ')" = "loss.npy summary.yaml u.npy w.npy " ] || fail "o holds: $(ls o)"
  ls -d o.* 2> /dev/null && fail "a staging or old folder was left beside o"
  # An empty folder is fine; a folder with other files is not pir-run's to replace.
  mkdir e f
  echo keep > f/notes.txt
  prun p.pir --output-dir e
  expect_rc 0
  prun p.pir --output-dir f
  expect_rc 1 "a folder pir-run did not write"
  stderr_has "'f' is not empty and holds no summary.yaml"
  [ "$(cat f/notes.txt)" = keep ] || fail "the user's file was touched"
}

# An output path that cannot be written fails before the compute: a run of
# a million steps ends at once.
test_run_unwritable_output_found_before_compute() {
  write_dense_named loss t
  echo file > f
  SECONDS=0
  prun p.pir --steps 100000000 --output-dir f/o
  expect_rc 1 "an output folder under a file"
  stderr_has "cannot create a folder next to 'f/o'"
  prun p.pir --steps 100000000 --trace f/t.json
  expect_rc 1 "a trace under a file"
  stderr_has "f/t\.json: cannot write the trace"
  [ "$SECONDS" -lt 20 ] || fail "the unwritable paths were found after $SECONDS s"
}

test_run_timeout_is_bounded() {
  write_dense_named loss t
  for bad in nan -1 0 1e10 1e-9 abc; do
    prun p.pir --timeout "$bad"
    expect_rc 1 "--timeout $bad"
    stderr_has "^--timeout: "
    grep -q 9223372036854775808 err && fail "--timeout $bad: $(cat err)"
  done
  prun p.pir --timeout inf
  expect_rc 0 "--timeout inf: no limit"
  prun p.pir --timeout 0.5
  expect_rc 0 "--timeout 0.5"
}

test_run_counts_must_be_at_least_one() {
  write_dense_named loss t
  for opt in --steps --ranks --micro-batches --vpp; do
    prun p.pir "$opt" 0
    expect_rc 1 "$opt 0"
    stderr_has "^$opt: must be at least 1, not 0$"
    grep -q 1797 err && fail "$opt 0 prints DBL_MAX: $(cat err)"
  done
  prun p.pir --steps 1.5
  expect_rc 1 "--steps 1.5"
  stderr_has "'1\.5' is not an integer"
}

test_run_loss_must_name_a_0d_output() {
  write_dense_named loss t
  prun p.pir --loss nosuch
  expect_rc 1 "--loss naming no output"
  stderr_has "--loss 'nosuch' names no 0-D shadow_output; the 0-D outputs: loss"
  prun p.pir --loss t
  expect_rc 1 "--loss naming a 2-D output"
  prun "$TESTDATA/run/right_partial.pir" --loss out
  expect_rc 1 "--loss of a distributed program without 0-D outputs"
  stderr_has "the program has none"
  prun p.pir --loss loss
  expect_rc 0
  grep -q '^step 1: loss 0.5$' out || fail "no loss line: $(cat out)"
}

test_run_vpp_and_split_bw_need_a_mode() {
  prun "$TESTDATA/run/right_partial.pir" --vpp 2
  expect_rc 1 "--vpp without --mode"
  stderr_has "--vpp shapes the schedule --mode makes: give --mode too"
  prun "$TESTDATA/run/right_partial.pir" --split-bw
  expect_rc 1 "--split-bw without --mode"
  stderr_has "--split-bw shapes the schedule --mode makes"
}

cli_main
