#!/usr/bin/env bash
# Runs `pir-run --check` on every distributed input of testdata/lowering: the
# program's ranks (apply-partition,split-ranks, run by pir-run itself) must
# compute what its serial meaning computes (issue 18).
#
#   lowering-check.sh PIR_RUN TESTDATA_DIR [CASE...]
#
# Without CASEs every testdata/lowering/*.pir is a case. A case is skipped,
# with its reason printed, when it is an error case (a .stderr expectation),
# dense (no pd_dist type), or listed in `skipped` below. Exit 1 if any case
# fails, printing each failure's pir-run output.
set -u
pir_run=$1 dir=$2
shift 2
cd "$dir/lowering" || exit 2

# Cases the runner cannot check, each with why (never skip silently).
declare -A skipped=()

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(*.pir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 skip=0
failed=()
for case in "${cases[@]}"; do
  base=${case%.pir}
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
  if timeout 120 "$pir_run" "$case" --check > "$log" 2>&1 < /dev/null; then
    echo "PASS $case: $(grep '^check:' "$log" | tail -n 1)"; pass=$((pass + 1))
  else
    echo "FAIL $case (exit $?):"; sed 's/^/  /' "$log" | head -n 20
    fail=$((fail + 1)); failed+=("$case")
  fi
done
echo "lowering-check: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
