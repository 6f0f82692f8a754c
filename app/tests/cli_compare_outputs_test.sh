#!/usr/bin/env bash
# CLI tests of scripts/compare-outputs.sh, the harness that shows a change
# left every output byte-identical: a binary against itself agrees, and a
# copy that differs in only one rank file, only stderr or only its exit code
# is caught, on that run alone. See cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

COMPARE=$HERE/../../scripts/compare-outputs.sh
# Two programs: the seed (which split-ranks cuts into rank files) and a dense one.
export COMPARE_INPUTS="$SEED
$SIMPLE"
export COMPARE_RUNS='--threads 2
--pass-pipeline=split-ranks --output-dir OUT'

# wrapper NAME BODY: an executable ./NAME that runs pir-opt with its
# arguments, then BODY (with $rc its exit code and $dir its --output-dir).
wrapper() {
  cat > "$1" << EOF
#!/usr/bin/env bash
dir=
prev=
for a in "\$@"; do [ "\$prev" = --output-dir ] && dir=\$a; prev=\$a; done
"$PIR_OPT" "\$@"
rc=\$?
$2
exit \$rc
EOF
  chmod +x "$1"
}

# compare NEW [OLD]: runs the harness of OLD (default pir-opt) against NEW into ./out, exit code in $rc.
compare() {
  bash "$COMPARE" "${2:-$PIR_OPT}" "$1" > out 2> err
  rc=$?
}

# expect_summary RC DIFFERING WHAT: the harness exited RC and counted DIFFERING of its 4 runs.
expect_summary() {
  [ "$rc" = "$1" ] || fail "$3: exit $rc, expected $1: $(cat out err)"
  grep -qx "compare-outputs: 4 runs, $2 differing" out || fail "$3: summary: $(cat out)"
}

test_compare_outputs_agree_with_itself() {
  wrapper same ':'
  compare ./same
  expect_summary 0 0 "same"
}

test_compare_outputs_finds_one_changed_rank_file() {
  # One byte more at the end of rank 1's program, only where there is one.
  wrapper rank_file '[ -n "$dir" ] && [ -f "$dir/rank1.pir" ] && echo >> "$dir/rank1.pir"'
  ls_ranks=$("$PIR_OPT" "$SEED" --pass-pipeline=split-ranks --output-dir ranks > /dev/null 2>&1 && ls ranks)
  echo "$ls_ranks" | grep -qx rank1.pir || fail "split-ranks of the seed writes no rank1.pir: $ls_ranks"
  compare ./rank_file
  expect_summary 1 1 "rank file"
  grep -qx "differs: $SEED --pass-pipeline=split-ranks --output-dir OUT" out || fail "not reported: $(cat out)"
}

test_compare_outputs_finds_a_changed_stderr_or_exit_code() {
  wrapper stderr_line '[ "$1" = "'"$SIMPLE"'" ] && [ -z "$dir" ] && echo extra >&2'
  compare ./stderr_line
  expect_summary 1 1 "stderr"
  grep -qx "differs: $SIMPLE --threads 2" out || fail "stderr change not reported: $(cat out)"

  wrapper exit_code '[ -z "$dir" ] && rc=3'
  compare ./exit_code
  expect_summary 1 2 "exit code"
}

test_compare_outputs_blanks_its_scratch_folder() {
  # A message naming the output folder differs by its scratch path only: not a difference.
  wrapper names_folder '[ -n "$dir" ] && echo "wrote $dir" >&2'
  compare ./names_folder ./names_folder
  expect_summary 0 0 "scratch folder"
}

cli_main
