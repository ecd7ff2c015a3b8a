#!/usr/bin/env python3
"""The completions tables TRL's own GRPOTrainer writes, for tst_rolloutimport.

Rerun from the repository root, with the pinned TRL of tests/reference/requirements.txt in
.venv (tests/reference/setup.sh installs it). No hub access, no GPU; about 10 s:

    HF_HUB_OFFLINE=1 PYTHONHASHSEED=0 .venv/bin/python tests/reference/make_trl_completions.py

It trains 3 steps of GRPOTrainer (TRL 1.13) on the random Qwen3 folder of make_golden.py
(tests/data/hf/models/qwen3, vocabulary of 96) with the byte-level BPE tokenizer beside it,
whose ids 1–94 are the printable ASCII characters (0, <|endoftext|>, ends a completion),
on the CPU, float32, seed 0, with log_completions=True, two reward functions that return
None for some completions (and one a log_extra text column), and an evaluation at step 3
(eval_strategy "steps", eval_steps 3; transformers also evaluates at the last step).
Then it copies what TRL wrote into --out (default tests/data/import/trl_parquet):

  completions/completions_0000{1,2,3}.parquet   exactly as TRL wrote them
  checkpoint-3/trainer_state.json               the checkpoint's state (its log_history
                                                says at which steps TRL evaluated), with
                                                the timings (step_time, *_runtime,
                                                *_per_second) set to 0 so that a rerun
                                                writes the same bytes

What TRL writes (trl/trainer/grpo_trainer.py, GRPOTrainer.log): at every logging step,
pandas' DataFrame.to_parquet of the last generation batch's rows to
<output_dir>/completions/completions_{global_step:05d}.parquet, columns step (int64;
text before TRL 0.28), prompt and completion (the decoded texts), one float64 column per
reward function (None as null), the log_extra columns, advantage. No "mode" column: an
evaluation's log() writes its rows to the same file name, over the train rows of that
step. So completions_00003 holds the eval rows, and checkpoint-3/trainer_state.json's
log_history has an "eval_loss" entry at step 3.

Then a table of conversational completions with a tool call, made by hand in TRL's message
format (TRL's own table holds the decoded text; the messages are what its reward functions
get, and what a user's table may hold): an assistant message of "tool_calls" only, as
TRL's tool loop and transformers' response parsing write it ({"type": "function",
"function": {"name", "arguments": {…}}}, no "content"). It is written twice into
--tool-out (default tests/data/import/trl_tool_calls): as JSON lines, and with pandas'
to_parquet as TRL writes its table, where pyarrow gives every message every field (null
where a message lacks it).

Last, it reads the files back with pyarrow and prints what tst_rolloutimport expects
(rows, totals, per-step means) and TRL's own logged means to compare them with.

Deterministic on one machine (same seed, same sampled tokens); another CPU's float32
kernels could sample other tokens, so the test's numbers come from the committed files,
not from a rerun.
"""

import argparse
import contextlib
import glob
import json
import math
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

TRAIN_PROMPTS = ["Q1:7+5=", "Q2:9*3=", "Q3:8-6=", "Q4:4+4=", "Q5:3*3=", "Q6:5-1="]
EVAL_PROMPTS = ["E1:6*7=", "E2:9-2="]
GROUP = 3
MAX_COMPLETION = 6
TIMINGS = ("step_time", "train_runtime", "eval_runtime", "train_samples_per_second", "train_steps_per_second",
           "eval_samples_per_second", "eval_steps_per_second", "total_flos")


def digits(completions, **kwargs):
    """The share of digits in a completion; None when it has none."""
    out = []
    for c in completions:
        n = sum(ch.isdigit() for ch in c)
        out.append(n / len(c) if n else None)
    return out


def upper(completions, log_extra=None, **kwargs):
    """The share of capitals among a completion's letters; None unless it starts with a letter."""
    out, why = [], []
    for c in completions:
        letters = [ch for ch in c if ch.isalpha()]
        if not c or not c[0].isalpha():
            out.append(None)
            why.append("starts with no letter")
        else:
            out.append(sum(ch.isupper() for ch in letters) / len(letters))
            why.append("scored")
    if log_extra is not None:
        log_extra("upper_note", why)
    return out


def no_timings(value):
    if isinstance(value, dict):
        return {k: (0 if k in TIMINGS else no_timings(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [no_timings(v) for v in value]
    return value


def train(out_dir):
    import datasets
    import torch
    import transformers
    import trl

    torch.manual_seed(0)
    root = os.path.join(ROOT, "tests", "data", "hf")
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=os.path.join(root, "tokenizers", "byte_level_bpe", "tokenizer.json"))
    tokenizer.pad_token_id = 0
    tokenizer.eos_token_id = 0
    for p in TRAIN_PROMPTS + EVAL_PROMPTS:  # within the model's 96 ids
        assert max(tokenizer(p)["input_ids"]) < 96, p
    model = transformers.AutoModelForCausalLM.from_pretrained(os.path.join(root, "models", "qwen3"),
                                                              dtype=torch.float32)
    model.generation_config.eos_token_id = 0
    model.generation_config.pad_token_id = 0
    args = trl.GRPOConfig(
        output_dir=out_dir, per_device_train_batch_size=2 * GROUP, num_generations=GROUP,
        per_device_eval_batch_size=len(EVAL_PROMPTS) * GROUP, max_completion_length=MAX_COMPLETION,
        max_steps=3, logging_steps=1, log_completions=True, eval_strategy="steps", eval_steps=3,
        save_strategy="steps", save_steps=3, use_cpu=True, bf16=False, fp16=False, report_to=[], seed=0,
        temperature=1.0, learning_rate=1e-3, disable_tqdm=True)
    trainer = trl.GRPOTrainer(
        model=model, reward_funcs=[digits, upper], args=args, processing_class=tokenizer,
        train_dataset=datasets.Dataset.from_list([{"prompt": p} for p in TRAIN_PROMPTS]),
        eval_dataset=datasets.Dataset.from_list([{"prompt": p} for p in EVAL_PROMPTS]))
    trainer.train()


def total(row, names):
    """TRL's total (GRPOTrainer._generate_and_score_completions): the nansum of the reward
    functions (weights 1), None when every one is None (TRL ≥ 1.6's unscorable rows)."""
    values = [row[n] for n in names if row[n] is not None and not math.isnan(row[n])]
    return sum(values) if values else None


def report(out):
    import pyarrow.parquet as pq
    state = json.load(open(os.path.join(out, "checkpoint-3", "trainer_state.json")))
    logged = {}
    for entry in state["log_history"]:
        for key in ("reward", "reward_std", "eval_reward"):
            if key in entry:
                logged[(key, entry["step"])] = entry[key]
    for path in sorted(glob.glob(os.path.join(out, "completions", "*.parquet"))):
        table = pq.read_table(path)
        rows = table.to_pylist()
        names = [n for n in table.column_names if n not in ("step", "prompt", "completion", "advantage", "upper_note")]
        print(f"{os.path.relpath(path, ROOT)} ({os.path.getsize(path)} bytes): {table.schema.to_string(show_schema_metadata=False)}")
        totals = []
        for i, row in enumerate(rows):
            t = total(row, names)
            totals.append(t)
            print(f"  row {i}: step {row['step']} prompt {row['prompt']!r} completion {row['completion']!r} "
                  + " ".join(f"{n}={row[n]!r}" for n in names)
                  + f" upper_note={row['upper_note']!r} advantage={row['advantage']!r} total={t!r}")
        scored = [t for t in totals if t is not None]
        mean = sum(scored) / len(scored) if scored else None
        std = math.sqrt(sum((t - mean) ** 2 for t in scored) / (len(scored) - 1)) if len(scored) > 1 else None
        step = rows[0]["step"]
        print(f"  total: mean {mean!r}, std (Bessel) {std!r}; TRL logged reward {logged.get(('reward', step))!r} "
              f"reward_std {logged.get(('reward_std', step))!r}, eval_reward {logged.get(('eval_reward', step))!r}")
        for n in names:
            vals = [r[n] for r in rows if r[n] is not None]
            print(f"  {n} mean {sum(vals) / len(vals) if vals else None!r} ({len(vals)} not None)")
    print("eval steps in trainer_state.json:", sorted({e["step"] for e in state["log_history"]
                                                        if any(k.startswith("eval_") for k in e)}))


CALL = {"type": "function", "function": {"name": "lookup_sender", "arguments": {"mail_id": 3}}}
TOOL_ROWS = [  # the call, the tool's reply ({"role": "tool", "name", "content"}), the answer
    {"step": 5, "prompt": [{"role": "user", "content": "Who sent mail 3?"}],
     "completion": [{"role": "assistant", "tool_calls": [CALL]},
                    {"role": "tool", "name": "lookup_sender", "content": "Acme Corp"},
                    {"role": "assistant", "content": "<answer>Acme</answer>"}],
     "correctness_reward": 1.0, "tool_reward": 1.0, "advantage": 0.8},
    {"step": 5, "prompt": [{"role": "user", "content": "Who sent mail 3?"}],  # stopped after the call
     "completion": [{"role": "assistant", "tool_calls": [CALL]}],
     "correctness_reward": None, "tool_reward": 1.0, "advantage": 0.3},
    {"step": 5, "prompt": [{"role": "user", "content": "Who sent mail 3?"}],
     "completion": [{"role": "assistant", "content": "<answer>Beta</answer>"}],
     "correctness_reward": 0.0, "tool_reward": 0.0, "advantage": -1.1},
]


def write_tool_calls(out):
    import pandas as pd
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with open(os.path.join(out, "completions_00005.jsonl"), "w") as f:
        for row in TOOL_ROWS:
            f.write(json.dumps(row) + "\n")
    pd.DataFrame(TOOL_ROWS).to_parquet(os.path.join(out, "completions_00005.parquet"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "import", "trl_parquet"))
    parser.add_argument("--tool-out", default=os.path.join(ROOT, "tests", "data", "import", "trl_tool_calls"))
    a = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        with contextlib.redirect_stdout(sys.stderr):  # TRL prints its tables: stdout is the report
            train(tmp)
        shutil.rmtree(a.out, ignore_errors=True)
        os.makedirs(os.path.join(a.out, "completions"))
        os.makedirs(os.path.join(a.out, "checkpoint-3"))
        for path in sorted(glob.glob(os.path.join(tmp, "completions", "*.parquet"))):
            shutil.copy(path, os.path.join(a.out, "completions"))
        state = json.load(open(os.path.join(tmp, "checkpoint-3", "trainer_state.json")))
        with open(os.path.join(a.out, "checkpoint-3", "trainer_state.json"), "w") as f:
            json.dump(no_timings(state), f, indent=2, sort_keys=True)
            f.write("\n")
    write_tool_calls(a.tool_out)
    report(a.out)
    import pyarrow.parquet as pq
    print("tool calls, as pyarrow reads the parquet:", pq.read_table(os.path.join(a.tool_out, "completions_00005.parquet")).to_pylist())


if __name__ == "__main__":
    sys.exit(main())
