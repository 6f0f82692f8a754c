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

# --print-ir-before-re/-after-re: every pass of the pipeline whose whole
# name matches, in pipeline order, as if each were named; with the exact
# names too.
test_print_ir_re_selects_passes() {
  write_identity_reshard one.pir
  write_identity_reshard_folded folded.pir
  run one.pir --pass-pipeline=fold-reshard,apply-partition --print-ir-before-re='apply-.*|fold-.*'
  expect_rc 0
  same folded.pir out "stdout with --print-ir-before-re"
  { dump_of fold-reshard Before one.pir; dump_of apply-partition Before folded.pir; } > want.txt
  same want.txt err "stderr with --print-ir-before-re"
  cp err re.txt
  run one.pir --pass-pipeline=fold-reshard,apply-partition --print-ir-before=fold-reshard,apply-partition
  same re.txt err "--print-ir-before-re and --print-ir-before naming the same passes"

  # A pass the pattern matches twice in the pipeline prints twice; the
  # pattern and --print-ir-after add up.
  run one.pir --pass-pipeline=fold-reshard,apply-partition,fold-reshard --print-ir-after-re='fold-r.*' \
      --print-ir-after=apply-partition
  expect_rc 0
  { dump_of fold-reshard After folded.pir; dump_of apply-partition After folded.pir
    dump_of fold-reshard After folded.pir; } > want.txt
  same want.txt err "stderr with --print-ir-after-re and --print-ir-after"

  # With --output-dir, where a splitting pass last streams its pieces unless
  # IR is printed: the pattern prints what the name does.
  write_split
  run d.pir --pass-pipeline=apply-partition,split-ranks --print-ir-after=split-ranks --output-dir named
  expect_rc 0
  cp err named.txt
  run d.pir --pass-pipeline=apply-partition,split-ranks --print-ir-after-re='split-.*' --output-dir matched
  expect_rc 0
  same named.txt err "--print-ir-after-re and --print-ir-after with --output-dir"
  diff -r named matched > /dev/null || fail "--output-dir differs with --print-ir-after-re"

  run --help
  grep -q -- '--print-ir-before-re REGEX' out || fail "--help does not mention --print-ir-before-re"
  grep -q -- '--print-ir-after-re REGEX' out || fail "--help does not mention --print-ir-after-re"
}

# A pattern that matches no pass of the pipeline is an error naming the
# pipeline's passes, before the input is read: the whole name must match
# ('fold' does not match fold-reshard), and a registered pass that is not in
# the pipeline does not count.
test_print_ir_re_matches_no_pass() {
  run missing.pir --pass-pipeline=fold-reshard,apply-partition,fold-reshard --print-ir-after-re=fold
  expect_rc 1
  [ "$(cat err)" = "pir-opt: error: --print-ir-after-re 'fold' matches no pass of the pipeline; its passes: \
fold-reshard, apply-partition" ] || fail "stderr: $(cat err)"
  [ -s out ] && fail "stdout is not empty"
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-before-re='split-.*'
  expect_rc 1
  [ "$(cat err)" = "pir-opt: error: --print-ir-before-re 'split-.*' matches no pass of the pipeline; its passes: \
fold-reshard" ] || fail "stderr: $(cat err)"
  run "$SEED_AFTER" --print-ir-after-re='.*'
  expect_rc 1
  [ "$(cat err)" = "pir-opt: error: --print-ir-after-re '.*' matches no pass of the pipeline; the pipeline is empty" ] ||
    fail "stderr: $(cat err)"
  # Given empty, it is a pattern (matching no name), not no pattern.
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-after-re ''
  expect_rc 1
  stderr_has "^pir-opt: error: --print-ir-after-re '' matches no pass of the pipeline; its passes: fold-reshard$"
}

# A regex RE2 refuses is an option error with RE2's message (and only that:
# RE2 logs nothing of its own); so is the option given twice.
test_print_ir_re_invalid() {
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-after-re='fold-('
  expect_rc 1
  [ "$(cat err)" = "pir-opt: error: --print-ir-after-re: invalid regex 'fold-(': missing ): fold-(" ] ||
    fail "stderr: $(cat err)"
  [ -s out ] && fail "stdout is not empty"
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-before-re='[z-a]'
  expect_rc 1
  [ "$(cat err)" = "pir-opt: error: --print-ir-before-re: invalid regex '[z-a]': invalid character class range: z-a" ] ||
    fail "stderr: $(cat err)"
  run "$SEED_AFTER" --pass-pipeline=fold-reshard --print-ir-after-re=fold-reshard --print-ir-after-re=fold-reshard
  expect_rc 1
  stderr_has "^--print-ir-after-re: At Most 1 required but received 2$"
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
