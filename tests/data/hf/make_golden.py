#!/usr/bin/env python3
"""Golden files from Hugging Face's transformers and tokenizers, for tst_hfgolden.

Run where those libraries are (the lent GPU machine has them; no GPU is needed):

    python3 tests/data/hf/make_golden.py --out tests/data/hf

It writes, under --out:
  models/<name>/      config.json and model.safetensors of a random-weight decoder saved by
                      transformers (save_pretrained), and golden.json: token ids and the
                      model's logits for them computed by transformers in float64
  tokenizers/<name>/  tokenizer.json trained by tokenizers on the project's sample e-mails,
                      and golden.json: the ids of test strings (encode with no special
                      tokens added), their decoding, and decodings of chosen id sequences
  versions.json       the library versions that made them

Every part is made on its own: one that fails is reported on stderr and the others are
still written (the exit code is 1 then). Nothing here is downloaded.
"""

import argparse
import json
import os
import random
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))

# The decoders' shape: small enough to commit (about 0.4 MB each), large enough that every
# part of a layer matters (2 layers, grouped-query attention 4 / 2, head dim 16).
SHAPE = dict(
    vocab_size=96,
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    max_position_embeddings=256,
    rms_norm_eps=1e-6,
    initializer_range=0.1,  # logits far from uniform, so that a wrong detail shows
)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1)
        f.write("\n")


def decoder_configs(transformers):
    """name -> a transformers config of that family."""
    qwen3 = transformers.Qwen3Config(**SHAPE, tie_word_embeddings=True)
    qwen2 = transformers.Qwen2Config(**SHAPE, tie_word_embeddings=True)
    llama = transformers.LlamaConfig(**SHAPE, tie_word_embeddings=False)
    llama3 = transformers.LlamaConfig(**SHAPE, tie_word_embeddings=False)
    rope = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 64}
    # transformers 5 keeps RoPE's settings in rope_parameters, earlier versions in rope_scaling.
    if isinstance(getattr(llama3, "rope_parameters", None), dict):
        llama3.rope_parameters = {**llama3.rope_parameters, **rope}
    else:
        llama3.rope_scaling = rope
    return {"qwen3": qwen3, "qwen2": qwen2, "llama": llama, "llama3_rope": llama3}


def make_decoder(name, config, out, torch, transformers):
    folder = os.path.join(out, "models", name)
    torch.manual_seed(1234)
    model = transformers.AutoModelForCausalLM.from_config(config)
    model = model.to(torch.float32).eval()
    model.save_pretrained(folder)
    gen = torch.Generator().manual_seed(99)
    ids = torch.randint(1, SHAPE["vocab_size"], (2, 12), generator=gen)
    with torch.no_grad():
        logits = model.to(torch.float64)(input_ids=ids).logits
    write_json(os.path.join(folder, "golden.json"), {
        "made_by": "tests/data/hf/make_golden.py",
        "family": config.model_type,
        "input_ids": ids.tolist(),
        "logits_dtype": "float64",
        "logits": [[[float(x) for x in pos] for pos in row] for row in logits.tolist()],
    })
    for f in os.listdir(folder):
        if f not in ("config.json", "model.safetensors", "golden.json", "generation_config.json"):
            os.remove(os.path.join(folder, f))


def corpus_lines():
    lines = []
    with open(os.path.join(ROOT, "resources", "samples", "company_samples.jsonl"), encoding="utf-8") as f:
        for line in f:
            for text_line in json.loads(line)["email_text"].split("\n"):
                if text_line.strip():
                    lines.append(text_line)
    return sorted(set(lines))


def test_strings(corpus):
    """What the encoders are checked on: sample lines, and the cases where tokenizers differ."""
    rng = random.Random(7)
    picked = rng.sample(corpus, 60)
    tricky = [
        "", " ", "  leading and trailing  ", "tabs\tand\nnew\r\nlines\n\n\n", "1234567890 3.14 ¥12,800",
        "Hello, World! It's 12:30 — don't panic.", "ｶﾀｶﾅ ＡＢＣ ①②③ ﬁ", "é vs é (combining)",
        "emoji 👩‍💻🚀 and 🇯🇵", "日本語と English が混ざった文。", "ACME ACMEs ACME社 xACME",
        "a<tool_call>b", "a\u3000<tool_call>\u00a0b", "x</tool_call>\u2009\u202fy", "p\u2028<tool_call>\u0085q",
        "<|im_start|>user\nこんにちは<|im_end|>\n", "<|im_end|><|im_end|>", "\u00a0\u3000 \u2009",
        "ünïcödé façade naïve", "Ωμέγα Кириллица العربية", "a" * 40, "   ", "\u200b zero width",
    ]
    return picked + tricky


def byte_to_unicode():
    """GPT-2's map of the 256 byte values to printable characters (byte-level BPE)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    chars = keep[:]
    extra = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return {b: chr(c) for b, c in zip(keep, chars)}


def make_byte_level(out, tokenizers, corpus):
    from tokenizers import AddedToken, Regex, decoders, models, normalizers, pre_tokenizers, trainers
    tok = tokenizers.Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    split = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
             r"|\s*[\r\n]+|\s+(?!\S)|\s+")  # Qwen2's
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(split), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=1500, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    tok.add_special_tokens([AddedToken("<|im_start|>", special=True), AddedToken("<|im_end|>", special=True)])
    tok.add_tokens([
        AddedToken("<tool_call>", lstrip=True, special=False),
        AddedToken("</tool_call>", rstrip=True, special=False),
        AddedToken("ACME", single_word=True, special=False),
    ])
    folder = os.path.join(out, "tokenizers", "byte_level_bpe")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    b2u = byte_to_unicode()
    byte_id = lambda b: tok.token_to_id(b2u[b])
    # Ill-formed UTF-8 from byte tokens: U+FFFD per maximal subpart (Unicode §3.9).
    ill_formed = [[0xED, 0xA1], [0xC0, 0x82], [0xF5, 0x99, 0xBD, 0x50], [0xE3, 0x81], [0xE3, 0x81, 0x82, 0x80],
                  [0xF0, 0x9F, 0x98], [0x61, 0xFF, 0x62]]
    decodes = [[byte_id(b) for b in seq] for seq in ill_formed]
    write_golden(folder, tok, corpus, decodes)


def make_unigram(out, tokenizers, corpus):
    from tokenizers import decoders, models, normalizers, pre_tokenizers, trainers
    tok = tokenizers.Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    try:
        metaspace = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
        metaspace_decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    except TypeError:  # tokenizers before 0.15
        metaspace = pre_tokenizers.Metaspace(replacement="▁", add_prefix_space=True)
        metaspace_decoder = decoders.Metaspace(replacement="▁", add_prefix_space=True)
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), metaspace])
    tok.decoder = metaspace_decoder
    trainer = trainers.UnigramTrainer(vocab_size=1200, special_tokens=["<unk>", "<s>", "</s>"], unk_token="<unk>",
                                      show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    folder = os.path.join(out, "tokenizers", "unigram")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    write_golden(folder, tok, corpus, [[0, 1, 2], list(range(3, 40))])


def write_golden(folder, tok, corpus, decodes):
    encode = []
    for text in test_strings(corpus):
        ids = tok.encode(text, add_special_tokens=False).ids
        encode.append({"text": text, "ids": ids, "decoded": tok.decode(ids, skip_special_tokens=False)})
    write_json(os.path.join(folder, "golden.json"), {
        "made_by": "tests/data/hf/make_golden.py",
        "encode": encode,
        "decode": [{"ids": ids, "text": tok.decode(ids, skip_special_tokens=False)} for ids in decodes],
    })


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=HERE)
    args = parser.parse_args()
    failures = 0
    versions = {}

    def part(name, fn):
        nonlocal failures
        try:
            fn()
            print("made", name, file=sys.stderr)
        except Exception:
            failures += 1
            print("FAILED", name, file=sys.stderr)
            traceback.print_exc()

    try:
        import torch
        import transformers
        versions.update(torch=torch.__version__, transformers=transformers.__version__)
        for name, config in decoder_configs(transformers).items():
            part("models/" + name, lambda n=name, c=config: make_decoder(n, c, args.out, torch, transformers))
    except Exception:
        failures += 1
        traceback.print_exc()
    try:
        import tokenizers
        versions["tokenizers"] = tokenizers.__version__
        corpus = corpus_lines()
        part("tokenizers/byte_level_bpe", lambda: make_byte_level(args.out, tokenizers, corpus))
        part("tokenizers/unigram", lambda: make_unigram(args.out, tokenizers, corpus))
    except Exception:
        failures += 1
        traceback.print_exc()
    versions["python"] = sys.version.split()[0]
    write_json(os.path.join(args.out, "versions.json"), versions)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
