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
# A build folder configured for another checkout (this one copied or moved, or build/
# shared): CMake would stop with "does not match the source ... used to generate cache".
cache="$build/CMakeCache.txt"
if [[ -f "$cache" ]]; then
  configured=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  if [[ -n "$configured" && "$(cd "$configured" 2>/dev/null && pwd -P)" != "$(cd "$root" && pwd -P)" ]]; then
    echo "scripts/build.sh: $build was configured for the checkout at $configured, not this one ($root)." >&2
    echo "  Remove it (rm -rf $build) and run again, or build elsewhere: RWB_BUILD_DIR=/some/dir $0" >&2
    exit 1
  fi
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${RWB_BUILD_TYPE:-Release}" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DRWB_LIBTORCH="$libtorch" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
