#!/usr/bin/env python3
"""The worked example's reward function, unchanged, under TRL: the check that what
Reward Workbench trains with is a plain TRL reward function.

1. The same values. For rollouts the workbench stored (runs.sqlite of run.sh's workspace),
   invoice_reward called as TRL calls it (keyword arguments: prompts, completions,
   completion_ids, the dataset's columns, trainer_state, log_extra, log_metric) gives the
   value the store holds for it.
2. The same function trains. TRL's GRPOTrainer, on the workspace's SFT model folder
   (transformers reads it as it is: a Qwen3 config, tokenizer.json and its chat template),
   with reward_funcs=[invoice_reward], runs a few steps on the CPU and logs its reward.

    .venv/bin/python examples/invoices/check_with_trl.py --workspace build/example-invoices

The clone's .venv has TRL, transformers and torch from tests/reference/requirements.txt
(tests/reference/setup.sh installs them). Exit 1 when a value differs.
"""
import argparse
import json
import os
import sqlite3
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from rewards import invoice_reward  # noqa: E402  (the file the workbench runs, as it is)


def same_values(workspace, limit):
    """invoice_reward, called as TRL calls it, against the values the store kept."""
    db = sqlite3.connect(os.path.join(workspace, "runs.sqlite"))
    rows = db.execute(
        "SELECT prompt, completion, gold, rewards_json FROM v_rollouts ORDER BY rollout_id LIMIT ?", (limit,)).fetchall()
    if not rows:
        raise SystemExit("%s/runs.sqlite has no rollouts: run examples/invoices/run.sh first" % workspace)
    golds = [json.loads(gold) for _, _, gold, _ in rows]
    logged = {}
    values = invoice_reward(
        prompts=[[{"role": "user", "content": prompt}] for prompt, _, _, _ in rows],
        completions=[[{"role": "assistant", "content": completion}] for _, completion, _, _ in rows],
        completion_ids=None,
        vendor=[g["vendor"] for g in golds],
        total=[g["total"] for g in golds],
        solution=[gold for _, _, gold, _ in rows],
        trainer_state=None,
        log_extra=lambda name, values: None,
        log_metric=lambda name, value: logged.__setitem__(name, value),
    )
    worst = 0.0
    for value, (_, _, _, stored) in zip(values, rows):
        worst = max(worst, abs(value - json.loads(stored)["invoice_reward"]))
    print(json.dumps({"check": "same values", "rollouts": len(rows), "max_abs_difference": worst,
                      "vendor_right": logged.get("vendor_right")}))
    return worst <= 1e-12


def trains_under_trl(workspace, steps):
    import datasets
    import torch
    import transformers
    import trl
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    torch.manual_seed(1)
    model_dir = os.path.join(workspace, "models", "sft")
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    records = [json.loads(line) for line in open(os.path.join(workspace, "data", "grpo.jsonl"), encoding="utf-8")]
    # Conversational, so that TRL renders the prompt with the model's chat template, as the
    # workbench does; every other column goes to the reward function as TRL passes them.
    dataset = datasets.Dataset.from_list(
        [dict(r, prompt=[{"role": "user", "content": r["prompt"]}]) for r in records[:64]])
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(output_dir=out, max_steps=steps, per_device_train_batch_size=8, num_generations=8,
                            max_completion_length=32, learning_rate=2e-4, temperature=1.0, logging_steps=1,
                            report_to=[], save_strategy="no", use_cpu=True, bf16=False, seed=1)
        trainer = GRPOTrainer(model=model, reward_funcs=[invoice_reward], args=config, train_dataset=dataset,
                              processing_class=tokenizer)
        trainer.train()
        logs = [h for h in trainer.state.log_history if "reward" in h]
    rewards = [round(h["reward"], 4) for h in logs]
    print(json.dumps({"check": "trains under TRL", "trl": trl.__version__, "transformers": transformers.__version__,
                      "torch": torch.__version__, "steps": len(logs), "reward": rewards,
                      "invoice_reward_mean": [round(h.get("rewards/invoice_reward/mean", float("nan")), 4) for h in logs]}))
    return len(logs) == steps and all(0.0 <= r <= 1.0 for r in rewards)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workspace", required=True, help="run.sh's output folder (build/example-invoices)")
    ap.add_argument("--steps", type=int, default=2, help="GRPOTrainer steps (default 2)")
    ap.add_argument("--rollouts", type=int, default=256, help="stored rollouts to compare (default 256)")
    a = ap.parse_args()
    ok = same_values(a.workspace, a.rollouts)
    ok = trains_under_trl(a.workspace, a.steps) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
