#!/usr/bin/env bash
# The main job on the bundled example: installs what is missing, builds, and
# runs pir-opt on testdata/seeds/reshard_before.pir (the seed program of
# Paddle PR #63072), printing the result to stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" > /dev/null
echo "# pir-opt testdata/seeds/reshard_before.pir" >&2
"$root/build/app/pir-opt" "$root/testdata/seeds/reshard_before.pir"
