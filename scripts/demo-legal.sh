#!/usr/bin/env bash
# The demo's second job (scripts/demo.sh --task legal_qa): the legal-QA paper's pipeline
# on synthetic law. SFT the tiny model on questions about six fictional bodies of law,
# then GRPO twice from that start — citation rewards only ("w/o answer reward") and
# citation + semantic — on a seventh, and evaluate all three on the held-out statutes
# of an eighth (corpus seed 1's test split: sections no stage ever saw), printed as the
# paper's table 1 (each GRPO run evaluates its start, the SFT model, at step 0 and its
# end at the last step; `rwb grpo table` prints both). Called by scripts/demo.sh after
# setup and build; the same options. With JUDGE = 1 (scripts/demo.sh --judge) it also
# distils a small LLM judge from the reference grader (rwb judge data, rwb sft), measures
# its agreement on answers about the held-out statutes (rwb judge eval), serves it (rwb
# serve on loopback) and runs a third GRPO with the judge's coverage + consistency as
# the answer reward (docs/results.md, "A judge trained on the reference grader's labels").
#   scripts/demo-legal.sh RWB OUT QUICK GUI [JUDGE]
set -euo pipefail
rwb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); out=$2; quick=$3; gui=$4; judge=${5:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib/legal.sh"
build=$(dirname "$(dirname "$(dirname "$rwb")")")
rm -rf "$out"; mkdir -p "$out"/{data,models,configs,checkpoints}
cd "$out"
printf '{"name": "legal QA demo", "created": "%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > workspace.json

if [[ $quick == 1 ]]; then
  sft_seeds="2 3 4 5 6 7"; n_sft=1600; n_grpo=120; n_test=48; layers=2; sft_epochs=1; grpo_steps=12; prompts=8
  judge_questions=100; judge_layers=2; judge_epochs=1
else
  sft_seeds="2 3 4 5 6 7"; n_sft=2000; n_grpo=400; n_test=300; layers=4; sft_epochs=2; grpo_steps=100; prompts=8
  judge_questions=334; judge_layers=4; judge_epochs=2
fi
stages=6; [[ $judge == 1 ]] && stages=8
grpo_seed=8; test_seed=1; k=3; vocab=2048; max_new=128
start=$(date +%s)
stage() { printf '\n== [%3ds] %s\n' $(( $(date +%s) - start )) "$*" >&2; }

# One body of law per corpus seed: its statutes, values and law codes. A model trained on
# one body learns its answers and codes by heart and copies nothing from the prompt
# (citation F1 0.00 on unseen statutes after 2 epochs of 4,000 questions); on six, whose
# codes and values differ, it learns to read them from the sections (docs/results.md,
# "Legal QA: an SFT start that cites").

stage "1/$stages synthesizing legal questions: SFT on corpus seeds ${sft_seeds// /, }, GRPO on seed $grpo_seed, test on seed $test_seed's held-out statutes (BM25 top-$k sections in each prompt)"
: > data/sft.jsonl
for s in $sft_seeds; do
  for split in train val test; do
    [[ $split == train ]] && n=$n_sft || n=$(( n_sft / 4 ))
    legal_annotate "$s" "$split" "$n" "data/sft_${s}_$split.jsonl"
    cat "data/sft_${s}_$split.jsonl" >> data/sft.jsonl
  done
done
legal_annotate $grpo_seed train $n_grpo data/grpo.jsonl
legal_annotate $test_seed test $n_test data/test.jsonl
echo "$(wc -l < data/sft.jsonl) SFT questions, $n_grpo GRPO questions, $n_test test questions" >&2

stage "2/$stages training a byte-level BPE tokenizer ($vocab tokens) and the tiny model's folder ($layers layers)"
"$rwb" data corpus --task legal_qa --input data/sft.jsonl --out data/corpus.txt >/dev/null
"$rwb" tokenizer train --input data/corpus.txt --vocab-size $vocab --out models/tokenizer >/dev/null
"$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers $layers --seed 1 >/dev/null

stage "3/$stages SFT from scratch on the appendix-D format (full fine-tuning)"
cat > configs/sft.json <<EOF
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/sft.jsonl", "task": "legal_qa",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.05, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": $sft_epochs, "prompt_loss_weight": 0, "seed": 1}
EOF
"$rwb" sft --config configs/sft.json >/dev/null

# The reward configs: the paper's citation rewards, with and without its answer reward.
# `semantic` is lexical (character n-gram TF-IDF over the GRPO corpus) unless
# RWB_DEMO_EMBEDDING names another backend (hf:DIR, http:URL).
embedding=${RWB_DEMO_EMBEDDING:-lexical}
legal_reward_configs $grpo_seed "$embedding"
grpo_config() { # name reward
  cat > "configs/grpo_$1.json" <<EOF
{"model": "../models/sft", "train_data": "../data/grpo.jsonl", "eval_data": "../data/test.jsonl",
 "reward_config": "$2", "store": "../runs.sqlite", "output": "../checkpoints/$1", "run_name": "$1",
 "num_generations": 8, "prompts_per_step": $prompts, "max_completion_length": $max_new, "temperature": 0.8,
 "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "lora_r": 16, "max_steps": $grpo_steps,
 "eval_every": $grpo_steps, "eval_limit": $n_test, "checkpoint_every": $grpo_steps, "seed": 1, "threads": 1}
EOF
}
grpo_config citation reward_citation.json
grpo_config citation_semantic reward_citation_semantic.json

stage "4/$stages GRPO with the citation rewards only (G = 8, LoRA; every rollout into runs.sqlite)"
"$rwb" grpo --config configs/grpo_citation.json >/dev/null

stage "5/$stages GRPO with the citation rewards + semantic ($embedding)"
if [[ $gui == 1 ]]; then
  echo "The workbench follows the run live; close it when done to see the table." >&2
  "$build/app/workbench/reward-workbench" --workspace "$out" --train configs/grpo_citation_semantic.json --view curves \
    --samples "$root/resources/samples/legal_qa_samples.jsonl" --config "$root/resources/presets/legal_citation_semantic.json" || true
else
  "$rwb" grpo --config configs/grpo_citation_semantic.json >/dev/null
fi

if [[ $judge == 1 ]]; then
  # The judge (scripts/lib/legal.sh, legal_make_judge: distilled from the reference
  # grader on the six SFT bodies of law), measured on answers to the test questions,
  # about a body of law it never saw.
  stage "6/$stages distilling a judge from the reference grader ($judge_questions questions of each SFT body of law, $judge_layers layers, $judge_epochs epoch(s))"
  legal_make_judge "$sft_seeds" $judge_questions $judge_layers $judge_epochs /dev/null
  "$rwb" judge data --input "data/q_${test_seed}_test.jsonl" --out data/judge_test.jsonl --seed $test_seed --limit $n_test >/dev/null
  echo "$(wc -l < data/judge_train.jsonl) judge training requests, $(wc -l < data/judge_test.jsonl) held-out" >&2
  cat > configs/judge_local.json <<EOF
{"backend": "local", "folder": "../models/judge", "temperature": 0, "max_tokens": 256, "concurrency": 16}
EOF
  echo "The judge against the reference grader, on answers about held-out statutes:" >&2
  "$rwb" judge eval --config configs/judge_local.json --data data/judge_test.jsonl --no-cache \
    --out data/judge_eval.jsonl | tee data/judge_eval.txt >&2

  stage "7/$stages GRPO with the citation rewards + the judge's coverage and consistency (rwb serve on loopback)"
  legal_serve_judge data
  cat > configs/reward_citation_judge.json <<EOF
{"name": "citation + judge", "task": "legal_qa", "components": [
 {"reward": "xml_format", "weight": 1}, {"reward": "non_hallucination", "weight": 1}, {"reward": "citation_f1", "weight": 1},
 {"reward": "coverage", "weight": 0.5}, {"reward": "consistency", "weight": 0.5}],
 "judge": {"url": "$judge_url", "model": "judge", "temperature": 0, "max_tokens": 256, "concurrency": 16,
  "retries": 2, "timeout": 120}}
EOF
  grpo_config citation_judge reward_citation_judge.json
  "$rwb" grpo --config configs/grpo_citation_judge.json >/dev/null
  legal_stop_judge
fi

stage "$stages/$stages results"
echo
echo "SFT (each run's start, step 0) vs SFT -> GRPO on $n_test questions about held-out statutes"
echo "(the legal-QA paper's table 1; citation P / R / F1 are macro means over the questions):"
"$rwb" grpo table --store runs.sqlite
echo
echo "Everything is in the workspace $out. Total $(( $(date +%s) - start )) s."
echo "Explore it: $build/app/workbench/reward-workbench --workspace $out --store $out/runs.sqlite"
