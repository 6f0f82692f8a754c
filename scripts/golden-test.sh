#!/usr/bin/env bash
# Runs one golden case through the real pir-opt binary.
#
#   golden-test.sh PIR_OPT TESTDATA_DIR CASE
#
# CASE is a path under TESTDATA_DIR such as roundtrip/01_x.pir. If the case's
# first line is `// RUN: pir-opt ARGS` the tool runs with ARGS (`%s` is the
# case path), else with the case path alone. Expected output:
#   CASE minus .pir + .expected   stdout must equal it (exit code 0);
#   CASE minus .pir + .stderr     stderr must equal it (exit code 1);
#   neither                       stdout must equal the case itself.
# Every successful output is fed back to pir-opt and must print unchanged
# (printing is idempotent). With PIR_UPDATE_GOLDEN=1 an existing expectation
# is rewritten instead and the test reports itself skipped (exit 77); a
# case without one is never given one by the update mode.
set -u
pir_opt=$1 dir=$2 case=$3
cd "$dir" || exit 2
base=${case%.pir}
args=("$case")
first=$(head -n 1 "$case")
if [[ $first == "// RUN: pir-opt "* ]]; then
  # Shell-style words, so that '--pass-pipeline=p{a=1 b=2}' stays one word.
  set -f
  eval "words=(${first#// RUN: pir-opt })"
  set +f
  args=()
  for w in "${words[@]}"; do args+=("${w//%s/$case}"); done
fi
out=$(mktemp) err=$(mktemp) again=$(mktemp)
trap 'rm -f "$out" "$err" "$again"' EXIT
"$pir_opt" "${args[@]}" > "$out" 2> "$err" < /dev/null
code=$?

if [ -f "$base.stderr" ]; then
  expected=$base.stderr actual=$err want_code=1
elif [ -f "$base.expected" ]; then
  expected=$base.expected actual=$out want_code=0
else
  expected=$case actual=$out want_code=0
fi

if [ "${PIR_UPDATE_GOLDEN:-0}" = 1 ] && [ "$expected" != "$case" ]; then
  cp "$actual" "$expected"
  echo "updated $expected (reported as skipped)"
  exit 77
fi

fail=0
if [ $code -ne $want_code ]; then
  echo "FAIL: exit code $code, expected $want_code"; cat "$err"; fail=1
fi
if ! cmp -s "$expected" "$actual"; then
  echo "FAIL: output differs from $expected"
  diff -u "$expected" "$actual" | head -40
  fail=1
fi
if [ $want_code -eq 0 ] && [ $fail -eq 0 ]; then
  # Idempotence: printing what was printed changes nothing.
  idem_args=(-)
  if grep -q '^// -----' "$out"; then idem_args+=(--split-input-file); fi
  if ! "$pir_opt" "${idem_args[@]}" < "$out" > "$again" 2> "$err"; then
    echo "FAIL: the output does not parse again"; cat "$err"; fail=1
  elif ! cmp -s "$out" "$again"; then
    echo "FAIL: printing is not idempotent"; diff -u "$out" "$again" | head -40; fail=1
  fi
fi
[ $fail -eq 0 ] && echo "ok $case"
exit $fail
