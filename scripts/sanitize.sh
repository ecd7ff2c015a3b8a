#!/usr/bin/env bash
# Builds the whole project (core, rwb, the workbench and every test) under AddressSanitizer
# and UndefinedBehaviorSanitizer into build-asan/ (or $RWB_BUILD_DIR) and runs the test
# suite there through ctest. Not part of CI: a cold build and run take about an hour on two
# cores (docs/development.md, "Sanitizers").
#   scripts/sanitize.sh [ctest arguments …]      e.g. scripts/sanitize.sh -R tst_serve
# Leak checking is off: LeakSanitizer reports the allocations libtorch, Qt and fontconfig
# keep for the life of the process, which are not ours; an error of ours stops the test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export RWB_BUILD_DIR=${RWB_BUILD_DIR:-$root/build-asan}
"$root/scripts/setup.sh"
# ccache would only fill with objects no other build uses.
CCACHE_DISABLE=1 RWB_BUILD_TYPE=RelWithDebInfo "$root/scripts/build.sh" -DRWB_SANITIZE=address,undefined \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1"
export QT_QPA_PLATFORM=offscreen RWB_THREADS=${RWB_THREADS:-1}
# Everything runs 3–10 times slower: tests/CMakeLists.txt scales every time limit of a
# tree configured with RWB_SANITIZE (ctest's, the tests' own, Qt Test's).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$RWB_BUILD_DIR"
ctest --output-on-failure -j 2 "$@"
