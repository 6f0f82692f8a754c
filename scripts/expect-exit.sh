#!/usr/bin/env bash
# expect-exit.sh CODE COMMAND...: runs COMMAND and passes only if it exits
# with exactly CODE (so a crash or an internal error never passes as an
# expected failure). Its output is shown.
want=$1
shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
  echo "expect-exit: '$*' exited $got, expected $want" >&2
  exit 1
fi
exit 0
