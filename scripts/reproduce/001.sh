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
# difference between each two methods (rwb judge eval). Then the same judge on questions of
# a body of law it trained on, and what it replies to the rating requests against the
# majority target, which tell a judge that has not learned the task from one that has
# learned it and does not carry it to new law. The policy-level comparison (GRPO with each
# reward) is not built yet.
#
# Part diagnosis (after judges, in its workspace): why the judge of part judges did not
# learn to rate. Three more judges from the same initial model, each trained on
# Reference-Likert requests alone and measured as above: (a) the same requests, three
# times the epochs (is it the budget?); (b) the same epochs on 3.3 times the questions (is
# it the data?); (c) the same as (a) with targets that list the reference's values and the
# response's before the rating (scripts/reproduce/points_first.py; is it deciding in one
# token, where the coverage judge of 002 writes its points first?).
#
# Part points (after judges): the fair form of part judges' comparison, given what the
# diagnosis found: the same judge trained again with every rating method's target writing
# its points first (points_first.py --all), each method compared with its bare-target self.
#
# Part policy (after points): RaR's headline, at policy level. A legal-QA policy (the
# quick recipe's SFT start, as 002's) trained by GRPO with each method's reward alone,
# asked of part points' judge (in-process, the "local" backend): rubric_explicit
# (per item), rubric_implicit, likert_reference, likert_simple; then every policy
# evaluated greedily on distinct questions about bodies of law neither the judge nor the
# policy trained on, by the reference grader: the true rubric score s* of each answer
# (rwb eval's rubric_score, RaR's evaluation) and the paper's other measures, each method
# against the SFT start and against each other, paired by question, seeds pooled. Beside
# it, what each run's judge reward did in training (the first and last steps' mean), so
# that a reward that rose while the truth did not shows.
#
# --part judges reuses the workspace's judge when its sizes match (a new measurement of the
# same judge, without the half hour of training); the whole command starts afresh.
set -euo pipefail
root=$RWB_REPRODUCE_ROOT
out=$RWB_REPRODUCE_OUT
part=$RWB_REPRODUCE_PART
smoke=$RWB_REPRODUCE_SMOKE
case "$part" in all|judges|diagnosis|points|policy) ;; *) echo "scripts/reproduce.sh 001: --part is judges, diagnosis, points or policy, not \"$part\"" >&2; exit 2 ;; esac
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"

if [[ $smoke == 1 ]]; then
  train_seeds="2 3"; n_train=12; n_test=20; layers=1; epochs=1; vocab=2048; n_insample=5; n_more=20
  p_sft_seeds="2 3"; p_n_sft=200; p_layers=1; p_n_grpo=24; p_steps=2; p_prompts=2; p_seeds="1"
  p_test_seeds="1 9"; p_n_test_lines=60
else
  train_seeds="2 3 4 5 6 7"; n_train=100; n_test=300; layers=4; epochs=2; vocab=4096; n_insample=50; n_more=334
  p_sft_seeds="2 3 4 5 6 7"; p_n_sft=1600; p_layers=2; p_n_grpo=400; p_steps=100; p_prompts=8; p_seeds="1"
  p_test_seeds="1 9 10 11 12"; p_n_test_lines=2000
fi
test_seed=1
insample_seed=$(cut -d' ' -f1 <<< "$train_seeds")  # the trained-on check: this body's first questions
kinds=rubric_explicit,rubric_implicit,likert_reference,likert_simple
p_grpo_seed=8; p_vocab=2048; p_max_new=128; k=3  # part policy: as 002's

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
of chat SFT; measured on $n_test test questions of body of law $test_seed, which it never saw,
and on the first $n_insample training questions of body $insample_seed, which it trained on.
Part diagnosis: Reference-Likert judges from the same initial model, (a) on the same
requests for $((3 * epochs)) epochs, (b) on $n_more questions of each body for $epochs epochs, (c) as (a)
with the points written before the rating; measured as above. Added after the first
full run (2026-12-01) had shown the judge replying 1 to nearly every rating request.
Part points: part judges' judge trained again, the same requests and epochs, its rating
targets writing the points first (every rating method); measured as above, each method
against its bare-target self. Added after the diagnosis had found the bare target the cause.
Part policy: a legal-QA policy (the quick recipe's SFT: $p_n_sft questions of each body of law
$p_sft_seeds, $p_layers layers, 1 epoch) trained by GRPO with each method's reward alone, asked of
part points' judge: $p_steps steps × $p_prompts prompts × G 8 on the questions of body $p_grpo_seed with a
rubric, temperature 0.8, LoRA r 16, lr 2e-3 cosine, seeds $p_seeds; evaluated on the distinct test
questions of bodies $p_test_seeds by the reference grader's rubric score s*. Power: a question's
paired difference of s* between two policies assumed to have an sd of about 0.30 (002's
measured 0.25–0.30 for coverage), so about 1,400 questions with $(wc -w <<< "$p_seeds") seed(s) detect
$(awk -v n=1400 'BEGIN { printf "%.3f", 2.80 * 0.30 / sqrt(n) }') between two methods (pooling seeds narrows it only where they disagree). RaR's
gains (Implicit over Simple-Likert up to 28 % relative on HealthBench) are of that order or
larger on a start near 0.5; the judge's own accuracy (0.53–0.58 at ordering answers, part
points) bounds what any of its rewards can teach.
EOF
}
if [[ $part == diagnosis || $part == points || $part == policy ]]; then
  [[ -f "$out/models/judge/config.json" && -f "$out/data/judge_insample.jsonl" ]] ||
    { echo "scripts/reproduce.sh 001 --part $part: run --part judges$([[ $smoke == 1 ]] && echo " --smoke") first (its workspace $out has no judge)" >&2; exit 2; }
fi
if [[ $part == policy ]]; then
  [[ -f "$out/points/judge/config.json" ]] ||
    { echo "scripts/reproduce.sh 001 --part policy: run --part points$([[ $smoke == 1 ]] && echo " --smoke") first (its workspace $out has no points-first judge)" >&2; exit 2; }
fi
if [[ ${RWB_REPRODUCE_PLAN:-0} == 1 ]]; then plan; exit 0; fi

stamp="smoke=$smoke train_seeds=$train_seeds n_train=$n_train n_test=$n_test layers=$layers epochs=$epochs vocab=$vocab"
fresh=0
if [[ $part == all ]] || [[ $part == judges && ( ! -f "$out/models/judge/config.json" || "$(cat "$out/sizes.txt" 2>/dev/null)" != "$stamp" ) ]]; then
  fresh=1
  rm -rf "$out"
fi
mkdir -p "$out"/{data,models,configs,logs}
cd "$out"
plan_file=plan.md; [[ $part == diagnosis || $part == points || $part == policy ]] && plan_file=plan-$part.md
plan > "$plan_file"
cat "$plan_file" >&2
source "$root/scripts/lib/reproduce.sh"
reproduce_begin

if [[ $part == all || $part == judges ]]; then
if [[ $fresh == 1 ]]; then
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
echo "$stamp" > sizes.txt
else
  stage "the judge of the previous run (sizes.txt: $stamp), measured again"
fi
cat > configs/judge_local.json <<EOF
{"backend": "local", "folder": "../models/judge", "temperature": 0, "max_tokens": 256, "concurrency": 16}
EOF
"$rwb" judge eval --config configs/judge_local.json --data "data/judge_$test_seed.jsonl" --no-cache --json \
  --out data/judge_eval.jsonl > logs/eval_judge.json
python3 - "$n_insample" "data/judge_$insample_seed.jsonl" > data/judge_insample.jsonl <<'PYEOF'
import json, sys
n, seen = int(sys.argv[1]), []
for line in open(sys.argv[2], encoding="utf-8"):
    q = json.loads(line)["question_id"]
    if q not in seen:
        seen.append(q)
    if len(seen) <= n:
        print(line, end="")
PYEOF
"$rwb" judge eval --config configs/judge_local.json --data data/judge_insample.jsonl --no-cache --json \
  --out data/judge_insample_eval.jsonl > logs/eval_insample.json

stage "tables"
python3 - "$out" "$n_insample" "$insample_seed" <<'PYEOF' | tee results-judges.md
import collections, json, math, sys
out, n_insample, insample_seed = sys.argv[1], sys.argv[2], sys.argv[3]
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

ins = {j["judge_kind"]: j for j in json.load(open(f"{out}/logs/eval_insample.json"))["ranking"]["judges"]}
print(f"\nThe same judge on the first {n_insample} training questions of body of law {insample_seed} (it trained on them): "
      "pairwise accuracy [95 %].\n")
print("| method | held out | trained on |")
print("| --- | --- | --- |")
for j in r["judges"]:
    i = ins.get(j["judge_kind"])
    cell = lambda x: "—" if x is None else f"{fmt(x['pairwise_accuracy'])} [{fmt((x['pairwise_interval'] or [None, None])[0])}, {fmt((x['pairwise_interval'] or [None, None])[1])}]"
    print(f"| {j['judge_kind']} | {cell(j)} | {cell(i)} |")

def target(score):  # 1 + round(9·s*), halves up, as rwb judge data writes it
    return 1 + math.floor(9 * min(max(score, 0.0), 1.0) + 0.5)
print("\nWhat the judge replies to the rating requests: its rating equal to the target r*, against always "
      "replying the commonest target (1); and the share of its replies that are 1.\n")
print("| method | on | ratings = r* | always r* = 1 | replies of 1 |")
print("| --- | --- | ---: | ---: | ---: |")
for label, path in (("held out", "judge_eval.jsonl"), ("trained on", "judge_insample_eval.jsonl")):
    rows = [json.loads(l) for l in open(f"{out}/data/{path}")]
    for kind in ("rubric_implicit", "likert_reference", "likert_simple"):
        rs = [x for x in rows if x["judge_kind"] == kind and x.get("judged_rating") is not None]
        if not rs:
            continue
        same = sum(x["judged_rating"] == target(x["score"]) for x in rs) / len(rs)
        ones = sum(target(x["score"]) == 1 for x in rs) / len(rs)
        replied_one = sum(x["judged_rating"] == 1 for x in rs) / len(rs)
        print(f"| {kind} | {label} | {same:.3f} | {ones:.3f} | {replied_one:.3f} |")
PYEOF
fi
if [[ $part == all || $part == diagnosis ]]; then
stage "diagnosis: three Reference-Likert judges from the same initial model (a: $((3 * epochs)) epochs; b: $n_more questions a body; c: points first)"
mkdir -p diagnosis/data
# The Reference-Likert lines of FILE… (in order) to stdout.
ref_lines() { python3 -c 'import json, sys
for f in sys.argv[1:]:
    for line in open(f, encoding="utf-8"):
        if json.loads(line)["judge_kind"] == "likert_reference":
            print(line, end="")' "$@"; }
ref_lines data/judge_train.jsonl > diagnosis/data/a_train.jsonl
ref_lines "data/judge_$test_seed.jsonl" > diagnosis/data/test.jsonl
ref_lines data/judge_insample.jsonl > diagnosis/data/insample.jsonl
: > diagnosis/data/b_train.jsonl
: > diagnosis/data/c_train.jsonl
for s in $train_seeds; do
  "$rwb" data synth --task legal_qa --n "$n_more" --seed "$s" --split train --out "diagnosis/data/q_$s.jsonl" \
    --corpus-out "diagnosis/data/corpus_$s.jsonl" >/dev/null
  "$rwb" rubric generate --input "diagnosis/data/q_$s.jsonl" --out "diagnosis/data/r_$s.jsonl" --from-facts >/dev/null
  "$rwb" judge data --input "diagnosis/data/r_$s.jsonl" --out "diagnosis/data/b_$s.jsonl" --seed "$s" \
    --kinds likert_reference 2>>logs/judge_data.log
  cat "diagnosis/data/b_$s.jsonl" >> diagnosis/data/b_train.jsonl
  python3 "$root/scripts/reproduce/points_first.py" "data/judge_$s.jsonl" "diagnosis/data/c_$s.jsonl" >/dev/null
  cat "diagnosis/data/c_$s.jsonl" >> diagnosis/data/c_train.jsonl
done
for v in "a $((3 * epochs))" "b $epochs" "c $((3 * epochs))"; do
  read -r name n_epochs <<< "$v"
  cat > "configs/sft_judge_$name.json" <<EOF2
{"model": "../models/judge_init", "output": "../diagnosis/judge_$name", "train_data": "../diagnosis/data/${name}_train.jsonl", "task": "chat",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "batch_size": 16,
 "epochs": $n_epochs, "max_length": 1024, "seed": 1}
EOF2
  cat > "configs/judge_local_$name.json" <<EOF2
{"backend": "local", "folder": "../diagnosis/judge_$name", "temperature": 0, "max_tokens": 256, "concurrency": 16}
EOF2
  stage "diagnosis: judge $name ($(wc -l < "diagnosis/data/${name}_train.jsonl") requests, $n_epochs epochs)"
  "$rwb" sft --config "configs/sft_judge_$name.json" --quiet > "logs/sft_judge_$name.log"
  for set in test insample; do
    "$rwb" judge eval --config "configs/judge_local_$name.json" --data "diagnosis/data/$set.jsonl" --no-cache --json \
      --out "diagnosis/eval_${name}_$set.jsonl" > "logs/eval_diagnosis_${name}_$set.json" ||
      [[ -s "logs/eval_diagnosis_${name}_$set.json" ]] # exit 1: every reply failed, which the table shows
  done
done
python3 - "$out" "$epochs" "$n_insample" "$insample_seed" "$root" <<'PYEOF' | tee results-diagnosis.md
import collections, json, math, sys
out, epochs, n_insample, insample_seed, root = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
print("## Why the judge did not learn to rate (scripts/reproduce.sh 001 --part diagnosis)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
print("Reference-Likert judges from the same initial model as part judges', measured on the same held-out "
      f"requests and on the first {n_insample} training questions of body {insample_seed}: pairwise accuracy "
      "[95 %], the share of ratings equal to r*, always replying 1, and the share of replies that are 1.\n")
def target(score):  # 1 + round(9·s*), halves up, as rwb judge data writes it
    return 1 + math.floor(9 * min(max(score, 0.0), 1.0) + 0.5)
def fmt(v):
    return "—" if v is None else f"{v:.3f}"
def row(label, requests, ep, ranking, evals):
    j = next(x for x in json.load(open(ranking))["ranking"]["judges"] if x["judge_kind"] == "likert_reference")
    lo, hi = j["pairwise_interval"] or [None, None]
    rs = [x for x in map(json.loads, open(evals)) if x["judge_kind"] == "likert_reference" and x.get("judged_rating") is not None]
    if not rs:
        return f"| {label} | {requests} | {ep} | — (all {j['failed']} replies unreadable) | — | — | — |"
    same = sum(x["judged_rating"] == target(x["score"]) for x in rs) / len(rs)
    ones = sum(target(x["score"]) == 1 for x in rs) / len(rs)
    replied = sum(x["judged_rating"] == 1 for x in rs) / len(rs)
    return f"| {label} | {requests} | {ep} | {fmt(j['pairwise_accuracy'])} [{fmt(lo)}, {fmt(hi)}] | {same:.3f} | {ones:.3f} | {replied:.3f} |"
lines = lambda f: sum(1 for _ in open(f))
print("| judge | training requests | epochs | pairwise accuracy [95 %] | ratings = r* | always 1 | replies of 1 |")
print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
for on, suffix, judge_file, eval_file in (("held out", "test", "logs/eval_judge.json", "data/judge_eval.jsonl"),
                                          ("trained on", "insample", "logs/eval_insample.json", "data/judge_insample_eval.jsonl")):
    print(f"| **{on}** | | | | | | |")
    print(row("part judges' (all four kinds)", lines(f"{out}/data/judge_train.jsonl"), epochs, f"{out}/{judge_file}", f"{out}/{eval_file}"))
    for name, label, ep in (("a", "(a) Reference-Likert alone", 3 * epochs), ("b", "(b) alone, more questions", epochs),
                            ("c", "(c) alone, points first", 3 * epochs)):
        print(row(label, lines(f"{out}/diagnosis/data/{name}_train.jsonl"), ep,
                  f"{out}/logs/eval_diagnosis_{name}_{suffix}.json", f"{out}/diagnosis/eval_{name}_{suffix}.jsonl"))

# Paired differences of pairwise accuracy on the held-out answers both judges rated.
import subprocess
def compare(kind, a, b):
    d = json.loads(subprocess.run([sys.executable, f"{root}/scripts/reproduce/judge_compare.py", kind, f"{out}/{a}", f"{out}/{b}"],
                                  check=True, capture_output=True, text=True).stdout)
    if d["difference"] is None:
        return "— (no pairs both rated) | — |"
    lo, hi = d["interval"]
    return f"{d['difference']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {d['questions']} |"
print("\n| difference of pairwise accuracy, held out | estimate [95 %] | questions |")
print("| --- | --- | ---: |")
for a, b, label in (("data/judge_eval.jsonl", "diagnosis/eval_a_test.jsonl", "(a) − part judges' Reference-Likert"),
                    ("diagnosis/eval_a_test.jsonl", "diagnosis/eval_c_test.jsonl", "(c) points first − (a)"),
                    ("data/judge_eval.jsonl", "diagnosis/eval_c_test.jsonl", "(c) points first − part judges' Reference-Likert")):
    print(f"| {label} | " + compare("likert_reference", a, b))
PYEOF
fi
if [[ $part == all || $part == points ]]; then
stage "points: part judges' judge again, its rating targets writing the points first (scripts/reproduce/points_first.py --all; $epochs epoch(s))"
# A points judge trained on this workspace's requests (points/sizes.txt) is measured again,
# not trained again.
if [[ -f points/judge/config.json && "$(cat points/sizes.txt 2>/dev/null)" == "$stamp" ]]; then
  echo "the points-first judge of the previous run (points/sizes.txt), measured again" >&2
else
rm -rf points
mkdir -p points/data
: > points/data/train.jsonl
for s in $train_seeds; do
  python3 "$root/scripts/reproduce/points_first.py" --all "data/judge_$s.jsonl" "points/data/train_$s.jsonl" >/dev/null
  cat "points/data/train_$s.jsonl" >> points/data/train.jsonl
done
cat > configs/sft_judge_points.json <<EOF2
{"model": "../models/judge_init", "output": "../points/judge", "train_data": "../points/data/train.jsonl", "task": "chat",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "batch_size": 16,
 "epochs": $epochs, "max_length": 1024, "seed": 1}
EOF2
"$rwb" sft --config configs/sft_judge_points.json --quiet > logs/sft_judge_points.log
echo "$stamp" > points/sizes.txt
fi
cat > configs/judge_local_points.json <<EOF2
{"backend": "local", "folder": "../points/judge", "temperature": 0, "max_tokens": 256, "concurrency": 16}
EOF2
"$rwb" judge eval --config configs/judge_local_points.json --data "data/judge_$test_seed.jsonl" --no-cache --json \
  --out points/eval.jsonl > logs/eval_points.json || [[ -s logs/eval_points.json ]]
"$rwb" judge eval --config configs/judge_local_points.json --data data/judge_insample.jsonl --no-cache --json \
  --out points/eval_insample.jsonl > logs/eval_points_insample.json || [[ -s logs/eval_points_insample.json ]]
python3 - "$out" "$root" "$n_insample" "$insample_seed" <<'PYEOF' | tee results-points.md
import json, subprocess, sys
out, root, n_insample, insample_seed = sys.argv[1:5]
print("## Rubrics as Rewards at judge level, the rating judges writing their points first (scripts/reproduce.sh 001 --part points)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
print("Part judges' judge trained again from the same initial model on the same requests for as long, its rating targets "
      "listing the values the rating rests on before it (the rubric's or reference's values and the response's; "
      "Simple-Likert the response's only); rubric_explicit's target as before. Pairwise accuracy against s* [95 %].\n")
fmt = lambda v: "—" if v is None else f"{v:.3f}"
cell = lambda j: "—" if j is None else f"{fmt(j['pairwise_accuracy'])} [{fmt((j['pairwise_interval'] or [None, None])[0])}, {fmt((j['pairwise_interval'] or [None, None])[1])}]"
load = lambda f: {j["judge_kind"]: j for j in json.load(open(f"{out}/logs/{f}"))["ranking"]["judges"]}
points, points_in, bare = load("eval_points.json"), load("eval_points_insample.json"), load("eval_judge.json")
def compare(kind, a, b):
    d = json.loads(subprocess.run([sys.executable, f"{root}/scripts/reproduce/judge_compare.py", kind, f"{out}/{a}", f"{out}/{b}"],
                                  check=True, capture_output=True, text=True).stdout)
    return "—" if d["difference"] is None else f"{d['difference']:+.3f} [{d['interval'][0]:+.3f}, {d['interval'][1]:+.3f}]"
print(f"| method | held out, points first | failed | Spearman ρ | trained on ({n_insample} of body {insample_seed}) | held out, bare target (part judges) | points − bare, held out |")
print("| --- | --- | ---: | ---: | --- | --- | --- |")
for kind in ("rubric_explicit", "rubric_implicit", "likert_reference", "likert_simple"):
    j = points.get(kind)
    print(f"| {kind} | {cell(j)} | {j['failed'] if j else '—'} | {fmt(j['spearman'] if j else None)} | {cell(points_in.get(kind))} | "
          f"{cell(bare.get(kind))} | {compare(kind, 'data/judge_eval.jsonl', 'points/eval.jsonl')} |")
print("\n| difference of pairwise accuracy, points-first judge, held out | estimate [95 %] | answers | questions |")
print("| --- | --- | ---: | ---: |")
for d in json.load(open(f"{out}/logs/eval_points.json"))["ranking"]["differences"]:
    lo, hi = d["interval"] or [None, None]
    est = "—" if d["difference"] is None else f"{d['difference']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
    print(f"| {d['a']} − {d['b']} | {est} | {d['answers']} | {d['questions']} |")
PYEOF
fi
if [[ $part == all || $part == policy ]]; then
stage "policy: legal questions (SFT on bodies of law $p_sft_seeds, GRPO on $p_grpo_seed, the test on $p_test_seeds, each question once), BM25 top-$k sections in each prompt"
# Its own workspace inside this one: the legal pipeline's steps (scripts/lib/legal.sh)
# work in data/, models/, configs/ of the current directory. The questions and the SFT
# start are kept when their sizes match (policy/sizes.txt); the runs are made afresh.
p_stamp="smoke=$smoke p_sft_seeds=$p_sft_seeds p_n_sft=$p_n_sft p_layers=$p_layers p_vocab=$p_vocab p_grpo_seed=$p_grpo_seed p_n_grpo=$p_n_grpo p_test_seeds=$p_test_seeds p_n_test_lines=$p_n_test_lines"
p_keep=0
[[ -f policy/models/sft/config.json && "$(cat policy/sizes.txt 2>/dev/null)" == "$p_stamp" ]] && p_keep=1
if [[ $p_keep == 1 ]]; then rm -rf policy/{runs,predictions}; else rm -rf policy; fi
mkdir -p policy/{data,models,configs,logs,runs,predictions}
cd policy
source "$root/scripts/lib/legal.sh"
if [[ $p_keep == 1 ]]; then
  echo "the questions and the SFT start of the previous run (policy/sizes.txt), kept" >&2
else
legal_sft_data "$p_sft_seeds" $p_n_sft data/sft.jsonl
legal_annotate $p_grpo_seed train $p_n_grpo data/grpo_questions.jsonl
# The rubric and rating rewards read the question's rubric from facts; a question without
# facts has none (and would stop the run), so GRPO draws from those with one.
"$rwb" rubric generate --input data/grpo_questions.jsonl --out data/grpo_rubric.jsonl --from-facts >/dev/null
python3 -c 'import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if json.loads(line).get("rubric"):
        print(line, end="")' data/grpo_rubric.jsonl > data/grpo.jsonl
legal_test_set "$p_test_seeds" $p_n_test_lines data/test.jsonl
echo "$(wc -l < data/sft.jsonl) SFT questions, $(wc -l < data/grpo.jsonl) GRPO questions with a rubric (of $p_n_grpo), $(wc -l < data/test.jsonl) distinct test questions" | tee logs/data.txt >&2

stage "policy: the SFT start (a $p_vocab-token BPE, the tiny model with $p_layers layers, 1 epoch)"
legal_sft_start $p_vocab $p_layers
echo "$p_stamp" > sizes.txt
fi
for kind in ${kinds//,/ }; do
  cat > "configs/reward_$kind.json" <<EOF2
{"name": "$kind alone", "task": "legal_qa", "components": [{"reward": "$kind", "weight": 1}],
 "judge": {"backend": "local", "folder": "$out/points/judge", "temperature": 0, "max_tokens": 256, "concurrency": 16}}
EOF2
done

stage "policy: GRPO with each method's reward ($p_steps steps × $p_prompts prompts × G 8, seeds $p_seeds), two runs at a time on one thread each; then every model on the test questions"
export -f legal_evaluate legal_grpo legal_grpo_config
export rwb
rm -f jobs.txt
queue legal_evaluate sft $p_max_new
# Seed by seed, so that a run stopped early has every method of its first seeds.
for seed in $p_seeds; do
  for kind in ${kinds//,/ }; do queue legal_grpo "${kind}_s$seed" "reward_$kind.json" "$seed" $p_steps $p_prompts $p_max_new; done
done
run_jobs

stage "policy: tables"
python3 - "$out" "$rwb" "$kinds" "$p_seeds" <<'PYEOF' | tee ../results-policy.md
import json, sqlite3, subprocess, sys
out, rwb, kinds, seeds = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4].split()
print("## Rubrics as Rewards at policy level (scripts/reproduce.sh 001 --part policy)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
n_test = sum(1 for _ in open("data/test.jsonl", encoding="utf-8"))
print(f"GRPO from the legal SFT start with each method's reward alone, asked of part points' judge; every model "
      f"evaluated greedily on {n_test} distinct test questions (bodies of law no model trained on) by the reference "
      f"grader; seeds {', '.join(seeds)} pooled. rubric_score: the true rubric score s* of the answer (RaR's "
      "evaluation); coverage and consistency: the grader's; citation F1 against the gold sections.\n")
measures = ("rubric_score", "coverage", "consistency", "citation_f1")
def compare(a, b):
    args = [rwb, "eval", "compare", "--task", "legal_qa"]
    for s in seeds:
        args += ["--a", f"predictions/{a}.jsonl" if a == "sft" else f"predictions/{a}_s{s}.jsonl"]
    for s in seeds:
        args += ["--b", f"predictions/{b}_s{s}.jsonl"]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
def cell(d):
    return f"{d['estimate']:+.3f} [{d['low']:+.3f}, {d['high']:+.3f}]"
def store_reward(name):  # the judge reward's mean over the first and the last 10 steps, and the failures
    con = sqlite3.connect(f"runs/{name}.sqlite")
    rows = con.execute("SELECT step, value FROM v_metrics WHERE name = 'reward' ORDER BY step").fetchall()
    fails = con.execute("SELECT coalesce(sum(value), 0) FROM v_metrics WHERE name = 'judge/failures'").fetchone()[0]
    calls = con.execute("SELECT coalesce(sum(value), 0) FROM v_metrics WHERE name = 'judge/calls'").fetchone()[0]
    t = con.execute("SELECT avg(value) FROM v_metrics WHERE name = 'step_time'").fetchone()[0]
    vals = [v for _, v in rows if v is not None]  # NULL: a step whose every reward was None
    k = min(10, len(vals) // 2)
    if k == 0:
        return None, None, int(fails), int(calls), t
    return sum(vals[:k]) / k, sum(vals[-k:]) / k, int(fails), int(calls), t
sft = json.load(open("predictions/sft.metrics.json"))
print("| reward | " + " | ".join(measures) + " | judge reward, first → last 10 steps (per seed) | judge calls failed | s / step |")
print("| --- | " + " | ".join("---:" for _ in measures) + " | --- | ---: | ---: |")
print("| SFT (the start) | " + " | ".join(f"{sft[m]:.3f}" for m in measures) + " | | | |")
for kind in kinds:
    ms = [json.load(open(f"predictions/{kind}_s{s}.metrics.json")) for s in seeds]
    r = [store_reward(f"{kind}_s{s}") for s in seeds]
    print(f"| {kind} | " + " | ".join(f"{sum(j[m] for j in ms) / len(ms):.3f}" for m in measures) + " | "
          + ", ".join("—" if a is None else f"{a:.3f} → {b:.3f}" for a, b, _, _, _ in r) + " | "
          + ", ".join(f"{f} of {c}" for _, _, f, c, _ in r) + " | "
          + ", ".join(f"{t:.1f}" for *_, t in r) + " |")
print("\nPaired by question, seeds pooled, 2,000 resamples [95 %]; \"detectable\": the effect this comparison "
      "detects at 80 % power, from its measured standard error.\n")
print("| comparison | Δ rubric_score | detectable | per seed | Δ coverage | Δ consistency | Δ citation F1 |")
print("| --- | --- | ---: | --- | --- | --- | --- |")
pairs = [("sft", k) for k in kinds] + [("likert_simple", "rubric_implicit"), ("likert_reference", "rubric_implicit"),
                                       ("rubric_explicit", "rubric_implicit"), ("likert_simple", "rubric_explicit"),
                                       ("likert_simple", "likert_reference")]
for a, b in pairs:
    j = compare(a, b)
    d = j["difference"]
    per = ", ".join(f"{x['rubric_score']:+.3f}" for x in (j.get("per_seed") or []))
    det = d["rubric_score"]["detectable"]  # None where every pair agrees (se 0)
    print(f"| {b} − {'SFT' if a == 'sft' else a} | {cell(d['rubric_score'])} | {'—' if det is None else f'{det:.3f}'} | {per} | "
          f"{cell(d['coverage'])} | {cell(d['consistency'])} | {cell(d['citation_f1'])} |")
PYEOF
cd ..
fi
stage "done in $(( $(date +%s) - start )) s"
