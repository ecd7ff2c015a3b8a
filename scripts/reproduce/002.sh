#!/usr/bin/env bash
# scripts/reproduce.sh 002: the legal-QA paper (GRPO with semantic reward proxies) at
# reduced scale. Called by scripts/reproduce.sh, which sets RWB_REPRODUCE_{ROOT,OUT,PART,SMOKE,PLAN}.
#
# Part grpo: the paper's table 1 in its two headline comparisons, from a start with room
# to improve (the quick recipe's SFT: citation F1 about 0.75, where the demo's full SFT
# starts at 0.93 of a 0.98 bound). GRPO with the citation rewards only, and with the
# citation rewards + the semantic answer reward, three seeds each; every model evaluated
# greedily on every distinct question about five bodies of law no stage trained on (the
# generator repeats a body's questions: 2,000 lines give about 270 distinct), each run
# against the SFT start and the two reward sets against each other, paired by question
# (rwb eval compare, seeds pooled).
#
# Part cost (after grpo, in the same workspace): the paper's appendix A, the cost of an
# LLM judge's coverage + consistency against the semantic reward, in CPU-seconds per step
# (the trainer's and the judge server's, both counted) with the judge client's reuse of
# replies and without it ("memo": false), from the same SFT start, once with each of
# several seeds (the ratio's interval is over them). The judge: the tiny
# model distilled from the reference grader as the demo's (scripts/demo.sh --task
# legal_qa --judge), served by rwb serve on loopback.
#
# Part ood (after grpo; makes the judge if cost has not): the paper's claim that the
# judge's reward generalises where the semantic one does not (its NitiBench-Tax, appendix
# F: there similarity no longer tracks coverage and consistency), as a split built for
# it. For test questions about bodies of law no stage saw, answers made from the
# reference (rwb judge data: right, a fact vague, a value changed, both, another
# question's answer) and "terse": the facts' values alone, right with little of the
# reference's wording. Each answer scored by the semantic reward and by the judge's
# coverage + consistency, as in GRPO, against the reference grader's truth (coverage +
# consistency) / 2: pairwise accuracy over pairs of answers to one question whose truth
# differs, in domain (the five kinds the judge trained on) and on the divergent pairs
# (terse against a wrong value in the reference's words), 95 % intervals over questions.
set -euo pipefail
root=$RWB_REPRODUCE_ROOT
out=$RWB_REPRODUCE_OUT
part=$RWB_REPRODUCE_PART
smoke=$RWB_REPRODUCE_SMOKE
case "$part" in all|grpo|cost|ood) ;; *) echo "scripts/reproduce.sh 002: --part is grpo, cost or ood, not \"$part\"" >&2; exit 2 ;; esac
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"
source "$root/scripts/lib/legal.sh"

# The sizes, chosen before running (the plan below says what they can show).
if [[ $smoke == 1 ]]; then
  sft_seeds="2 3"; n_sft=200; layers=1; n_grpo=24; grpo_steps=2; prompts=2; grpo_seeds="1"
  test_seeds="1 9"; n_test_lines=60; judge_questions=10; judge_layers=1; judge_epochs=1; cost_steps=2; cost_seeds="1 2"; ood_per_body=5
else
  sft_seeds="2 3 4 5 6 7"; n_sft=1600; layers=2; n_grpo=400; grpo_steps=100; prompts=8; grpo_seeds="1 2 3"
  test_seeds="1 9 10 11 12"; n_test_lines=2000; judge_questions=334; judge_layers=4; judge_epochs=2; cost_steps=5; cost_seeds="1 2 3 4 5"; ood_per_body=100
fi
grpo_seed=8; k=3; vocab=2048; max_new=128
n_grpo_seeds=$(wc -w <<< "$grpo_seeds")

plan() {
  cat <<EOF
# Plan of scripts/reproduce.sh 002 --part $part$([[ $smoke == 1 ]] && echo " --smoke (sizes for a pipeline check only)")

Written before running.

| comparison | the paper (table 1, NitiBench-CCL) | measure | questions | detectable at 80 % power |
| --- | --- | --- | ---: | ---: |
| SFT → GRPO (citation + semantic) against SFT | citation F1 +0.08 to +0.13 | paired Δ citation F1, $n_grpo_seeds seeds pooled | every distinct test question (about 1,350) | $(awk 'BEGIN { printf "%.3f", 2.80 * 0.30 / sqrt(1000) }') or less |
| SFT → GRPO (citation only) against SFT | citation F1 up, coverage and consistency down | paired Δ citation F1, Δ coverage | the same | the same |
| citation + semantic against citation only | coverage higher with the answer reward | paired Δ coverage | the same | the same |

Power: a question's paired difference of citation F1 (or coverage, in steps of 0.5) is at
most 1 in size; assumed sd 0.30 (not measured before the run: the demo's one-run table had
no per-question figures), which on 1,000 questions detects 0.027, a fifth of the paper's
citation-F1 gain. The run prints the measured standard error and the effect it detects.
The intervals resample questions with every seed's prediction of them, so they are over
questions for these runs, not over training seeds; each seed's own difference is printed
too.

Sizes: the quick recipe's SFT start (\`scripts/demo.sh --task legal_qa --quick\`): the tiny
model ($layers layers, vocabulary $vocab) from scratch on $n_sft training questions (+ a quarter
each of val and test questions) about each of the bodies of law $sft_seeds, BM25 top-$k
sections in each prompt, 1 epoch, lr 2e-3 cosine. GRPO as the demo's: $n_grpo questions about
body $grpo_seed, $grpo_steps steps × $prompts prompts × G 8, temperature 0.8, LoRA r 16, lr 2e-3
cosine, $max_new new tokens, seeds $grpo_seeds. Test: $n_test_lines lines of each of the bodies $test_seeds
(test split: their held-out statutes), each question once, with its own body's BM25
top-$k; evaluated greedily.
Part cost: \`rwb bench grpo-step\` ($cost_steps steps, G 8, 8 prompts, the trainer on 1 thread; once with
each seed $cost_seeds, the three rewards in turn within a seed)
from the SFT start with (a) the citation rewards + semantic (lexical), (b) + the judge's
coverage and consistency (0.5 each) through rwb serve (1 thread, batch up to 32), the
client reusing replies, (c) the same with "memo": false. CPU-seconds per step = the
trainer's CPU time in its steps + the server's over the bench, per step; the ratio to
semantic's with a 95 % t-interval over the seeds (each seed's samples decide how many
replies can be reused). The judge: the
demo's six-body judge (\`scripts/demo.sh --task legal_qa --judge\`, which agreed with the grader
0.77): the tiny model ($judge_layers layers) distilled from the reference grader on $judge_questions questions of
each SFT body of law, $judge_epochs epoch(s).
Part ood: the first $ood_per_body distinct test questions of each of the bodies $test_seeds, their
answers of six kinds (about 6 a question); pairwise accuracy of each reward against the
grader's truth, in domain and on the divergent pairs, with the paired difference judge −
semantic. Half-width of a 95 % interval for an accuracy near 0.8 on
$(( ood_per_body * $(wc -w <<< "$test_seeds") )) questions: about $(awk -v n=$(( ood_per_body * $(wc -w <<< "$test_seeds") )) 'BEGIN { printf "%.3f", 1.96 * sqrt(0.16 / n) }') (one divergent pair or two a question).
EOF
}
if [[ ${RWB_REPRODUCE_PLAN:-0} == 1 ]]; then plan; exit 0; fi

if [[ $part == cost || $part == ood ]]; then
  [[ -f "$out/models/sft/config.json" && "$(cat "$out/sizes.txt" 2>/dev/null)" == "smoke=$smoke" ]] ||
    { echo "scripts/reproduce.sh 002 --part $part: run --part grpo$([[ $smoke == 1 ]] && echo " --smoke") first (it makes the SFT start and the test questions in $out)" >&2; exit 2; }
else
  rm -rf "$out"
fi
mkdir -p "$out"/{data,models,configs,logs,runs,predictions}
cd "$out"
echo "smoke=$smoke" > sizes.txt
plan_file=plan.md; [[ $part == all || $part == grpo ]] || plan_file=plan-$part.md
plan > "$plan_file"
cat "$plan_file" >&2
source "$root/scripts/lib/reproduce.sh"
reproduce_begin

legal_reward_configs $grpo_seed lexical

if [[ $part == all || $part == grpo ]]; then
stage "legal questions: SFT on bodies of law $sft_seeds, GRPO on $grpo_seed, the test on $test_seeds (each question once), BM25 top-$k sections in each prompt"
legal_sft_data "$sft_seeds" $n_sft data/sft.jsonl
legal_annotate $grpo_seed train $n_grpo data/grpo.jsonl
legal_test_set "$test_seeds" $n_test_lines data/test.jsonl
n_test=$(wc -l < data/test.jsonl)
echo "$(wc -l < data/sft.jsonl) SFT questions, $n_grpo GRPO questions, $n_test distinct test questions" | tee logs/data.txt >&2

stage "the SFT start: a $vocab-token BPE and the tiny model ($layers layers) from scratch, 1 epoch"
legal_sft_start $vocab $layers

stage "GRPO: citation only and citation + semantic, seeds $grpo_seeds, two runs at a time on one thread each; then every model on the $n_test test questions"
export -f legal_evaluate legal_grpo legal_grpo_config
export rwb prompts max_new grpo_steps
rm -f jobs.txt
queue legal_evaluate sft $max_new
for seed in $grpo_seeds; do
  queue legal_grpo citation_s$seed reward_citation.json $seed $grpo_steps $prompts $max_new
  queue legal_grpo semantic_s$seed reward_citation_semantic.json $seed $grpo_steps $prompts $max_new
done
run_jobs

stage "each run against the SFT start, and the two reward sets against each other, paired by question, seeds pooled"
{
  echo "## The legal-QA paper's table 1 at reduced scale (scripts/reproduce.sh 002 --part grpo)"
  echo; cat machine.txt; echo
  echo "$n_test distinct test questions about bodies of law no stage trained on ($test_seeds); $n_grpo_seeds seeds a reward set; greedy decoding."
  echo
  sft=(); cit=(); sem=(); cit_b=()
  for seed in $grpo_seeds; do
    sft+=(--a predictions/sft.jsonl); cit+=(--b "predictions/citation_s$seed.jsonl")
    sem+=(--b "predictions/semantic_s$seed.jsonl"); cit_b+=(--a "predictions/citation_s$seed.jsonl")
  done
  echo "### SFT → GRPO with the citation rewards only, against SFT"; echo
  "$rwb" eval compare "${sft[@]}" "${cit[@]}" --task legal_qa --effect 0.05 --markdown --label-a SFT --label-b "citation only"
  echo; echo "### SFT → GRPO with the citation rewards + semantic, against SFT"; echo
  "$rwb" eval compare "${sft[@]}" "${sem[@]}" --task legal_qa --effect 0.05 --markdown --label-a SFT --label-b "citation + semantic"
  echo; echo "### citation + semantic against citation only"; echo
  "$rwb" eval compare "${cit_b[@]}" "${sem[@]}" --task legal_qa --effect 0.05 --markdown --label-a "citation only" --label-b "citation + semantic"
  echo
  echo "Each seed's difference (JSON \"per_seed\", citation F1 and coverage):"; echo
  echo "| comparison | seed | Δ citation F1 | Δ coverage |"
  echo "| --- | ---: | ---: | ---: |"
  for pair in "SFT|citation only|sft_a|cit" "SFT|citation + semantic|sft_a|sem" "citation only|citation + semantic|cit_a|sem"; do
    IFS='|' read -r la lb sa sb <<< "$pair"
    a=(); b=()
    for seed in $grpo_seeds; do
      case $sa in sft_a) a+=(--a predictions/sft.jsonl) ;; cit_a) a+=(--a "predictions/citation_s$seed.jsonl") ;; esac
      case $sb in cit) b+=(--b "predictions/citation_s$seed.jsonl") ;; sem) b+=(--b "predictions/semantic_s$seed.jsonl") ;; esac
    done
    "$rwb" eval compare "${a[@]}" "${b[@]}" --task legal_qa | python3 -c '
import json, sys
j = json.load(sys.stdin)
for k, d in enumerate(j.get("per_seed") or []):
    print("| %s − %s | %d | %+.3f | %+.3f |" % (sys.argv[2], sys.argv[1], k + 1, d["citation_f1"], d["coverage"]))
' "$la" "$lb"
  done
} | tee results-grpo.md
fi

make_judge() { # the judge of parts cost and ood, once
  [[ -f models/judge/config.json ]] && return 0
stage "the judge: the tiny model ($judge_layers layers) distilled from the reference grader ($judge_questions questions of each SFT body of law, $judge_epochs epoch(s))"
legal_make_judge "$sft_seeds" $judge_questions $judge_layers $judge_epochs logs/sft_judge.log
}

if [[ $part == all || $part == cost ]]; then
make_judge
stage "CPU-seconds per GRPO step: semantic, the judge with reuse, the judge without ($cost_steps steps each, seeds $cost_seeds)"
legal_serve_judge logs --max-batch 32 --dtype float32
for memo in true false; do
  cat > "configs/reward_judge_memo_$memo.json" <<EOF
{"name": "citation + judge", "task": "legal_qa", "components": [
 {"reward": "xml_format", "weight": 1}, {"reward": "non_hallucination", "weight": 1}, {"reward": "citation_f1", "weight": 1},
 {"reward": "coverage", "weight": 0.5}, {"reward": "consistency", "weight": 0.5}],
 "judge": {"url": "$judge_url", "model": "judge", "temperature": 0, "max_tokens": 256, "concurrency": 16,
  "retries": 2, "timeout": 120, "memo": $memo}}
EOF
done
server_cpu() { # the server's CPU time so far, in seconds (utime + stime of /proc/PID/stat)
  awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$serve_pid/stat"
}
bench() { # NAME REWARD SEED
  legal_grpo_config "cost_$1" "$2" "$3" $grpo_steps $prompts $max_new
  rm -rf "cost/$1"; mkdir -p "cost/$1"
  local before; before=$(server_cpu)
  "$rwb" bench grpo-step --config "configs/grpo_cost_$1.json" --steps $cost_steps --work "cost/$1" --precision fp32 \
    > "logs/cost_$1.json" 2> "logs/cost_$1.err"
  echo "$before $(server_cpu)" > "logs/cost_$1.server"
  "$rwb" store sql --store "cost/$1/bench.sqlite" --query "SELECT name, avg(value) AS value FROM v_metrics WHERE name LIKE 'judge/%' GROUP BY name" \
    > "logs/cost_$1.judge.jsonl"
}
for seed in $cost_seeds; do
  bench "semantic_s$seed" reward_citation_semantic.json "$seed"
  bench "judge_memo_s$seed" reward_judge_memo_true.json "$seed"
  bench "judge_no_memo_s$seed" reward_judge_memo_false.json "$seed"
done
legal_stop_judge
python3 - "$out" "$cost_steps" $cost_seeds <<'PYEOF' | tee results-cost.md
import json, math, statistics, sys
out, steps, seeds = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("## The judge's cost in a GRPO step (scripts/reproduce.sh 002 --part cost; the paper's appendix A)\n")
print(open(f"{out}/machine.txt").read().strip() + "\n")
print(f"From the SFT start, {steps} steps each, G 8, the trainer on 1 thread; the judge served by rwb serve "
      "(1 thread) on the same 2 cores. CPU-seconds: the trainer's in its steps + the server's over the bench, per step.\n")
print(f"Each reward benched once with each of the seeds {', '.join(seeds)} (the three in turn within a seed); "
      "the columns are means over the seeds, the ratio's interval a 95 % t-interval over the seeds' ratios.\n")
# Student's t, two-sided 95 %, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
def measure(name):
    b = json.load(open(f"{out}/logs/cost_{name}.json"))
    before, after = map(float, open(f"{out}/logs/cost_{name}.server").read().split())
    server = (after - before) / b["steps"] if not name.startswith("semantic") else 0.0
    judge = {r["name"]: r["value"] for r in map(json.loads, open(f"{out}/logs/cost_{name}.judge.jsonl"))}
    calls, hits = judge.get("judge/calls"), judge.get("judge/cache_hits")
    return {"wall": b["wall_seconds_per_step"], "trainer": b["cpu_seconds_per_step"], "server": server,
            "total": b["cpu_seconds_per_step"] + server, "calls": calls,
            "sent": None if calls is None or hits is None else calls - hits}
rewards = (("semantic", "semantic (lexical)"), ("judge_memo", "judge coverage + consistency, replies reused"),
           ("judge_no_memo", "judge coverage + consistency, every call sent (\"memo\": false)"))
m = {name: [measure(f"{name}_s{seed}") for seed in seeds] for name, _ in rewards}
def mean(name, key):
    v = [r[key] for r in m[name]]
    return None if any(x is None for x in v) else statistics.fmean(v)
def interval(v):
    if len(v) < 2:
        return ""
    h = T95.get(len(v) - 1, 1.96) * statistics.stdev(v) / math.sqrt(len(v))
    return f" [{statistics.fmean(v) - h:.2f}, {statistics.fmean(v) + h:.2f}]"
f = lambda v, d=2: "—" if v is None else f"{v:.{d}f}"
print("| answer reward | wall s / step | trainer CPU-s / step | judge server CPU-s / step | CPU-s / step | × semantic [95 %] | per seed | judge calls / step | sent / step |")
print("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |")
for name, label in rewards:
    ratios = [r["total"] / s["total"] for r, s in zip(m[name], m["semantic"])]
    server = mean(name, "server")
    base = name == "semantic"
    print(f"| {label} | {f(mean(name, 'wall'))} | {f(mean(name, 'trainer'))} | {f(server if server else None)} | "
          f"{f(mean(name, 'total'))} | {'1×' if base else f'{statistics.fmean(ratios):.2f}×{interval(ratios)}'} | "
          f"{'—' if base else ', '.join(f'{x:.2f}' for x in ratios)} | "
          f"{f(mean(name, 'calls'), 0)} | {f(mean(name, 'sent'), 0)} |")
PYEOF
fi
if [[ $part == all || $part == ood ]]; then
make_judge
stage "out of domain: answers of six kinds to $ood_per_body test questions of each body $test_seeds, scored by semantic and by the judge"
python3 - "$ood_per_body" $test_seeds > data/ood_questions.jsonl <<'PYEOF'
import json, sys
per_body, seeds = int(sys.argv[1]), sys.argv[2:]
counts = {s: 0 for s in seeds}
for line in open("data/test.jsonl"):
    q = json.loads(line)
    body = q["id"].split("-", 1)[0][len("body"):]
    if body in counts and counts[body] < per_body:
        counts[body] += 1
        print(line, end="")
PYEOF
"$rwb" judge data --input data/ood_questions.jsonl --out data/ood_answers.jsonl --seed 1 \
  --answers right,vague,wrong,wrong_vague,other,terse 2> logs/ood_judge_data.log
# Each answer as a completion of its question, for rwb reward score.
python3 - > data/ood_completions.jsonl <<'PYEOF'
import json
questions = {q["id"]: q for q in map(json.loads, open("data/ood_questions.jsonl"))}
for line in open("data/ood_answers.jsonl"):
    a = json.loads(line)
    q = dict(questions[a["id"].rsplit("-", 1)[0]])
    q["id"] = a["id"]
    q["completion"] = f"<reasoning></reasoning><answer>{a['answer']}</answer><citation></citation>"
    print(json.dumps(q, ensure_ascii=False))
PYEOF
cat > configs/reward_ood_semantic.json <<EOF
{"task": "legal_qa", "embedding": "lexical", "embedding_corpus": "../data/corpus_$grpo_seed.jsonl",
 "components": [{"reward": "semantic", "weight": 1}]}
EOF
cat > configs/reward_ood_judge.json <<EOF
{"task": "legal_qa", "components": [{"reward": "coverage", "weight": 0.5}, {"reward": "consistency", "weight": 0.5}],
 "judge": {"backend": "local", "folder": "../models/judge", "temperature": 0, "max_tokens": 256, "concurrency": 16}}
EOF
"$rwb" reward score --config configs/reward_ood_semantic.json --input data/ood_completions.jsonl --output data/ood_semantic.jsonl
"$rwb" reward score --config configs/reward_ood_judge.json --input data/ood_completions.jsonl --output data/ood_judge.jsonl \
  --no-cache --summary > logs/ood_judge_summary.txt
python3 "$root/scripts/reproduce/ood.py" "$out" | tee results-ood.md
fi
stage "done in $(( $(date +%s) - start )) s"
