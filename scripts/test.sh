#!/usr/bin/env bash
# README command 2: set everything up, build, and run every test through ctest.
# Core is compiled once: the build folder is first configured with no Qt at all
# (-DRWB_GUI=OFF, as on a GPU server without Qt: core and rwb must build and rwb must not
# link Qt), then the same folder gains the GUI, whose configure leaves core's compile
# commands unchanged, so Ninja only adds the widgets, the workbench and the tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RWB_BUILD_DIR:-$root/build}
start=$(date +%s)
"$root/scripts/setup.sh"

echo "test: core and rwb without Qt (-DRWB_GUI=OFF)"
"$root/scripts/build.sh" -DRWB_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON
if ldd "$build/app/rwb/rwb" | grep -q 'libQt6'; then
  echo "test: rwb links Qt in the -DRWB_GUI=OFF build" >&2
  exit 1
fi
"$build/app/rwb/rwb" reward list >/dev/null

echo "test: the workbench, the widgets and the tests (core reused)"
"$root/scripts/build.sh" -DRWB_GUI=ON -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=OFF
echo "test: built in $(( $(date +%s) - start )) s"

# The reference implementations (transformers, tokenizers, PEFT) against the committed
# golden files and against what the engine writes: before ctest, so that ctest's summary
# is the run's last line. RWB_REFERENCE=0 skips it (a machine that cannot reach PyPI).
if [[ "${RWB_REFERENCE:-1}" != 0 ]]; then
  echo "test: the reference implementations (tests/reference/regenerate.sh)"
  "$root/tests/reference/regenerate.sh"
fi

export QT_QPA_PLATFORM=offscreen
# ctest runs two tests at once on two cores: one libtorch thread each, so that no test's
# threads wait on a core the other test holds (model/causallm.h, RWB_THREADS).
export RWB_THREADS=${RWB_THREADS:-1}
cd "$build"
ctest --output-on-failure -j 2
echo "test: done in $(( $(date +%s) - start )) s"
