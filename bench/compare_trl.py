#!/usr/bin/env python3
"""A GRPO step of ours against TRL's GRPOTrainer, side by side, on the same CPU.

    .venv/bin/python bench/compare_trl.py [--threads 1 2] [--steps 5] [--rounds 2]
                                          [--rwb build/app/rwb/rwb] [--work DIR] [--json OUT]

Both sides train the same thing (docs/results.md, "A GRPO step against TRL's"):
- the model folder `rwb bench grpo-step` makes (the tiny default, random weights, its
  byte-level BPE of 1,024 tokens), loaded by transformers as the Qwen3 it is;
- PEFT LoRA r 8, α 32, dropout 0.05 on q/k/v/o_proj on one side, ours on the other;
- the same 8 prompts per step (the ones our run drew, read back from its store) × G 8,
  at most 32 new tokens, temperature 1, top-p 1;
- the GRPO loss with β 0, ε 0.2, μ 1, rewards scaled per group, AdamW at 3e-5 with the
  gradient clipped to 1; both in fp32;
- the reward: partial 20 + marker 80 (2·LCS/(|answer|+|gold|), with and without the
  legal-entity markers), ours in C++, TRL's as a Python function.

Each side runs in a fresh process, taking turns (ours, TRL, ours, TRL, …) for every
thread count, with its thread count set the way its users set it (RWB_THREADS for rwb;
torch.set_num_threads and OMP_NUM_THREADS for TRL). The first step of each run counts,
on both sides. Reported per phase: generation, forward + backward (TRL: the step less
generation, reward and optimizer), optimizer, reward, and the whole step.

Not part of CI: it needs the Python packages of scripts/setup.sh's reference stack
(.venv: torch, transformers, peft, trl) and an idle machine.
"""

import argparse
import json
import os
import platform
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
G = 8
PROMPTS_PER_STEP = 8
MAX_NEW_TOKENS = 32

# The legal-entity markers stripped by the marker reward (text/markers.h holds the full list;
# these are the ones the synthetic e-mails use).
MARKERS = ["株式会社", "有限会社", "合同会社", "合資会社", "合名会社", "一般社団法人", "一般財団法人",
           "(株)", "（株）", "(有)", "（有）", "㈱", "㈲"]


def lcs(a, b):
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for ca in a:
        cur = [0]
        for j, cb in enumerate(b):
            cur.append(prev[j] + 1 if ca == cb else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def partial(answer, gold):
    if not answer and not gold:
        return 1.0
    return 2.0 * lcs(answer, gold) / (len(answer) + len(gold))


def strip_markers(s):
    for m in MARKERS:
        s = s.replace(m, "")
    return s.strip()


def answer_of(completion):
    return completion.strip().split("\n")[0].strip()


def cpu_name():
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpu_flags():
    try:
        text = open("/proc/cpuinfo", encoding="utf-8").read()
    except OSError:
        return []
    return sorted({f for f in ("avx2", "avx512f", "avx512_bf16", "amx_bf16") if re.search(r"\b%s\b" % f, text)})


def isa_cap(env):
    """The variables that hold libtorch, oneDNN and MKL below the CPU's best, as set."""
    return " ".join(f"{k}={env[k]}" for k in ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS")
                    if k in env)


def start(name, args):
    """Checks the rwb program, makes the work folder; prints the machine. Returns (work, env, isa)."""
    if not Path(args.rwb).exists():
        sys.exit(f"{name}: {args.rwb}: no such program (build first, or give --rwb)")
    work = Path(args.work or tempfile.mkdtemp(prefix=f"rwb-{name.replace('_', '-')}-"))
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    isa = isa_cap(env)
    print(f"{name}: {cpu_name()} ({', '.join(cpu_flags()) or 'no AVX2'}), {os.cpu_count()} cores"
          f"{', ' + isa if isa else ''}; work in {work}", file=sys.stderr)
    return work, env, isa


# ---- the TRL side (run in its own process: `compare_trl.py --trl-worker …`) ----------------

def trl_worker(args):
    threads = args.threads[0]
    import torch
    from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    import transformers
    from datasets import Dataset
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer
    import trl

    work = Path(args.work)
    prompts = json.loads((work / "prompts.json").read_text(encoding="utf-8"))
    # The folder's tokenizer.json and tokenizer_config.json (pad <pad>, end <|endoftext|>).
    tokenizer = AutoTokenizer.from_pretrained(str(work / "tiny"))
    tokenizer.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(str(work / "tiny"), dtype=torch.float32)

    golds = {p["text"]: p["gold"] for p in prompts}
    reward_seconds = [0.0]

    def partial_marker(prompts, completions, **kwargs):
        t0 = time.perf_counter()
        out = []
        for prompt, completion in zip(prompts, completions):
            gold, answer = golds.get(prompt, ""), answer_of(completion)
            ga, gm = strip_markers(gold), strip_markers(answer)
            marker = partial(gm, ga) if (ga or gm) else partial(answer, gold)
            out.append(0.2 * partial(answer, gold) + 0.8 * marker)
        reward_seconds[0] += time.perf_counter() - t0
        return out

    # Steps × 8 prompts, in the order our run drew them (the sampler is told not to shuffle).
    rows = [{"prompt": p["text"]} for p in prompts]
    dataset = Dataset.from_list(rows)

    config = GRPOConfig(
        output_dir=str(work / "trl-out"), max_steps=args.steps, per_device_train_batch_size=G * PROMPTS_PER_STEP,
        num_generations=G, max_completion_length=MAX_NEW_TOKENS, temperature=1.0, top_p=1.0,
        learning_rate=3e-5, lr_scheduler_type="constant_with_warmup", warmup_steps=0, weight_decay=0.0,
        max_grad_norm=1.0, beta=0.0, epsilon=0.2, num_iterations=1, loss_type="grpo", scale_rewards="group",
        logging_steps=1, report_to=[], save_strategy="no", use_cpu=True, bf16=False, fp16=False,
        gradient_checkpointing=False, dataloader_num_workers=0, seed=0, shuffle_dataset=False,
        disable_tqdm=True)
    lora = LoraConfig(r=8, lora_alpha=32, lora_dropout=0.05, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"],
                      task_type="CAUSAL_LM")

    # Phase clocks: generation (transformers' generate, which TRL calls), the optimizer
    # (torch's global step hooks) and each whole step (a Trainer callback).
    gen_seconds = [0.0]
    original_generate = transformers.GenerationMixin.generate

    def timed_generate(self, *a, **kw):
        t0 = time.perf_counter()
        try:
            return original_generate(self, *a, **kw)
        finally:
            gen_seconds[0] += time.perf_counter() - t0

    transformers.GenerationMixin.generate = timed_generate
    opt_seconds = [0.0]
    opt_start = [0.0]
    register_optimizer_step_pre_hook(lambda *a: opt_start.__setitem__(0, time.perf_counter()))
    register_optimizer_step_post_hook(
        lambda *a: opt_seconds.__setitem__(0, opt_seconds[0] + time.perf_counter() - opt_start[0]))
    step_seconds = []
    completion_tokens = []

    class Clock(TrainerCallback):
        def on_step_begin(self, a, state, control, **kw):
            self.t0 = time.perf_counter()

        def on_step_end(self, a, state, control, **kw):
            step_seconds.append(time.perf_counter() - self.t0)

        def on_log(self, a, state, control, logs=None, **kw):
            if logs and "completions/mean_length" in logs:
                completion_tokens.append(logs["completions/mean_length"])

    trainer = GRPOTrainer(model=model, reward_funcs=[partial_marker], args=config, train_dataset=dataset,
                          processing_class=tokenizer, peft_config=lora, callbacks=[Clock()])
    trainer.train()
    n = len(step_seconds)
    step = sum(step_seconds) / n
    gen, opt, rew = gen_seconds[0] / n, opt_seconds[0] / n, reward_seconds[0] / n
    print(json.dumps({
        "side": "trl", "threads": threads, "steps": n, "seconds_per_step": step,
        "seconds": {"generate": gen, "forward_backward": step - gen - opt - rew, "optimizer": opt, "reward": rew},
        "mean_completion_tokens": statistics.mean(completion_tokens) if completion_tokens else None,
        "versions": {"trl": trl.__version__, "transformers": transformers.__version__, "torch": torch.__version__},
    }))


# ---- ours -------------------------------------------------------------------------------

def bench_grpo_step(name, rwb, work, threads, steps, env):
    """`rwb bench grpo-step` in fp32 on `threads` threads; its JSON."""
    e = dict(env, RWB_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    p = subprocess.run([rwb, "bench", "grpo-step", "--work", str(work), "--steps", str(steps), "--precision", "fp32"],
                       env=e, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{name}: rwb bench grpo-step failed (exit {p.returncode}):\n{p.stderr[-2000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def run_ours(rwb, work, threads, steps, env):
    j = bench_grpo_step("compare_trl", rwb, work, threads, steps, env)
    s = j["seconds"]
    tokens = None
    try:
        with sqlite3.connect(f"file:{work / 'bench.sqlite'}?mode=ro", uri=True) as db:
            tokens = db.execute("SELECT avg(completion_tokens) FROM rollouts").fetchone()[0]
    except sqlite3.Error:
        pass
    return {"side": "rwb", "threads": threads, "steps": j["steps"], "seconds_per_step": j["seconds_per_step"],
            "seconds": {"generate": s["generate"], "forward_backward": s["logprobs"] + s["backward"],
                        "optimizer": s["optimizer"], "reward": s["reward"]},
            "other": {k: s[k] for k in ("store", "prm", "communicate")}, "precision": j["precision"],
            "mean_completion_tokens": tokens}


def prompts_of(work, steps):
    """The prompts our run drew, step by step, with their gold answers."""
    with sqlite3.connect(f"file:{work / 'bench.sqlite'}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT r.step, r.group_index, p.text, p.gold FROM rollouts r JOIN prompts p ON p.id = r.prompt "
            "WHERE r.sample_index = 0 ORDER BY r.step, r.group_index").fetchall()
    out = [{"text": t, "gold": g} for _, _, t, g in rows]
    if len(out) < steps * PROMPTS_PER_STEP:
        sys.exit(f"compare_trl: {work / 'bench.sqlite'} holds {len(out)} prompts, not {steps * PROMPTS_PER_STEP}")
    return out[: steps * PROMPTS_PER_STEP]


def run_trl(work, threads, steps, env):
    e = dict(env, OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads), TOKENIZERS_PARALLELISM="false",
             TRANSFORMERS_VERBOSITY="error")
    p = subprocess.run([sys.executable, __file__, "--trl-worker", "--work", str(work), "--threads", str(threads),
                        "--steps", str(steps)], env=e, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"compare_trl: the TRL run failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--rwb", default=str(ROOT / "build/app/rwb/rwb"))
    ap.add_argument("--work", default="")
    ap.add_argument("--json", default="", help="write every run's figures here")
    ap.add_argument("--trl-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.trl_worker:
        trl_worker(args)
        return
    work, env, isa = start("compare_trl", args)

    runs = []
    for r in range(args.rounds):
        for t in args.threads:
            ours = run_ours(args.rwb, work, t, args.steps, env)
            if r == 0 and t == args.threads[0]:
                (work / "prompts.json").write_text(json.dumps(prompts_of(work, args.steps), ensure_ascii=False),
                                                   encoding="utf-8")
            print(f"  round {r + 1}, {t} thread(s): rwb {ours['seconds_per_step']:.2f} s a step", file=sys.stderr)
            theirs = run_trl(work, t, args.steps, env)
            print(f"  round {r + 1}, {t} thread(s): TRL {theirs['seconds_per_step']:.2f} s a step", file=sys.stderr)
            runs += [dict(ours, round=r + 1), dict(theirs, round=r + 1)]
    if args.json:
        Path(args.json).write_text(json.dumps({"cpu": cpu_name(), "flags": cpu_flags(), "isa_cap": isa,
                                               "runs": runs}, indent=1), encoding="utf-8")

    # The table: the median over rounds of each phase, ours / TRL / TRL ÷ ours.
    def med(side, threads, key):
        return statistics.median(x["seconds_per_step"] if key == "step" else x["seconds"][key]
                                 for x in runs if x["side"] == side and x["threads"] == threads)

    phases = ["generate", "forward_backward", "optimizer", "reward", "step"]
    print(f"\nCPU: {cpu_name()} ({', '.join(cpu_flags())}){' — ' + isa if isa else ''}; "
          f"{args.rounds} round(s) of {args.steps} steps each side, fp32, medians\n")
    print("| threads | phase | rwb (s) | TRL (s) | TRL ÷ rwb |")
    print("|---:|---|---:|---:|---:|")
    for t in args.threads:
        for ph in phases:
            a, b = med("rwb", t, ph), med("trl", t, ph)
            ratio = f"{b / a:.1f}×" if a > 0 else "—"
            name = "**step**" if ph == "step" else ph.replace("_", " + ")
            print(f"| {t} | {name} | {a:.3f} | {b:.3f} | {ratio} |")
    first = args.threads[0]
    for t in args.threads[1:]:
        print(f"\n{t} threads against {first}: rwb {med('rwb', first, 'step') / med('rwb', t, 'step'):.2f}× faster, "
              f"TRL {med('trl', first, 'step') / med('trl', t, 'step'):.2f}× faster")

    def tokens(side):
        return ", ".join(f"{x['mean_completion_tokens']:.1f}" for x in runs
                         if x["side"] == side and x.get("mean_completion_tokens") is not None)

    print(f"mean completion tokens: rwb {tokens('rwb') or '?'}; TRL {tokens('trl') or '?'}")

if __name__ == "__main__":
    main()
