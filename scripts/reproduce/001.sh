#!/usr/bin/env bash
# scripts/reproduce.sh 001: Rubrics as Rewards at reduced scale, at judge level. Called by
# scripts/reproduce.sh, which sets RWB_REPRODUCE_{ROOT,OUT,PART,SMOKE,PLAN}.
#
# Part judges: RaR's claim that a judge guided by a rubric (explicit: each item judged met
# or not, Σ w·c / Σ w⁺; implicit: one 1–10 rating given the whole rubric) orders answers by
# their quality better than one without (Simple-Likert: the answer to the question alone;
# Reference-Likert: against the reference answer), on legal questions whose rubric items
# the reference grader can check. Answers to each question are made from its reference
# (right, a fact vague, a value changed, both, another question's answer; rwb judge data),
# and the truth is the grader's: s* = Σ w·c* / Σ w⁺ over the items it finds met.
#
#   the reference grader   every request answered with its own target: the ceiling of each
#                          method (a 1–10 rating can tie two different s*), rwb judge eval's
#                          "target" column
#   the project's judge    the tiny model trained on the four kinds of request from six
#                          bodies of law (rwb judge data's lines are chat-task SFT data),
#                          measured on a seventh it never saw
#
# For each: per method, Spearman's ρ with s* and the pairwise accuracy (pairs of answers
# to one question whose s* differ), with 95 % intervals over questions, and the paired
# difference between each two methods (rwb judge eval). The policy-level comparison (GRPO
# with each reward) is not built yet.
set -euo pipefail
root=$RWB_REPRODUCE_ROOT
out=$RWB_REPRODUCE_OUT
part=$RWB_REPRODUCE_PART
smoke=$RWB_REPRODUCE_SMOKE
case "$part" in all|judges) ;; *) echo "scripts/reproduce.sh 001: --part is judges (the only part built so far), not \"$part\"" >&2; exit 2 ;; esac
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"

if [[ $smoke == 1 ]]; then
  train_seeds="2 3"; n_train=12; n_test=20; layers=1; epochs=1; vocab=2048
else
  train_seeds="2 3 4 5 6 7"; n_train=100; n_test=300; layers=4; epochs=2; vocab=4096
fi
test_seed=1
kinds=rubric_explicit,rubric_implicit,likert_reference,likert_simple

plan() {
  cat <<EOF
# Plan of scripts/reproduce.sh 001 --part judges$([[ $smoke == 1 ]] && echo " --smoke (sizes for a pipeline check only)")

Written before running.

| comparison | measure | questions (held out) | detectable at 80 % power (about) |
| --- | --- | ---: | ---: |
| each rubric method against each Likert method, per judge | paired difference of pairwise accuracy | $n_test | $(awk -v n=$n_test 'BEGIN { printf "%.3f", 2.80 * 0.35 / sqrt(n) }') |

Pilot for the power: a question's paired difference of pairwise accuracy between two
judges has an sd of about 0.35 (assumed, not measured: each question has up to 10 pairs of
answers and its accuracy moves in steps of 0.1; the run prints the measured intervals).
RaR reports relative gains of 13–28 % of its benchmarks' scores, not of judge accuracy:
the paper gives no judge-level figure to test against, so this asks its mechanism's
question (does a rubric help a judge order answers) and reports the size found.

Sizes: judge training data from $n_train questions of each of the bodies of law $train_seeds
(five answers each, every request of the four methods); the judge: the tiny model
($layers layers, its own tokenizer of $vocab tokens trained on those requests), $epochs epoch(s)
of chat SFT; measured on $n_test test questions of body of law $test_seed, which it never saw.
EOF
}
if [[ ${RWB_REPRODUCE_PLAN:-0} == 1 ]]; then plan; exit 0; fi

rm -rf "$out"
mkdir -p "$out"/{data,models,configs,logs}
cd "$out"
plan > plan.md
cat plan.md >&2
source "$root/scripts/lib/reproduce.sh"
reproduce_begin

stage "legal questions: $n_train of each body of law $train_seeds (training the judge), $n_test of body $test_seed (held out); rubrics from facts; the requests of the four methods"
: > data/judge_train.jsonl
for s in $train_seeds $test_seed; do
  split=train; n=$n_train
  [[ $s == "$test_seed" ]] && { split=test; n=$n_test; }
  "$rwb" data synth --task legal_qa --n "$n" --seed "$s" --split $split --out "data/q_$s.jsonl" --corpus-out "data/corpus_$s.jsonl" >/dev/null
  "$rwb" rubric generate --input "data/q_$s.jsonl" --out "data/r_$s.jsonl" --from-facts >/dev/null
  "$rwb" judge data --input "data/r_$s.jsonl" --out "data/judge_$s.jsonl" --seed "$s" --kinds $kinds 2>>logs/judge_data.log
  [[ $s == "$test_seed" ]] || cat "data/judge_$s.jsonl" >> data/judge_train.jsonl
done
echo "$(wc -l < data/judge_train.jsonl) training requests, $(wc -l < "data/judge_$test_seed.jsonl") held-out" >&2

stage "the project's judge: the tiny model trained on the four methods' requests ($layers layers, $epochs epoch(s))"
head -n 4000 data/judge_train.jsonl > data/judge_corpus_lines.jsonl
"$rwb" data corpus --task chat --input data/judge_corpus_lines.jsonl --out data/judge_corpus.txt >/dev/null
"$rwb" tokenizer train --input data/judge_corpus.txt --vocab-size $vocab --out models/judge_tokenizer >/dev/null
"$rwb" model init --tokenizer models/judge_tokenizer --out models/judge_init --layers $layers --seed 1 >/dev/null
cat > configs/sft_judge.json <<EOF
{"model": "../models/judge_init", "output": "../models/judge", "train_data": "../data/judge_train.jsonl", "task": "chat",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "batch_size": 16,
 "epochs": $epochs, "max_length": 1024, "seed": 1}
EOF
"$rwb" sft --config configs/sft_judge.json --quiet > logs/sft_judge.log
cat > configs/judge_local.json <<EOF
{"backend": "local", "folder": "../models/judge", "temperature": 0, "max_tokens": 256, "concurrency": 16}
EOF
"$rwb" judge eval --config configs/judge_local.json --data "data/judge_$test_seed.jsonl" --no-cache --json \
  --out data/judge_eval.jsonl > logs/eval_judge.json

stage "tables"
python3 - "$out" <<'PYEOF' | tee results-judges.md
import json, sys
out = sys.argv[1]
print("## Rubrics as Rewards at judge level (scripts/reproduce.sh 001 --part judges)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
def fmt(v, d=3):
    return "—" if v is None else f"{v:.{d}f}"
r = json.load(open(f"{out}/logs/eval_judge.json"))["ranking"]
print("The project's judge (the tiny model, on a body of law it never saw) against the reference "
      "grader's truth s*; the ceiling is what the grader's own replies (the targets) get.\n")
print("| method | answers scored | Spearman ρ with s* | pairwise accuracy [95 %] | ceiling | mean abs. error | failed requests |")
print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
for j in r["judges"]:
    lo, hi = j["pairwise_interval"] or [None, None]
    print(f"| {j['judge_kind']} | {j['scored']} of {j['answers']} | {fmt(j['spearman'])} | "
          f"{fmt(j['pairwise_accuracy'])} [{fmt(lo)}, {fmt(hi)}] | {fmt(j['target_pairwise_accuracy'])} | {fmt(j['mae'])} | {j['failed']} |")
print("\n| difference of pairwise accuracy | estimate [95 %] | answers | questions |")
print("| --- | --- | ---: | ---: |")
for d in r["differences"]:
    lo, hi = d["interval"] or [None, None]
    print(f"| {d['a']} − {d['b']} | {fmt(d['difference'])} [{fmt(lo)}, {fmt(hi)}] | {d['answers']} | {d['questions']} |")
PYEOF
stage "done in $(( $(date +%s) - start )) s"
