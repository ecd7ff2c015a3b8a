#!/usr/bin/env bash
# The first paper's table 1 redone on the synthetic task at reduced scale: GRPO from the
# same SFT model with partial alone, partial + exist, partial + marker and partial +
# domain (20:80), same seed and steps, all into one run store; then the table with its
# paired bootstrap intervals (rwb grpo table) and, for each run, what its final model's
# answers are on the test e-mails against the SFT start's (rwb eval failures: exact,
# recipient, third party, invented, …). Run scripts/demo.sh first: this reuses its data
# and SFT model. Two runs train at a time, one libtorch thread each (two 2-thread jobs on
# two cores wait on each other).
#   scripts/table1.sh [--steps N]     (default 200 steps per run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
steps=200
[[ "${1:-}" == "--steps" ]] && steps=$2
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"
demo=${RWB_DEMO_OUT:-$root/build/demo}
[[ -d "$demo/models/sft" ]] || { echo "run scripts/demo.sh first (no SFT model in $demo/models/sft)" >&2; exit 2; }
out="$demo/table1"
rm -rf "$out"; mkdir -p "$out"
presets="$root/resources/presets"
runs=(table1_partial table1_partial20_exist80 table1_partial20_marker80 table1_partial20_domain80)
every=$(( steps / 4 > 0 ? steps / 4 : 1 ))
train() { # preset
  local p=$1
  cat > "$out/$p.json" <<EOF
{"model": "$demo/models/sft", "train_data": "$demo/data/train.jsonl", "eval_data": "$demo/data/test.jsonl",
 "reward_config": "$presets/$p.json", "store": "$out/runs.sqlite", "output": "$out/$p", "run_name": "$p",
 "num_generations": 8, "prompts_per_step": 8, "max_completion_length": 24,
 "learning_rate": 0.0005, "lora_r": 16, "max_steps": $steps, "eval_every": $every, "eval_limit": 500,
 "checkpoint_every": $steps, "seed": 1, "threads": 1}
EOF
  "$rwb" grpo --config "$out/$p.json" --quiet >/dev/null
  RWB_THREADS=1 "$rwb" eval run --model "$demo/models/sft" --adapter "$out/$p/final" --data "$demo/data/test.jsonl" \
    --max-new-tokens 24 --output "$out/$p.predictions.jsonl" >/dev/null
  echo "== $p done" >&2
}
echo "== the SFT start's answers" >&2
"$rwb" eval run --model "$demo/models/sft" --data "$demo/data/test.jsonl" --max-new-tokens 24 \
  --output "$out/start.predictions.jsonl" >/dev/null
for ((i = 0; i < ${#runs[@]}; i += 2)); do
  echo "== GRPO ($steps steps) with ${runs[*]:i:2}" >&2
  train "${runs[i]}" & a=$!
  train "${runs[i + 1]}" & b=$!
  wait "$a"; wait "$b"
done
"$rwb" grpo table --store "$out/runs.sqlite" --markdown
echo
echo "What the answers are on the test e-mails (rwb eval failures), the SFT start → each run's final model:"
for p in "${runs[@]}"; do
  echo "- $p: $("$rwb" eval failures --predictions "$out/start.predictions.jsonl" --against "$out/$p.predictions.jsonl")"
done
