#!/usr/bin/env bash
# scripts/reproduce.sh 003: the fourth paper (ProRAG) at reduced scale. Called by
# scripts/reproduce.sh, which sets RWB_REPRODUCE_{ROOT,OUT,PART,SMOKE,PLAN}.
#
# Part prm: can the tiny policy's decoder learn to rank steps at all, given enough pairs?
# The demo's PRM, trained on 455 sibling pairs from tree search, ranked held-out steps at
# chance (0.528). Here: the demo's format-aware SFT on six knowledge bases, then pairs made
# at scale from the gold chains of those questions (rwb prm synth: each gold step against
# a spoiled one, labelled by the reference judge), and a PRM trained on them, measured on
# pairs made the same way from questions about a seventh knowledge base it never saw
# (held_out_set): a PRM that learned the training questions' facts by heart cannot pass
# that. ProRAG's use of a PRM is only sound past a threshold set before the run: 0.8.
#
# Part beta (after prm, in the same workspace): ProRAG's table 3, the β of the process
# advantage on the paper's grid (0, 0.1, 0.3, 0.5, 0.7, 0.9), GRPO from the SFT policy on
# questions about knowledge base 8, with the step scores from the reference judge (an
# oracle: "prm_reference") and from the PRM of part prm, two seeds each, every model
# evaluated greedily with retrieval on test questions about knowledge base 1, each β
# against β 0 paired by question (rwb eval compare, seeds pooled).
set -euo pipefail
root=$RWB_REPRODUCE_ROOT
out=$RWB_REPRODUCE_OUT
part=$RWB_REPRODUCE_PART
smoke=$RWB_REPRODUCE_SMOKE
case "$part" in all|prm|beta) ;; *) echo "scripts/reproduce.sh 003: --part is prm or beta, not \"$part\"" >&2; exit 2 ;; esac
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"

# The sizes, chosen before running (the plan below says what they can show).
if [[ $smoke == 1 ]]; then
  kb_seeds="2 3"; n_sft=40; n_held=20; layers=1; epochs=1; per_step=1; pair_limit=200; prm_epochs=1
  betas="0.3"; beta_seeds="1"; n_grpo=16; grpo_steps=2; n_test=12
else
  kb_seeds="2 3 4 5 6 7"; n_sft=800; n_held=300; layers=2; epochs=3; per_step=1; pair_limit=12000; prm_epochs=1
  betas="0.1 0.3 0.5 0.7 0.9"; beta_seeds="1 2 3"; n_grpo=800; grpo_steps=200; n_test=1000
fi
n_beta_seeds=$(wc -w <<< "$beta_seeds")
held_seed=8; k=2; vocab=2048; threshold=0.8
n_kbs=$(wc -w <<< "$kb_seeds")

plan() {
  cat <<EOF
# Plan of scripts/reproduce.sh 003 --part $part$([[ $smoke == 1 ]] && echo " --smoke (sizes for a pipeline check only)")

Written before running.

| question | measure | threshold | held-out pairs (about) | 95 % half-width at 0.8 |
| --- | --- | ---: | ---: | ---: |
| does a PRM trained on $pair_limit perturbed-gold pairs rank held-out steps? | pairwise accuracy on pairs from $n_held questions about knowledge base $held_seed, never seen | $threshold | $((n_held * 4 * per_step)) | $(awk -v n=$((n_held * 4 * per_step)) -v q=$n_held 'BEGIN { printf "%.3f (pairs) to %.3f (questions)", 1.96 * sqrt(0.16 / n), 1.96 * sqrt(0.16 / q) }') |
| GRPO with process advantages at β against β 0 (table 3) | paired ΔF1 on $n_test test questions, $n_beta_seeds seeds pooled | the paper's effect, ~0.03 | | detectable at 80 % power: $(awk -v n=$n_test 'BEGIN { printf "%.3f", 2.80 * 0.206 / sqrt(n) }') a seed, $(awk -v n=$((n_test * n_beta_seeds)) 'BEGIN { printf "%.3f", 2.80 * 0.206 / sqrt(n) }') pooled over examples (the spread between seeds adds to it; the run prints each seed) |
| GRPO with the outcome reward only (β 0) against the SFT start | the same | — | | the same |

The pilot behind the β row (2026-12-01, before the grid ran; commands in docs/results.md):
two GRPO runs from this SFT policy, 100 steps, β 0 and β 0.5 with the oracle, on 300 test
questions about knowledge base 9 (not the grid's): ΔF1 −0.017 [−0.040, +0.005], se 0.0119,
so a question's paired ΔF1 has sd 0.206. β 0 against SFT there: +0.025 [−0.001, +0.052].

A held-out accuracy's interval lies between the binomial one over pairs and the one over
questions (the pairs of a question are not independent); the run prints the accuracy per
kind of spoiled step, which says what the PRM can and cannot tell apart. The PRM is then
measured on the steps it would score in RFT and GRPO: sibling pairs from tree search over
the same held-out questions, labelled by the reference judge (this check was added on
2026-11-30 after the first full run, whose synthetic pairs reached the threshold).

Sizes: SFT as the demo's (\`scripts/demo.sh --task multihop\`): the tiny model ($layers layers,
vocabulary $vocab) on $n_sft questions about each of $n_kbs knowledge bases ($kb_seeds), gold
chains with frozen BM25 top-$k retrievals, $epochs epochs. Pairs: \`rwb prm synth --per-step
$per_step\` on those questions; the PRM (the SFT decoder with a scalar head, learning rate
1e-4, batch 8) trains on the first $pair_limit for $prm_epochs epoch(s), with every pair of
knowledge base $held_seed's $n_held questions held out (\`held_out_set\`).
Part beta: GRPO from the SFT policy ($grpo_steps steps × 4 prompts × G 4, 200 new tokens,
retrieval in the loop, lr 5e-5, the outcome reward answer F1 + 0.5 step format) on $n_grpo
questions about knowledge base $held_seed, β in {0, ${betas// /, }} with the oracle step
scores, and with the PRM only if it reached the threshold on real steps in part prm; seeds
$beta_seeds; evaluated greedily on $n_test test questions about knowledge base 1.
EOF
}
if [[ ${RWB_REPRODUCE_PLAN:-0} == 1 ]]; then plan; exit 0; fi

if [[ $part == beta ]]; then
  [[ -f "$out/models/prm/prm_head.safetensors" && "$(cat "$out/sizes.txt" 2>/dev/null)" == "smoke=$smoke" ]] ||
    { echo "scripts/reproduce.sh 003 --part beta: run --part prm$([[ $smoke == 1 ]] && echo " --smoke") first (it makes the SFT policy and the PRM in $out)" >&2; exit 2; }
else
  rm -rf "$out"
fi
mkdir -p "$out"/{data,models,configs,logs,runs,predictions}
cd "$out"
echo "smoke=$smoke" > sizes.txt
plan_file=plan.md; [[ $part == beta ]] && plan_file=plan-beta.md
plan > "$plan_file"
cat "$plan_file" >&2
source "$root/scripts/lib/reproduce.sh"
reproduce_begin

if [[ $part == all || $part == prm ]]; then
stage "questions about knowledge bases $kb_seeds ($n_sft each) and $held_seed ($n_held, held out), each hop's BM25 top-$k"
: > data/sft.jsonl
for s in $kb_seeds $held_seed; do
  n=$n_sft; [[ $s == "$held_seed" ]] && n=$n_held
  "$rwb" data synth --task multihop --n "$n" --seed "$s" --split train --out "data/q_$s.jsonl" --corpus-out "data/kb_$s.jsonl" >/dev/null
  "$rwb" retrieve index --corpus "data/kb_$s.jsonl" --out "data/kb_$s.sqlite" >/dev/null
  "$rwb" retrieve annotate --index "data/kb_$s.sqlite" --input "data/q_$s.jsonl" --query-field question \
    --k $k --chain --out "data/annotated_$s.jsonl" >/dev/null
  [[ $s == "$held_seed" ]] || cat "data/annotated_$s.jsonl" >> data/sft.jsonl
done

stage "tokenizer, the tiny model and format-aware SFT (the demo's recipe)"
"$rwb" data corpus --task multihop --input data/sft.jsonl --out data/corpus.txt >/dev/null
tags=()
for t in step subquery retrieval subanswer; do tags+=(--added-token "<$t>" --added-token "</$t>"); done
"$rwb" tokenizer train --input data/corpus.txt --vocab-size $vocab --out models/tokenizer "${tags[@]}" >/dev/null
"$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers $layers --seed 1 >/dev/null
cat > configs/sft.json <<EOF
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/sft.jsonl", "task": "multihop",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.05, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": $epochs, "max_length": 2048, "prompt_loss_weight": 0, "seed": 1,
 "control_tags": ["<step>", "</step>", "<subquery>", "</subquery>", "<subanswer>", "</subanswer>", "<answer>", "</answer>"],
 "control_token_weight": 2.0}
EOF
"$rwb" sft --config configs/sft.json --quiet > logs/sft.log

stage "pairs from the gold chains (rwb prm synth), into the run store"
"$rwb" prm synth --questions data/sft.jsonl --per-step $per_step --seed 1 --out data/pairs_train.jsonl | tee logs/synth_train.json >&2
"$rwb" prm synth --questions "data/annotated_$held_seed.jsonl" --per-step $per_step --seed 2 --out data/pairs_held.jsonl \
  | tee logs/synth_held.json >&2
"$rwb" prm import --store runs.sqlite --input data/pairs_train.jsonl --set synth >/dev/null
"$rwb" prm import --store runs.sqlite --input data/pairs_held.jsonl --set "synth kb $held_seed" >/dev/null

stage "the PRM: $pair_limit pairs, $prm_epochs epoch(s); every pair of knowledge base $held_seed held out"
cat > configs/prm.json <<EOF
{"model": "../models/sft", "output": "../models/prm", "store": "../runs.sqlite", "set": "synth",
 "held_out_set": "synth kb $held_seed", "holdout": 0, "sources": ["import"], "epochs": $prm_epochs,
 "learning_rate": 1e-4, "batch_size": 8, "limit": $pair_limit, "seed": 1, "threads": 2}
EOF
"$rwb" prm train --config configs/prm.json --quiet > logs/prm_result.json
stage "held-out accuracy per kind of spoiled step, with intervals over questions"
# Each held-out pair as two trajectories (the history, then the gold or the spoiled step),
# scored by the PRM; a pair is right when the gold step's score is higher.
pairs=(python3 "$root/scripts/reproduce/pairs.py")
"${pairs[@]}" trajectories data/pairs_held.jsonl > data/held_trajectories.jsonl
"$rwb" prm score --prm models/prm --input data/held_trajectories.jsonl --out data/held_scores.jsonl --batch 16 >/dev/null
"${pairs[@]}" accuracy data/pairs_held.jsonl data/held_scores.jsonl reason > logs/held_accuracy.jsonl
python3 - "$out" "$threshold" <<'PYEOF2' | tee results-prm.md
import json, sys
out, threshold = sys.argv[1], float(sys.argv[2])
r = json.load(open(f"{out}/logs/prm_result.json"))
acc = {a["kind"]: a for a in map(json.loads, open(f"{out}/logs/held_accuracy.jsonl"))}
print("## ProRAG's PRM from perturbed gold chains (scripts/reproduce.sh 003 --part prm)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
held = r.get("held_out", {}).get("import", {})
print(f"Trained on {r['train_pairs']} pairs ({r['steps']} steps, {r['seconds']:.0f} s, training accuracy "
      f"{r['train_accuracy']:.3f}); measured on {r['held_out_pairs']} pairs about a knowledge base it never saw "
      f"(before training: {held.get('before', float('nan')):.3f}).\n")
print("| spoiled step | held-out pairs | PRM ranks the gold step higher | 95 % interval (questions resampled) |")
print("| --- | ---: | ---: | --- |")
for kind in ("other_relation", "wrong_value", "early_answer", "wrong_answer", None):
    if kind in acc:
        a = acc[kind]
        print(f"| {kind or '**all**'} | {a['pairs']} | {a['accuracy']:.3f} | [{a['low']:.3f}, {a['high']:.3f}] |")
a = acc[None]
print(f"\nThreshold set before the run: {threshold}. On these pairs {'reached' if a['accuracy'] >= threshold else 'not reached'} "
      f"({a['accuracy']:.3f} [{a['low']:.3f}, {a['high']:.3f}]); the PRM is used only if the real steps below reach it too.")
PYEOF2
  stage "the same PRM on real steps: sibling pairs from tree search over knowledge base $held_seed's $n_held questions, labelled by the reference judge"
  mkdir -p trees
  cat > configs/mcts.json <<EOF
{"model": "../models/sft", "index": "../data/kb_$held_seed.sqlite", "questions": "../data/q_$held_seed.jsonl",
 "store": "../trees/runs.sqlite", "run_name": "trees kb $held_seed", "preset": "small", "top_k": $k, "seed": 1, "threads": 2}
EOF
  "$rwb" mcts run --config configs/mcts.json --quiet > logs/mcts.json
  "$rwb" prm pairs --store trees/runs.sqlite --set trees > logs/tree_pairs.json
  if [[ $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["pairs"])' logs/tree_pairs.json) == 0 ]]; then
    echo "No sibling pairs: every tree's siblings were alike (a smoke-size policy writes one step)." | tee -a results-prm.md >&2
  else
  "$rwb" prm judge --store trees/runs.sqlite --set trees --reference-judge "data/q_$held_seed.jsonl" --quiet > logs/tree_judge.json
  "$rwb" prm export --store trees/runs.sqlite --set trees --out data/pairs_trees.jsonl --sources judge >/dev/null
  "${pairs[@]}" trajectories data/pairs_trees.jsonl > data/tree_trajectories.jsonl
  "$rwb" prm score --prm models/prm --input data/tree_trajectories.jsonl --out data/tree_scores.jsonl --batch 16 >/dev/null
  "${pairs[@]}" accuracy data/pairs_trees.jsonl data/tree_scores.jsonl step > logs/tree_accuracy.jsonl
  python3 - "$out" "$threshold" <<'PYEOF2' | tee -a results-prm.md
import json, sys
out, threshold = sys.argv[1], float(sys.argv[2])
acc = {a["kind"]: a for a in map(json.loads, open(f"{out}/logs/tree_accuracy.jsonl"))}
judge = json.load(open(f"{out}/logs/tree_judge.json"))
print(f"\nOn real steps: the sibling pairs of tree search over the same held-out questions "
      f"({judge['pairs']} pairs; the reference judge preferred one in {judge['a'] + judge['b']}, tied {judge['tie']}):\n")
print("| sibling steps | pairs | questions | PRM agrees with the reference judge | 95 % interval (questions resampled) |")
print("| --- | ---: | ---: | ---: | --- |")
for name in ("hop step", "answer step", None):
    if name in acc:
        a = acc[name]
        print(f"| {name or '**all**'} | {a['pairs']} | {a['questions']} | {a['accuracy']:.3f} | [{a['low']:.3f}, {a['high']:.3f}] |")
a = acc[None]
print(f"\nOn the steps it would score in RFT and GRPO the threshold ({threshold}) is "
      f"{'reached' if a['accuracy'] >= threshold else 'not reached'} ({a['accuracy']:.3f} [{a['low']:.3f}, {a['high']:.3f}]).")
PYEOF2
  fi
fi

if [[ $part == all || $part == beta ]]; then
  stage "β grid: data for GRPO (knowledge base $held_seed) and the test (knowledge base 1)"
  "$rwb" data synth --task multihop --n "$n_grpo" --seed $held_seed --split train --out data/grpo.jsonl >/dev/null
  "$rwb" data synth --task multihop --n "$n_test" --seed 1 --split test --out data/test.jsonl --corpus-out data/kb_test.jsonl >/dev/null
  "$rwb" retrieve index --corpus data/kb_test.jsonl --out data/kb_test.sqlite >/dev/null
  cat > configs/reward.json <<EOF
{"task": "multihop", "components": [{"reward": "answer_f1", "weight": 1}, {"reward": "step_format", "weight": 0.5}]}
EOF
  evaluate() { # NAME MODEL
    "$rwb" eval run --model "$2" --data data/test.jsonl --task multihop --retrieval-index data/kb_test.sqlite \
      --retrieval-top-k $k --max-new-tokens 200 --threads 1 --output "predictions/$1.jsonl" > "predictions/$1.metrics.json"
  }
  grpo() { # NAME SEED BETA SOURCE(reference|prm|none)
    local name=$1 seed=$2 beta=$3 source=$4 extra=""
    [[ $source == reference ]] && extra=", \"prm_reference\": true, \"prm_beta\": $beta"
    [[ $source == prm ]] && extra=", \"prm\": \"../models/prm\", \"prm_beta\": $beta"
    cat > "configs/$name.json" <<EOF
{"model": "../models/sft", "train_data": "../data/grpo.jsonl", "reward_config": "reward.json",
 "store": "../runs/$name.sqlite", "output": "../runs/$name", "run_name": "$name",
 "retrieval_index": "../data/kb_$held_seed.sqlite", "retrieval_top_k": $k, "max_turns": 5, "num_generations": 4,
 "prompts_per_step": 4, "max_completion_length": 200, "max_steps": $grpo_steps, "lora": false,
 "learning_rate": 5e-5, "eval_every": 0, "checkpoint_every": 0, "seed": $seed, "threads": 1$extra}
EOF
    "$rwb" grpo --config "configs/$name.json" --quiet > "logs/$name.json"
    evaluate "$name" "runs/$name/final"
  }
  # The PRM is used only past the threshold on the steps it would score (part prm's check on
  # tree search's sibling pairs); otherwise the grid runs with the oracle alone and says so.
  prm_ok=$(python3 - logs/tree_accuracy.jsonl "$threshold" <<'PYEOF3'
import json, os, sys
path, threshold = sys.argv[1], float(sys.argv[2])
rows = [json.loads(l) for l in open(path)] if os.path.exists(path) else []
print(next((1 if r["accuracy"] >= threshold else 0 for r in rows if r["kind"] is None), 0))
PYEOF3
)
  sources="ref"; if [[ $prm_ok == 1 ]]; then sources="ref prm"; fi
  export -f evaluate grpo
  export rwb k held_seed grpo_steps
  stage "β grid: $(( (1 + $(wc -w <<< "$sources") * $(wc -w <<< "$betas")) * n_beta_seeds )) GRPO runs, two at a time, one thread each$([[ $prm_ok == 1 ]] || echo " (the PRM did not reach $threshold on real steps: oracle only)")"
  rm -f jobs.txt
  queue evaluate sft models/sft
  for seed in $beta_seeds; do
    queue grpo beta0_s$seed $seed 0 none
    for b in $betas; do
      queue grpo ref_beta${b}_s$seed $seed $b reference
      if [[ $prm_ok == 1 ]]; then queue grpo prm_beta${b}_s$seed $seed $b prm; fi
    done
  done
  run_jobs
  stage "β grid: each β against β 0, paired by question, seeds pooled"
  {
    echo "## ProRAG's table 3 at reduced scale: β of the process advantage (scripts/reproduce.sh 003 --part beta)"
    echo; cat machine.txt; echo
    [[ $prm_ok == 1 ]] || { echo "The PRM of part prm did not reach $threshold on tree search's sibling pairs (logs/tree_accuracy.jsonl), so it is not used: the grid runs with the oracle step scores alone."; echo; }
    base=(); for seed in $beta_seeds; do base+=(--a "predictions/beta0_s$seed.jsonl"); done
    sft=(); for seed in $beta_seeds; do sft+=(--a predictions/sft.jsonl); done
    echo "### GRPO with the outcome reward only (β 0) against the SFT start"; echo
    b0=(); for seed in $beta_seeds; do b0+=(--b "predictions/beta0_s$seed.jsonl"); done
    "$rwb" eval compare "${sft[@]}" "${b0[@]}" --effect 0.03 --markdown --label-a "SFT" --label-b "β 0"
    echo
    for source in $sources; do
      for b in $betas; do
        other=(); for seed in $beta_seeds; do other+=(--b "predictions/${source}_beta${b}_s$seed.jsonl"); done
        echo "### $([[ $source == ref ]] && echo "oracle step scores (the reference judge)" || echo "the PRM of part prm"), β $b against β 0"; echo
        "$rwb" eval compare "${base[@]}" "${other[@]}" --effect 0.03 --markdown --label-a "β 0" --label-b "β $b"
        echo
      done
    done
  } | tee results-beta.md
fi
stage "done in $(( $(date +%s) - start )) s"
