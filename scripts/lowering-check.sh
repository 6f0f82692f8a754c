#!/usr/bin/env bash
# Runs `pir-run --check` on every distributed input of testdata/lowering: the
# program's ranks (apply-partition,split-ranks, run by pir-run itself) must
# compute what its serial meaning computes (issue 18).
#
#   lowering-check.sh PIR_RUN TESTDATA_DIR [--planner=P] [CASE...]
#
# --planner=cost lowers with the cost planner (pir-run --planner cost, issue
# 31) instead of Paddle's functions.
# Without CASEs every testdata/lowering input (*.pir, and the rank passes'
# input .txt) is a case. A case is skipped, with its reason printed, when it
# is an error case (a .stderr expectation), dense (no pd_dist type), or listed
# in `skipped` below. A case in `known_wrong` must fail (XFAIL; its passing is
# a failure, so that the entry goes once the lowering is fixed). Exit 1 if any
# case fails, printing each failure's pir-run output.
set -u
pir_run=$(realpath "$1") dir=$2
shift 2
planner=paddle
case "${1:-}" in --planner=*) planner=${1#--planner=}; shift ;; esac
cd "$dir/lowering" || exit 2

# Cases the runner cannot check, each with why (never skip silently).
# (none today: every input's feeds and parameters have static shapes the
# runner can draw from --seed)
declare -A skipped=()

# Cases whose lowering computes something other than the serial meaning, with
# the first mismatch. (None is known wrong today: the cross-mesh S->R cases
# 02a-c were, while order-dependent collectives ran over the sorted ranks as
# Paddle's do; they now run in mesh order, and 01i, 05g and 10n check that on
# the mesh [1,0].)
declare -A known_wrong=()

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(*.pir rank_passes_input.txt)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skip=0 xfail=0
failed=()
for case in "${cases[@]}"; do
  base=${case%.*}
  if [ -f "$base.stderr" ]; then
    echo "SKIP $case: an error case ($base.stderr)"; skip=$((skip + 1)); continue
  fi
  if ! grep -q 'pd_dist\.' "$case"; then
    echo "SKIP $case: a dense program"; skip=$((skip + 1)); continue
  fi
  if [ -n "${skipped[$case]:-}" ]; then
    echo "SKIP $case: ${skipped[$case]}"; skip=$((skip + 1)); continue
  fi
  log=$work/$base.log
  timeout 120 "$pir_run" "$case" --check --planner "$planner" > "$log" 2>&1 < /dev/null
  code=$?
  wrong=${known_wrong[$case]:-}
  if [ -n "$wrong" ] && [ $code -eq 1 ] && grep -q '^check:.* differs at' "$log"; then
    echo "XFAIL $case: $wrong: $(grep '^check:' "$log" | tail -n 1)"; xfail=$((xfail + 1))
  elif [ -n "$wrong" ]; then
    echo "FAIL $case (exit $code): listed as known wrong ($wrong) but:"; sed 's/^/  /' "$log" | head -n 20
    fail=$((fail + 1)); failed+=("$case")
  elif [ $code -eq 0 ]; then
    echo "PASS $case: $(grep '^check:' "$log" | tail -n 1)"; pass=$((pass + 1))
  else
    echo "FAIL $case (exit $code):"; sed 's/^/  /' "$log" | head -n 20
    fail=$((fail + 1)); failed+=("$case")
  fi
done
echo "lowering-check: $pass passed, $fail failed, $xfail known wrong, $skip skipped"
[ $fail -eq 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
