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
# The other parts of the paper's reproduction (GRPO with the reference judge's points as
# an oracle step reward, the β grid 0–0.9 over enough questions) are not built yet.
set -euo pipefail
root=$RWB_REPRODUCE_ROOT
out=$RWB_REPRODUCE_OUT
part=$RWB_REPRODUCE_PART
smoke=$RWB_REPRODUCE_SMOKE
case "$part" in all|prm) ;; *) echo "scripts/reproduce.sh 003: --part is prm (the only part built so far), not \"$part\"" >&2; exit 2 ;; esac
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"

# The sizes, chosen before running (the plan below says what they can show).
if [[ $smoke == 1 ]]; then
  kb_seeds="2 3"; n_sft=40; n_held=20; layers=1; epochs=1; per_step=1; pair_limit=200; prm_epochs=1
else
  kb_seeds="2 3 4 5 6 7"; n_sft=800; n_held=300; layers=2; epochs=3; per_step=1; pair_limit=12000; prm_epochs=1
fi
held_seed=8; k=2; vocab=2048; threshold=0.8
n_kbs=$(wc -w <<< "$kb_seeds")

plan() {
  cat <<EOF
# Plan of scripts/reproduce.sh 003 --part prm$([[ $smoke == 1 ]] && echo " --smoke (sizes for a pipeline check only)")

Written before running.

| question | measure | threshold | held-out pairs (about) | 95 % half-width at 0.8 |
| --- | --- | ---: | ---: | ---: |
| does a PRM trained on $pair_limit perturbed-gold pairs rank held-out steps? | pairwise accuracy on pairs from $n_held questions about knowledge base $held_seed, never seen | $threshold | $((n_held * 4 * per_step)) | $(awk -v n=$((n_held * 4 * per_step)) -v q=$n_held 'BEGIN { printf "%.3f (pairs) to %.3f (questions)", 1.96 * sqrt(0.16 / n), 1.96 * sqrt(0.16 / q) }') |

A held-out accuracy's interval lies between the binomial one over pairs and the one over
questions (the pairs of a question are not independent); the run prints the accuracy per
kind of spoiled step, which says what the PRM can and cannot tell apart.

Sizes: SFT as the demo's (\`scripts/demo.sh --task multihop\`): the tiny model ($layers layers,
vocabulary $vocab) on $n_sft questions about each of $n_kbs knowledge bases ($kb_seeds), gold
chains with frozen BM25 top-$k retrievals, $epochs epochs. Pairs: \`rwb prm synth --per-step
$per_step\` on those questions; the PRM (the SFT decoder with a scalar head, learning rate
1e-4, batch 8) trains on the first $pair_limit for $prm_epochs epoch(s), with every pair of
knowledge base $held_seed's $n_held questions held out (\`held_out_set\`).
EOF
}
if [[ ${RWB_REPRODUCE_PLAN:-0} == 1 ]]; then plan; exit 0; fi

rm -rf "$out"
mkdir -p "$out"/{data,models,configs,logs}
cd "$out"
plan > plan.md
cat plan.md >&2
start=$(date +%s)
stage() { printf '\n== [%4ds] %s\n' $(( $(date +%s) - start )) "$*" >&2; }
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
isa=$(grep -ow 'avx512_bf16\|amx_bf16\|avx512f\|avx2' /proc/cpuinfo | sort -u | paste -sd, || true)
echo "CPU: $cpu, $(nproc) cores ($isa)" > machine.txt

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
python3 - data/pairs_held.jsonl > data/held_trajectories.jsonl <<'PYEOF2'
import json, sys
for n, line in enumerate(open(sys.argv[1])):
    p = json.loads(line)
    history = "".join(p["history"])
    for side in ("chosen", "rejected"):
        print(json.dumps({"id": f"{n}-{side}", "question": p["question"], "completion": history + p[side]}, ensure_ascii=False))
PYEOF2
"$rwb" prm score --prm models/prm --input data/held_trajectories.jsonl --out data/held_scores.jsonl --batch 16 >/dev/null
python3 - "$out" "$threshold" <<'PYEOF2' | tee results-prm.md
import json, random, sys, collections
out, threshold = sys.argv[1], float(sys.argv[2])
r = json.load(open(f"{out}/logs/prm_result.json"))
pairs = [json.loads(l) for l in open(f"{out}/data/pairs_held.jsonl")]
last = {}
for l in open(f"{out}/data/held_scores.jsonl"):
    j = json.loads(l)
    last[j["id"]] = j["last"]
rows = []  # (question, kind, right)
for n, p in enumerate(pairs):
    kind = p["reason"].split(":", 1)[0]
    rows.append((p["question_id"], kind, 1.0 if last[f"{n}-chosen"] > last[f"{n}-rejected"] else 0.0))
def interval(sel):
    byq = collections.defaultdict(list)
    for q, k, right in rows:
        if sel(k):
            byq[q].append(right)
    qs = list(byq)
    if not qs:
        return 0, float("nan"), float("nan"), float("nan")
    total = lambda keys: sum(sum(byq[q]) for q in keys) / sum(len(byq[q]) for q in keys)
    rng = random.Random(1)
    draws = sorted(total([rng.choice(qs) for _ in qs]) for _ in range(2000))
    return sum(len(byq[q]) for q in qs), total(qs), draws[49], draws[1949]
print("## ProRAG's PRM from perturbed gold chains (scripts/reproduce.sh 003 --part prm)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
held = r.get("held_out", {}).get("import", {})
print(f"Trained on {r['train_pairs']} pairs ({r['steps']} steps, {r['seconds']:.0f} s, training accuracy "
      f"{r['train_accuracy']:.3f}); measured on {r['held_out_pairs']} pairs about a knowledge base it never saw "
      f"(before training: {held.get('before', float('nan')):.3f}).\n")
print("| spoiled step | held-out pairs | PRM ranks the gold step higher | 95 % interval (questions resampled) |")
print("| --- | ---: | ---: | --- |")
for kind in ("other_relation", "wrong_value", "early_answer", "wrong_answer", None):
    n, acc, lo, hi = interval(lambda k: kind is None or k == kind)
    print(f"| {kind or '**all**'} | {n} | {acc:.3f} | [{lo:.3f}, {hi:.3f}] |")
n, acc, lo, hi = interval(lambda k: True)
ok = acc >= threshold
print(f"\nThreshold set before the run: {threshold}. {'Reached' if ok else 'Not reached'} "
      f"({acc:.3f} [{lo:.3f}, {hi:.3f}]): "
      f"{'the PRM may feed the GRPO runs.' if ok else 'the PRM must not be used for RFT or dual-granularity GRPO.'}")
PYEOF2
stage "done in $(( $(date +%s) - start )) s"
