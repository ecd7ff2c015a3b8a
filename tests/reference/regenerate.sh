#!/usr/bin/env bash
# Makes every golden file again with the reference implementations (make_golden.py, then
# make_trl_golden.py on its Qwen3 folder and PEFT adapter) and compares them with
# the committed ones: exit 0 when equal (ids, texts and files exactly; floats within
# 1e-12 relative, since another CPU's kernels may round the last bit differently), 1 with
# each difference listed otherwise. Then opens the adapter this engine wrote
# (tests/data/hf/peft_rwb) in PEFT and compares its logits with ours (check_peft.py), and
# renders the engine's chat templates with transformers (check_chat_template.py), and runs
# all-MiniLM-L6-v2 through rwb embed against sentence_transformers (check_minilm.py), and
# runs the trainers' reward code against rwb serve (check_trainers.py).
# --write replaces the committed files instead: the Python goldens, then the engine's
# adapter (tst_hfgolden from the build folder, RWB_BUILD_DIR or build/), then checks it.
#   tests/reference/regenerate.sh [--write]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${RWB_VENV:-$root/.venv}
build=${RWB_BUILD_DIR:-$root/build}
"$root/tests/reference/setup.sh"
# PYTHONHASHSEED: PEFT keeps target_modules in a set, whose order follows the hash seed.
export HF_HUB_OFFLINE=1 TRANSFORMERS_VERBOSITY=error TOKENIZERS_PARALLELISM=false PYTHONHASHSEED=0
export HF_HUB_DISABLE_PROGRESS_BARS=1 PYTHONWARNINGS=ignore
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$venv/bin/python" "$root/tests/reference/make_golden.py" --out "$tmp/hf"
"$venv/bin/python" "$root/tests/reference/make_trl_golden.py" --out "$tmp/hf"
golden=$root/tests/data/hf
if [[ "${1:-}" == --write ]]; then
  rm -rf "$golden/models" "$golden/tokenizers" "$golden/peft" "$golden/trl"
  cp -r "$tmp/hf/." "$golden/"
  echo "reference: golden files written to tests/data/hf"
  [[ -x "$build/tests/tst_hfgolden" ]] || {
    echo "reference: $build/tests/tst_hfgolden is not built: build, then run this again for peft_rwb" >&2
    exit 1
  }
  rm -rf "$golden/peft_rwb"
  mkdir -p "$golden/peft_rwb"
  RWB_HF_GOLDEN_WRITE="$golden/peft_rwb" "$build/tests/tst_hfgolden" adapterWeWriteIsTheOnePeftChecked \
    chatTemplateIsTheOneTransformersChecked >/dev/null
  echo "reference: the engine's adapter written to tests/data/hf/peft_rwb"
else
  "$venv/bin/python" "$root/tests/reference/compare.py" "$golden" "$tmp/hf" --ignore peft_rwb
fi
"$venv/bin/python" "$root/tests/reference/check_peft.py" "$golden"
"$venv/bin/python" "$root/tests/reference/check_chat_template.py" "$golden"
# The first real model: all-MiniLM-L6-v2 through rwb embed against sentence_transformers.
if [[ -x "$build/app/rwb/rwb" ]]; then
  "$venv/bin/python" "$root/tests/reference/check_minilm.py" --rwb "$build/app/rwb/rwb"
else
  echo "reference: $build/app/rwb/rwb is not built: the MiniLM check is left out" >&2
fi
# The trainers' own reward code (verl's reward loop and batch manager, OpenRLHF's agent
# executor, TRL's GRPOTrainer) against rwb serve on loopback, through docs/handoff.md's files.
if [[ -x "$build/app/rwb/rwb" ]]; then
  # Its log (the trainers' progress bars and warnings) is shown whole only when it fails.
  if "$venv/bin/python" "$root/tests/reference/check_trainers.py" --rwb "$build/app/rwb/rwb" >"$tmp/trainers.log" 2>&1; then
    grep -E '^(ok|trainers:)' "$tmp/trainers.log"
  else
    cat "$tmp/trainers.log" >&2
    echo "reference: tests/reference/check_trainers.py failed" >&2
    exit 1
  fi
else
  echo "reference: $build/app/rwb/rwb is not built: the trainers check is left out" >&2
fi
