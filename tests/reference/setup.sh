#!/usr/bin/env bash
# The reference implementations (transformers, tokenizers, PEFT, TRL, sentence-transformers)
# at the versions in requirements.txt, installed into the clone's .venv beside the torch
# wheel whose libtorch the engine builds against (scripts/setup.sh makes it). pip takes
# them from the wheels on this disk where there are some, else from PyPI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${RWB_VENV:-$root/.venv}
"$root/scripts/setup.sh" --core >/dev/null
if "$venv/bin/python" - "$root/tests/reference/requirements.txt" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, want = line.split("==")
        if version(name).split("+")[0] != want:
            sys.exit(1)
PY
  echo "reference: the pinned versions are installed in $venv"
  exit 0
fi
echo "reference: installing tests/reference/requirements.txt into $venv"
{ "$venv/bin/pip" install -q -r "$root/tests/reference/requirements.txt" 2>&1; } |
  { grep -v 'is ignored: it is neither a file nor a directory' || true; }
"$venv/bin/python" -c 'import transformers, tokenizers, peft, trl' 
