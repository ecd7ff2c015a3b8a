#!/usr/bin/env bash
# Configures and builds into build/ (or $RWB_BUILD_DIR) with Ninja, two jobs.
#   scripts/build.sh [extra cmake arguments]
# libtorch is PyTorch's own, from the torch wheel scripts/setup.sh installs into .venv
# (RWB_LIBTORCH=/path/to/torch for another one, RWB_LIBTORCH=system for whatever CMake
# finds on the system, e.g. Debian's libtorch-dev).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RWB_BUILD_DIR:-$root/build}
jobs=${RWB_JOBS:-2}
libtorch=${RWB_LIBTORCH:-}
if [[ -z "$libtorch" ]]; then
  libtorch=$("$root/scripts/setup.sh" --print-libtorch)
elif [[ "$libtorch" == system ]]; then
  libtorch=""
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DRWB_LIBTORCH="$libtorch" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
