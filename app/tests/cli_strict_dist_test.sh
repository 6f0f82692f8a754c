#!/usr/bin/env bash
# The stricter dist checks of issue 16 (items 4-9): op_dist_attr entries of
# the wrong shape, partial values read where they cannot be, pd_op.if
# branches yielding a retyped result's old type, fold-reshard before
# partitioning, reshard statistics, and carets on the entry named.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

ERRORS=$TESTDATA/errors

# The case without its RUN line, as a user would have it.
strip_run() { grep -v '^// RUN:' "$1"; }

# A pd_op.if whose result attr ([0,-1]) differs from its type ([-1,-1]):
# case 64 before apply-partition retyped it.
write_if_program() {
  strip_run "$ERRORS/64_verify_dist_if_yield_type.pir" |
    sed -E '/"pd_op.if"|"builtin.shadow_output"/s/dims_mappings:\[0,-1\]>/dims_mappings:[-1,-1]>/g' > "$1"
}

test_dist_entry_shapes_are_errors() {
  local c
  for c in 60_dist_list_entry_for_tensor 61_dist_single_entry_for_vec 62_dist_list_length_differs; do
    run "$ERRORS/$c.pir"
    expect_rc 1 "$c"
    expect_located "$ERRORS/$c.pir"
    stderr_has "in op_dist_attr of '[a-z_.]+', operand\(0\) (lists|is one dist attr)"
    # The caret is on the entry's key, not the op's first column.
    [ "$(sed -n 3p err | tr -d ' ')" = "^" ] || fail "$c: no caret line"
    [ "$(sed -n 2p err | cut -c"$(($(sed -n 3p err | wc -c) - 1))"-)" != "" ] || fail "$c: caret past the line"
    sed -n 2p err | cut -c"$(($(sed -n 3p err | wc -c) - 1))"- | grep -q '^operand(0):{' ||
      fail "$c: caret not on 'operand(0)': $(sed -n 2,3p err)"
  done
}

test_partial_read_warns_then_fails_with_verify_dist() {
  strip_run "$ERRORS/63_verify_dist_partial_read_no_entry.pir" > p.pir
  run p.pir
  expect_rc 0 "a warning only"
  same p.pir out "the program prints back"
  head -n 1 err | grep -Eq "^p\.pir:5:26: warning: operand 0 of 'pd_op.relu' is partial" ||
    fail "expected the warning at the operand: $(head -n 3 err)"
  [ "$(grep -c warning: err)" = 1 ] || fail "one warning expected: $(cat err)"
  run p.pir --verify-dist
  expect_rc 1 "--verify-dist makes it an error"
  expect_located p.pir 5
  [ "$(error_col)" = 26 ] || fail "caret at column $(error_col), want 26 (on %2)"
  # Fewer entries than operands is legal (the seed's full_like): no warning.
  run "$SEED_AFTER"
  expect_rc 0
  [ -s err ] && fail "the seed after partitioning drew: $(head -n 3 err)"
  return 0
}

test_if_retyped_by_apply_partition_yields_new_type() {
  write_if_program if.pir
  run if.pir --verify-dist
  expect_rc 1 "the if's operand and result attrs are not met yet"
  run if.pir --pass-pipeline=apply-partition --verify-dist --pass-statistics
  expect_rc 0 "apply-partition leaves a program the dist check passes"
  cp out partitioned.pir
  [ "$(grep -B1 '"cf.yield"' partitioned.pir | grep -c '"dist_op.reshard"')" = 2 ] ||
    fail "expected a reshard before each yield: $(cut -c1-120 partitioned.pir)"
  stderr_has "^  \(S\) 2 branch results resharded before their yield$"
  run partitioned.pir --verify-dist
  expect_rc 0 "the output verifies with --verify-dist"
  # The yields without their reshards: the check names each.
  run "$ERRORS/64_verify_dist_if_yield_type.pir" --verify-dist
  expect_rc 1
  [ "$(grep -c "error: operand 0 of 'cf.yield' has type" err)" = 2 ] || fail "two yield errors expected: $(cat err)"
}

test_fold_reshard_before_partitioning() {
  run "$SEED" --pass-pipeline=fold-reshard --pass-statistics
  expect_rc 0 "fold-reshard demands no dist consistency"
  same "$SEED" out
  stderr_has "^fold-reshard$"
  stderr_has "^  \(no changes\)$"
  grep -q error err && fail "errors: $(cat err)"
  run "$SEED" --pass-pipeline=fold-reshard --verify-dist
  expect_rc 1
  expect_located "$SEED" 11
  stderr_has "error: after pass 'fold-reshard': operand 0 of 'pd_op.relu' is distributed as"
  return 0
}

test_reshard_statistics_inserted_erased_left() {
  run "$SEED" --pass-pipeline=apply-partition --pass-statistics
  expect_rc 0
  stderr_has "^  \(S\) 2 reshards inserted: P→R$"
  stderr_has "^  \(S\) 2 reshards left of those inserted$"
  grep -q "erased" err && fail "nothing was erased: $(cat err)"
  # One retyped result: its reshard back is erased again, its reader takes
  # the result itself.
  write_if_program if.pir
  run if.pir --pass-pipeline=apply-partition --pass-statistics
  expect_rc 0
  stderr_has "^  \(S\) 1 reshard inserted: S→R$"
  stderr_has "^  \(S\) 2 reshards inserted: R→S$"
  stderr_has "^  \(S\) 1 reshard erased again \(the reader takes their input instead\)$"
  stderr_has "^  \(S\) 2 reshards left of those inserted$"
  write_identity_reshard one.pir
  run one.pir --pass-pipeline=fold-reshard --pass-statistics
  stderr_has "^  \(S\) 1 identity reshard removed$"
}

test_entry_carets_and_windows() {
  run "$ERRORS/66_long_line_entry_caret.pir"
  expect_rc 1
  expect_located "$ERRORS/66_long_line_entry_caret.pir" 3
  [ "$(error_col)" = 509 ] || fail "caret at column $(error_col), want 509 (the 1 of dims_mappings:[-1,1])"
  sed -n 2p err | grep -q '^operand(5):{' || fail "the shown line does not start at operand(5): $(sed -n 2p err)"
  run "$ERRORS/67_list_element_partial_caret.pir"
  expect_rc 1
  sed -n 2p err | grep -q '^mesh_shape:\[2\],process_ids:\[0,1\],dims_mappings:\[-1,-1\],partial(1,SUM)\]' ||
    fail "the shown line does not start at element 1: $(sed -n 2p err)"
  run "$ERRORS/14_partial_and_sharded.pir"
  col=$(error_col)
  [ "$(sed -n 2p "$ERRORS/14_partial_and_sharded.pir" | cut -c"$col"-"$((col + 7))")" = "partial(" ] ||
    fail "caret at column $col is not on partial("
}

cli_main
