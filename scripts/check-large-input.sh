#!/usr/bin/env bash
# Checks that pir-opt reads a multi-gigabyte program without holding two
# copies of it: the input is memory-mapped, never read into a buffer, and
# printed through a reused buffer. Not a ctest test (it needs GBs of disk
# and a minute); run it by hand:
#
#   scripts/check-large-input.sh [GIGABYTES] [PIR_OPT]
#
# It writes a program of about GIGABYTES (default 3) into a temporary folder,
# runs parse + verify + print to /dev/null under /usr/bin/time, and fails if
# peak RSS exceeds 1.5x the file size (a second copy of the text alone would
# pass 2x). The IR of this program is small next to its text, so the bound
# is on what matters here: the text is held once.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gb=${1:-3}
pir_opt=${2:-$root/build/app/pir-opt}
[ -x "$pir_opt" ] || { echo "no pir-opt at $pir_opt (build first)"; exit 2; }
[ -x /usr/bin/time ] || "$root/scripts/install-deps.sh" time
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
file=$dir/big.pir

# Each op carries a long string attribute, so the text is large per op.
pad=$(head -c 2000 /dev/zero | tr '\0' 'x')
ops=$(( gb * 1024 * 1024 * 1024 / 2200 ))
echo "writing $ops ops (~$gb GB) to $file" >&2
awk -v n="$ops" -v pad="$pad" 'BEGIN {
  print "{"
  print "    (%0) = \"pd_op.full\" () {note:\"" pad "\"} : () -> builtin.tensor<4xf32>"
  for (i = 1; i < n; i++)
    printf "    (%%%d) = \"pd_op.relu\" (%%%d) {note:\"%s\"} : (builtin.tensor<4xf32>) -> builtin.tensor<4xf32>\n", i, i - 1, pad
  print "}"
}' > "$file"
size=$(stat -c %s "$file")
echo "input: $size bytes" >&2

/usr/bin/time -f '%M %e' -o "$dir/time" "$pir_opt" "$file" -o /dev/null
read -r rss_kb seconds < "$dir/time"
rss=$(( rss_kb * 1024 ))
ratio=$(awk -v r="$rss" -v s="$size" 'BEGIN { printf "%.2f", r / s }')
echo "peak RSS: $rss bytes = ${ratio}x the input, in $seconds s" >&2
awk -v r="$rss" -v s="$size" 'BEGIN { exit !(r <= 1.5 * s) }' ||
  { echo "FAIL: peak RSS ${ratio}x the input: the text seems to be held twice" >&2; exit 1; }
echo "ok: the input is held once" >&2
