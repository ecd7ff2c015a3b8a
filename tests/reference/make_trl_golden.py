#!/usr/bin/env python3
"""Golden file from TRL's own GRPOTrainer, for tst_trlgolden.

One fixed batch (3 prompts × 3 completions of 1 to 8 tokens, fixed rewards, one group all
equal) on the random Qwen3 folder of make_golden.py with its PEFT adapter `peft/plain`
(LoRA r = 4 on q_proj and v_proj, A and B random), in float64 throughout. For each case
(loss_type, scale_rewards, β, μ, ε), TRL computes what a training step computes before the
optimizer: `_generate_and_score_completions` (with generation replaced by the fixed
completions: advantages, reward metrics, the reference model's log-probs as TRL takes them,
adapter disabled), then `_compute_loss` and its backward. The golden keeps the inputs, the
advantages, the loss, every metric TRL logged, and the gradient of every LoRA tensor.

μ > 1 is TRL's num_iterations = 2, where the old policy's log-probs are computed; they are
then moved by a fixed amount per token (0.35·sin(1.7 r + 2.3 t)) so that ratios lie in
[0.70, 1.42] and some tokens are clipped. The old log-probs used are saved.

β > 0: TRL's reference policy for a PEFT model is a copy of the adapter as training starts
(the "ref" adapter it adds), which equals the policy on this one step: the KL would be 0.
Its log-probs are moved by 0.3·cos(1.3 r + 0.9 t) so that the KL term and its gradient
are not zero; the reference log-probs used are saved.

    make_trl_golden.py --out tests/data/hf    (needs models/qwen3 and peft/plain there)

Then SFT (run_sft): TRL's SFTTrainer with completion-only loss on the same prompts and
completions, its loss, metrics and LoRA gradients.

Run by regenerate.sh, which compares the result with the committed file.
"""

import argparse
import json
import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

GROUP = 3
PROMPTS = [[5, 17, 42, 8, 61], [23, 9, 77], [50, 3, 88, 14]]
COMPLETIONS = [  # ids below 90: none is the tokenizer's pad or end token
    [12, 44, 7, 30], [2], [66, 18, 81, 5, 39, 71],
    [19, 60], [8, 8, 52, 27, 13], [74, 31, 45],
    [36, 11, 58, 20, 69, 4, 83, 25], [47], [15, 62, 29],  # 8 = max_completion_length
]
REWARDS = [1.0, 0.0, 0.5, 0.2, 0.9, -0.3, 0.7, 0.7, 0.7]  # the third group teaches nothing
MAX_COMPLETION = 8
PAD = 95

CASES = [
    # name, loss_type, scale_rewards, beta, num_iterations, epsilon_low, epsilon_high
    ("grpo group β=0 μ=1", "grpo", "group", 0.0, 1, 0.2, 0.2),
    ("grpo group β=0.04 μ=2", "grpo", "group", 0.04, 2, 0.2, 0.2),
    ("grpo batch β=0 μ=1", "grpo", "batch", 0.0, 1, 0.2, 0.2),
    ("grpo none β=0.1 μ=1", "grpo", "none", 0.1, 1, 0.2, 0.2),
    ("bnpo group β=0 μ=2", "bnpo", "group", 0.0, 2, 0.2, 0.2),
    ("bnpo none β=0.04 μ=1", "bnpo", "none", 0.04, 1, 0.2, 0.2),
    ("dr_grpo none β=0 μ=2", "dr_grpo", "none", 0.0, 2, 0.2, 0.2),
    ("dr_grpo group β=0.1 μ=2", "dr_grpo", "group", 0.1, 2, 0.2, 0.2),
    ("dapo group β=0 μ=2 clip-higher", "dapo", "group", 0.0, 2, 0.2, 0.28),
    ("dapo batch β=0.04 μ=2 clip-higher", "dapo", "batch", 0.04, 2, 0.2, 0.28),
]


def old_shift(r, t):
    return 0.35 * math.sin(1.7 * r + 2.3 * t)


def ref_shift(r, t):
    return 0.3 * math.cos(1.3 * r + 0.9 * t)


def rows(tensor, lengths):
    return [[float(x) for x in tensor[r, :n].tolist()] for r, n in enumerate(lengths)]


def policy(root, torch, transformers, peft):
    """The Qwen3 folder with the PEFT adapter peft/plain, trainable, float64; and a tokenizer
    whose pad and end token (95) no completion holds."""
    from float64 import recompute_rope
    base = transformers.AutoModelForCausalLM.from_pretrained(os.path.join(root, "models", "qwen3"), dtype=torch.float64)
    model = peft.PeftModel.from_pretrained(base, os.path.join(root, "peft", "plain"), is_trainable=True)
    model = model.to(torch.float64)
    recompute_rope(model, torch)
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=os.path.join(root, "tokenizers", "byte_level_bpe", "tokenizer.json"))
    tokenizer.pad_token_id = PAD
    tokenizer.eos_token_id = PAD
    return model, tokenizer


def lora_grads(model):
    """PEFT's name (less the adapter's, as the file names it) -> the gradient, flattened."""
    return {name.replace(".default", ""): [float(x) for x in param.grad.flatten().tolist()]
            for name, param in model.named_parameters() if "lora_" in name and ".default." in name}


def run_case(case, root, tmp, torch, transformers, peft, trl, datasets):
    from float64 import float64_everywhere
    name, loss_type, scale, beta, mu, eps_low, eps_high = case
    model, tokenizer = policy(root, torch, transformers, peft)

    def reward(prompts, completions, completion_ids, **kwargs):
        return [REWARDS[COMPLETIONS.index(list(ids))] for ids in completion_ids]

    args = trl.GRPOConfig(
        output_dir=tmp, per_device_train_batch_size=len(COMPLETIONS), num_generations=GROUP,
        max_completion_length=MAX_COMPLETION, loss_type=loss_type, scale_rewards=scale, beta=beta,
        num_iterations=mu, epsilon=eps_low, epsilon_high=eps_high, temperature=1.0,
        mask_truncated_completions=False, use_cpu=True, bf16=False, fp16=False, report_to=[],
        gradient_accumulation_steps=1, seed=0, logging_steps=1)
    dataset = datasets.Dataset.from_list([{"prompt": f"p{b}"} for b in range(len(PROMPTS))])
    trainer = trl.GRPOTrainer(model=model, reward_funcs=[reward], args=args, train_dataset=dataset,
                              processing_class=tokenizer)
    texts = [tokenizer.decode(c) for c in COMPLETIONS]

    def generate(prompts):
        prompt_ids = [PROMPTS[int(p[1:])] for p in prompts]
        return prompt_ids, COMPLETIONS, None, texts, None, {}, None, None

    trainer._generate = generate
    trainer.current_gradient_accumulation_steps = 1
    trainer.model.train()
    batch = [{"prompt": f"p{r // GROUP}"} for r in range(len(COMPLETIONS))]
    lengths = [len(c) for c in COMPLETIONS]
    with float64_everywhere(torch):
        inputs = trainer._generate_and_score_completions(batch)
        for key, wanted, shift in (("old_per_token_logps", mu > 1, old_shift),
                                   ("ref_per_token_logps", beta > 0, ref_shift)):
            if wanted:
                moved = inputs[key].clone()
                for r in range(moved.shape[0]):
                    for t in range(moved.shape[1]):
                        moved[r, t] += shift(r, t)
                inputs[key] = moved
        trainer.model.zero_grad()
        loss = trainer._compute_loss(trainer.model, inputs)
        loss.backward()
    metrics = {k: float(v[-1]) for k, v in trainer._metrics["train"].items() if v}
    grads = lora_grads(trainer.model)
    return {
        "name": name,
        "loss_type": loss_type,
        "scale_rewards": scale,
        "beta": beta,
        "num_iterations": mu,
        "epsilon_low": eps_low,
        "epsilon_high": eps_high,
        "advantages": [float(x) for x in inputs["advantages"].flatten().tolist()],
        "old_logps": rows(inputs["old_per_token_logps"], lengths) if mu > 1 else None,
        "ref_logps": rows(inputs["ref_per_token_logps"], lengths) if beta > 0 else None,
        "loss": float(loss.detach()),
        "metrics": metrics,
        "grads": grads,
    }


# SFT with completion-only loss: the same prompts and completions as one batch of
# prompt-completion examples, already tokenized (input_ids and completion_mask), through
# TRL's SFTTrainer (its collator: labels −100 on the prompt and the padding; its loss: the
# mean NLL over the completion tokens of the batch).
def run_sft(root, tmp, torch, transformers, peft, trl, datasets):
    from float64 import float64_everywhere
    model, tokenizer = policy(root, torch, transformers, peft)
    examples = []
    for r, completion in enumerate(COMPLETIONS):
        prompt = PROMPTS[r // GROUP]
        examples.append({"input_ids": prompt + completion, "completion_mask": [0] * len(prompt) + [1] * len(completion)})
    args = trl.SFTConfig(output_dir=tmp, per_device_train_batch_size=len(examples), completion_only_loss=True,
                         use_cpu=True, bf16=False, fp16=False, report_to=[], seed=0, max_length=None,
                         dataset_num_proc=None)
    trainer = trl.SFTTrainer(model=model, args=args, train_dataset=datasets.Dataset.from_list(examples),
                             processing_class=tokenizer)
    trainer.model.train()
    batch = trainer.data_collator([trainer.train_dataset[i] for i in range(len(examples))])
    with float64_everywhere(torch):
        trainer.model.zero_grad()
        loss = trainer.compute_loss(trainer.model, batch)
        loss.backward()
    grads = lora_grads(trainer.model)
    return {
        "loss_type": args.loss_type,
        "completion_only_loss": True,
        "input_ids": batch["input_ids"].tolist(),
        "labels": batch["labels"].tolist(),
        "loss": float(loss.detach()),
        "metrics": {k: float(v[-1]) for k, v in trainer._metrics["train"].items() if v},
        "grads": grads,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="the golden root (models/qwen3 and peft/plain in it)")
    a = parser.parse_args()
    import torch
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(0)
    import datasets
    datasets.disable_progress_bars()
    import peft
    import transformers
    import trl
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            cases.append(run_case(case, a.out, tmp, torch, transformers, peft, trl, datasets))
        sft = run_sft(a.out, tmp, torch, transformers, peft, trl, datasets)
    out = os.path.join(a.out, "trl", "golden.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({
            "made_by": "tests/reference/make_trl_golden.py",
            "trl": trl.__version__,
            "base": "models/qwen3",
            "adapter": "peft/plain",
            "group_size": GROUP,
            "prompts": PROMPTS,
            "completions": COMPLETIONS,
            "rewards": REWARDS,
            "max_completion_length": MAX_COMPLETION,
            "cases": cases,
            "sft": sft,
        }, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
