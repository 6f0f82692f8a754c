#!/usr/bin/env bash
# The main job on the bundled example: installs what is missing, builds, and
# runs the reshard-insertion pass on testdata/seeds/reshard_before.pir (the
# seed program of Paddle PR #63072), printing the result to stdout: the
# program Paddle printed after its own pass (testdata/seeds/reshard_after.pir).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" > /dev/null
echo "# pir-opt testdata/seeds/reshard_before.pir --pass-pipeline=apply-partition --pass-statistics" >&2
"$root/build/app/pir-opt" "$root/testdata/seeds/reshard_before.pir" --pass-pipeline=apply-partition --pass-statistics
