#!/usr/bin/env bash
# Installs what pir-opt needs to build and test, and only what is missing.
# Debian 12 packages only; never upgrades anything. Extra package names may be
# passed as arguments (the fuzz and benchmark scripts add theirs).
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config libcli11-dev libspdlog-dev libfmt-dev
          libyaml-cpp-dev catch2 libre2-dev clang-format-14 llvm-14-tools
          libopenblas-dev libeigen3-dev libopenmpi-dev openmpi-bin python3-numpy python3-torch "$@")

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
