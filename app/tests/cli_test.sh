#!/usr/bin/env bash
# Command-line tests of pir-opt: each test runs the real binary.
#
#   cli_test.sh PIR_OPT TEST_NAME     run one test: exit 0 pass, 1 fail, 77 skip
#   cli_test.sh PIR_OPT --list        print every test name, one a line
#
# Every test works in its own `mktemp -d` folder (the current directory while
# it runs) and removes it afterwards. The golden data is read from
# $PIR_TESTDATA, by default ../../testdata next to this script.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 PIR_OPT TEST_NAME|--list" >&2
  exit 2
fi
PIR_OPT=$(realpath "$1")
TEST_NAME=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TESTDATA=${PIR_TESTDATA:-$(cd "$HERE/../../testdata" && pwd)}
SEED=$TESTDATA/seeds/reshard_before.pir         # fails fold-reshard's dist check
SEED_AFTER=$TESTDATA/seeds/reshard_after.pir    # passes it
SIMPLE=$TESTDATA/roundtrip/01_classic_mlp_builtin_tensor.pir

export LC_ALL=C
FAILED=0
T=

#===----------------------------------------------------------------------===#
# Helpers
#===----------------------------------------------------------------------===#

fail() {
  echo "FAIL: $*" >&2
  FAILED=1
}

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

skip_if_root() {
  [ "$(id -u)" = 0 ] && skip "runs as root, which ignores file permissions"
  return 0
}

# run ARGS... : runs pir-opt with stdin from /dev/null (unless the caller
# redirects it), stdout into ./out, stderr into ./err, exit code into $rc.
run() {
  timeout 60 "$PIR_OPT" "$@" > out 2> err
  rc=$?
  check_no_crash
}

# Like run, but stdin comes from file $1.
run_stdin() {
  local input=$1
  shift
  timeout 60 "$PIR_OPT" "$@" < "$input" > out 2> err
  rc=$?
  check_no_crash
}

check_no_crash() {
  if [ "$rc" -eq 124 ]; then
    fail "pir-opt timed out"
  elif [ "$rc" -ge 128 ]; then
    fail "pir-opt died of signal $((rc - 128))"
  elif [ "$rc" -eq 2 ]; then
    fail "pir-opt reported an internal error: $(head -c 300 err)"
  fi
}

expect_rc() {
  local want=$1 what=${2:-}
  if [ "$rc" -ne "$want" ]; then
    fail "${what:+$what: }exit code $rc, expected $want; stderr:"
    head -c 1500 err >&2
    echo >&2
  fi
}

# same FILE1 FILE2 [what]: byte-identical.
same() {
  if ! cmp -s "$1" "$2"; then
    fail "${3:-}${3:+: }'$1' and '$2' differ"
    diff -u "$1" "$2" 2>/dev/null | head -20 | cut -c1-200 >&2
  fi
}

# stderr_has REGEX [what]: some line of ./err matches (ERE).
stderr_has() {
  if ! grep -Eq -- "$1" err; then
    fail "${2:-stderr}: no line matches /$1/; stderr:"
    head -c 1500 err | cut -c1-300 >&2
    echo >&2
  fi
}

# expect_located LABEL [LINE] : the first line of stderr is
# `LABEL:LINE:COL: error: `, followed by the source line (at most 160 bytes)
# and a caret line. LABEL is a fixed string (regex characters escaped here).
expect_located() {
  local label line=${2:-[0-9]+}
  label=$(printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
  if ! head -n 1 err | grep -Eq "^$label:$line:[0-9]+: error: "; then
    fail "expected a located error '$1:${2:-LINE}:COL: error:' first on stderr, got:"
    head -c 600 err | cut -c1-300 >&2
    echo >&2
    return
  fi
  local src_len caret
  src_len=$(sed -n 2p err | wc -c)
  caret=$(sed -n 3p err)
  [ "$src_len" -le 161 ] || fail "the error's source line is $((src_len - 1)) bytes long, more than 160"
  [[ $caret =~ ^[[:space:]]*\^$ ]] || fail "the third line of the error is not a caret line: '$(printf '%s' "$caret" | head -c 200)'"
}

# error_col : the column of the first located error on stderr.
error_col() { head -n 1 err | sed -E 's/^.*:[0-9]+:([0-9]+): error: .*$/\1/'; }
error_line() { head -n 1 err | sed -E 's/^.*:([0-9]+):[0-9]+: error: .*$/\1/'; }

# no_temp_files [DIR]: no `.pir-opt-tmp-*` file or folder is left in DIR.
no_temp_files() {
  local dir=${1:-.} left
  left=$(ls -A "$dir" | grep -F 'pir-opt-tmp' || true)
  [ -z "$left" ] || fail "temporary files left in $dir: $left"
}

# A program with one identity reshard that fold-reshard removes.
write_identity_reshard() {
  cat > "$1" <<'EOF'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
EOF
}

# ...and what it becomes.
write_identity_reshard_folded() {
  cat > "$1" <<'EOF'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
EOF
}

# A program whose syntax is broken on line 3.
write_syntax_error() {
  cat > "$1" <<'EOF'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (%0 {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
EOF
}

# gen_relu_chain N: a program of a pd_op.data and N chained pd_op.relu ops.
gen_relu_chain() {
  awk -v n="$1" 'BEGIN {
    print "{"
    print "    (%0) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>"
    for (i = 1; i <= n; i++)
      printf "    (%%%d) = \"pd_op.relu\" (%%%d) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>\n", i, i - 1
    print "}"
  }'
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

#===----------------------------------------------------------------------===#
# 1. stdin and stdout
#===----------------------------------------------------------------------===#

test_stdin_roundtrip() {
  run_stdin "$SEED"
  expect_rc 0 "no input argument"
  same "$SEED" out "stdin to stdout"
  [ -s err ] && fail "stderr is not empty: $(head -c 300 err)"

  run_stdin "$SEED" -
  expect_rc 0 "input '-'"
  same "$SEED" out "'-' to stdout"

  run_stdin "$SEED" - -o -
  expect_rc 0 "'-o -'"
  same "$SEED" out "'-' to '-o -'"

  # A pipe, not a file, on stdin.
  timeout 60 "$PIR_OPT" - < <(cat "$SEED_AFTER") > out 2> err
  rc=$?
  expect_rc 0 "stdin from a pipe"
  same "$SEED_AFTER" out "pipe to stdout"
}

#===----------------------------------------------------------------------===#
# 2-4. -o FILE
#===----------------------------------------------------------------------===#

test_output_file() {
  run "$SEED" -o result.pir
  expect_rc 0
  [ -f result.pir ] || fail "-o did not create result.pir"
  same "$SEED" result.pir "-o FILE"
  [ -s out ] && fail "stdout is not empty with -o"
  no_temp_files

  # Overwriting an existing file, and --output= spelling.
  echo old > result.pir
  run "$SEED_AFTER" --output=result.pir
  expect_rc 0
  same "$SEED_AFTER" result.pir "--output= over an existing file"
  no_temp_files
}

test_output_new_file_mode() {
  (umask 027 && timeout 60 "$PIR_OPT" "$SEED" -o new.pir 2> err)
  rc=$?
  expect_rc 0
  local mode
  mode=$(stat -c %a new.pir)
  [ "$mode" = 640 ] || fail "a new file under umask 027 has mode $mode, expected 640"
}

test_output_keeps_old_on_syntax_error() {
  printf 'old content\n' > target.pir
  cp target.pir expected.pir
  write_syntax_error bad.pir
  run bad.pir -o target.pir
  expect_rc 1
  expect_located bad.pir 3
  same expected.pir target.pir "target after a syntax error"
  [ -s out ] && fail "stdout is not empty"
  no_temp_files
}

test_output_keeps_old_on_verify_error() {
  printf 'old content\n' > target.pir
  cp target.pir expected.pir
  # reshard_before.pir parses but fails fold-reshard's dist check (partial
  # operand fed to a relu that wants it replicated).
  run "$SEED" --pass-pipeline=fold-reshard -o target.pir
  expect_rc 1 "verification after fold-reshard"
  expect_located "$SEED"
  stderr_has "error: operand 0 of 'pd_op.relu' is distributed as"
  same expected.pir target.pir "target after a verification error"
  no_temp_files

  # --verify-dist checks right after parsing too.
  run "$SEED" --verify-dist -o target.pir
  expect_rc 1 "--verify-dist"
  same expected.pir target.pir "target after --verify-dist failed"
  no_temp_files
}

test_output_keeps_permissions() {
  echo old > target.pir
  chmod 640 target.pir
  run "$SEED" -o target.pir
  expect_rc 0
  same "$SEED" target.pir
  local mode
  mode=$(stat -c %a target.pir)
  [ "$mode" = 640 ] || fail "target mode is $mode after -o, expected 640"

  chmod 604 target.pir
  run "$SEED_AFTER" -o target.pir
  expect_rc 0
  mode=$(stat -c %a target.pir)
  [ "$mode" = 604 ] || fail "target mode is $mode after -o, expected 604"
  no_temp_files
}

test_output_through_symlink() {
  mkdir real links
  echo old > real/target.pir
  ln -s ../real/target.pir links/link.pir
  run "$SEED" -o links/link.pir
  expect_rc 0
  [ -L links/link.pir ] || fail "the symlink was replaced by a regular file"
  [ "$(readlink links/link.pir)" = ../real/target.pir ] || fail "the symlink now points to '$(readlink links/link.pir)'"
  [ -f real/target.pir ] && [ ! -L real/target.pir ] || fail "the target is no longer a regular file"
  same "$SEED" real/target.pir "the symlink's target"
  same "$SEED" links/link.pir "read through the link"
  no_temp_files real
  no_temp_files links

  # Same folder, relative link.
  echo old > t.pir
  ln -s t.pir l.pir
  run "$SEED_AFTER" -o l.pir
  expect_rc 0
  [ -L l.pir ] || fail "l.pir is no longer a symlink"
  same "$SEED_AFTER" t.pir "same-folder link target"

  # A failure through the link leaves the target alone.
  cp t.pir before.pir
  write_syntax_error bad.pir
  run bad.pir -o l.pir
  expect_rc 1
  [ -L l.pir ] || fail "l.pir is no longer a symlink after a failure"
  same before.pir t.pir "link target after a failure"
  no_temp_files
}

test_output_is_directory() {
  mkdir d
  run "$SEED" -o d
  expect_rc 1
  stderr_has "directory"
  [ -d d ] || fail "the folder is gone"
  [ -z "$(ls -A d)" ] || fail "something was written into the folder: $(ls -A d)"
  no_temp_files
}

test_output_readonly_dir() {
  skip_if_root
  mkdir ro
  echo old > ro/target.pir
  chmod 555 ro
  run "$SEED" -o ro/target.pir
  chmod 755 ro
  expect_rc 1
  stderr_has "^pir-opt: error: "
  [ "$(cat ro/target.pir)" = old ] || fail "the target in a read-only folder changed"
  no_temp_files ro
}

test_input_unreadable() {
  skip_if_root
  cp "$SEED" in.pir
  chmod 000 in.pir
  run in.pir
  expect_rc 1
  stderr_has "^pir-opt: error: cannot open 'in.pir': Permission denied"
}

test_input_is_directory() {
  mkdir d
  run d
  expect_rc 1
  stderr_has "^pir-opt: error: .*directory"
}

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
  [ "$(grep -c 'identity reshards removed' err)" = 2 ] || fail "expected two statistics entries, got: $(cat err)"

  # Values do not leak from one program to the next.
  { cat one.pir; echo '// -----'; echo '{'
    echo '    (%3) = "pd_op.relu" (%2) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>'
    echo '}'; } > leak.pir
  run leak.pir --split-input-file
  expect_rc 1
  expect_located leak.pir 8
  stderr_has "undefined value '%2'"
  [ -s out ] && fail "stdout is not empty although the second program failed"
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

  # Failing after a pass ran (fold-reshard's dist check).
  run "$SEED" --pass-pipeline=fold-reshard,fold-reshard --print-ir-tree-dir=tree
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
  run "$SEED" --pass-pipeline=fold-reshard --print-ir-tree-dir=keep
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

#===----------------------------------------------------------------------===#
# 10-11. special outputs
#===----------------------------------------------------------------------===#

test_output_fifo() {
  mkfifo fifo
  timeout 20 cat fifo > received &
  local reader=$!
  run "$SEED" -o fifo
  expect_rc 0
  wait "$reader"
  same "$SEED" received "what the FIFO's reader received"
  [ -p fifo ] || fail "fifo is no longer a FIFO"
  no_temp_files
}

test_output_dev_full() {
  [ -c /dev/full ] || skip "no /dev/full"
  local before
  before=$(ls -a /dev | grep pir-opt)
  run "$SEED" -o /dev/full
  expect_rc 1
  stderr_has "^pir-opt: error: error writing '/dev/full': No space left on device"
  [ -c /dev/full ] || fail "/dev/full is no longer a character device"
  [ -c /dev/null ] || fail "/dev/null is no longer a character device"
  [ -z "$(ls -a /dev | grep pir-opt)" ] || fail "files left in /dev: $(ls -a /dev | grep pir-opt)"
  [ -z "$before" ] || echo "note: /dev held pir-opt files before the test: $before" >&2
  # Through stdout too.
  timeout 60 "$PIR_OPT" "$SEED" > /dev/full 2> err
  rc=$?
  expect_rc 1 "stdout to /dev/full"
  stderr_has "error writing '<stdout>'"
}

# `-o /dev/stdout` (and /dev/stderr, /dev/fd/N) writes into the open stream
# where it stands, as a redirect would: it never replaces the file behind it,
# nor the /dev link when the stream is closed.
test_output_dev_stdout() {
  { echo HEADER; timeout 60 "$PIR_OPT" "$SEED" -o /dev/stdout 2> err; } > whole.txt
  rc=$?
  expect_rc 0 "-o /dev/stdout inside a redirect"
  { echo HEADER; cat "$SEED"; } > want.txt
  same want.txt whole.txt "what went before the run is kept"
  echo PRE > appended.txt
  timeout 60 "$PIR_OPT" "$SEED" -o /dev/fd/1 >> appended.txt 2> err
  rc=$?
  expect_rc 0 "-o /dev/fd/1 appending"
  { echo PRE; cat "$SEED"; } > want.txt
  same want.txt appended.txt "an appending stream is appended to"
  timeout 60 "$PIR_OPT" "$SEED" -o /dev/stdout >&- 2> err
  rc=$?
  check_no_crash
  expect_rc 1 "-o /dev/stdout with stdout closed"
  stderr_has "^pir-opt: error: cannot write '/dev/stdout': Bad file descriptor"
  [ -L /dev/stdout ] || fail "/dev/stdout is no longer a symbolic link"
  [ -z "$(ls -a /dev | grep pir-opt)" ] || fail "files left in /dev: $(ls -a /dev | grep pir-opt)"
  run "$SEED" -o /dev/no-such-device
  expect_rc 1 "a missing /dev path"
  stderr_has "^pir-opt: error: cannot open '/dev/no-such-device': No such file or directory"
  [ ! -e /dev/no-such-device ] || fail "-o made /dev/no-such-device"
}

test_output_dev_null() {
  run "$SEED" -o /dev/null
  expect_rc 0
  [ -c /dev/null ] || fail "/dev/null is no longer a character device"
  [ -z "$(ls -a /dev | grep pir-opt)" ] || fail "files left in /dev: $(ls -a /dev | grep pir-opt)"
  [ -s out ] && fail "stdout is not empty"
  [ "$(head -c 10 /dev/null | wc -c)" = 0 ] || fail "/dev/null is not empty"
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
  stderr_has "^  \(S\) 1 identity reshards removed$"
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
# 15. hardening
#===----------------------------------------------------------------------===#

# huge_array N CLOSE: one op whose shape attribute holds N numbers on one line.
huge_array_program() {
  printf '{\n    (%%0) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)['
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%d,", i; printf "7" }'
  printf '%s,stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>\n}\n' "$2"
}

test_long_line_1mb() {
  huge_array_program 200000 ']' > big.pir
  [ "$(wc -c < big.pir)" -gt 1000000 ] || fail "generator made a file under 1 MB"
  run big.pir
  expect_rc 0 "a 1 MB valid line"
  same big.pir out "1 MB line round trip"

  # The same line with an error at its end: the printed line is clipped.
  huge_array_program 200000 '}' > bad.pir
  run bad.pir
  expect_rc 1 "a 1 MB line with an error at its end"
  expect_located bad.pir 2
  local col len
  col=$(error_col)
  len=$(sed -n 2p bad.pir | wc -c)
  [ "$col" -gt $((len - 100)) ] || fail "the error column $col is not near the end of the line ($len bytes)"
  local longest
  longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' err)
  [ "$longest" -le 300 ] || fail "stderr has a line of $longest bytes"

  # An error at the start of the long line.
  { printf '{\n    (%%0) = "pd_op.full" () {shape:[1,2}'; awk 'BEGIN { for (i = 0; i < 300000; i++) printf "%d,", i }'; printf '\n}\n'; } > bad2.pir
  run bad2.pir
  expect_rc 1
  expect_located bad2.pir 2
}

test_deep_nesting_attribute() {
  { printf '{\n    (%%0) = "pd_op.full" () {shape:'
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "["; for (i = 0; i < 10000; i++) printf "]" }'
    printf ',stop_gradient:[true]} : () -> builtin.tensor<1xf32>\n}\n'; } > deep.pir
  run deep.pir
  expect_rc 1
  expect_located deep.pir 2
  stderr_has "kMaxNestingDepth"

  # Opaque dialect values nest too.
  { printf '{\n    (%%0) = "pd_op.full" () {place:(pd_op.Place)Place'
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "("; for (i = 0; i < 10000; i++) printf ")" }'
    printf ',stop_gradient:[true]} : () -> builtin.tensor<1xf32>\n}\n'; } > deep2.pir
  run deep2.pir
  expect_rc 1
  expect_located deep2.pir 2
  stderr_has "kMaxNestingDepth"

  # Nested types.
  { printf '{\n    (%%0) = "pd_op.full" () {} : () -> '
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "vec["; printf "builtin.tensor<1xf32>"; for (i = 0; i < 10000; i++) printf "]" }'
    printf '\n}\n'; } > deep3.pir
  run deep3.pir
  expect_rc 1
  expect_located deep3.pir 2
  stderr_has "kMaxNestingDepth"
}

test_deep_nesting_regions() {
  awk 'BEGIN {
    print "{"
    for (i = 0; i < 10000; i++) { print "() = \"test.region\" () {} : () -> "; print "{" }
    for (i = 0; i < 10000; i++) print "}"
    print "}"
  }' > deep.pir
  run deep.pir
  expect_rc 1
  expect_located deep.pir
  stderr_has "kMaxNestingDepth"

  # pd_op.if regions, nested 10,000 deep.
  awk 'BEGIN {
    print "{"
    print "    (%0) = \"pd_op.full\" () {dtype:(pd_op.DataType)bool,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xb>"
    for (i = 0; i < 10000; i++) print "() = \"pd_op.if\" (%0) {} : (builtin.tensor<1xb>) -> {"
    for (i = 0; i < 10000; i++) print "} else {\n}"
    print "}"
  }' > deep_if.pir
  run deep_if.pir
  expect_rc 1
  expect_located deep_if.pir
  stderr_has "kMaxNestingDepth"

  # Just under the limit is fine.
  awk 'BEGIN {
    print "{"
    for (i = 0; i < 100; i++) { print "() = \"test.region\" () {} : () -> "; print "{" }
    for (i = 0; i < 100; i++) print "}"
    print "}"
  }' > ok.pir
  run ok.pir
  expect_rc 0 "100 nested regions"
}

test_nul_bytes() {
  { head -n 2 "$SIMPLE"; printf '    \0\0garbage\n'; tail -n +3 "$SIMPLE"; } > nul.pir
  run nul.pir
  expect_rc 1
  expect_located nul.pir 3
  stderr_has "NUL"

  # A NUL inside a token.
  { head -c 50 "$SIMPLE"; printf '\0'; tail -c +51 "$SIMPLE"; } > nul2.pir
  run nul2.pir
  expect_rc 1
  expect_located nul2.pir 2

  # A NUL inside a string.
  sed 's/name:"x"/name:"x\x00y"/' "$SIMPLE" > nul3.pir
  run nul3.pir
  [ "$rc" -le 1 ] || fail "NUL in a string: exit $rc"
  if [ "$rc" = 1 ]; then expect_located nul3.pir 2; else same nul3.pir out "NUL in a string"; fi

  # Only NULs, and a NUL after the program.
  head -c 1000 /dev/zero > zeros.pir
  run zeros.pir
  expect_rc 1
  expect_located zeros.pir 1
  { cat "$SIMPLE"; printf '\0'; } > trailing.pir
  run trailing.pir
  expect_rc 1
  expect_located trailing.pir
}

test_invalid_utf8_outside_string() {
  { head -n 2 "$SIMPLE"; printf '    \xff\xfe bad\n'; tail -n +3 "$SIMPLE"; } > bad.pir
  run bad.pir
  expect_rc 1
  expect_located bad.pir 3
  # Invalid UTF-8 in an op name position and an attribute name.
  sed '2s/"pd_op.data"/pd_op.d\xc3ta/' "$SIMPLE" > bad2.pir
  run bad2.pir
  expect_rc 1
  expect_located bad2.pir 2
  sed '2s/dtype:/dt\x80ype:/' "$SIMPLE" > bad3.pir
  run bad3.pir
  expect_rc 1
  expect_located bad3.pir 2
}

test_invalid_utf8_in_string() {
  sed '2s/name:"x"/name:"x\xff\xc3(\xe2\x82 \xed\xa0\x80y"/' "$SIMPLE" > s.pir
  grep -q $'\xff' s.pir || fail "test data lacks the invalid byte"
  run s.pir
  expect_rc 0
  same s.pir out "invalid UTF-8 in a string attribute"
  # Through stdin and -o too.
  run_stdin s.pir - -o result.pir
  expect_rc 0
  same s.pir result.pir "invalid UTF-8 in a string, via -o"
}

test_utf8_bom() {
  { printf '\xef\xbb\xbf'; cat "$SIMPLE"; } > bom.pir
  run bom.pir
  expect_rc 0
  same "$SIMPLE" out "the BOM is dropped"
  run_stdin bom.pir
  expect_rc 0
  same "$SIMPLE" out "the BOM on stdin is dropped"
  # A BOM followed by an error still gets the right column.
  { printf '\xef\xbb\xbf'; echo 'bogus'; } > bombad.pir
  run bombad.pir
  expect_rc 1
  expect_located bombad.pir 1
}

test_crlf() {
  sed 's/$/\r/' "$SIMPLE" > crlf.pir
  grep -q $'\r' crlf.pir || fail "test data lacks CR"
  run crlf.pir
  expect_rc 0
  same "$SIMPLE" out "CRLF becomes LF"
  # With split markers.
  { cat "$SIMPLE"; echo '// ----- job: b'; cat "$SIMPLE"; } > multi.pir
  sed 's/$/\r/' multi.pir > multi_crlf.pir
  run multi_crlf.pir --split-input-file
  expect_rc 0
  same multi.pir out "CRLF split input"
}

test_missing_final_newline() {
  head -c -1 "$SIMPLE" > nonl.pir
  [ "$(tail -c 1 nonl.pir | od -An -c | tr -d ' ')" = '}' ] || fail "test data still ends in a newline"
  run nonl.pir
  expect_rc 0
  same "$SIMPLE" out "a final newline is added"
  sed 's/$/\r/' "$SIMPLE" | head -c -2 > nonl_crlf.pir
  run nonl_crlf.pir
  expect_rc 0
  same "$SIMPLE" out "CRLF without a final newline"
}

test_eof_mid_token() {
  local n last_line last_len
  # Ends inside an attribute name: the error is at the end of the file.
  n=$(grep -bo 'stop_grad' "$SIMPLE" | head -n 1 | cut -d: -f1)
  head -c $((n + 6)) "$SIMPLE" > mid.pir
  run mid.pir
  expect_rc 1
  last_line=$(wc -l < mid.pir); last_line=$((last_line + 1))
  last_len=$(tail -n 1 mid.pir | wc -c)
  expect_located mid.pir "$last_line"
  [ "$(error_col)" = $((last_len + 1)) ] || fail "error at column $(error_col), expected $((last_len + 1)) (end of input)"
  stderr_has "end of input"

  # Cut at many places: always a located error on the last line.
  local size cut
  size=$(wc -c < "$SIMPLE")
  for cut in 1 12 27 66 170 400 $((size - 2)); do
    head -c "$cut" "$SIMPLE" > cut.pir
    run cut.pir
    expect_rc 1 "cut after $cut bytes"
    last_line=$(( $(wc -l < cut.pir) + 1 ))
    expect_located cut.pir "$last_line"
  done
}

test_huge_line_100mb() {
  local n=104857600
  { printf '{\n    (%%0) = "pd_op.full" () {name:"'
    head -c $n /dev/zero | tr '\0' 'a'
    printf '",oops:} : () -> builtin.tensor<1xf32>\n}\n'; } > huge.pir
  local size start elapsed
  size=$(wc -c < huge.pir)
  start=$(now_ms)
  if [ -x /usr/bin/time ]; then
    timeout 60 /usr/bin/time -v -o time.txt "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  else
    timeout 60 "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  fi
  elapsed=$(( $(now_ms) - start ))
  check_no_crash
  expect_rc 1
  expect_located huge.pir 2
  [ "$(error_col)" -gt $n ] || fail "the error is at column $(error_col), not at the end of the line"
  [ "$elapsed" -lt 20000 ] || fail "took ${elapsed} ms (limit 20 s)"
  if [ -f time.txt ]; then
    local rss_kb
    rss_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' time.txt)
    echo "100 MB line: ${elapsed} ms, max RSS ${rss_kb} kB for a $((size / 1024)) kB file" >&2
    [ -n "$rss_kb" ] && [ "$rss_kb" -gt $((size * 3 / 1024)) ] && fail "max RSS ${rss_kb} kB is over 3x the file size"
  fi
  rm -f huge.pir

  # A 100 MB line of garbage with no program around it.
  head -c $n /dev/zero | tr '\0' 'a' > garbage.pir
  run garbage.pir
  expect_rc 1
  expect_located garbage.pir 1
}

test_huge_line_numbers() {
  # One op whose IntArray holds 12 million numbers on one 25 MB line, broken
  # at its end. Reports memory; fails only on time, exit code or location.
  local n=26214400
  { printf '{\n    (%%0) = "pd_op.full" () {shape:(pd_op.IntArray)['
    yes 1, | tr -d '\n' | head -c $n
    printf '1}\n}\n'; } > huge.pir
  local size start elapsed
  size=$(wc -c < huge.pir)
  start=$(now_ms)
  if [ -x /usr/bin/time ]; then
    timeout 60 /usr/bin/time -v -o time.txt "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  else
    timeout 60 "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  fi
  elapsed=$(( $(now_ms) - start ))
  check_no_crash
  expect_rc 1
  expect_located huge.pir 2
  [ "$elapsed" -lt 20000 ] || fail "took ${elapsed} ms (limit 20 s)"
  if [ -f time.txt ]; then
    local rss_kb
    rss_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' time.txt)
    echo "note: 25 MB numeric line: ${elapsed} ms, max RSS ${rss_kb} kB for a $((size / 1024)) kB file" >&2
  fi
}

# An endless stream of NUL bytes is refused at its first byte, not read
# until memory runs out.
test_endless_nul_stream() {
  [ -c /dev/zero ] || skip "no /dev/zero"
  run /dev/zero
  expect_rc 1 "/dev/zero as the input"
  expect_located /dev/zero 1
  stderr_has "error: NUL byte in input"
  run_stdin /dev/zero -
  expect_rc 1 "/dev/zero on stdin"
  expect_located "<stdin>" 1
}

test_binary_garbage() {
  local bin
  for bin in /bin/ls "$PIR_OPT"; do
    [ -r "$bin" ] || continue
    head -c 4096 "$bin" > garbage.bin
    run garbage.bin
    expect_rc 1 "$bin"
    expect_located garbage.bin
    run_stdin garbage.bin
    expect_rc 1 "$bin on stdin"
    expect_located '<stdin>'
  done
  head -c 65536 /dev/urandom > random.bin
  run random.bin
  expect_rc 1 "random bytes"
}

#===----------------------------------------------------------------------===#
# 16. kill -9 while writing
#===----------------------------------------------------------------------===#

test_kill_during_write() {
  gen_relu_chain 200000 > big.pir
  printf 'old content\n' > target.pir
  cp target.pir old.pir

  # How long does a full run take?
  local start full
  start=$(now_ms)
  "$PIR_OPT" big.pir -o full.pir 2> err || fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  same big.pir full.pir "full run"
  rm -f full.pir

  # Kill at 50 ms, then across the run, most often near its end (writing).
  local delay pid outcome killed=0 finished=0 pct
  for pct in 0 30 60 78 86 91 94 97; do
    delay=$(( pct == 0 ? 50 : full * pct / 100 ))
    cp old.pir target.pir
    "$PIR_OPT" big.pir -o target.pir 2> /dev/null &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    if cmp -s old.pir target.pir; then
      outcome=old
      killed=$((killed + 1))
    elif cmp -s big.pir target.pir; then
      outcome=new
      finished=$((finished + 1))
    else
      fail "after kill -9 at ${delay} ms target.pir is neither old nor new ($(wc -c < target.pir) bytes)"
      outcome=broken
    fi
    # A run killed while writing leaves its (partial) temporary file beside
    # the target; kill -9 cannot be cleaned up after, but it never replaced
    # the target.
    local tmp_bytes
    tmp_bytes=$(cat .pir-opt-tmp-* 2> /dev/null | wc -c)
    [ "$tmp_bytes" -gt 0 ] && [ "$outcome" = old ] && outcome="old (killed while writing: $tmp_bytes bytes in the temporary file)"
    echo "kill at ${delay} ms (of ${full}): $outcome" >&2
    rm -f .pir-opt-tmp-*
  done
  [ "$killed" -gt 0 ] || fail "no run was killed before it finished (full run ${full} ms)"
}

# SIGINT or SIGTERM while writing: the target is old or new, and the
# temporary file is removed before the process dies of the signal.
test_interrupt_during_write() {
  gen_relu_chain 200000 > big.pir
  printf 'old content\n' > old.pir
  local start full sig pct delay pid
  start=$(now_ms)
  "$PIR_OPT" big.pir -o full.pir 2> err || fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  for sig in INT TERM; do
    for pct in 40 70 90; do
      delay=$(( full * pct / 100 ))
      cp old.pir target.pir
      "$PIR_OPT" big.pir -o target.pir 2> /dev/null &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
      kill -s "$sig" "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      cmp -s old.pir target.pir || cmp -s big.pir target.pir ||
        fail "after SIG$sig at ${delay} ms target.pir is neither old nor new"
      no_temp_files
    done
  done
}

# SIGINT or SIGTERM while --print-ir-tree-dir and --output-dir are staged:
# the staging folders go too, and each target folder is absent (or as it
# was), or whole.
test_interrupt_staged_folders() {
  gen_relu_chain 100000 > big.pir
  mkdir old_jobs && printf 'old\n' > old_jobs/program.pir
  local args=(big.pir --pass-pipeline=fold-reshard,fold-reshard,fold-reshard --print-ir-tree-dir=tree)
  local start full sig pct delay pid
  start=$(now_ms)
  "$PIR_OPT" "${args[@]}" --output-dir full_jobs 2> err || fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  mv tree full_tree
  for sig in INT TERM; do
    for pct in 20 50 80 95; do
      delay=$(( full * pct / 100 ))
      rm -rf jobs && cp -r old_jobs jobs
      "$PIR_OPT" "${args[@]}" --output-dir jobs 2> /dev/null &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
      kill -s "$sig" "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      no_temp_files
      if [ -e tree ]; then
        diff -r full_tree tree > /dev/null || fail "after SIG$sig at ${delay} ms tree/ is partial"
        rm -rf tree
      fi
      diff -r old_jobs jobs > /dev/null || diff -r full_jobs jobs > /dev/null ||
        fail "after SIG$sig at ${delay} ms jobs/ is neither old nor new: $(ls jobs | tr '\n' ' ')"
    done
  done
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

#===----------------------------------------------------------------------===#
# Driver
# --output-dir: one file per job and a jobs.yaml, all files or none.
test_output_dir() {
  local dense=$PIR_TESTDATA/pipeline/01_dense_fthenb.pir
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 0
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir jobs.yaml optimizer.pir " ] ||
    { fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"; return; }
  # Each file is the program the stream form prints under its job line.
  timeout 60 "$PIR_OPT" "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' > stream 2> err
  local job
  for job in forward backward optimizer; do
    awk -v j="// ----- job: $job" '$0 == j {on=1; next} /^\/\/ ----- job:/ {on=0} on' stream > "expect_$job"
    same "expect_$job" "jobs/$job.pir" "jobs/$job.pir"
  done
  grep -qx "  - name: forward" jobs/jobs.yaml || fail "jobs.yaml does not list forward"
  grep -q "^    imports: \[b0, loss_0, var_4_pd_op.recv_v2_0" jobs/jobs.yaml || fail "jobs.yaml lacks backward's imports"
  grep -q "^    exports: \[var_4_pd_op.recv_v2_0, var_5_pd_op.matmul_0, var_7_pd_op.relu_0, var_9_pd_op.relu_0, loss_0\]" \
    jobs/jobs.yaml || fail "jobs.yaml lacks forward's exports"
  [ "$(grep -c '^  - name:' jobs/jobs.yaml)" = 3 ] || fail "jobs.yaml should list 3 programs"

  # A failing run creates nothing.
  run "$PIR_TESTDATA/pipeline/12_err_multi_mesh.pir" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir none
  expect_rc 1
  [ ! -e none ] || fail "a failing run created none/"
  no_temp_files
}

# Into an existing folder, all files or none: a folder named like one of the
# outputs stops the run before any file moves; otherwise old files are
# replaced and others kept.
test_output_dir_existing() {
  local dense=$PIR_TESTDATA/pipeline/01_dense_fthenb.pir
  mkdir -p jobs/backward.pir
  printf 'old forward\n' > jobs/forward.pir
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 1 "a folder in the way"
  stderr_has "^pir-opt: error: cannot write 'jobs/backward.pir': it is a directory"
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir " ] || fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"
  [ "$(cat jobs/forward.pir)" = "old forward" ] || fail "jobs/forward.pir was replaced by a failing run"
  no_temp_files
  rmdir jobs/backward.pir
  printf 'keep me\n' > jobs/notes.txt
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 0
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir jobs.yaml notes.txt optimizer.pir " ] ||
    fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"
  [ "$(cat jobs/forward.pir)" != "old forward" ] || fail "jobs/forward.pir was not replaced"
  no_temp_files
}

#===----------------------------------------------------------------------===#

if [ "$TEST_NAME" = --list ]; then
  declare -F | sed -n 's/^declare -f test_//p'
  exit 0
fi
if ! declare -F "test_$TEST_NAME" > /dev/null; then
  echo "no test named '$TEST_NAME'" >&2
  exit 2
fi
[ -x "$PIR_OPT" ] || { echo "pir-opt not found: $PIR_OPT" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/pir-opt-cli.XXXXXX") || exit 2
trap 'cd / && chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
cd "$T" || exit 2
"test_$TEST_NAME"
if [ "$FAILED" -ne 0 ]; then
  echo "FAILED $TEST_NAME" >&2
  exit 1
fi
echo "ok $TEST_NAME"
exit 0

