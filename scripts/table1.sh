#!/usr/bin/env bash
# The first paper's table 1 redone on the synthetic task at reduced scale: GRPO from the
# same SFT model with partial alone, partial + exist, partial + marker and partial +
# domain (20:80), same seed and steps, all into one run store; the table comes from the
# store (rwb grpo table). Run scripts/demo.sh first: this reuses its data and SFT model.
#   scripts/table1.sh [--steps N]     (default 80 steps per run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
steps=80
[[ "${1:-}" == "--steps" ]] && steps=$2
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"
demo=${RWB_DEMO_OUT:-$root/build/demo}
[[ -d "$demo/models/sft" ]] || { echo "run scripts/demo.sh first (no SFT model in $demo/models/sft)" >&2; exit 2; }
out="$demo/table1"
rm -rf "$out"; mkdir -p "$out"
presets="$root/resources/presets"
for p in table1_partial table1_partial20_exist80 table1_partial20_marker80 table1_partial20_domain80; do
  cat > "$out/$p.json" <<EOF
{"model": "$demo/models/sft", "train_data": "$demo/data/train.jsonl", "eval_data": "$demo/data/test.jsonl",
 "reward_config": "$presets/$p.json", "store": "$out/runs.sqlite", "output": "$out/$p", "run_name": "$p",
 "num_generations": 8, "prompts_per_step": 8, "max_completion_length": 24,
 "learning_rate": 0.0005, "lora_r": 16, "max_steps": $steps, "eval_every": $steps, "eval_limit": 200, "seed": 1}
EOF
  echo "== GRPO with $p" >&2
  "$rwb" grpo --config "$out/$p.json" >/dev/null
  echo >&2
done
"$rwb" grpo table --store "$out/runs.sqlite" --markdown
