#!/usr/bin/env bash
# The reference implementations (transformers, tokenizers, PEFT, TRL, sentence-transformers)
# at the versions in requirements.txt, installed into the clone's .venv beside the torch
# wheel whose libtorch the engine builds against (scripts/setup.sh makes it). pip takes
# them from the wheels on this disk where there are some, else from PyPI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${RWB_VENV:-$root/.venv}
"$root/scripts/setup.sh" --core >/dev/null
# Exit 0 when every pin of a requirements file is the installed version.
pinned() {
  "$venv/bin/python" - "$1" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, want = line.split("==")
        if version(name).split("+")[0] != want:
            sys.exit(1)
PY
}
quiet() { { "$@" 2>&1; } | { grep -v 'is ignored: it is neither a file nor a directory' || true; }; }
if pinned "$root/tests/reference/requirements.txt"; then
  echo "reference: the pinned versions are installed in $venv"
else
  echo "reference: installing tests/reference/requirements.txt into $venv"
  quiet "$venv/bin/pip" install -q -r "$root/tests/reference/requirements.txt"
  "$venv/bin/python" -c 'import transformers, tokenizers, peft, trl'
fi
# verl and OpenRLHF without their GPU dependencies (check_trainers.py runs their reward code).
if pinned "$root/tests/reference/requirements-trainers.txt"; then
  echo "reference: the trainers' pinned versions are installed in $venv"
else
  echo "reference: installing tests/reference/requirements-trainers.txt into $venv (--no-deps)"
  quiet "$venv/bin/pip" install -q --no-deps -r "$root/tests/reference/requirements-trainers.txt"
  "$venv/bin/python" -c 'import verl, openrlhf.utils.agent'
fi
