#!/usr/bin/env python3
"""The forward + backward of our GRPO step against the same work written in plain PyTorch.

    .venv/bin/python bench/compare_eager.py [--threads 1 2] [--steps 4] [--rounds 2]
                                            [--rwb build/app/rwb/rwb] [--work DIR] [--profile]

`rwb bench grpo-step` trains a few steps and keeps every rollout in its store. This script
then times, in a fresh process per thread count, the forward + backward of the GRPO loss
over exactly those rollouts (the prompts' text, the completions' token ids, their
advantages) in PyTorch eager, with the kernels a PyTorch user would reach for:
F.linear, F.scaled_dot_product_attention (flash attention on CPU, GQA), F.rms_norm,
F.silu, log_softmax on the completion positions only, PEFT-style LoRA (r 8, α 32,
dropout 0.05 on q/k/v/o). Two forms of the same loss (docs/results.md, "Forward +
backward against plain PyTorch"):

- per row: prompt + completion as one sequence per rollout, as TRL and transformers run it;
- shared prompt: each prompt once, its keys and values repeated for its G completions, as
  rwb runs it (CausalLmInternals::groupedCompletionLogProbs).

Ours is the `backward` phase of `rwb bench grpo-step` (the policy's forward with its graph,
the loss, and the backward), in turns with the eager runs, same thread count, fp32.
`--profile` prints torch.profiler's table of the shared-prompt form's operators.

Not part of CI: it needs the Python packages of scripts/setup.sh's reference stack (.venv).
"""

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_trl import bench_grpo_step, cpu_flags, cpu_name, start  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
G = 8
LORA_R, LORA_ALPHA, LORA_DROPOUT = 8, 32, 0.05
EPSILON = 0.2


# ---- the eager side (its own process: `compare_eager.py --worker …`) -----------------------

def worker(args):
    import torch
    import torch.nn.functional as F
    from safetensors.torch import load_file
    from transformers import AutoTokenizer

    torch.set_num_threads(args.threads[0])
    torch.manual_seed(0)
    work = Path(args.work)
    cfg = json.loads((work / "tiny" / "config.json").read_text())
    w = load_file(str(work / "tiny" / "model.safetensors"))
    tok = AutoTokenizer.from_pretrained(str(work / "tiny"))
    batches = json.loads((work / "rollouts.json").read_text(encoding="utf-8"))

    d, n_heads, n_kv, hd = cfg["hidden_size"], cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["head_dim"]
    eps, layers = cfg["rms_norm_eps"], cfg["num_hidden_layers"]
    inv_freq = 1.0 / (cfg["rope_theta"] ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))

    # LoRA on q/k/v/o: A Kaiming-uniform, B small (PEFT starts B at 0; the cost is the same).
    lora = {}
    for i in range(layers):
        for name in ("q", "k", "v", "o"):
            base = w[f"model.layers.{i}.self_attn.{name}_proj.weight"]
            a = torch.empty(LORA_R, base.shape[1]).uniform_(-(1 / base.shape[1]) ** 0.5, (1 / base.shape[1]) ** 0.5)
            b = torch.randn(base.shape[0], LORA_R) * 1e-3
            lora[(i, name)] = (a.requires_grad_(), b.requires_grad_())
    params = [p for ab in lora.values() for p in ab]
    scale = LORA_ALPHA / LORA_R

    def proj(x, i, name):
        y = F.linear(x, w[f"model.layers.{i}.self_attn.{name}_proj.weight"])
        a, b = lora[(i, name)]
        return y + F.linear(F.linear(F.dropout(x, LORA_DROPOUT, True), a), b) * scale

    def rope(x, pos):  # x [B, H, T, D], pos [B, T]
        f = pos.to(torch.float64)[..., None] * inv_freq  # [B, T, D/2]
        emb = torch.cat([f, f], -1)
        cos, sin = emb.cos().float()[:, None], emb.sin().float()[:, None]
        x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
        return x * cos + torch.cat([-x2, x1], -1) * sin

    def layer(x, i, pos, mask, prefix=None):
        """One decoder layer; returns (x, (k, v)). prefix: the prompt's (k, v) repeated per row."""
        b, t, _ = x.shape
        p = f"model.layers.{i}."
        h = F.rms_norm(x, (d,), w[p + "input_layernorm.weight"], eps)
        q = proj(h, i, "q").view(b, t, n_heads, hd)
        k = proj(h, i, "k").view(b, t, n_kv, hd)
        v = proj(h, i, "v").view(b, t, n_kv, hd)
        q = F.rms_norm(q, (hd,), w[p + "self_attn.q_norm.weight"], eps)
        k = F.rms_norm(k, (hd,), w[p + "self_attn.k_norm.weight"], eps)
        q, k, v = rope(q.transpose(1, 2), pos), rope(k.transpose(1, 2), pos), v.transpose(1, 2)
        own = (k, v)
        if prefix is not None:
            k, v = torch.cat([prefix[0], k], 2), torch.cat([prefix[1], v], 2)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=True)
        x = x + proj(o.transpose(1, 2).reshape(b, t, n_heads * hd), i, "o")
        h = F.rms_norm(x, (d,), w[p + "post_attention_layernorm.weight"], eps)
        m = F.linear(F.silu(F.linear(h, w[p + "mlp.gate_proj.weight"])) * F.linear(h, w[p + "mlp.up_proj.weight"]),
                     w[p + "mlp.down_proj.weight"])
        return x + m, own

    emb = w["model.embed_tokens.weight"]
    head = w.get("lm_head.weight", emb)

    def logprobs(hidden, targets, real):
        """log p(target) at the real completion positions only (the head's rows are V wide)."""
        idx = real.reshape(-1).nonzero().squeeze(1)
        hs = hidden.reshape(-1, d).index_select(0, idx)
        lp = torch.log_softmax(F.linear(F.rms_norm(hs, (d,), w["model.norm.weight"], eps), head), -1)
        out = torch.zeros(real.numel())
        return out.index_copy(0, idx, lp.gather(-1, targets.reshape(-1).index_select(0, idx)[:, None]).squeeze(1)) \
            .view(real.shape)

    def grpo_loss(lp, real, adv):
        ratio = torch.exp(lp - lp.detach())
        per_tok = -torch.min(ratio * adv[:, None], ratio.clamp(1 - EPSILON, 1 + EPSILON) * adv[:, None])
        return ((per_tok * real).sum(1) / real.sum(1).clamp(min=1)).mean()

    def padded(seqs, left):
        n = max(len(s) for s in seqs)
        ids = torch.full((len(seqs), n), tok.pad_token_id or 0, dtype=torch.long)
        real = torch.zeros(len(seqs), n, dtype=torch.bool)
        for r, s in enumerate(seqs):
            sl = slice(n - len(s), n) if left else slice(0, len(s))
            ids[r, sl], real[r, sl] = torch.tensor(s), True
        return ids, real

    def shared_step(prompts, comps, adv):
        pids, preal = padded(prompts, left=True)  # [P, Lp]
        cids, creal = padded(comps, left=False)  # [R, Tc]
        P, Lp = pids.shape
        R, Tc = cids.shape
        ppos = (preal.cumsum(1) - 1).clamp(min=0)
        causal = torch.ones(Lp, Lp, dtype=torch.bool).tril()
        pmask = (causal[None] & preal[:, None, :])[:, None]  # [P, 1, Lp, Lp]
        pmask = pmask | torch.eye(Lp, dtype=torch.bool)[None, None]  # a padded query sees itself
        x = F.embedding(pids, emb)
        kvs = []
        for i in range(layers):
            x, kv = layer(x, i, ppos, pmask)
            kvs.append(kv)
        last = x[:, -1]  # the prompt's last position predicts the first completion token
        # Completions: ids 0 … Tc−2 as input, the prompt's keys and values in front.
        cpos = ppos[:, -1:].repeat_interleave(G, 0) + 1 + torch.arange(Tc - 1)[None]
        own = torch.ones(Tc - 1, Tc - 1, dtype=torch.bool).tril()[None].expand(R, -1, -1)
        cmask = torch.cat([preal.repeat_interleave(G, 0)[:, None, :].expand(R, Tc - 1, Lp), own], 2)[:, None]
        y = F.embedding(cids[:, : Tc - 1], emb)
        for i in range(layers):
            pre = (kvs[i][0].repeat_interleave(G, 0), kvs[i][1].repeat_interleave(G, 0))
            y, _ = layer(y, i, cpos, cmask, pre)
        hidden = torch.cat([last.repeat_interleave(G, 0)[:, None], y], 1)  # [R, Tc, H]
        lp = logprobs(hidden, cids, creal)
        return grpo_loss(lp, creal.float(), adv), R * (Tc - 1) + P * Lp

    def per_row_step(prompts, comps, adv):
        rows = [p + c for p, c in zip([p for p in prompts for _ in range(G)], comps)]
        ids, real = padded(rows, left=False)
        R, L = ids.shape
        pos = (real.cumsum(1) - 1).clamp(min=0)
        mask = (torch.ones(L, L, dtype=torch.bool).tril()[None] & real[:, None, :])[:, None]
        mask = mask | torch.eye(L, dtype=torch.bool)[None, None]
        x = F.embedding(ids, emb)
        for i in range(layers):
            x, _ = layer(x, i, pos, mask)
        # Position t predicts token t + 1; keep the completion's targets only.
        plen = torch.tensor([len(p) for p in prompts for _ in range(G)])
        tgt = torch.arange(L - 1)[None]
        comp = (tgt + 1 >= plen[:, None]) & real[:, 1:]
        lp = logprobs(x[:, :-1], ids[:, 1:], comp)
        return grpo_loss(lp, comp.float(), adv), int(real.sum())

    forms = {"shared_prompt": shared_step, "per_row": per_row_step}
    enc = [{"prompts": [tok(p, add_special_tokens=False)["input_ids"] for p in b["prompts"]],
            "completions": b["completions"], "advantages": torch.tensor(b["advantages"])} for b in batches]
    out = {"threads": args.threads[0], "torch": torch.__version__}
    for name, fn in forms.items():
        secs, positions = [], []
        for b in enc:
            t0 = time.perf_counter()
            loss, n = fn(b["prompts"], b["completions"], b["advantages"])
            loss.backward()
            secs.append(time.perf_counter() - t0)
            positions.append(n)
            for p in params:
                p.grad = None
        out[name] = {"seconds": secs, "median": statistics.median(secs), "positions": statistics.mean(positions)}
    if args.profile:
        from torch.profiler import ProfilerActivity, profile
        b = enc[-1]
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            loss, _ = shared_step(b["prompts"], b["completions"], b["advantages"])
            loss.backward()
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=25), file=sys.stderr)
    print(json.dumps(out))


# ---- the driver -----------------------------------------------------------------------------

def run_ours(rwb, work, threads, steps, env):
    j = bench_grpo_step("compare_eager", rwb, work, threads, steps, env)
    return j["seconds"]["logprobs"] + j["seconds"]["backward"], j["seconds_per_step"]


def rollouts_of(work):
    """The last run's rollouts, step by step: prompt texts, completion ids, advantages."""
    with sqlite3.connect(f"file:{work / 'bench.sqlite'}?mode=ro", uri=True) as db:
        run = db.execute("SELECT max(run_id) FROM rollouts").fetchone()[0]
        rows = db.execute(
            "SELECT r.step, r.group_index, r.sample_index, p.text, r.token_ids, r.advantage FROM rollouts r "
            "JOIN prompts p ON p.id = r.prompt WHERE r.run_id = ? ORDER BY r.step, r.group_index, r.sample_index",
            (run,)).fetchall()
    steps = {}
    for step, group, sample, text, ids, adv in rows:
        s = steps.setdefault(step, {"prompts": [], "completions": [], "advantages": []})
        if sample == 0:
            s["prompts"].append(text)
        s["completions"].append(list(memoryview(ids).cast("i")) or [0])
        s["advantages"].append(adv)
    return [steps[k] for k in sorted(steps)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--rwb", default=str(ROOT / "build/app/rwb/rwb"))
    ap.add_argument("--work", default="")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    work, env, isa = start("compare_eager", args)
    res = {t: {"rwb": [], "shared_prompt": [], "per_row": []} for t in args.threads}
    for r in range(args.rounds):
        for t in args.threads:
            fb, step = run_ours(args.rwb, work, t, args.steps, env)
            (work / "rollouts.json").write_text(json.dumps(rollouts_of(work), ensure_ascii=False), encoding="utf-8")
            e = dict(env, OMP_NUM_THREADS=str(t), MKL_NUM_THREADS=str(t), TOKENIZERS_PARALLELISM="false")
            cmd = [sys.executable, __file__, "--worker", "--work", str(work), "--threads", str(t)]
            p = subprocess.run(cmd + (["--profile"] if args.profile and r == 0 else []), env=e,
                               capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"compare_eager: the eager run failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
            if args.profile and r == 0:
                print(p.stderr, file=sys.stderr)
            j = json.loads(p.stdout.strip().splitlines()[-1])
            res[t]["rwb"].append(fb)
            for form in ("shared_prompt", "per_row"):
                res[t][form].append(j[form]["median"])
            print(f"  round {r + 1}, {t} thread(s): rwb {fb:.3f} s, eager shared prompt {j['shared_prompt']['median']:.3f} s, "
                  f"eager per row {j['per_row']['median']:.3f} s (positions {j['shared_prompt']['positions']:.0f} "
                  f"and {j['per_row']['positions']:.0f})", file=sys.stderr)
    print(f"\nCPU: {cpu_name()} ({', '.join(cpu_flags())}){' — ' + isa if isa else ''}; {args.rounds} round(s), "
          f"{args.steps} steps each, fp32; forward + backward of the GRPO loss, seconds a step (medians)\n")
    print("| threads | rwb | eager, shared prompt | eager, per row | shared ÷ rwb | per row ÷ rwb |")
    print("|---:|---:|---:|---:|---:|---:|")
    for t in args.threads:
        a, s, pr = (statistics.median(res[t][k]) for k in ("rwb", "shared_prompt", "per_row"))
        print(f"| {t} | {a:.3f} | {s:.3f} | {pr:.3f} | {s / a:.2f}× | {pr / a:.2f}× |")


if __name__ == "__main__":
    main()
