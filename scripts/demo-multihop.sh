#!/usr/bin/env bash
# The demo's third job (scripts/demo.sh --task multihop): the fourth paper's (ProRAG)
# search over reasoning steps, on a fictional knowledge base. Format-aware SFT of the
# tiny model on gold step chains with frozen retrievals (six knowledge bases), then
# Monte-Carlo tree search over held-out questions about a seventh the model never saw,
# with BM25 retrieval in the loop; every tree goes into the run store as it grows. Prints
# the answer EM / F1 of the greedy SFT policy against the search's most visited path, by
# hops (rwb mcts table), and the search's speed. With a display the workbench opens on
# the search and follows it live (the tree viewer); closing it goes on to the table.
#   scripts/demo-multihop.sh RWB OUT QUICK GUI
set -euo pipefail
rwb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); out=$2; quick=$3; gui=$4
build=$(dirname "$(dirname "$(dirname "$rwb")")")
rm -rf "$out"; mkdir -p "$out"/{data,models,configs}
cd "$out"
printf '{"name": "multi-hop MCTS demo", "created": "%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > workspace.json

if [[ $quick == 1 ]]; then
  n_sft=400; n_test=12
else
  n_sft=800; n_test=60
fi
kb_seeds="2 3 4 5 6 7"; test_seed=1; layers=2; epochs=3; k=2; vocab=2048
start=$(date +%s)
stage() { printf '\n== [%3ds] %s\n' $(( $(date +%s) - start )) "$*" >&2; }

# A model trained on one knowledge base learns its facts by heart and copies nothing
# from the retrievals; on six, whose names and facts differ, it learns to read them
# (as the legal-QA demo found for its bodies of law). The test questions are about a
# seventh knowledge base: every answer has to come from a passage retrieved at run time.
stage "1/5 synthesizing knowledge bases $kb_seeds ($n_sft questions each, gold chains with frozen BM25 top-$k retrievals) and $n_test test questions on knowledge base $test_seed"
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
"$rwb" retrieve index --corpus data/kb_test.jsonl --out data/kb_test.sqlite >/dev/null

stage "2/5 a byte-level BPE tokenizer ($vocab tokens; the step format's tags as added tokens) and the tiny model ($layers layers)"
"$rwb" data corpus --task multihop --input data/sft.jsonl --out data/corpus.txt >/dev/null
tags=()
for t in step subquery retrieval subanswer; do tags+=(--added-token "<$t>" --added-token "</$t>"); done
"$rwb" tokenizer train --input data/corpus.txt --vocab-size $vocab --out models/tokenizer "${tags[@]}" >/dev/null
"$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers $layers --seed 1 >/dev/null

stage "3/5 format-aware SFT on the gold chains (retrieved tokens masked out of the loss, control tags weighted 2)"
cat > configs/sft.json <<EOF
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/sft.jsonl", "task": "multihop",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.05, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": $epochs, "max_length": 2048, "prompt_loss_weight": 0, "seed": 1,
 "control_tags": ["<step>", "</step>", "<subquery>", "</subquery>", "<subanswer>", "</subanswer>", "<answer>", "</answer>"],
 "control_token_weight": 2.0}
EOF
"$rwb" sft --config configs/sft.json >/dev/null   # its progress line goes to the terminal

stage "4/5 MCTS over $n_test held-out questions (preset small: 24 simulations, K 3, depth 6; BM25 top-$k in the loop)"
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

stage "5/5 results"
echo
echo "Greedy SFT vs the search on $n_test held-out questions (answer EM and F1; docs/results.md):"
"$rwb" mcts table --store runs.sqlite
echo
echo "Speed: $(cat mcts_result.json)"
echo
echo "Everything is in the workspace $out: runs.sqlite (the trees: rwb mcts export --store $out/runs.sqlite --run 1 --out trees/),"
echo "models/sft, data/. Total $(( $(date +%s) - start )) s."
echo "Explore the trees: $build/app/workbench/reward-workbench --workspace $out --mcts $out/runs.sqlite"
