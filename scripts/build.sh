#!/usr/bin/env bash
# Configures and builds into build/ (or $RWB_BUILD_DIR) with Ninja, two jobs.
#   scripts/build.sh [extra cmake arguments]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RWB_BUILD_DIR:-$root/build}
jobs=${RWB_JOBS:-2}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j "$jobs"
