#!/usr/bin/env bash
# Configures and builds into build/ (or $RWB_BUILD_DIR) with Ninja, two jobs.
#   scripts/build.sh [extra cmake arguments]
# libtorch is PyTorch's own, from the torch wheel scripts/setup.sh installs into .venv
# (RWB_LIBTORCH=/path/to/torch for another one, RWB_LIBTORCH=system for whatever CMake
# finds on the system, e.g. Debian's libtorch-dev).
# Optimized (-O2) without debug information: with it every libtorch object is ~150 times
# larger (11 MB against 74 KB for train/grpoloss.cpp), each test program ~150 MB, and a
# cold build spends much of its time writing and linking them (docs/development.md).
# RWB_BUILD_TYPE=RelWithDebInfo builds with it, for a debugger.
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
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${RWB_BUILD_TYPE:-Release}" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DRWB_LIBTORCH="$libtorch" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
