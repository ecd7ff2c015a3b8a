#!/usr/bin/env python3
"""Writes rollouts of one of our GRPO runs in NeMo-RL's form, train_data_step{N}.jsonl (one
line a sample, each field the sample's slice of the batch, per-token fields padded to the
step's longest sequence: what nemo_rl/algorithms/grpo.py logs), so that `rwb import` and
the token view can be shown on a run whose tokens, log-probs and advantages are real. The
screenshots of docs/handoff.md are taken on it (scripts/screenshots.sh).

    .venv/bin/python scripts/make-nemo-rl-sample.py --store W/runs.sqlite --model W/models/sft \
        --out OUT [--run 1] [--steps 2] [--groups 4]

The prompt's tokens come from the model folder's tokenizer (our store keeps the prompt as
rendered, and the completion's tokens only); generation_logprobs are the sampler's log-probs
(logprobs_old), prev_logprobs the trainer's (logprobs_new), advantages the sequence's
GRPO advantage on every token, as NeMo-RL's GRPO writes them.
"""
import argparse
import array
import json
import os
import sqlite3


def floats(blob):
    a = array.array("f")
    a.frombytes(blob)
    return list(a)


def ints(blob):
    a = array.array("i")
    a.frombytes(blob)
    return list(a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", required=True)
    ap.add_argument("--model", required=True, help="the run's model folder (its tokenizer)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--run", type=int, default=1)
    ap.add_argument("--steps", type=int, default=2, help="the run's last N steps")
    ap.add_argument("--groups", type=int, default=4, help="groups (prompts) a step")
    a = ap.parse_args()
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(a.model)
    db = sqlite3.connect(a.store)
    last = db.execute("SELECT MAX(step) FROM rollouts WHERE run_id = ?", (a.run,)).fetchone()[0]
    os.makedirs(a.out, exist_ok=True)
    for step in range(last - a.steps + 1, last + 1):
        rows = db.execute(
            "SELECT p.text, r.completion, r.token_ids, r.logprobs_old, r.logprobs_new, r.advantage, r.reward "
            "FROM rollouts r JOIN prompts p ON p.id = r.prompt WHERE r.run_id = ? AND r.step = ? "
            "AND r.group_index < ? ORDER BY r.group_index, r.sample_index", (a.run, step, a.groups)).fetchall()
        samples = []
        for prompt, completion, ids, old, new, advantage, reward in rows:
            head = prompt  # the store keeps the prompt as the model saw it, chat template applied
            prompt_ids = tok(head, add_special_tokens=False)["input_ids"]
            gen = ints(ids)
            samples.append({
                "content": [head, tok.decode(gen, skip_special_tokens=False)],
                "rewards": reward, "input_lengths": len(prompt_ids) + len(gen),
                "token_ids": prompt_ids + gen,
                "token_loss_mask": [0] * len(prompt_ids) + [1] * len(gen),
                "sample_loss_mask": 1.0,
                "advantages": [advantage] * (len(prompt_ids) + len(gen)),
                "generation_logprobs": [0.0] * len(prompt_ids) + floats(old),
                "prev_logprobs": [0.0] * len(prompt_ids) + floats(new),
            })
        width = max(s["input_lengths"] for s in samples)
        with open(os.path.join(a.out, "train_data_step%d.jsonl" % step), "w", encoding="utf-8") as f:
            for i, s in enumerate(samples):
                pad = width - s["input_lengths"]
                for k in ("token_ids", "token_loss_mask", "generation_logprobs", "prev_logprobs"):
                    s[k] = s[k] + [0] * pad
                s["advantages"] = s["advantages"] + [0.0] * pad
                f.write(json.dumps({**{k: [v] for k, v in s.items()}, "idx": i}, ensure_ascii=False) + "\n")
        print("step %d: %d samples, %d tokens wide" % (step, len(samples), width))


if __name__ == "__main__":
    main()
