#!/usr/bin/env bash
# CLI tests of pir-opt: exit codes, refused options and empty paths.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 5. exit codes
#===----------------------------------------------------------------------===#

test_exit_ok() {
  run "$SEED"
  expect_rc 0
}

test_exit_syntax_error() {
  write_syntax_error bad.pir
  run bad.pir
  expect_rc 1
  expect_located bad.pir 3
  [ -s out ] && fail "stdout is not empty after a syntax error"
  # stdin is named <stdin>.
  run_stdin bad.pir
  expect_rc 1
  expect_located '<stdin>' 3
}

test_exit_unknown_option() {
  run "$SEED" --no-such-option
  expect_rc 1
  stderr_has "no-such-option"
  [ -s out ] && fail "stdout is not empty"
  run "$SEED" -Z
  expect_rc 1
}

test_exit_unknown_pass() {
  run "$SEED" --pass-pipeline=no-such-pass
  expect_rc 1
  expect_located '<pass-pipeline>' 1
  stderr_has "unknown pass 'no-such-pass'"
  [ -s out ] && fail "stdout is not empty"
}

test_exit_missing_input() {
  run does-not-exist.pir
  expect_rc 1
  stderr_has "^pir-opt: error: cannot open 'does-not-exist.pir': No such file or directory"
  run does-not-exist.pir -o out.pir
  expect_rc 1
  [ -e out.pir ] && fail "-o file created although the input is missing"
  no_temp_files
}

test_version() {
  run --version
  expect_rc 0
  grep -Eq '^pir-opt [0-9]+\.[0-9]+\.[0-9]+' out || fail "--version printed '$(head -c 200 out)'"
}

test_help() {
  run --help
  expect_rc 0
  local opt
  for opt in --pass-pipeline --config --split-input-file --print-ir-tree-dir --list-passes \
             --print-ir-after-all --pass-statistics --timing --log-level -o,--output Usage: Exit; do
    grep -qF -- "$opt" out || fail "--help does not mention '$opt'"
  done
  run -h
  expect_rc 0
  grep -q -- --pass-pipeline out || fail "-h prints no help"
}

test_empty_input() {
  : > empty.pir
  run empty.pir
  expect_rc 1
  expect_located empty.pir 1
  run_stdin /dev/null
  expect_rc 1
}

# An empty path (an unset variable, say) is refused, not taken as "none".
test_empty_path_options() {
  printf 'pipeline:\n  - fold-reshard\n' > c.yaml
  local opt
  for opt in -o --output-dir --config --print-ir-tree-dir; do
    run "$SEED" "$opt" ''
    expect_rc 1 "$opt ''"
    stderr_has "an empty path"
    [ -s out ] && fail "$opt '' printed the program"
  done
  run ''
  expect_rc 1 "an empty input path"
  for opt in -o --costs --check --programs; do
    run schedule --mode 1F1B --stages 2 --micro-batches 2 "$opt" ''
    expect_rc 1 "schedule $opt ''"
    stderr_has "an empty path"
  done
  ls -A | grep -qvx -e c.yaml -e out -e err && fail "files were made: $(ls -A | tr '\n' ' ')"
  return 0
}

# -o and --output-dir name two different outputs: one of them would be
# ignored, so the pair is refused.
test_output_and_output_dir_together() {
  run "$SEED" -o x.pir --output-dir d
  expect_rc 1
  stderr_has "excludes"
  [ -e x.pir ] || [ -e d ] && fail "an output was written"
  return 0
}

# Help, the version and the pass list fail when stdout cannot take them.
test_help_to_a_full_device() {
  [ -w /dev/full ] || skip "no /dev/full"
  local args
  for args in --help --version --list-passes "schedule --help"; do
    # shellcheck disable=SC2086
    timeout 60 "$PIR_OPT" $args > /dev/full 2> err
    local rc=$?
    [ "$rc" = 1 ] || fail "'$args > /dev/full' exited $rc"
    grep -q "cannot write to stdout" err || fail "'$args > /dev/full' said: $(head -c 300 err)"
  done
}

test_pipeline_and_config_together() {
  printf 'pipeline:\n  - fold-reshard\n' > c.yaml
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --config c.yaml
  expect_rc 1
  stderr_has "both"
}

cli_main
