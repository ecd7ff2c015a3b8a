#!/usr/bin/env bash
# README command 2: set everything up, build, and run every test through ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${RWB_BUILD_DIR:-$root/build}
# The engine and the CLI also build with no Qt at all (-DRWB_GUI=OFF).
RWB_BUILD_DIR="$build-core" "$root/scripts/build.sh" -DRWB_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON
export QT_QPA_PLATFORM=offscreen
cd "$build"
ctest --output-on-failure -j 2
