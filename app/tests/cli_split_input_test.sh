#!/usr/bin/env bash
# CLI tests of pir-opt: --split-input-file.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 6. --split-input-file
#===----------------------------------------------------------------------===#

test_split_input_file() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  { cat "$SIMPLE"; echo '// -----'; cat "$SEED_AFTER"; echo '// -----'; cat one.pir; } > multi.pir
  run multi.pir --split-input-file
  expect_rc 0
  same multi.pir out "split round trip (markers reprinted)"

  # Each program is transformed on its own; numbering restarts in each.
  { cat one.pir; echo '// -----'; cat one.pir; } > two.pir
  { cat folded.pir; echo '// -----'; cat folded.pir; } > want.pir
  run two.pir --split-input-file --pass-pipeline=fold-reshard --pass-statistics
  expect_rc 0
  same want.pir out "fold-reshard on each split program"
  [ "$(grep -c 'identity reshard removed' err)" = 2 ] || fail "expected two statistics entries, got: $(cat err)"

  # Values do not leak from one program to the next.
  { cat one.pir; echo '// -----'; echo '{'
    echo '    (%3) = "pd_op.relu" (%2) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>'
    echo '}'; } > leak.pir
  run leak.pir --split-input-file
  expect_rc 1
  expect_located leak.pir 8
  stderr_has "undefined value '%2'"
  # Chunk by chunk (issue 19): the first program still prints, the failed one does not.
  same one.pir out "the good chunk prints although the second failed"
}

test_split_input_file_job_labels() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  { echo '// ----- job: forward'; cat one.pir; echo '// -----'; cat one.pir
    echo '// ----- job: backward_1  (note)'; cat "$SEED_AFTER"; } > jobs.pir
  run jobs.pir --split-input-file
  expect_rc 0
  same jobs.pir out "job-labelled split round trip"

  run jobs.pir --split-input-file -o result.pir
  expect_rc 0
  same jobs.pir result.pir "job-labelled split to -o"

  # Markers reprinted verbatim around transformed programs.
  { echo '// ----- job: forward'; cat one.pir; echo '// ----- job: backward'; cat one.pir; } > jobs2.pir
  { echo '// ----- job: forward'; cat folded.pir; echo '// ----- job: backward'; cat folded.pir; } > want.pir
  run jobs2.pir --split-input-file --pass-pipeline=fold-reshard
  expect_rc 0
  same want.pir out "job-labelled split with fold-reshard"
}

test_multiple_programs_without_split() {
  { cat "$SIMPLE"; echo '// -----'; cat "$SIMPLE"; } > multi.pir
  local line=$(( $(wc -l < "$SIMPLE") + 2 ))
  run multi.pir
  expect_rc 1
  expect_located multi.pir "$line"
  stderr_has "error: multiple programs; use --split-input-file"
  [ -s out ] && fail "stdout is not empty"

  { echo '// ----- job: a'; cat "$SIMPLE"; echo '// ----- job: b'; cat "$SIMPLE"; } > jobs.pir
  run jobs.pir -o result.pir
  expect_rc 1
  stderr_has "multiple programs; use --split-input-file"
  [ -e result.pir ] && fail "-o file created"
  no_temp_files
}

cli_main
