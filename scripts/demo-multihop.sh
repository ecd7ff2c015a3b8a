#!/usr/bin/env bash
# The demo's third job (scripts/demo.sh --task multihop): the fourth paper's (ProRAG)
# search over reasoning steps, on a fictional knowledge base. Format-aware SFT of the
# tiny model on gold step chains with frozen retrievals (six knowledge bases), then
# Monte-Carlo tree search over held-out questions about a seventh the model never saw,
# with BM25 retrieval in the loop; every tree goes into the run store as it grows. Prints
# the answer EM / F1 of the greedy SFT policy against the search's most visited path, by
# hops (rwb mcts table), and the search's speed. With a display the workbench opens on
# the search and follows it live (the tree viewer); closing it goes on to the table.
# With PRM = 1 (scripts/demo.sh --prm) it goes on with ProRAG's loop (§3.2–3.4): trees over
# a fresh knowledge base's training questions, sibling pairs labelled by the reference
# judge and the tree, the PRM, PRM-filtered RFT, GRPO (outcome only, and dual-granularity
# with a β sweep) and the ablation table with bootstrap intervals (docs/prm.md).
#   scripts/demo-multihop.sh RWB OUT QUICK GUI [PRM]
set -euo pipefail
rwb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); out=$2; quick=$3; gui=$4; prm=${5:-0}
build=$(dirname "$(dirname "$(dirname "$rwb")")")
rm -rf "$out"; mkdir -p "$out"/{data,models,configs}
cd "$out"
printf '{"name": "multi-hop MCTS demo", "created": "%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > workspace.json

if [[ $quick == 1 ]]; then
  n_sft=400; n_test=12; n_prm=30; n_rft=40; grpo_steps=8
else
  n_sft=800; n_test=60; n_prm=300; n_rft=200; grpo_steps=60
fi
stages=5; [[ $prm == 1 ]] && stages=10
kb_seeds="2 3 4 5 6 7"; test_seed=1; layers=2; epochs=3; k=2; vocab=2048
start=$(date +%s)
stage() { printf '\n== [%3ds] %s\n' $(( $(date +%s) - start )) "$*" >&2; }

# A model trained on one knowledge base learns its facts by heart and copies nothing
# from the retrievals; on six, whose names and facts differ, it learns to read them
# (as the legal-QA demo found for its bodies of law). The test questions are about a
# seventh knowledge base: every answer has to come from a passage retrieved at run time.
stage "1/$stages synthesizing knowledge bases $kb_seeds ($n_sft questions each, gold chains with frozen BM25 top-$k retrievals) and $n_test test questions on knowledge base $test_seed"
: > data/sft.jsonl
for s in $kb_seeds; do
  "$rwb" data synth --task multihop --n "$n_sft" --seed "$s" --split train --out "data/q_$s.jsonl" \
    --corpus-out "data/kb_$s.jsonl" >/dev/null
  "$rwb" retrieve index --corpus "data/kb_$s.jsonl" --out "data/kb_$s.sqlite" >/dev/null
  "$rwb" retrieve annotate --index "data/kb_$s.sqlite" --input "data/q_$s.jsonl" --query-field question \
    --k $k --chain --out "data/sft_$s.jsonl" >/dev/null
  cat "data/sft_$s.jsonl" >> data/sft.jsonl
done
"$rwb" data synth --task multihop --n "$n_test" --seed $test_seed --split test --out data/test.jsonl \
  --corpus-out data/kb_test.jsonl >/dev/null
if [[ $prm == 1 ]]; then
  # ProRAG's loop learns on questions about a knowledge base SFT never saw (8): what the
  # policy gets right there it read from the retrievals, not from memory.
  "$rwb" data synth --task multihop --n 800 --seed 8 --split train --out data/q_8.jsonl --corpus-out data/kb_8.jsonl >/dev/null
  "$rwb" retrieve index --corpus data/kb_8.jsonl --out data/kb_8.sqlite >/dev/null
  head -n $n_prm data/q_8.jsonl > data/q_8_trees.jsonl
fi
"$rwb" retrieve index --corpus data/kb_test.jsonl --out data/kb_test.sqlite >/dev/null

stage "2/$stages a byte-level BPE tokenizer ($vocab tokens; the step format's tags as added tokens) and the tiny model ($layers layers)"
"$rwb" data corpus --task multihop --input data/sft.jsonl --out data/corpus.txt >/dev/null
tags=()
for t in step subquery retrieval subanswer; do tags+=(--added-token "<$t>" --added-token "</$t>"); done
"$rwb" tokenizer train --input data/corpus.txt --vocab-size $vocab --out models/tokenizer "${tags[@]}" >/dev/null
"$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers $layers --seed 1 >/dev/null

stage "3/$stages format-aware SFT on the gold chains (retrieved tokens masked out of the loss, control tags weighted 2)"
cat > configs/sft.json <<EOF
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/sft.jsonl", "task": "multihop",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.05, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": $epochs, "max_length": 2048, "prompt_loss_weight": 0, "seed": 1,
 "control_tags": ["<step>", "</step>", "<subquery>", "</subquery>", "<subanswer>", "</subanswer>", "<answer>", "</answer>"],
 "control_token_weight": 2.0}
EOF
"$rwb" sft --config configs/sft.json >/dev/null   # its progress line goes to the terminal

stage "4/$stages MCTS over $n_test held-out questions (preset small: 24 simulations, K 3, depth 6; BM25 top-$k in the loop)"
cat > configs/mcts.json <<EOF
{"model": "../models/sft", "index": "../data/kb_test.sqlite", "questions": "../data/test.jsonl",
 "store": "../runs.sqlite", "run_name": "multihop demo", "preset": "small", "top_k": $k, "seed": 1, "threads": 2}
EOF
if [[ $gui == 1 ]]; then
  # The search runs beside the workbench, which opens its trees once the run exists and
  # follows it (new questions' trees appear, the one searched grows).
  "$rwb" mcts run --config configs/mcts.json > mcts_result.json 2> mcts.log &
  search=$!
  for _ in $(seq 1 600); do
    [[ -f runs.sqlite ]] && "$rwb" store sql --store runs.sqlite --query "SELECT run_id FROM v_runs WHERE kind = 'mcts'" \
      2>/dev/null | grep -q run_id && break
    kill -0 $search 2>/dev/null || break
    sleep 0.5
  done
  echo "The workbench follows the search live; close it when done to see the table." >&2
  "$build/app/workbench/reward-workbench" --workspace "$out" --mcts runs.sqlite || true
  if kill -0 $search 2>/dev/null; then
    echo "Waiting for the search to finish (its progress: $out/mcts.log)…" >&2
  fi
  wait $search || { tail -c 2000 mcts.log >&2; exit 1; }
  tr '\r' '\n' < mcts.log | tail -n 2 >&2
else
  "$rwb" mcts run --config configs/mcts.json > mcts_result.json
fi

stage "5/$stages results"
echo
echo "Greedy SFT vs the search on $n_test held-out questions (answer EM and F1; docs/results.md):"
"$rwb" mcts table --store runs.sqlite
echo
echo "Speed: $(cat mcts_result.json)"
echo
echo "Everything is in the workspace $out: runs.sqlite (the trees: rwb mcts export --store $out/runs.sqlite --run 1 --out trees/),"
echo "models/sft, data/. Total $(( $(date +%s) - start )) s."
echo "Explore the trees: $build/app/workbench/reward-workbench --workspace $out --mcts $out/runs.sqlite"

[[ $prm == 1 ]] || exit 0

# ---- ProRAG's loop (§3.2–3.4; docs/prm.md) ----
stage "6/$stages MCTS over $n_prm questions of knowledge base 8 (fresh to SFT) for preference pairs"
cat > configs/mcts_train.json <<EOT
{"model": "../models/sft", "index": "../data/kb_8.sqlite", "questions": "../data/q_8_trees.jsonl",
 "store": "../runs.sqlite", "run_name": "trees for the PRM", "preset": "small", "top_k": $k, "seed": 2,
 "threads": 2, "greedy": false}
EOT
"$rwb" mcts run --config configs/mcts_train.json --quiet > mcts_train_result.json
tree_run=$("$rwb" store sql --store runs.sqlite --query "SELECT max(run_id) AS v FROM v_runs WHERE kind = 'mcts'" | sed 's/.*"v":\([0-9]*\).*/\1/')

stage "7/$stages sibling pairs, the tree's and the reference judge's labels, their agreement"
"$rwb" prm pairs --store runs.sqlite --run "$tree_run" --set train --margin 0.1 --max-per-parent 4
"$rwb" prm judge --store runs.sqlite --set train --reference-judge data/q_8_trees.jsonl --both-orders --quiet
"$rwb" prm agreement --store runs.sqlite --set train | tail -n 4
"$rwb" prm export --store runs.sqlite --set train --out data/pairs_dpo.jsonl --sources judge >/dev/null

stage "8/$stages the process reward model (judge labels, eq. 4) and PRM-filtered RFT (§3.3)"
cat > configs/prm.json <<EOT
{"model": "../models/sft", "output": "../models/prm", "store": "../runs.sqlite", "set": "train",
 "sources": ["judge"], "epochs": 3, "learning_rate": 1e-4, "batch_size": 8, "seed": 1, "threads": 2}
EOT
"$rwb" prm train --config configs/prm.json --quiet | tee prm_result.json
sed -n "$((n_prm + 1)),$((n_prm + n_rft))p" data/q_8.jsonl > data/q_8_rft.jsonl
cat > configs/rft.json <<EOT
{"policy": "../models/sft", "prm": "../models/prm", "questions": "../data/q_8_rft.jsonl", "index": "../data/kb_8.sqlite",
 "output": "../models/rft", "samples": 4, "temperature": 1.0, "max_completion_length": 200, "threshold": 0.0,
 "filter": "step", "threads": 2, "seed": 1,
 "sft": {"learning_rate": 1e-4, "epochs": 1, "batch_size": 8, "gradient_accumulation": 1, "max_length": 2048,
         "control_tags": ["<step>", "</step>", "<subquery>", "</subquery>", "<subanswer>", "</subanswer>", "<answer>", "</answer>"],
         "control_token_weight": 2.0}}
EOT
"$rwb" prm rft --config configs/rft.json --quiet | tee rft_result.json

stage "9/$stages GRPO on knowledge base 8: outcome only, dual-granularity from SFT and from RFT (β 0, 0.1, 0.3, 0.5, 1.0), $grpo_steps steps each"
cat > configs/reward_prm.json <<EOT
{"task": "multihop", "components": [{"reward": "answer_f1", "weight": 1}, {"reward": "step_format", "weight": 0.5}]}
EOT
grpo() { # name model beta (empty: no PRM)
  local name=$1 model=$2 beta=$3 extra=""
  [[ -n $beta ]] && extra=", \"prm\": \"../models/prm\", \"prm_beta\": $beta"
  cat > "configs/grpo_$name.json" <<EOT
{"model": "../models/$model", "train_data": "../data/q_8.jsonl", "reward_config": "reward_prm.json",
 "store": "../runs.sqlite", "run_name": "grpo $name", "output": "../runs/grpo-$name",
 "retrieval_index": "../data/kb_8.sqlite", "retrieval_top_k": $k, "max_turns": 5, "num_generations": 4,
 "prompts_per_step": 4, "max_completion_length": 200, "max_steps": $grpo_steps, "lora": false,
 "learning_rate": 5e-5, "eval_every": 0, "checkpoint_every": 0, "seed": 1, "threads": 2$extra}
EOT
  "$rwb" grpo --config "configs/grpo_$name.json" --quiet > "grpo_$name.json"
}
grpo outcome sft ""
grpo dual_from_sft sft 0.3
for beta in 0 0.1 0.3 0.5 1.0; do grpo "rft_beta_$beta" rft "$beta"; done

stage "10/$stages the ablation on $n_test held-out questions (greedy, retrieval in the loop)"
evaluate() { # name model-folder
  "$rwb" eval run --model "$2" --data data/test.jsonl --task multihop --retrieval-index data/kb_test.sqlite \
    --retrieval-top-k $k --max-new-tokens 200 --threads 2 --output "data/pred_$1.jsonl" >/dev/null
}
evaluate sft models/sft
evaluate rft models/rft
for r in outcome dual_from_sft rft_beta_0 rft_beta_0.1 rft_beta_0.3 rft_beta_0.5 rft_beta_1.0; do
  evaluate "$r" "runs/grpo-$r/final"
done
echo
echo "ProRAG's table 2 at reduced scale (full = RFT + dual-granularity GRPO, β 0.3):"
"$rwb" prm table --row "SFT policy=data/pred_sft.jsonl" --row "w/o RL (RFT)=data/pred_rft.jsonl" \
  --row "GRPO outcome only=data/pred_outcome.jsonl" --row "w/o refinement=data/pred_dual_from_sft.jsonl" \
  --row "ProRAG full=data/pred_rft_beta_0.3.jsonl"
echo
echo "Table 3's β sweep (from RFT):"
"$rwb" prm table --row "β 0=data/pred_rft_beta_0.jsonl" --row "β 0.1=data/pred_rft_beta_0.1.jsonl" \
  --row "β 0.3=data/pred_rft_beta_0.3.jsonl" --row "β 0.5=data/pred_rft_beta_0.5.jsonl" \
  --row "β 1.0=data/pred_rft_beta_1.0.jsonl"
echo
echo "Total $(( $(date +%s) - start )) s. Annotate the pairs: $build/app/workbench/reward-workbench --workspace $out --annotate $out/runs.sqlite"
