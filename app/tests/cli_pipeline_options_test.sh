#!/usr/bin/env bash
# CLI tests of pir-opt: --config and --pass-pipeline.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 8. --config
#===----------------------------------------------------------------------===#

test_config_yaml() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  printf '# passes\npipeline:\n  - fold-reshard\n  - fold-reshard\n' > c.yaml
  run one.pir --config c.yaml --pass-statistics
  expect_rc 0
  same folded.pir out "--config pipeline"
  [ "$(grep -c '^fold-reshard$' err)" = 2 ] || fail "two fold-reshard passes expected in the statistics: $(cat err)"

  printf 'pipeline: [fold-reshard]\n' > flow.yaml
  run one.pir --config=flow.yaml
  expect_rc 0
  same folded.pir out "--config flow list"
}

test_config_yaml_malformed() {
  printf 'pipeline:\n  - fold-reshard\n  - [unclosed\n' > bad.yaml
  run "$SEED_AFTER" --config bad.yaml
  expect_rc 1
  expect_located bad.yaml
  [ -s out ] && fail "stdout is not empty"

  printf 'pipeline: {a: [}\n' > bad2.yaml
  run "$SEED_AFTER" --config bad2.yaml
  expect_rc 1
  expect_located bad2.yaml 1

  printf 'pipeline:\n\t- fold-reshard\n' > tab.yaml
  run "$SEED_AFTER" --config tab.yaml
  expect_rc 1
  expect_located tab.yaml

  run "$SEED_AFTER" --config missing.yaml
  expect_rc 1
  stderr_has "missing.yaml"
}

# A repeated key would silently mean its first value (yaml-cpp keeps both).
test_config_yaml_duplicate_key() {
  printf 'pipeline:\n  - fold-reshard\npipeline:\n  - apply-partition\n' > dup.yaml
  run "$SEED_AFTER" --config dup.yaml
  expect_rc 1
  expect_located dup.yaml 3
  stderr_has "duplicate key 'pipeline'"
  printf 'pipeline:\n  - pipeline-split: {mode: FThenB, mode: 1F1B}\n' > dup2.yaml
  run "$SEED_AFTER" --config dup2.yaml
  expect_rc 1
  expect_located dup2.yaml 2
  [ "$(error_col)" = 36 ] || fail "the error points at column $(error_col), expected 36 (the second 'mode')"
  [ -s out ] && fail "stdout is not empty"
  return 0
}

test_config_yaml_unknown_pass() {
  printf 'pipeline:\n  - fold-reshard\n  - no-such-pass\n' > unk.yaml
  run "$SEED_AFTER" --config unk.yaml
  expect_rc 1
  expect_located unk.yaml 3
  [ "$(error_col)" = 5 ] || fail "the error points at column $(error_col), expected 5 (the pass name)"
  stderr_has "unknown pass 'no-such-pass'; known passes: .*fold-reshard"
}

# A config that can be read only once (a pipe) is read once: a FIFO does not
# hang the run, and an error in a process substitution points into its text.
test_config_yaml_from_a_pipe() {
  mkfifo cfg.fifo
  printf 'pipeline: [fold-reshard]\n' > cfg.fifo &
  local writer=$!
  run "$SEED_AFTER" --config cfg.fifo
  expect_rc 0 "--config FIFO"
  wait "$writer"
  run "$SEED_AFTER" --config <(printf 'pipeline:\n  - fold-reshard\n  - no-such-pass\n')
  expect_rc 1 "--config <(...)"
  [ "$(error_line):$(error_col)" = 3:5 ] || fail "the error points at $(error_line):$(error_col), expected 3:5"
  [ "$(sed -n 2p err)" = "  - no-such-pass" ] || fail "the config's line is not shown: '$(sed -n 2p err)'"
  run_stdin "$SEED_AFTER" - --config -
  expect_rc 1 "--config - with the input on stdin"
  stderr_has "^pir-opt: error: --config - and the input - would both read standard input"
}

#===----------------------------------------------------------------------===#
# 9. --pass-pipeline errors
#===----------------------------------------------------------------------===#

test_pipeline_unknown_pass() {
  run "$SEED_AFTER" --pass-pipeline=fold-reshard,bogus-pass
  expect_rc 1
  expect_located '<pass-pipeline>' 1
  [ "$(error_col)" = 14 ] || fail "the error points at column $(error_col), expected 14"
  stderr_has "unknown pass 'bogus-pass'; known passes: .*fold-reshard"
  [ "$(sed -n 2p err)" = "fold-reshard,bogus-pass" ] || fail "the pipeline text is not shown"
  [ "$(sed -n 3p err)" = "             ^" ] || fail "the caret line is '$(sed -n 3p err)'"
  [ -s out ] && fail "stdout is not empty"

  # An unknown pass fails before the input is read.
  run does-not-exist.pir --pass-pipeline=bogus-pass
  expect_rc 1
  stderr_has "unknown pass"
}

test_pipeline_malformed() {
  local p
  for p in 'fold-reshard{' 'a,,b' '{x=1}' 'fold-reshard{x=1}' ',' 'fold-reshard}' 'fold-reshard{x}'; do
    run "$SEED_AFTER" "--pass-pipeline=$p"
    expect_rc 1 "pipeline '$p'"
    expect_located '<pass-pipeline>' 1
    local col
    col=$(error_col)
    if [ -n "$col" ] && { [ "$col" -lt 1 ] || [ "$col" -gt $(( ${#p} + 1 )) ]; }; then
      fail "pipeline '$p': column $col is outside the text"
    fi
    [ -s out ] && fail "pipeline '$p': stdout is not empty"
  done
  run "$SEED_AFTER" '--pass-pipeline=fold-reshard{'
  [ "$(error_col)" = 14 ] || fail "'fold-reshard{': column $(error_col), expected 14 (the end)"
  run "$SEED_AFTER" '--pass-pipeline=a,,b'
  [ "$(error_col)" = 3 ] || fail "'a,,b': column $(error_col), expected 3"
  run "$SEED_AFTER" '--pass-pipeline={x=1}'
  [ "$(error_col)" = 1 ] || fail "'{x=1}': column $(error_col), expected 1"
  run "$SEED_AFTER" '--pass-pipeline=fold-reshard{x=1}'
  stderr_has "no option 'x'" "'fold-reshard{x=1}'"
}

cli_main
