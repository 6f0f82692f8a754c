#!/usr/bin/env bash
# The documentation's limits: README.md has at most 400 lines, and every prose
# line of README.md and docs/*.md is at most 120 columns. Lines inside fenced
# code blocks (``` or ~~~, possibly indented, as in a list item) are exempt:
# they hold Paddle's text and commands verbatim. Table rows (lines starting
# with `|`) are prose. Columns count characters, not bytes (UTF-8). Prints
# every problem as FILE:LINE: what is wrong, and exits 1; exits 0 when there
# is none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

max_readme_lines=400
max_columns=120

[ -f README.md ] || { echo "README.md:1: missing"; exit 1; }
files=(README.md)
shopt -s nullglob
files+=(docs/*.md)
shopt -u nullglob

bad=0
readme_lines=$(awk 'END { print NR }' README.md)
if [ "$readme_lines" -gt "$max_readme_lines" ]; then
  echo "README.md:$((max_readme_lines + 1)): the README has $readme_lines lines, more than $max_readme_lines" \
       "(move the depth to docs/)"
  bad=1
fi

# One file at a time, so that a fence left open is reported in its own file.
# LC_ALL=C makes awk (mawk or gawk) see bytes; a character is then every byte
# but a UTF-8 continuation byte (0x80-0xBF).
for f in "${files[@]}"; do
  LC_ALL=C awk -v max="$max_columns" '
    {
      line = $0
      sub(/\r$/, "", line)
      # A fence is three or more backticks or tildes, after any indentation;
      # it closes with the same character, at least as many, and nothing else.
      if (match(line, /^[ \t]*(````*|~~~~*)/)) {
        marker = substr(line, RSTART, RLENGTH)
        gsub(/[ \t]/, "", marker)
        if (fence == "") {
          fence = marker
          opened = FNR
          next
        }
        rest = line
        sub(/^[ \t]*/, "", rest)
        if (substr(marker, 1, 1) == substr(fence, 1, 1) && length(marker) >= length(fence) &&
            rest ~ /^(``*|~~*)[ \t]*$/) {
          fence = ""
          next
        }
      }
      if (fence != "") next
      chars = line
      gsub(/[\200-\277]/, "", chars)
      if (length(chars) > max) {
        printf "%s:%d: %d columns, more than %d (wrap the prose; only fenced code blocks may be longer)\n",
               FILENAME, FNR, length(chars), max
        bad = 1
      }
    }
    END {
      if (fence != "") {
        printf "%s:%d: code fence %s is never closed\n", FILENAME, opened, fence
        bad = 1
      }
      exit bad
    }
  ' "$f" || bad=1
done

if [ "$bad" -eq 0 ]; then
  echo "docs: README.md has $readme_lines lines (at most $max_readme_lines), no prose line over $max_columns columns" \
       "in README.md and docs/*.md"
fi
exit "$bad"
