#!/usr/bin/env bash
# The main job on the bundled example (testdata/seeds/reshard_before.pir, the
# seed program of Paddle PR #63072): installs what is missing, builds, then
#   1. inserts the reshards (apply-partition) and prints the program on
#      stdout: byte for byte what Paddle printed after its own pass
#      (testdata/seeds/reshard_after.pir), which it checks;
#   2. lowers the reshards and cuts the program into dense per-rank programs
#      (split-ranks --output-dir), listing them;
#   3. runs those programs on 2 ranks with real tensors, and the program
#      with --check against its serial meaning, and says whether they match.
# Steps 2 and 3 report on stderr, so stdout stays the program of step 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" > /dev/null
opt=$root/build/app/pir-opt run=$root/build/app/pir-run seeds=$root/testdata/seeds
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# 1. pir-opt reshard_before.pir --pass-pipeline=apply-partition" >&2
"$opt" "$seeds/reshard_before.pir" --pass-pipeline=apply-partition --pass-statistics | tee "$work/after.pir"
if cmp -s "$work/after.pir" "$seeds/reshard_after.pir"; then
  echo "#    identical to what Paddle printed after its pass (reshard_after.pir)" >&2
else
  echo "#    differs from reshard_after.pir" >&2
  exit 1
fi

echo "# 2. pir-opt reshard_after.pir --pass-pipeline=split-ranks --output-dir ranks" >&2
"$opt" "$seeds/reshard_after.pir" --pass-pipeline=split-ranks --output-dir "$work/ranks"
for f in "$work"/ranks/rank*.pir; do
  ops=$(grep -c ' = "' "$f")
  comm=$(grep -o '"pd_op\.\(all_reduce\|all_gather\|reduce_scatter\|send_v2\|recv_v2\|broadcast\|all_to_all\)_\?"' "$f" |
         sort | uniq -c | awk '{gsub(/"/, "", $2); printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}')
  echo "#    $(basename "$f"): $ops ops; communication: ${comm:-none}" >&2
done

echo "# 3. pir-run reshard_after.pir --steps 2 --check (split in process, 2 ranks), and pir-run --programs ranks" >&2
"$run" "$seeds/reshard_after.pir" --steps 2 --check > "$work/check.out"
sed 's/^/#    /' "$work/check.out" >&2
"$run" --programs "$work/ranks" --steps 2 > "$work/programs.out"
if grep -q '^check: .* tensors match' "$work/check.out" && cmp -s <(grep '^step' "$work/check.out") "$work/programs.out"; then
  echo "#    the 2 ranks match the serial meaning, and the written rank programs give the same losses" >&2
else
  echo "#    MISMATCH: see above" >&2
  exit 1
fi
