#!/usr/bin/env bash
# PyTorch's libtorch 2.13 (the wheel: build/) against Debian's 1.13 (build-debian/, made by
# scripts/check-libtorch.sh debian), side by side in one run, taking turns so that the
# machine's drift falls on both: rwb bench generate (the tiny model, float32, decode at
# batch 1 and 8), rwb bench grpo-step (fp32 and bf16, 3 steps after the set-up) and rwb sft (the tiny
# model, 96 examples, 1 epoch), each at 1 and 2 threads, ROUNDS times (default 2). Prints
# one JSON line per measurement and a Markdown table of the medians.
#   scripts/bench-libtorch.sh [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-2}
declare -A bin=([wheel]="$root/build/app/rwb/rwb" [debian]="$root/build-debian/app/rwb/rwb")
for k in wheel debian; do
  [[ -x "${bin[$k]}" ]] || { echo "bench-libtorch: ${bin[$k]} is not built" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One set-up (data, tokenizer, tiny model) for every run.
"${bin[wheel]}" bench grpo-step --work "$work/setup" --steps 1 --precision fp32 >/dev/null 2>&1
cat > "$work/sft.json" <<JSON
{"model": "$work/setup/tiny", "output": "$work/sft-out", "train_data": "$work/setup/train.jsonl",
 "limit": 96, "epochs": 1, "batch_size": 8, "precision": "fp32"}
JSON
results=$work/results.jsonl
measure() { # lib threads what command...
  local lib=$1 threads=$2 what=$3; shift 3
  local t0 t1
  t0=$(date +%s.%N)
  RWB_THREADS=$threads OMP_NUM_THREADS=$threads "$@" >"$work/out.json" 2>/dev/null
  t1=$(date +%s.%N)
  python3 - "$lib" "$threads" "$what" "$t0" "$t1" "$work/out.json" >>"$results" <<'PY'
import json, sys
lib, threads, what, t0, t1, path = sys.argv[1:]
text = open(path).read()
try:
    j = json.loads(text)
except ValueError:
    j = {}
base = {"libtorch": lib, "threads": int(threads), "wall_s": round(float(t1) - float(t0), 3)}
if what == "generate":
    for run in j.get("runs", []):
        print(json.dumps({**base, "what": f"generate_b{run['batch']}", "value": run["decode_tokens_per_s"],
                          "unit": "decode tok/s"}))
elif what.startswith("grpo"):
    print(json.dumps({**base, "what": what, "value": j.get("wall_seconds_per_step"), "unit": "s/step"}))
else:
    print(json.dumps({**base, "what": what, "value": base["wall_s"], "unit": "s"}))
PY
  tail -1 "$results"
}
for round in $(seq "$rounds"); do
  for threads in 1 2; do
    for lib in wheel debian; do
      rwb=${bin[$lib]}
      measure "$lib" "$threads" generate "$rwb" bench generate --shape tiny --dtype float32 --samples 8 --threads "$threads" --device cpu
      measure "$lib" "$threads" grpo_fp32 "$rwb" bench grpo-step --work "$work/setup" --steps 3 --precision fp32
      measure "$lib" "$threads" grpo_bf16 "$rwb" bench grpo-step --work "$work/setup" --steps 3 --precision bf16
      rm -rf "$work/sft-out"
      measure "$lib" "$threads" sft "$rwb" sft --config "$work/sft.json"
    done
  done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
keys = sorted({(r["what"], r["threads"]) for r in rows})
print("\n| what | threads | Debian 1.13 | wheel 2.13 | unit |\n|---|---:|---:|---:|---|")
for what, threads in keys:
    cell = {}
    for lib in ("debian", "wheel"):
        vals = [r["value"] for r in rows if r["what"] == what and r["threads"] == threads and r["libtorch"] == lib
                and r.get("value") is not None]
        cell[lib] = f"{statistics.median(vals):.3g}" if vals else "—"
    unit = next((r.get("unit", "") for r in rows if r["what"] == what), "")
    print(f"| {what} | {threads} | {cell['debian']} | {cell['wheel']} | {unit} |")
PY
