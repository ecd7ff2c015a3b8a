#!/usr/bin/env bash
# Retakes the guide's screenshots (docs/images/workbench_*_{en,ja}.png, designer_*.png)
# from the demo's workspace under Xvfb: run scripts/demo.sh first. With a legal-QA demo
# workspace (scripts/demo.sh --task legal_qa) also the legal-QA shots (*_legal_*.png).
# The judge view's shots (workbench_judge_*.png) use a store of judge decisions that the
# judge view's test writes (tst_judgedecisionview demoStore), so they need no workspace;
# so do the rubric editor's (designer_rubric_*.png): the Designer's test writes legal-QA
# samples with rubrics, a judged reward config and a judge cache holding every reply
# (tst_designerjudge demoFiles), so the Designer's judge columns fill with no server.
#   scripts/screenshots.sh [WORKSPACE [LEGAL_WORKSPACE]]
#   (defaults build/demo and build/demo-legal; RWB_SHOTS=legal: the legal-QA shots only;
#   RWB_SHOTS=judge: the judge view's only; RWB_SHOTS=rubric: the rubric editor's only;
#   RWB_SHOTS=mcts: the tree viewer's only, from build/demo-multihop or RWB_MCTS_WS;
#   RWB_SHOTS=window: every tab at 1280 × 800 and 2560 × 1440, from the worked example;
#   RWB_SHOTS=jobs: the Jobs menu's forms and dock, from the multi-hop demo with --prm)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${RWB_BUILD_DIR:-$root/build}
ws=${1:-$root/build/demo}
legal_ws=${2:-$root/build/demo-legal}
only=${RWB_SHOTS:-all}
[[ $only == legal || $only == judge || $only == rubric || $only == mcts || $only == window || $only == jobs || -f "$ws/runs.sqlite" ]] || { echo "no run store in $ws: run scripts/demo.sh first" >&2; exit 2; }
out="$root/docs/images"
# A settings folder of its own, so that the shots do not depend on (or change) yours.
export XDG_CONFIG_HOME; XDG_CONFIG_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT
rwb="$build/app/rwb/rwb"
value() { "$rwb" store sql --store "${2:-$ws/runs.sqlite}" --query "$1" | sed -E 's/^\{"v":([0-9]+)\}$/\1/'; }
shot() { # lang view png [extra args]
  local lang=$1 view=$2 png=$3; shift 3
  xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/workbench/reward-workbench" --lang "$lang" \
    --workspace "$ws" --store "$ws/runs.sqlite" --view "$view" --screenshot "$out/$png" --screenshot-delay 2500 "$@"
  echo "$out/$png"
}
legal_shots() {
  [[ -f "$legal_ws/runs.sqlite" ]] || { echo "no legal-QA run store in $legal_ws: skipped its shots" >&2; return 0; }
  local ws=$legal_ws store=$legal_ws/runs.sqlite
  # The citation + semantic run; a rollout of its last step whose citation F1 is 0 (a wrong or hallucinated citation).
  local run last rollout sample
  run=$(value "SELECT MAX(id) AS v FROM runs" "$store")
  last=$(value "SELECT MAX(step) AS v FROM steps WHERE run_id = $run" "$store")
  rollout=$(value "SELECT id AS v FROM rollouts WHERE run_id = $run AND step = $last ORDER BY json_extract(rewards_json, '\$.citation_f1'), id LIMIT 1 OFFSET 2" "$store")
  for lang in en ja; do
    shot "$lang" design "designer_legal_$lang.png" --config "$root/resources/presets/legal_citation_semantic.json" \
      --samples "$root/resources/samples/legal_qa_samples.jsonl" --select 1
    local designer=(--samples "$root/resources/samples/legal_qa_samples.jsonl" --config "$root/resources/presets/legal_citation_semantic.json")
    shot "$lang" rollouts "workbench_rollouts_legal_$lang.png" --run "$run" --rollout "$rollout" "${designer[@]}"
    shot "$lang" failures "workbench_failures_legal_$lang.png" --run "$run" --compare "0,$last" --dock runs "${designer[@]}"
    shot "$lang" curves "workbench_curves_legal_$lang.png" --run "$run" --step "$last" "${designer[@]}"
  done
  # The training setup with a judged reward config in the Designer: the Judge group says
  # which judge the run calls (the Designer is its one editor).
  local judged
  judged=$(mktemp --suffix=.json)
  cat > "$judged" <<'JSON'
{"name": "legal citation + coverage", "task": "legal_qa",
 "components": [{"reward": "citation_f1", "weight": 50}, {"reward": "coverage", "weight": 50}],
 "judge": {"url": "http://127.0.0.1:8000/v1", "model": "judge-0.5b", "concurrency": 8}}
JSON
  for lang in en ja; do
    shot "$lang" curves "workbench_setup_judge_$lang.png" --dock training \
      --samples "$root/resources/samples/legal_qa_samples.jsonl" --config "$judged"
  done
  rm -f "$judged"
}
judge_shots() {
  # A legal-QA run whose judge calls (coverage, consistency, rubric items, ratings) agree
  # with the reference grader most of the time; the shot shows one the judge got wrong.
  local dir store decision
  dir=$(mktemp -d)
  store=$dir/judge.sqlite
  RWB_JUDGE_DEMO_STORE=$store QT_QPA_PLATFORM=offscreen "$build/tests/tst_judgedecisionview" demoStore >/dev/null
  # The first coverage call whose full-coverage verdict (with text around its JSON) the
  # grader graded partial.
  decision=$(value "SELECT d.id AS v FROM judge_decisions d JOIN rollouts r ON r.id = d.rollout_id WHERE d.reward = 'coverage' AND d.verdict <> '' AND CASE WHEN json_valid(d.verdict) THEN json_extract(d.verdict, '\$.coverage') = 1 AND json_extract(d.verdict, '\$.span.form') <> 'bare' END AND json_extract(r.details_json, '\$.coverage') = 0.5 ORDER BY d.id LIMIT 1" "$store")
  for lang in en ja; do
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/workbench/reward-workbench" --lang "$lang" \
      --store "$store" --view judge --decision "$decision" --screenshot "$out/workbench_judge_$lang.png" \
      --screenshot-delay 2500
    echo "$out/workbench_judge_$lang.png"
  done
  rm -rf "$dir"
}
rubric_shots() {
  # Question q13's rubric (from its facts) in the Designer's editor, its Important item's
  # weight being edited, on sample q13-c3 (row 51: a contradiction that meets a pitfall),
  # the table scrolled to the judge columns.
  local dir
  dir=$(mktemp -d)
  RWB_RUBRIC_DEMO_DIR=$dir QT_QPA_PLATFORM=offscreen "$build/tests/tst_designerjudge" demoFiles >/dev/null
  for lang in en ja; do
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/workbench/reward-workbench" --lang "$lang" \
      --samples "$dir/samples.jsonl" --config "$dir/reward.json" --view design --select 51 --rubric-item 1 \
      --sample-column rubric_explicit --screenshot "$out/designer_rubric_$lang.png" --screenshot-delay 4000
    echo "$out/designer_rubric_$lang.png"
  done
  rm -rf "$dir"
}
# The tree viewer on the multi-hop demo's search (scripts/demo.sh --task multihop): the
# 3-hop question whose tree has the most nodes, at its third iteration (English and
# Japanese) and at its last (both), read from the run store as the demo's workbench does.
mcts_shots() {
  local mh=${RWB_MCTS_WS:-$root/build/demo-multihop}
  [[ -f "$mh/runs.sqlite" ]] || { echo "no multi-hop demo store in $mh: skipped the tree viewer's shots" >&2; return 0; }
  local tree
  tree=$(value "SELECT id AS v FROM mcts_trees WHERE run_id = (SELECT MAX(id) FROM runs WHERE kind = 'mcts') AND hops = 3 ORDER BY nodes DESC, id LIMIT 1" "$mh/runs.sqlite")
  for lang in en ja; do
    for when in early late; do
      local it=()
      [[ $when == early ]] && it=(--mcts-iteration 3)
      xvfb-run -a -s "-screen 0 1600x1000x24" "$build/app/workbench/reward-workbench" --lang "$lang" \
        --mcts "$mh/runs.sqlite" --mcts-tree "$tree" "${it[@]}" --screenshot "$out/mcts_tree_${when}_$lang.png" --screenshot-delay 2500
      echo "$out/mcts_tree_${when}_$lang.png"
    done
  done
}
# Fewer colours, a third of the bytes, where Pillow is there (python3 -c "import PIL").
shrink() { python3 -c 'import sys; from PIL import Image
for p in sys.argv[1:]: Image.open(p).convert("RGB").quantize(256, method=2).save(p, optimize=True)' "$@" 2>/dev/null || true; }
window_shots() {
  # Every tab at a laptop's 1280 × 800 and at 2560 × 1440, in both languages, on the
  # worked example's run (examples/invoices/run.sh; RWB_WINDOW_WS).
  local ex=${RWB_WINDOW_WS:-$root/build/example-invoices}
  [[ -f "$ex/runs.sqlite" ]] || { echo "no run store in $ex: run examples/invoices/run.sh first; skipped the window's shots" >&2; return 0; }
  for size in 1280x800 2560x1440; do
    for lang in en ja; do
      for view in design curves groups rollouts failures judge; do
        local png="$out/window-${size%%x*}-$view-$lang.png"
        xvfb-run -a -s "-screen 0 ${size}x24" "$build/app/workbench/reward-workbench" --lang "$lang" --workspace "$ex" \
          --store "$ex/runs.sqlite" --run 1 --view "$view" --window-size "$size" --screenshot "$png" --screenshot-delay 3000
        shrink "$png"; echo "$png"
      done
    done
  done
}
job_shots() {
  # Each Jobs menu form over the multi-hop demo's workspace (scripts/demo.sh --task
  # multihop --prm), and the Jobs dock following a PRM training.
  local mh=${RWB_MCTS_WS:-$root/build/demo-multihop}
  [[ -f "$mh/runs.sqlite" && -d "$mh/models/prm" ]] || { echo "no multi-hop demo with a PRM in $mh (scripts/demo.sh --task multihop --prm): skipped the jobs' shots" >&2; return 0; }
  "$rwb" judge data --input "$root/resources/samples/legal_qa_samples.jsonl" --out "$mh/data/judge_labels.jsonl" --limit 6 >/dev/null
  printf '{"url": "http://127.0.0.1:8000/v1", "model": "judge-0.5b", "concurrency": 8}\n' > "$mh/configs/judge.json"
  local wb=("$build/app/workbench/reward-workbench" --workspace "$mh")
  for lang in en ja; do
    local args
    for job in mcts prm-pairs prm-train prm-rft judge-eval import; do
      case $job in
        prm-pairs) args=(--job-value judge=reference) ;;
        prm-rft) args=(--job-value "questions=$mh/data/q_8.jsonl" --job-value "index=$mh/data/kb_8.sqlite") ;;
        judge-eval) args=(--job-value "config=$mh/configs/judge.json" --job-value "data=$mh/data/judge_labels.jsonl") ;;
        import) args=(--job-value "input=$root/tests/data/import/trl_jsonl") ;;
        *) args=() ;;
      esac
      xvfb-run -a -s "-screen 0 1280x800x24" "${wb[@]}" --lang "$lang" --job "$job" "${args[@]}" \
        --screenshot "$out/job-$job-$lang.png" --screenshot-delay 3000
      shrink "$out/job-$job-$lang.png"; echo "$out/job-$job-$lang.png"
    done
    # The dock after a PRM training of 8 epochs (about 50 s on 2 cores).
    xvfb-run -a -s "-screen 0 1920x1080x24" "${wb[@]}" --lang "$lang" --job prm-train --job-value epochs=8 \
      --job-value eval_every=4 --job-start --screenshot "$out/job-dock-prm-$lang.png" --screenshot-delay 60000
    shrink "$out/job-dock-prm-$lang.png"; echo "$out/job-dock-prm-$lang.png"
  done
}
if [[ $only == window ]]; then window_shots; exit 0; fi
if [[ $only == jobs ]]; then job_shots; exit 0; fi
if [[ $only == mcts ]]; then mcts_shots; exit 0; fi
if [[ $only == legal ]]; then legal_shots; exit 0; fi
if [[ $only == judge ]]; then judge_shots; exit 0; fi
if [[ $only == rubric ]]; then rubric_shots; exit 0; fi
last_step=$(value "SELECT MAX(step) AS v FROM steps WHERE run_id = (SELECT MAX(id) FROM runs)")
# A rollout of the last step with a low marker reward (a failed extraction).
rollout=$(value "SELECT id AS v FROM rollouts WHERE run_id = (SELECT MAX(id) FROM runs) AND step = $last_step ORDER BY json_extract(rewards_json, '\$.marker'), id LIMIT 1 OFFSET 3")
# A live run: the demo's GRPO config into a scratch store, shot 70 s after it starts.
live=$(mktemp -d)
sed -e "s|\"store\": \"[^\"]*\"|\"store\": \"$live/live.sqlite\"|; s|\"output\": \"[^\"]*\"|\"output\": \"$live/out\"|; s|\"run_name\": \"[^\"]*\"|\"run_name\": \"demo-live\"|" \
  "$ws/configs/grpo.json" > "$ws/configs/grpo-live.json"
for lang in en ja; do
  rm -rf "${live:?}"/*
  shot "$lang" curves "workbench_training_$lang.png" --train "$ws/configs/grpo-live.json" --screenshot-delay 70000
done
rm -rf "$live" "$ws/configs/grpo-live.json"
for lang in en ja; do
  shot "$lang" design "designer_$lang.png" --config "$root/resources/presets/table2_star_partial20_marker80.json" \
    --samples "$root/resources/samples/company_samples.jsonl" --select 6
  shot "$lang" curves "workbench_curves_$lang.png" --step "$last_step"
  shot "$lang" groups "workbench_groups_$lang.png" --step "$last_step" --rollout "$rollout"
  shot "$lang" rollouts "workbench_rollouts_$lang.png" --rollout "$rollout"
  shot "$lang" failures "workbench_failures_$lang.png" --compare "0,$last_step" --dock runs
  shot "$lang" curves "workbench_setup_$lang.png" --dock training
done
legal_shots
judge_shots
rubric_shots
mcts_shots
window_shots
job_shots
