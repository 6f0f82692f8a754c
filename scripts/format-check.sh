#!/usr/bin/env bash
# Checks that every C++ file is formatted as .clang-format says, with
# Debian 12's clang-format-14 (the version the tree was formatted with; other
# versions break lines differently). Lists the files that are not and exits 1.
#   scripts/format-check.sh          check
#   scripts/format-check.sh --fix    rewrite them in place
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v clang-format-14 > /dev/null || "$root/scripts/install-deps.sh" clang-format-14
# Git's list when this is a clone; otherwise every source file of the modules.
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
else
  mapfile -t files < <(find app core parser passes runtime -name '*.cpp' -o -name '*.h' | sort)
fi
if [ "${1:-}" = --fix ]; then
  clang-format-14 -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  clang-format-14 --dry-run --Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -ne 0 ]; then
  printf 'format-check: not formatted (run scripts/format-check.sh --fix): %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "format-check: ${#files[@]} files formatted"
