# The legal-QA pipeline's shared steps, sourced by scripts/demo-legal.sh and
# scripts/reproduce/002.sh. Each runs in the workspace (the current directory, with
# data/, models/, configs/) and expects $rwb (the rwb binary) and $k (BM25 sections in
# each prompt) to be set.

# legal_annotate SEED SPLIT N OUT: N questions of body of law SEED's SPLIT
# (data/q_SEED_SPLIT.jsonl), its statutes (data/corpus_SEED.jsonl) and their BM25 index
# (data/index_SEED.sqlite, made once), and OUT: each question with its top-$k sections.
legal_annotate() {
  "$rwb" data synth --task legal_qa --n "$3" --seed "$1" --split "$2" --out "data/q_$1_$2.jsonl" \
    --corpus-out "data/corpus_$1.jsonl" >/dev/null
  [[ -f "data/index_$1.sqlite" ]] || "$rwb" retrieve index --corpus "data/corpus_$1.jsonl" --out "data/index_$1.sqlite" >/dev/null
  "$rwb" retrieve annotate --index "data/index_$1.sqlite" --input "data/q_$1_$2.jsonl" --query-field question \
    --k "$k" --out "$4" >/dev/null
}

# legal_sft_data "SEEDS" N OUT: the SFT start's questions, each body of law in SEEDS: N of
# its train split and N/4 of its val and test splits (data/sft_SEED_SPLIT.jsonl), into OUT.
legal_sft_data() {
  local s split n
  : > "$3"
  for s in $1; do
    for split in train val test; do
      n=$2; [[ $split == train ]] || n=$(( $2 / 4 ))
      legal_annotate "$s" "$split" "$n" "data/sft_${s}_$split.jsonl"
      cat "data/sft_${s}_$split.jsonl" >> "$3"
    done
  done
}

# legal_test_set "SEEDS" N OUT: the test split of each body of law in SEEDS (N lines of
# each, data/test_SEED.jsonl), each distinct question once, into OUT, ids made unique
# across bodies (body9-…; the generator repeats a body's questions, and its ids restart
# with every body).
legal_test_set() {
  local s
  for s in $1; do legal_annotate "$s" test "$2" "data/test_$s.jsonl"; done
  python3 - $1 > "$3" <<'PYEOF'
import json, sys
for seed in sys.argv[1:]:
    seen = set()
    for line in open(f"data/test_{seed}.jsonl", encoding="utf-8"):
        q = json.loads(line)
        if q["question"] in seen:
            continue
        seen.add(q["question"])
        q["id"] = f"body{seed}-{q['id']}"
        print(json.dumps(q, ensure_ascii=False))
PYEOF
}

# legal_sft_start VOCAB LAYERS: the SFT start (models/sft) on data/sft.jsonl: a VOCAB-token
# BPE and the tiny model (LAYERS layers) from scratch, one epoch, the target only in the
# loss (the quick recipe; rwb sft's JSON in logs/sft.log).
legal_sft_start() {
  "$rwb" data corpus --task legal_qa --input data/sft.jsonl --out data/corpus.txt >/dev/null
  "$rwb" tokenizer train --input data/corpus.txt --vocab-size "$1" --out models/tokenizer >/dev/null
  "$rwb" model init --tokenizer models/tokenizer --out models/tiny --layers "$2" --seed 1 >/dev/null
  cat > configs/sft.json <<EOF
{"model": "../models/tiny", "output": "../models/sft", "train_data": "../data/sft.jsonl", "task": "legal_qa",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.05, "batch_size": 16,
 "gradient_accumulation": 1, "epochs": 1, "prompt_loss_weight": 0, "seed": 1}
EOF
  "$rwb" sft --config configs/sft.json --quiet > logs/sft.log
}

# legal_grpo_config NAME REWARD SEED STEPS PROMPTS MAX_NEW: configs/grpo_NAME.json, GRPO as
# the demo's from models/sft on data/grpo.jsonl (G 8, temperature 0.8, LoRA r 16, lr 2e-3
# cosine, one thread) with the reward config REWARD (relative to configs/), its store and
# adapter in runs/.
legal_grpo_config() {
  cat > "configs/grpo_$1.json" <<EOF
{"model": "../models/sft", "train_data": "../data/grpo.jsonl", "reward_config": "$2",
 "store": "../runs/$1.sqlite", "output": "../runs/$1", "run_name": "$1",
 "num_generations": 8, "prompts_per_step": $5, "max_completion_length": $6, "temperature": 0.8,
 "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "lora_r": 16, "max_steps": $4,
 "eval_every": 0, "checkpoint_every": $4, "seed": $3, "threads": 1}
EOF
}

# legal_evaluate NAME MAX_NEW [ADAPTER]: models/sft (with ADAPTER) on data/test.jsonl,
# greedy, one thread: predictions/NAME.jsonl and its metrics predictions/NAME.metrics.json.
legal_evaluate() {
  "$rwb" eval run --model models/sft ${3:+--adapter "$3"} --data data/test.jsonl --task legal_qa \
    --max-new-tokens "$2" --threads 1 --output "predictions/$1.jsonl" > "predictions/$1.metrics.json"
}

# legal_grpo NAME REWARD SEED STEPS PROMPTS MAX_NEW: GRPO as legal_grpo_config says (its
# JSON in logs/NAME.json), then its final adapter evaluated as legal_evaluate does. For
# run_jobs: export -f legal_grpo legal_grpo_config legal_evaluate, and export rwb.
legal_grpo() {
  legal_grpo_config "$@"
  "$rwb" grpo --config "configs/grpo_$1.json" --quiet > "logs/$1.json"
  legal_evaluate "$1" "$6" "runs/$1/final"
}

# legal_reward_configs GRPO_SEED EMBEDDING: the paper's citation rewards without an answer
# reward (configs/reward_citation.json) and with the semantic one under EMBEDDING, its
# IDF from body GRPO_SEED's statutes (configs/reward_citation_semantic.json).
legal_reward_configs() {
  cat > configs/reward_citation.json <<EOF
{"name": "citation only (w/o answer reward)", "task": "legal_qa", "components": [
 {"reward": "xml_format", "weight": 1}, {"reward": "non_hallucination", "weight": 1}, {"reward": "citation_f1", "weight": 1}]}
EOF
  cat > configs/reward_citation_semantic.json <<EOF
{"name": "citation + semantic", "task": "legal_qa", "embedding": "$2", "embedding_corpus": "../data/corpus_$1.jsonl",
 "components": [{"reward": "xml_format", "weight": 1}, {"reward": "non_hallucination", "weight": 1},
 {"reward": "citation_f1", "weight": 1}, {"reward": "semantic", "weight": 1}]}
EOF
}

# legal_make_judge "SEEDS" QUESTIONS LAYERS EPOCHS LOG: a judge distilled from the reference
# grader (models/judge). Its data: for QUESTIONS training questions of each body of law
# in SEEDS (data/q_SEED_train.jsonl), answers made from the reference (right, a fact left
# vague, a value changed, both, another question's answer), labelled by the grader, as
# the coverage / consistency rewards' exact request and the verdict JSON; from several
# bodies of law, so that the judge must read the values in the request rather than learn
# one body's by heart. Its own tokenizer: the judge's prompt is mostly English
# instructions, which the policy's 2,048 tokens (learned on the Japanese answers) cut
# into ~1,600 tokens; 4,096 learned on the requests make it ~400. rwb sft's JSON goes to
# LOG, its progress line to the terminal.
legal_make_judge() {
  local s
  : > data/judge_train.jsonl
  for s in $1; do
    "$rwb" judge data --input "data/q_${s}_train.jsonl" --out "data/judge_$s.jsonl" --seed "$s" --limit "$2" >/dev/null
    cat "data/judge_$s.jsonl" >> data/judge_train.jsonl
  done
  head -n 3000 data/judge_train.jsonl > data/judge_corpus_lines.jsonl
  "$rwb" data corpus --task chat --input data/judge_corpus_lines.jsonl --out data/judge_corpus.txt >/dev/null
  "$rwb" tokenizer train --input data/judge_corpus.txt --input data/corpus.txt --vocab-size 4096 \
    --out models/judge_tokenizer >/dev/null
  "$rwb" model init --tokenizer models/judge_tokenizer --out models/judge_init --layers "$3" --seed 1 >/dev/null
  cat > configs/sft_judge.json <<EOF
{"model": "../models/judge_init", "output": "../models/judge", "train_data": "../data/judge_train.jsonl", "task": "chat",
 "lora": false, "learning_rate": 0.002, "schedule": "cosine", "warmup_ratio": 0.03, "batch_size": 16,
 "epochs": $4, "max_length": 768, "seed": 1}
EOF
  "$rwb" sft --config configs/sft_judge.json > "$5"
}

# legal_serve_judge DIR [OPTION …]: models/judge served by rwb serve on a free loopback
# port (1 thread, and the OPTIONs), in the background, its output in DIR/serve.out and
# DIR/serve.err; sets serve_pid and judge_url (…/v1) once it answers, and a trap that
# stops it on exit. Exits naming the server's error if it does not start.
legal_serve_judge() {
  local dir=$1; shift
  "$rwb" serve --model models/judge --port 0 --name judge --threads 1 "$@" --quiet > "$dir/serve.out" 2> "$dir/serve.err" &
  serve_pid=$!
  trap 'kill $serve_pid 2>/dev/null || true' EXIT
  for _ in $(seq 600); do
    [[ -s "$dir/serve.out" ]] && break
    kill -0 $serve_pid 2>/dev/null || { echo "rwb serve stopped: $(cat "$dir/serve.err")" >&2; exit 1; }
    sleep 0.2
  done
  judge_url=$(sed -n 's/.*"url": *"\([^"]*\)".*/\1/p' "$dir/serve.out" | head -n 1)
  [[ -n $judge_url ]] || { echo "rwb serve did not start: $(cat "$dir/serve.err")" >&2; exit 1; }
}

# legal_stop_judge: stops what legal_serve_judge started, and its trap.
legal_stop_judge() {
  kill $serve_pid 2>/dev/null || true
  wait $serve_pid 2>/dev/null || true
  trap - EXIT
}
