#!/usr/bin/env bash
# scripts/reproduce.sh 000: the first paper (GRPO reward design for extracting the
# sender's company from e-mails) at reduced scale. Called by scripts/reproduce.sh, which
# sets RWB_REPRODUCE_{ROOT,OUT,PART,SMOKE,PLAN}.
#
# Table 2: one SFT start (the demo's recipe: the tiny model from scratch on 12,000
# synthetic e-mails), then on 1,000 further e-mails whose companies SFT never saw
#   SFT → SFT    LoRA SFT on their gold answers, as many examples as GRPO draws prompts
#                (matched), and for one epoch (the paper's own control)
#   SFT → GRPO   partial 20 + marker 80, the demo's recipe
# three seeds each, all evaluated greedily on 3,000 test e-mails (companies in no
# training split), compared with `rwb eval compare` (paired by e-mail, seeds pooled).
# Table 1: GRPO from the same start with each of the paper's ten reward presets, three
# seeds each, evaluated on 1,000 other held-out e-mails; partial + domain 20:80 also as
# long as the paper's run (one epoch of 3,649 e-mails at 8 a step: 456 steps), to see
# whether it collapses onto the e-mail's domain as the paper's did.
set -euo pipefail
root=$RWB_REPRODUCE_ROOT
out=$RWB_REPRODUCE_OUT
part=$RWB_REPRODUCE_PART
smoke=$RWB_REPRODUCE_SMOKE
case "$part" in all|table2|table1|thinking) ;; *) echo "scripts/reproduce.sh 000: --part is table2, table1 or thinking, not \"$part\"" >&2; exit 2 ;; esac
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"
presets="$root/resources/presets"

# The sizes, chosen before running from the power estimate printed below.
if [[ $smoke == 1 ]]; then
  n_train=1500; n_add=64; n_test=60; n_valid=60; layers=2; sft_epochs=1; seeds="1 2"
  grpo_steps=4; prompts=4; t1_steps=3; t1_prompts=4; t1_long_steps=4; n_think_test=30; think_steps=3
else
  n_train=12000; n_add=1000; n_test=3000; n_valid=1000; layers=4; sft_epochs=2; seeds="1 2 3"
  grpo_steps=300; prompts=16; t1_steps=150; t1_prompts=8; t1_long_steps=456; n_think_test=1000; think_steps=60
fi
# The matched control sees as many examples as GRPO draws prompts (rounded to epochs).
ctrl_epochs=$(( (grpo_steps * prompts + n_add / 2) / n_add )); (( ctrl_epochs >= 1 )) || ctrl_epochs=1
n_seeds=$(wc -w <<< "$seeds")

# The power estimate. Pilot: the demo's SFT start against its GRPO model on 500 test
# e-mails (docs/results.md, "The demo"): 19 e-mails fixed, 17 broken, so an e-mail's
# exact-match difference has sd √(36 / 500) = 0.268. A two-sided 5 % test detects, with
# 80 % power, 2.80 · 0.268 / √n on n e-mails (one seed a side; pooling seeds narrows it
# where the seeds disagree per e-mail, not where they agree).
detectable() { awk -v n="$1" 'BEGIN { printf "%.3f", 2.8016 * 0.268 / sqrt(n) }'; }
needed() { awk -v d="$1" 'BEGIN { printf "%d", (2.8016 * 0.268 / d) ^ 2 + 0.999 }'; }
plan() {
  cat <<EOF
# Plan of scripts/reproduce.sh 000$([[ $smoke == 1 ]] && echo " --smoke (sizes for a pipeline check only)")

Written before running; the measured standard errors come after, in the tables.

| comparison | paper | e-mails | seeds | detectable at 80 % power | e-mails needed for the paper's effect |
| --- | --- | ---: | ---: | ---: | ---: |
| SFT → GRPO against SFT (table 2) | +0.014 | $n_test | $n_seeds | $(detectable "$n_test") | $(needed 0.014) |
| SFT → GRPO against SFT → SFT (table 2) | +0.003 | $n_test | $n_seeds | $(detectable "$n_test") | $(needed 0.003) |
| a preset against partial alone (table 1) | −0.012 … +0.002 | $n_valid | $n_seeds | $(detectable "$n_valid") | $(needed 0.002) (for +0.002) |
| partial + domain 20:80 against partial (table 1) | −0.920 | $n_valid | $n_seeds | $(detectable "$n_valid") | $(needed 0.92) |
| SFT with thinking against SFT without (table 2) | −0.080 | $n_think_test | 1 | $(detectable "$n_think_test") | $(needed 0.08) |

Pilot: sd of an e-mail's paired exact-match difference 0.268 (the demo: 19 fixed, 17
broken of 500); detectable = 2.80 · 0.268 / √n. $(if [[ $smoke == 1 ]]; then echo "(--smoke: these sizes detect nothing of interest.)"; else echo "So with $n_test test e-mails this run
can see an effect of the size of GRPO's gain over SFT in the paper (+0.014), and cannot
see GRPO's gain over the SFT → SFT control (+0.003, which needs $(needed 0.003) e-mails);
in table 1 only the domain collapse is large enough to test."; fi) Seeds show how much a run
moves with its seed, which the examples' interval does not include. The pilot compares a
model with its own fine-tune; two models trained apart (thinking against not) disagree on
more e-mails, so the thinking row's detectable effect is larger than planned: the
measured standard errors in the tables below say by how much.

Sizes: SFT on $n_train e-mails ($layers layers, $sft_epochs epochs, the demo's recipe);
$n_add further e-mails for SFT → SFT and GRPO; GRPO $grpo_steps steps × $prompts prompts
(G 8, temperature 0.7, learning rate 2e-3 cosine, LoRA r 16, partial 20 + marker 80);
SFT → SFT with the same LoRA and learning rate for $ctrl_epochs epochs (matched: $((ctrl_epochs * n_add))
examples against GRPO's $((grpo_steps * prompts)) prompts) and for 1 epoch; table 1:
$t1_steps steps × $t1_prompts prompts per preset (the paper's 64 completions a step),
partial + domain 20:80 also $t1_long_steps steps; test $n_test e-mails, table 1 on $n_valid.
Thinking rows (one seed; the first $n_think_test test e-mails): the same SFT recipe on the same
e-mails with templated thinking traces (\`rwb data synth --reasoning templated\`), SFT → SFT
thinking on as many e-mails as GRPO † draws prompts ($((think_steps * 8))), SFT → GRPO † (format 50 + partial 10 + marker 40) for
$think_steps steps × 8 prompts, up to 192 new tokens (the longest trace is about 155); table 3's cost from the same evaluations.
EOF
}
if [[ ${RWB_REPRODUCE_PLAN:-0} == 1 ]]; then plan; exit 0; fi

# The whole command starts afresh; a single --part reuses the data and the SFT start a
# previous run left in OUT (and makes them when there are none).
# The sizes the workspace was made with: a part reuses it only when they match (a
# --smoke workspace is never taken for a full one).
stamp="smoke=$smoke n_train=$n_train n_add=$n_add n_test=$n_test n_valid=$n_valid layers=$layers sft_epochs=$sft_epochs"
fresh=0
if [[ $part == all || ! -f "$out/models/sft/config.json" || "$(cat "$out/sizes.txt" 2>/dev/null)" != "$stamp" ]]; then
  fresh=1
  rm -rf "$out"
fi
mkdir -p "$out"/{data,models,configs,runs,predictions,logs}
cd "$out"
rm -f jobs.txt
plan > plan.md
cat plan.md >&2
source "$root/scripts/lib/reproduce.sh"
reproduce_begin

export rwb presets out
evaluate() { # NAME DATA [ADAPTER]
  local adapter=(); [[ -n "${3:-}" ]] && adapter=(--adapter "$3")
  "$rwb" eval run --model models/sft "${adapter[@]}" --data "$2" --max-new-tokens 24 --threads 1 \
    --output "predictions/$1.jsonl" > "predictions/$1.metrics.json"
}
grpo() { # NAME PRESET SEED STEPS PROMPTS EVAL_DATA
  local name=$1 preset=$2 seed=$3 steps=$4 prompts=$5 data=$6
  cat > "configs/$name.json" <<EOF
{"model": "../models/sft", "train_data": "../data/add.jsonl", "eval_data": "../$data",
 "reward_config": "$presets/$preset.json", "store": "../runs/$name.sqlite", "output": "../runs/$name", "run_name": "$name",
 "num_generations": 8, "prompts_per_step": $prompts, "max_completion_length": 24, "temperature": 0.7,
 "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "lora_r": 16, "max_steps": $steps,
 "eval_every": $steps, "eval_limit": 200, "checkpoint_every": 0, "seed": $seed, "threads": 1}
EOF
  "$rwb" grpo --config "configs/$name.json" --quiet
  evaluate "$name" "$data" "runs/$name/final"
}
sft_control() { # NAME EPOCHS SEED
  local name=$1 epochs=$2 seed=$3
  cat > "configs/$name.json" <<EOF
{"model": "../models/sft", "output": "../runs/$name", "train_data": "../data/add.jsonl", "lora": true, "lora_r": 16,
 "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "batch_size": 16, "gradient_accumulation": 1,
 "epochs": $epochs, "prompt_loss_weight": 0, "seed": $seed, "threads": 1}
EOF
  "$rwb" sft --config "configs/$name.json" --quiet
  evaluate "$name" data/test.jsonl "runs/$name"
}
evaluate_thinking() { # NAME [ADAPTER]
  local adapter=(); [[ -n "${2:-}" ]] && adapter=(--adapter "$2")
  "$rwb" eval run --model models/sft_thinking "${adapter[@]}" --data data/test_thinking.jsonl --thinking --max-new-tokens 192 \
    --threads 1 --output "predictions/$1.jsonl" > "predictions/$1.metrics.json"
}
grpo_thinking() { # NAME SEED STEPS
  local name=$1 seed=$2 steps=$3
  cat > "configs/$name.json" <<EOF
{"model": "../models/sft_thinking", "train_data": "../data/add.jsonl", "eval_data": "../data/test_thinking.jsonl",
 "reward_config": "$presets/table2_dagger_format50_partial10_marker40.json", "store": "../runs/$name.sqlite", "output": "../runs/$name",
 "run_name": "$name", "num_generations": 8, "prompts_per_step": 8, "max_completion_length": 192, "temperature": 0.7,
 "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "lora_r": 16, "max_steps": $steps,
 "eval_every": $steps, "eval_limit": 100, "checkpoint_every": 0, "seed": $seed, "threads": 1}
EOF
  "$rwb" grpo --config "configs/$name.json" --quiet
  evaluate_thinking "$name" "runs/$name/final"
}
sft_control_thinking() { # NAME EXAMPLES SEED: one epoch over the first EXAMPLES e-mails
  local name=$1 examples=$2 seed=$3
  cat > "configs/$name.json" <<EOF
{"model": "../models/sft_thinking", "output": "../runs/$name", "train_data": "../data/add_thinking.jsonl", "thinking": true,
 "lora": true, "lora_r": 16, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": 1, "limit": $examples, "prompt_loss_weight": 0, "seed": $seed, "threads": 1}
EOF
  "$rwb" sft --config "configs/$name.json" --quiet
  evaluate_thinking "$name" "runs/$name"
}
export -f evaluate grpo sft_control evaluate_thinking grpo_thinking sft_control_thinking

if [[ $fresh == 1 ]]; then
stage "data: $n_train SFT, $n_add further, $n_test test and $n_valid validation e-mails (companies of one split in no other)"
"$rwb" data synth --task company_extraction --n "$n_train" --seed 1 --split train --max-chars 300 --out data/train.jsonl
"$rwb" data synth --task company_extraction --n "$n_add" --seed 1 --split val --max-chars 300 --out data/add.jsonl
"$rwb" data synth --task company_extraction --n "$n_test" --seed 1 --split test --max-chars 300 --out data/test.jsonl
# Table 1's e-mails: the test split's companies, other e-mails (seed 2), none in data/test.jsonl.
"$rwb" data synth --task company_extraction --n "$((n_valid + n_test))" --seed 2 --split test --max-chars 300 --out data/valid_pool.jsonl
python3 - "$n_valid" <<'PY'
import json, sys
n = int(sys.argv[1])
seen = {json.loads(l)["email_text"] for l in open("data/test.jsonl", encoding="utf-8")}
kept = [l for l in open("data/valid_pool.jsonl", encoding="utf-8") if json.loads(l)["email_text"] not in seen][:n]
if len(kept) < n:
    sys.exit(f"data/valid_pool.jsonl: only {len(kept)} e-mails not in data/test.jsonl, {n} wanted")
open("data/valid.jsonl", "w", encoding="utf-8").writelines(kept)
PY
rm data/valid_pool.jsonl

stage "the SFT start: a BPE tokenizer, the tiny model ($layers layers) from scratch, $sft_epochs epochs (2 threads)"
"$rwb" data corpus --input data/train.jsonl --out data/corpus.txt >/dev/null
"$rwb" tokenizer train --input data/corpus.txt --vocab-size 2048 --out models/tokenizer >/dev/null
"$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers "$layers" --seed 1 >/dev/null
cat > configs/sft.json <<EOF
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/train.jsonl", "lora": false,
 "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.05, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": $sft_epochs, "prompt_loss_weight": 0, "seed": 1}
EOF
"$rwb" sft --config configs/sft.json --quiet > logs/sft.log
echo "$stamp" > sizes.txt
fi

names() { local p=$1; shift; for s in "$@"; do printf -- "$p " "$s"; done; }
files() { local flag=$1 p=$2; shift 2; for s in "$@"; do printf -- "$flag predictions/$p.jsonl " "$s"; done; }
metric() { python3 -c 'import json,sys; print(f"{json.load(open(sys.argv[1]))[sys.argv[2]]:.3f}")' "$@"; }
{
  echo "# scripts/reproduce.sh 000$([[ $smoke == 1 ]] && echo " --smoke")$([[ $part != all ]] && echo " --part $part")"
  echo
  echo "$(cat machine.txt); $(date -u +%Y-%m-%dT%H:%MZ)."
} > "results-$part.md"

if [[ $part == all || $part == table2 ]]; then
  stage "table 2: the start's answers, then SFT → SFT ($ctrl_epochs epochs and 1) and SFT → GRPO ($grpo_steps steps), seeds $seeds"
  queue evaluate start data/test.jsonl
  for s in $seeds; do
    queue grpo "grpo_s$s" table2_star_partial20_marker80 "$s" "$grpo_steps" "$prompts" data/test.jsonl
    queue sft_control "sft_matched_s$s" "$ctrl_epochs" "$s"
    queue sft_control "sft_1ep_s$s" 1 "$s"
  done
  run_jobs
  stage "table 2: comparisons"
  # shellcheck disable=SC2046
  {
    echo
    echo "## Table 2 at reduced scale: SFT, SFT → SFT, SFT → GRPO ($n_test test e-mails, seeds $seeds pooled)"
    echo
    echo "| model | precision | recall | F1 | F1 per seed | mean output tokens | s / e-mail |"
    echo "| --- | ---: | ---: | ---: | --- | ---: | ---: |"
    for row in "SFT (start)|start" "SFT → SFT, $ctrl_epochs epochs (matched)|sft_matched_s%s" "SFT → SFT, 1 epoch|sft_1ep_s%s" "SFT → GRPO partial 20 + marker 80|grpo_s%s"; do
      label=${row%%|*}; pat=${row#*|}
      if [[ $pat == start ]]; then ids=(start); else read -r -a ids <<< "$(names "$pat" $seeds)"; fi
      python3 - "$label" "${ids[@]}" <<'PY'
import json, sys
label, ids = sys.argv[1], sys.argv[2:]
m = [json.load(open(f"predictions/{i}.metrics.json")) for i in ids]
tp = sum(x["n_tp"] for x in m); out = sum(x["n_output"] for x in m); ex = sum(x["n_exist"] for x in m)
p = tp / out if out else 0.0; r = tp / ex if ex else 0.0; f = 2 * p * r / (p + r) if p + r else 0.0
per = ", ".join(f"{x['f1']:.3f}" for x in m) if len(m) > 1 else ""
tok = sum(x["mean_output_tokens"] for x in m) / len(m); sec = sum(x["seconds_per_sample"] for x in m) / len(m)
print(f"| {label} | {p:.3f} | {r:.3f} | {f:.3f} | {per} | {tok:.1f} | {sec:.4f} |")
PY
    done
    echo
    echo "Paired by e-mail (\`rwb eval compare\`, 2,000 resamples; \"detectable\" from the measured standard error):"
    echo
    echo "SFT → GRPO against SFT:"; echo
    "$rwb" eval compare --a predictions/start.jsonl $(files --b grpo_s%s $seeds) --effect 0.014 --markdown --label-a SFT --label-b "SFT → GRPO"
    echo; echo "SFT → SFT (matched) against SFT:"; echo
    "$rwb" eval compare --a predictions/start.jsonl $(files --b sft_matched_s%s $seeds) --markdown --label-a SFT --label-b "SFT → SFT"
    echo; echo "SFT → GRPO against SFT → SFT (matched), seed k against seed k:"; echo
    "$rwb" eval compare $(files --a sft_matched_s%s $seeds) $(files --b grpo_s%s $seeds) --effect 0.003 --markdown --label-a "SFT → SFT" --label-b "SFT → GRPO"
    echo; echo "SFT → GRPO against SFT → SFT (1 epoch, the paper's control):"; echo
    "$rwb" eval compare $(files --a sft_1ep_s%s $seeds) $(files --b grpo_s%s $seeds) --effect 0.003 --markdown --label-a "SFT → SFT 1 ep" --label-b "SFT → GRPO"
    echo; echo "What the answers are (\`rwb eval failures\`, each model against the start, seed 1):"; echo
    for m in grpo_s1 sft_matched_s1 sft_1ep_s1; do
      echo "- $m: $("$rwb" eval failures --predictions predictions/start.jsonl --against "predictions/$m.jsonl")"
    done
  } | tee -a "results-$part.md"
fi

if [[ $part == all || $part == table1 ]]; then
  t1=(table1_partial table1_partial20_exist80 table1_partial50_exist50 table1_partial80_exist20
      table1_partial20_marker80 table1_partial50_marker50 table1_partial80_marker20
      table1_partial20_domain80 table1_partial50_domain50 table1_partial80_domain20)
  stage "table 1: ten presets × seeds $seeds, $t1_steps steps of $t1_prompts prompts; partial + domain 20:80 also $t1_long_steps steps"
  queue evaluate start_valid data/valid.jsonl
  for s in $seeds; do
    queue grpo "t1_long_domain_s$s" table1_partial20_domain80 "$s" "$t1_long_steps" "$t1_prompts" data/valid.jsonl
  done
  for p in "${t1[@]}"; do
    for s in $seeds; do
      queue grpo "t1_${p#table1_}_s$s" "$p" "$s" "$t1_steps" "$t1_prompts" data/valid.jsonl
    done
  done
  run_jobs
  stage "table 1: comparisons"
  # shellcheck disable=SC2046
  {
    echo
    echo "## Table 1 at reduced scale: GRPO with each preset ($n_valid held-out e-mails, seeds $seeds pooled)"
    echo
    echo "SFT start on these e-mails: F1 $(metric predictions/start_valid.metrics.json f1)."
    echo
    echo "| reward | ratio | steps | F1 (pooled) | F1 per seed | − partial alone [95 % interval] | − SFT start [95 % interval] | exact / other wrong span / invented (seed 1) |"
    echo "| --- | --- | ---: | ---: | --- | --- | --- | --- |"
    rows=("${t1[@]}" long_domain)
    for p in "${rows[@]}"; do
      if [[ $p == long_domain ]]; then pat="t1_long_domain_s%s"; label="partial + domain"; ratio="20:80"; steps=$t1_long_steps
      else
        pat="t1_${p#table1_}_s%s"; steps=$t1_steps
        label=$(sed -E 's/^table1_//; s/^partial[0-9]+_([a-z]+)[0-9]+$/partial + \1/' <<< "$p")
        ratio=$(sed -E 's/^table1_partial([0-9]+)_[a-z]+([0-9]+)$/\1:\2/; s/^table1_partial$/alone/' <<< "$p")
      fi
      vs_partial=$("$rwb" eval compare $(files --a t1_partial_s%s $seeds) $(files --b "$pat" $seeds))
      vs_start=$("$rwb" eval compare --a predictions/start_valid.jsonl $(files --b "$pat" $seeds))
      fails=$("$rwb" eval failures --predictions "predictions/$(printf "$pat" 1).jsonl")
      python3 - "$label" "$ratio" "$steps" "$pat" "$seeds" "$vs_partial" "$vs_start" "$fails" <<'PY'
import json, sys
label, ratio, steps, pat, seeds = sys.argv[1:6]
vp, vs, fl = (json.loads(x) for x in sys.argv[6:9])
d = lambda x: f"{x['estimate']:+.3f} [{x['low']:+.3f}, {x['high']:+.3f}]"
# Each seed's own F1, from its evaluation.
per = ", ".join(f"{json.load(open('predictions/' + (pat % s) + '.metrics.json'))['f1']:.3f}" for s in seeds.split())
c = fl["counts"]
print(f"| {label} | {ratio} | {steps} | {vp['b']['f1']:.3f} | {per} | {d(vp['difference']['f1'])} | {d(vs['difference']['f1'])} | "
      f"{c.get('exact', 0)} / {c.get('other_wrong', 0)} / {c.get('invented', 0)} |")
PY
    done
  } | tee -a "results-$part.md"
fi
if [[ $part == all || $part == thinking ]]; then
  stage "thinking rows: SFT with templated traces from scratch, SFT → SFT and SFT → GRPO † with thinking (seed 1)"
  "$rwb" data synth --task company_extraction --n "$n_train" --seed 1 --split train --max-chars 300 --reasoning templated --out data/train_thinking.jsonl
  "$rwb" data synth --task company_extraction --n "$n_add" --seed 1 --split val --max-chars 300 --reasoning templated --out data/add_thinking.jsonl
  head -n "$n_think_test" data/test.jsonl > data/test_thinking.jsonl
  # The same tokenizer, initial weights, e-mails and recipe as the start without thinking.
  sed -e 's|"../data/train.jsonl"|"../data/train_thinking.jsonl"|; s|"../models/sft"|"../models/sft_thinking"|' \
      -e 's|"lora": false|"thinking": true, "lora": false|' configs/sft.json > configs/sft_thinking.json
  "$rwb" sft --config configs/sft_thinking.json --quiet > logs/sft_thinking_train.log
  queue evaluate_thinking sft_thinking
  queue sft_control_thinking sft_thinking_matched_s1 "$((think_steps * 8))" 1
  queue grpo_thinking grpo_thinking_s1 1 "$think_steps"
  [[ -f predictions/start.jsonl ]] || queue evaluate start data/test.jsonl
  [[ -f predictions/grpo_s1.jsonl ]] || queue grpo grpo_s1 table2_star_partial20_marker80 1 "$grpo_steps" "$prompts" data/test.jsonl
  run_jobs
  stage "thinking rows: comparisons"
  {
    echo
    echo "## Table 2's thinking rows and table 3's cost ($n_think_test test e-mails, seed 1)"
    echo
    echo "| model | thinking | precision | recall | F1 | mean output tokens | s / e-mail |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    for row in "SFT|no|start" "SFT → GRPO partial 20 + marker 80|no|grpo_s1" "SFT|yes|sft_thinking" \
               "SFT → SFT ($((think_steps * 8)) e-mails, matched)|yes|sft_thinking_matched_s1" "SFT → GRPO † format 50 + partial 10 + marker 40|yes|grpo_thinking_s1"; do
      IFS='|' read -r label think id <<< "$row"
      # The no-thinking models were evaluated on every test e-mail: score the same first ones.
      head -n "$n_think_test" "predictions/$id.jsonl" > "predictions/$id.first.jsonl"
      flags=(); [[ $think == yes ]] && flags=(--thinking)
      scores=$("$rwb" eval score --task company_extraction --input "predictions/$id.first.jsonl" "${flags[@]}")
      python3 - "$label" "$think" "$scores" "predictions/$id.metrics.json" <<'PY'
import json, sys
label, think, scores, metrics = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), json.load(open(sys.argv[4]))
print(f"| {label} | {think} | {scores['precision']:.3f} | {scores['recall']:.3f} | {scores['f1']:.3f} | "
      f"{metrics['mean_output_tokens']:.1f} | {metrics['seconds_per_sample']:.4f} |")
PY
    done
    echo
    echo "(Tokens and seconds per e-mail: each model's whole evaluation, greedy, one thread.)"
    echo
    echo "SFT with thinking against SFT without, paired by e-mail (the paper: 0.833 against 0.913):"; echo
    "$rwb" eval compare --a predictions/start.first.jsonl --b predictions/sft_thinking.first.jsonl --thinking-b --effect 0.08 \
      --markdown --label-a "SFT" --label-b "SFT thinking"
    echo; echo "SFT → GRPO † against SFT, both with thinking:"; echo
    "$rwb" eval compare --thinking --a predictions/sft_thinking.first.jsonl --b predictions/grpo_thinking_s1.first.jsonl --markdown --label-a "SFT thinking" --label-b "SFT → GRPO †"
    echo; echo "SFT → GRPO † against SFT → SFT, both with thinking:"; echo
    "$rwb" eval compare --thinking --a predictions/sft_thinking_matched_s1.first.jsonl --b predictions/grpo_thinking_s1.first.jsonl --markdown --label-a "SFT → SFT thinking" --label-b "SFT → GRPO †"
  } | tee -a "results-$part.md"
fi
stage "done: $out/results-$part.md"
echo "Total $(( $(date +%s) - start )) s on $(cat machine.txt)." | tee -a "results-$part.md"
