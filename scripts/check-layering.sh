#!/usr/bin/env bash
# The module floors: app -> runtime -> passes -> parser -> core. A module's
# files (its tests included) may include headers of their own module and of
# the modules below it, never above. Within runtime, only the runner
# (runtime/runner/) links passes: the kernels, executor and communicators
# need only core (and parser, in their tests), and include neither passes/
# nor the runner. Prints every include that breaks a rule as FILE:LINE and
# exits 1; exits 0 when there is none.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Each module and the modules it may include.
declare -A allowed=(
  [core]="core"
  [parser]="core parser"
  [passes]="core parser passes"
  [runtime]="core parser passes runtime"
  [app]="core parser passes runtime app"
)
bad=0
for module in core parser passes runtime app; do
  [ -d "$module" ] || continue
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    target=$(sed -n "${line}p" "$file" | sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p')
    [ -n "$target" ] || continue
    case " core parser passes runtime app " in *" $target "*) ;; *) continue ;; esac
    case " ${allowed[$module]} " in
      *" $target "*) ;;
      *) echo "$file:$line: $module may not include $target/ (floors: app -> runtime -> passes -> parser -> core)"
         bad=1 ;;
    esac
  done < <(grep -rn --include='*.h' --include='*.cpp' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$module" || true)
done
# runtime below its runner: no passes/, no runtime/runner/ outside runtime/runner/.
while IFS= read -r hit; do
  file=${hit%%:*}
  case "$file" in runtime/runner/*) continue ;; esac
  rest=${hit#*:}
  line=${rest%%:*}
  echo "$file:$line: only runtime/runner/ may include passes/ or the runner (the executor, kernels and communicators need only core)"
  bad=1
done < <(grep -rnE --include='*.h' --include='*.cpp' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(passes|runtime/runner)/' runtime || true)
if [ "$bad" -eq 0 ]; then echo "layering: every include follows app -> runtime -> passes -> parser -> core"; fi
exit "$bad"
