#!/usr/bin/env bash
# Checks one file of ../shared/corpus through the real pir-opt binary:
#   corpus-test.sh PIR_OPT CORPUS_FILE load    must load and reach a fixed point
#   corpus-test.sh PIR_OPT CORPUS_FILE reject  must be refused with a located error
# The corpus is read where it lives, never copied; without it the test is
# skipped (exit 77).
set -u
pir_opt=$1 file=$2 mode=$3
[ -f "$file" ] || { echo "corpus file $file not found: skipped"; exit 77; }
once=$(mktemp) twice=$(mktemp) err=$(mktemp)
trap 'rm -f "$once" "$twice" "$err"' EXIT
"$pir_opt" "$file" > "$once" 2> "$err"
code=$?
if [ "$mode" = reject ]; then
  [ $code -eq 1 ] || { echo "FAIL: expected exit code 1, got $code"; exit 1; }
  grep -qE "^$file:[0-9]+:[0-9]+: error: " "$err" || { echo "FAIL: no located error:"; cat "$err"; exit 1; }
  cat "$err"
  exit 0
fi
[ $code -eq 0 ] || { echo "FAIL: did not load (exit $code)"; cat "$err"; exit 1; }
"$pir_opt" - < "$once" > "$twice" 2> "$err" || { echo "FAIL: output does not parse again"; cat "$err"; exit 1; }
cmp -s "$once" "$twice" || { echo "FAIL: not a fixed point"; diff -u "$once" "$twice" | head -30; exit 1; }
echo "ok $file"
