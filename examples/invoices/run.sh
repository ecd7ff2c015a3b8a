#!/usr/bin/env bash
# The worked example of docs/your-task.md, start to end: your own task (generated
# invoices, TRL's record shape) and your own reward (a TRL Python function, rewards.py),
# trained with SFT then GRPO on a tiny model made here. About 6 minutes on 2 cores.
#
#   examples/invoices/run.sh [--headless] [--out DIR]
#
# With a display, the workbench follows the GRPO run live; --headless (or no display)
# runs it on the command line with a progress line.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
headless=0
out=${RWB_EXAMPLE_OUT:-$root/build/example-invoices}
while [[ $# -gt 0 ]]; do
  case "$1" in
    --headless) headless=1 ;;
    --out) out=${2:?--out needs a folder}; shift ;;
    *) echo "usage: examples/invoices/run.sh [--headless] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"
gui=0
[[ $headless == 0 && -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]] && gui=1

rm -rf "$out"; mkdir -p "$out"/{data,models,configs,checkpoints}
cp "$here"/{invoices.task.json,rewards.py,reward.json} "$out"/
cd "$out"
printf '{"name": "invoices", "created": "%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > workspace.json
start=$(date +%s)
stage() { printf '\n== [%3ds] %s\n' $(( $(date +%s) - start )) "$*" >&2; }

stage "1/5 generating invoices (TRL's standard records: prompt, solution, vendor, total)"
python3 "$here/make_data.py" --out data --train 4000 --grpo 600 --test 100 --seed 1 >/dev/null
"$rwb" task check --task invoices.task.json --data data/train.jsonl --show 1

stage "2/5 a byte-level BPE tokenizer and the tiny model's folder"
"$rwb" data corpus --task invoices.task.json --input data/train.jsonl --out data/corpus.txt >/dev/null
"$rwb" tokenizer train --input data/corpus.txt --vocab-size 1024 --out models/tokenizer >/dev/null 2>&1
"$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers 2 --seed 1 >/dev/null

stage "3/5 SFT from scratch on the references"
cat > configs/sft.json <<JSON
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/train.jsonl",
 "task": "../invoices.task.json", "lora": false, "learning_rate": 0.002, "schedule": "cosine",
 "warmup_ratio": 0.05, "batch_size": 16, "epochs": 2, "prompt_loss_weight": 0, "seed": 1}
JSON
"$rwb" sft --config configs/sft.json >/dev/null

stage "4/5 GRPO with the Python reward (G = 8, full fine-tuning; every rollout into runs.sqlite)"
cat > configs/grpo.json <<JSON
{"model": "../models/sft", "train_data": "../data/grpo.jsonl", "eval_data": "../data/test.jsonl",
 "reward_config": "../reward.json", "store": "../runs.sqlite", "output": "../checkpoints/grpo",
 "run_name": "invoices", "num_generations": 8, "prompts_per_step": 16, "max_completion_length": 32,
 "temperature": 1.0, "lora": false, "learning_rate": 0.0002, "schedule": "cosine", "warmup_ratio": 0.03,
 "max_steps": 80, "eval_every": 40, "eval_limit": 100, "checkpoint_every": 40, "seed": 1}
JSON
if [[ $gui == 1 ]]; then
  echo "The workbench follows the run live; close it when done to see the table." >&2
  "$build/app/workbench/reward-workbench" --workspace "$out" --train configs/grpo.json --view curves \
    --config reward.json || true
else
  "$rwb" grpo --config configs/grpo.json >/dev/null
fi

stage "5/5 results: the trained model's replies to the test invoices, scored, and the run's table"
if [[ -d checkpoints/grpo/final ]]; then
  # Its predictions, each the record with the model's reply as "completion": samples the
  # Reward Designer opens (File ▸ Open samples…) once reward.json is loaded.
  "$rwb" eval run --model checkpoints/grpo/final --data data/test.jsonl --task invoices.task.json \
    --max-new-tokens 32 --output predictions.jsonl >/dev/null 2>&1
fi
"$rwb" grpo table --store runs.sqlite
echo
echo "Everything is in $out. Explore it: $build/app/workbench/reward-workbench --workspace $out --store $out/runs.sqlite \\"
echo "    --config $out/reward.json --samples $out/predictions.jsonl"
echo "Total $(( $(date +%s) - start )) s."
