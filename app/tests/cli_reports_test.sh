#!/usr/bin/env bash
# CLI tests of pir-opt: --print-ir-tree-dir, IR dumps, statistics, timing and --log-level.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 7. --print-ir-tree-dir
#===----------------------------------------------------------------------===#

test_tree_dir_files() {
  run "$SEED_AFTER" --pass-pipeline=fold-reshard,fold-reshard --print-ir-tree-dir=tree
  expect_rc 0
  same "$SEED_AFTER" out "stdout with --print-ir-tree-dir"
  [ -d tree ] || { fail "tree/ was not created"; return; }
  local listing
  listing=$(ls tree | tr '\n' ' ')
  [ "$listing" = "00_input.pir 01_fold-reshard.pir 02_fold-reshard.pir " ] ||
    fail "tree/ holds '$listing', expected 00_input.pir 01_fold-reshard.pir 02_fold-reshard.pir"
  local f
  for f in tree/*.pir; do same "$SEED_AFTER" "$f" "$f"; done
  no_temp_files

  # A new DIR gets the mode mkdir would give it.
  rm -rf tree
  (umask 022 && timeout 60 "$PIR_OPT" "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-tree-dir=tree > out 2> err)
  rc=$?
  expect_rc 0
  [ "$(stat -c %a tree)" = 755 ] || fail "a new tree folder under umask 022 has mode $(stat -c %a tree), expected 755"

  # The files show each step.
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  run one.pir --pass-pipeline=fold-reshard --print-ir-tree-dir=steps/
  expect_rc 0
  same one.pir steps/00_input.pir "tree input"
  same folded.pir steps/01_fold-reshard.pir "tree after fold-reshard"

  # Split files number each program.
  { cat one.pir; echo '// -----'; cat one.pir; } > two.pir
  run two.pir --split-input-file --pass-pipeline=fold-reshard --print-ir-tree-dir=split
  expect_rc 0
  listing=$(ls split | tr '\n' ' ')
  [ "$listing" = "p0_00_input.pir p0_01_fold-reshard.pir p1_00_input.pir p1_01_fold-reshard.pir " ] ||
    fail "split tree holds '$listing'"
  no_temp_files
}

test_tree_dir_failing_input() {
  write_syntax_error bad.pir
  run bad.pir --pass-pipeline=fold-reshard --print-ir-tree-dir=tree
  expect_rc 1
  [ -e tree ] && fail "tree/ exists after a syntax error"
  no_temp_files

  # Failing after a pass ran (the dist check --verify-dist asks for).
  run "$SEED" --pass-pipeline=fold-reshard,fold-reshard --verify-dist --print-ir-tree-dir=tree
  expect_rc 1
  [ -e tree ] && fail "tree/ exists after a verification error: $(ls -A tree)"
  no_temp_files

  # Failing while writing the output.
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-tree-dir=tree -o /dev/full
  expect_rc 1
  [ -e tree ] && fail "tree/ exists after a write error"
  no_temp_files

  # An existing folder is left as it was.
  mkdir keep && echo mine > keep/notes.txt
  run "$SEED" --pass-pipeline=fold-reshard --verify-dist --print-ir-tree-dir=keep
  expect_rc 1
  [ "$(ls -A keep)" = notes.txt ] || fail "keep/ now holds: $(ls -A keep | tr '\n' ' ')"
  no_temp_files
}

test_tree_dir_existing() {
  mkdir tree
  echo mine > tree/notes.txt
  run "$SEED_AFTER" --pass-pipeline=fold-reshard,fold-reshard --print-ir-tree-dir=tree
  expect_rc 0
  local listing
  listing=$(ls tree | tr '\n' ' ')
  [ "$listing" = "00_input.pir 01_fold-reshard.pir 02_fold-reshard.pir notes.txt " ] ||
    fail "tree/ holds '$listing'"
  [ "$(cat tree/notes.txt)" = mine ] || fail "tree/notes.txt changed"
  same "$SEED_AFTER" tree/02_fold-reshard.pir
  no_temp_files

  # A second run replaces the numbered files, leaves the rest.
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  run one.pir --pass-pipeline=fold-reshard --print-ir-tree-dir=tree
  expect_rc 0
  same one.pir tree/00_input.pir
  same folded.pir tree/01_fold-reshard.pir
  same "$SEED_AFTER" tree/02_fold-reshard.pir "an older file not rewritten"
  [ -f tree/notes.txt ] || fail "tree/notes.txt is gone"
  no_temp_files

  # A file in the way is an error.
  echo x > notadir
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-tree-dir=notadir
  expect_rc 1
  [ "$(cat notadir)" = x ] || fail "notadir changed"
}

#===----------------------------------------------------------------------===#
# 12-14. reports
#===----------------------------------------------------------------------===#

# dump_of PASS WHEN FILE > expected: the header then the program.
dump_of() {
  printf '// -----// IR Dump %s %s //----- //\n' "$2" "$1"
  cat "$3"
}

test_print_ir_after() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  run one.pir --pass-pipeline=fold-reshard --print-ir-after=fold-reshard
  expect_rc 0
  same folded.pir out "stdout with --print-ir-after"
  dump_of fold-reshard After folded.pir > want.txt
  same want.txt err "stderr with --print-ir-after"
}

test_print_ir_before() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  run one.pir --pass-pipeline=fold-reshard --print-ir-before=fold-reshard
  expect_rc 0
  same folded.pir out "stdout with --print-ir-before"
  dump_of fold-reshard Before one.pir > want.txt
  same want.txt err "stderr with --print-ir-before"
}

test_print_ir_after_all() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  run one.pir --pass-pipeline=fold-reshard,fold-reshard --print-ir-after-all
  expect_rc 0
  same folded.pir out "stdout with --print-ir-after-all"
  { dump_of fold-reshard After folded.pir; dump_of fold-reshard After folded.pir; } > want.txt
  same want.txt err "stderr with --print-ir-after-all"

  # Before and after together, in order.
  run one.pir --pass-pipeline=fold-reshard --print-ir-before=fold-reshard --print-ir-after=fold-reshard
  expect_rc 0
  { dump_of fold-reshard Before one.pir; dump_of fold-reshard After folded.pir; } > want.txt
  same want.txt err "stderr with --print-ir-before and --print-ir-after"
}

test_print_ir_unknown_pass() {
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-after=nope
  expect_rc 1
  stderr_has "unknown pass 'nope'"
  [ -s out ] && fail "stdout is not empty"
}

test_pass_statistics() {
  write_identity_reshard one.pir
  run one.pir --pass-pipeline=fold-reshard --pass-statistics
  expect_rc 0
  stderr_has "Pass statistics report"
  stderr_has "^fold-reshard$"
  stderr_has "^  \(S\) 1 identity reshard removed$"
  grep -q "statistics" out && fail "the report went to stdout"

  run "$SEED_AFTER" --pass-pipeline=fold-reshard --pass-statistics
  expect_rc 0
  same "$SEED_AFTER" out
  stderr_has "^  \(no changes\)$"
}

test_timing() {
  run "$SEED_AFTER" --pass-pipeline=fold-reshard,fold-reshard --timing
  expect_rc 0
  same "$SEED_AFTER" out "stdout with --timing"
  stderr_has "^timing: parse [0-9]+\.[0-9]+ ms$"
  stderr_has "^timing: verify [0-9]+\.[0-9]+ ms$"
  stderr_has "^timing: pass fold-reshard [0-9]+\.[0-9]+ ms$"
  stderr_has "^timing: print [0-9]+\.[0-9]+ ms$"
  stderr_has "^timing: verify after fold-reshard [0-9]+\.[0-9]+ ms$"
  [ "$(grep -c '^timing: pass fold-reshard' err)" = 2 ] || fail "expected two pass lines"
  [ "$(grep -c '^timing: verify after fold-reshard' err)" = 2 ] || fail "expected two lines for verifying after the passes"
}

test_list_passes() {
  run --list-passes
  expect_rc 0
  grep -Eq '^  fold-reshard ' out || fail "--list-passes does not list fold-reshard: $(head -c 300 out)"
}

#===----------------------------------------------------------------------===#
# 17. --log-level
#===----------------------------------------------------------------------===#

test_log_level() {
  run "$SEED" --log-level=debug
  expect_rc 0
  same "$SEED" out "stdout with --log-level=debug"
  stderr_has "^pir-opt: debug: "
  local level
  for level in trace info warn error off; do
    run "$SEED" --log-level "$level"
    expect_rc 0 "--log-level $level"
    same "$SEED" out "--log-level $level"
  done
  run "$SEED"
  [ -s err ] && fail "default log level prints: $(head -c 300 err)"
}

test_log_level_bogus() {
  run "$SEED" --log-level=bogus
  expect_rc 1
  stderr_has "bogus"
  [ -s out ] && fail "stdout is not empty"
}

cli_main
