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

from float64 import float64_everywhere, recompute_rope

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

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


# Each decoder's golden: two rows of 12 random ids; the float64 logits of both; each row's
# per-token log-probs of ids[4:] given what precedes them (the completion of a 4-token
# prompt); and greedy decoding of GREEDY_NEW tokens from prompts of 6 and 4 tokens, made
# in one left-padded batch (transformers' generate: attention mask, positions from it).
PROMPT_TOKENS = 4
GREEDY_NEW = 16
# The one folder saved in shards (model.safetensors.index.json and two or more files).
SHARDED = "llama"


def make_decoder(name, config, out, torch, transformers):
    folder = os.path.join(out, "models", name)
    torch.manual_seed(1234)
    model = transformers.AutoModelForCausalLM.from_config(config)
    model = model.to(torch.float32).eval()
    model.save_pretrained(folder, max_shard_size="100KB" if name == SHARDED else "50GB")
    gen = torch.Generator().manual_seed(99)
    ids = torch.randint(1, SHAPE["vocab_size"], (2, 12), generator=gen)
    model = model.to(torch.float64)
    recompute_rope(model, torch)
    with torch.no_grad(), float64_everywhere(torch):
        logits = model(input_ids=ids).logits
        logprobs = torch.log_softmax(logits, dim=-1)
        token_logprobs = logprobs[:, PROMPT_TOKENS - 1:-1].gather(-1, ids[:, PROMPT_TOKENS:, None])[..., 0]
        prompts = [ids[0, :6].tolist(), ids[1, :4].tolist()]
        greedy = greedy_batch(model, torch, prompts)
        for prompt, row in zip(prompts, greedy):  # the batch decodes as each prompt alone does
            alone = greedy_batch(model, torch, [prompt])[0]
            assert alone["ids"] == row["ids"], (name, alone["ids"], row["ids"])
    write_json(os.path.join(folder, "golden.json"), {
        "made_by": "tests/reference/make_golden.py",
        "family": config.model_type,
        "tie_word_embeddings": bool(config.tie_word_embeddings),
        "sharded": name == SHARDED,
        "input_ids": ids.tolist(),
        "logits_dtype": "float64",
        "logits": [[[float(x) for x in pos] for pos in row] for row in logits.tolist()],
        "prompt_tokens": PROMPT_TOKENS,
        "token_logprobs": token_logprobs.tolist(),
        "greedy": greedy,
    })
    keep = ("config.json", "golden.json", "generation_config.json")
    for f in os.listdir(folder):
        if f not in keep and not f.startswith("model"):
            os.remove(os.path.join(folder, f))


def greedy_batch(model, torch, prompts):
    """transformers' greedy decoding of the prompts in one left-padded batch: new ids and
    the log-prob of each under the model's softmax."""
    width = max(len(p) for p in prompts)
    pad = 0
    input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts])
    mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
    out = model.generate(input_ids=input_ids, attention_mask=mask, do_sample=False, max_new_tokens=GREEDY_NEW,
                         min_new_tokens=GREEDY_NEW, pad_token_id=pad, eos_token_id=None,
                         output_scores=True, output_logits=True, return_dict_in_generate=True)
    new = out.sequences[:, width:]
    rows = []
    for r, prompt in enumerate(prompts):
        lp = [float(torch.log_softmax(step[r], dim=-1)[new[r, i]]) for i, step in enumerate(out.logits)]
        rows.append({"prompt": prompt, "ids": new[r].tolist(), "logprobs": lp})
    return rows


# PEFT adapters on the Qwen3 folder above, each with random A and B (init_lora_weights
# False: nn.Linear's init, so that B is not zero): name -> (LoraConfig arguments, the
# adapter_config.json field this engine refuses, or None when it must compute PEFT's logits).
PEFT_VARIANTS = {
    "plain": (dict(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]), None),
    "all_projections": (dict(r=2, lora_alpha=5, target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj",
                                                                 "up_proj", "down_proj"]), None),
    "rslora": (dict(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "down_proj"], use_rslora=True), None),
    "patterns": (dict(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "up_proj"],
                      rank_pattern={"v_proj": 2, "layers.1.mlp.up_proj": 6},
                      alpha_pattern={"q_proj": 16, r"layers\.0\.mlp\.up_proj": 3}), None),
    "regex_targets": (dict(r=4, lora_alpha=8, target_modules=r".*layers\.1\.(self_attn\.k_proj|mlp\.gate_proj)"), None),
    "dora": (dict(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], use_dora=True), "use_dora"),
    "modules_to_save": (dict(r=4, lora_alpha=8, target_modules=["q_proj"], modules_to_save=["lm_head"]),
                        "modules_to_save"),
    "bias_all": (dict(r=4, lora_alpha=8, target_modules=["q_proj"], bias="all"), "bias"),
    "lora_bias": (dict(r=4, lora_alpha=8, target_modules=["q_proj"], lora_bias=True), "lora_bias"),
}


def make_peft(out, torch, transformers, peft):
    base_folder = os.path.join(out, "models", "qwen3")
    base_golden = json.load(open(os.path.join(base_folder, "golden.json"), encoding="utf-8"))
    ids = torch.tensor(base_golden["input_ids"])
    for name, (args, refused) in PEFT_VARIANTS.items():
        torch.manual_seed(4321)
        base = transformers.AutoModelForCausalLM.from_pretrained(base_folder, dtype=torch.float32)
        config = peft.LoraConfig(task_type="CAUSAL_LM", lora_dropout=0.0, init_lora_weights=False, **args)
        model = peft.get_peft_model(base, config)
        if args.get("bias") == "all" or args.get("modules_to_save"):  # make what PEFT saves differ from the base
            with torch.no_grad():
                for pname, param in model.named_parameters():
                    if param.requires_grad and ("bias" in pname or "modules_to_save" in pname):
                        param.add_(0.05)
        folder = os.path.join(out, "peft", name)
        model.save_pretrained(folder)
        adapter_config = os.path.join(folder, "adapter_config.json")
        with open(adapter_config, encoding="utf-8") as f:
            saved = json.load(f)
        saved["base_model_name_or_path"] = None  # the folder of the machine that made it
        write_json(adapter_config, saved)
        model = model.to(torch.float64).eval()
        recompute_rope(model, torch)
        with torch.no_grad(), float64_everywhere(torch):
            logits = model(input_ids=ids).logits
        write_json(os.path.join(folder, "golden.json"), {
            "made_by": "tests/reference/make_golden.py",
            "base": "models/qwen3",
            "lora_config": {k: (sorted(v) if isinstance(v, set) else v) for k, v in args.items()},
            "refused_field": refused,
            "input_ids": base_golden["input_ids"],
            "logits_dtype": "float64",
            "logits": [[[float(x) for x in pos] for pos in row] for row in logits.tolist()],
        })
        for f in os.listdir(folder):
            if f not in ("adapter_config.json", "adapter_model.safetensors", "golden.json"):
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
    spaces = "".join(chr(c) for c in (0x09, 0x0B, 0x0C, 0x1C, 0x85, 0xA0, 0x1680, 0x2000, 0x2005, 0x200A,
                                         0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF))
    more = [
        "every space" + spaces + "between", spaces, "trailing space ", "x  <tool_call>  y  ", "ACME<tool_call>ACME",
        "Hello , world . Isn ' t it ? Yes ! do n't 'm 's 've 're", "a͸b󠀁c﷐d",  # unassigned
        "control\u0001\u0007chars\u007f", "Ǆemo ǅ ǆ İstanbul ß ẞ", "ﾊﾟﾝ パン ㍿ ㌔", "①⑳ ⅷ ㈱", "🫨 🩷",
        "中文字符和标点，。！", "한국어 텍스트", "ไทย ภาษา", "हिन्दी", "a\tb\n\tc", "\n", "▁ already ▁ marked",
    ]
    return picked + tricky + more + legal_lines()


def legal_lines():
    """Questions and answers of the legal-QA samples: the project's Japanese."""
    lines = []
    with open(os.path.join(ROOT, "resources", "samples", "legal_qa_samples.jsonl"), encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            lines += [record["question"], record["reference_answer"]]
    return sorted(set(lines))[:24]


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
    tok.model = models.Unigram(unigram_vocab(corpus, split_white_space=True), unk_id=0, byte_fallback=False)
    tok.add_special_tokens(["<unk>", "<s>", "</s>"])
    folder = os.path.join(out, "tokenizers", "unigram")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    write_golden(folder, tok, corpus, [[0, 1, 2], list(range(3, 40))])


def unigram_vocab(corpus, split_white_space):
    """A Unigram vocabulary made deterministically (tokenizers' UnigramTrainer is not: two
    runs give two vocabularies): the pieces of up to 6 characters of the corpus's
    Metaspace-marked words, the 1,200 most frequent (ties by the piece) and every single
    character, scored by log frequency. What is checked is the encoder (Viterbi over the
    scores) and the decoder, not a trainer."""
    import math
    from collections import Counter
    counts = Counter()
    chars = Counter()
    for line in corpus:
        words = line.split() if split_white_space else line.split(" ")
        for word in words:
            word = "▁" + word
            chars.update(word)
            for i in range(len(word)):
                for j in range(i + 2, min(len(word), i + 6) + 1):
                    counts[word[i:j]] += 1
    pieces = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:1200] + sorted(chars.items())
    total = sum(c for _, c in pieces)
    vocab = [("<unk>", 0.0), ("<s>", 0.0), ("</s>", 0.0)]
    seen = set()
    for piece, count in pieces:
        if piece not in seen:
            seen.add(piece)
            vocab.append((piece, math.log(count / total)))
    return vocab


def make_unigram_metaspace(out, tokenizers, corpus):
    """Unigram as converted SentencePiece models are: NFKC and Metaspace alone (white space
    other than ' ' stays in the pieces), with added tokens."""
    from tokenizers import AddedToken, decoders, models, normalizers, pre_tokenizers, trainers
    tok = tokenizers.Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    tok.model = models.Unigram(unigram_vocab(corpus, split_white_space=False), unk_id=0, byte_fallback=False)
    tok.add_special_tokens(["<unk>", "<s>", "</s>"])
    tok.add_special_tokens([AddedToken("<|im_start|>", special=True), AddedToken("<|im_end|>", special=True)])
    tok.add_tokens([AddedToken("<tool_call>", special=False), AddedToken("</tool_call>", special=False)])
    folder = os.path.join(out, "tokenizers", "unigram_metaspace")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    write_golden(folder, tok, corpus, [[0, 1, 2], list(range(3, 40))])


def read_spm_model(data):
    """The pieces (piece, score, type) and normalizer_spec.precompiled_charsmap of a
    sentencepiece ModelProto, read from the protobuf wire format (no protobuf package)."""
    import struct

    def fields(buf):
        i = 0
        while i < len(buf):
            key, i = varint(buf, i)
            number, wire = key >> 3, key & 7
            if wire == 0:
                value, i = varint(buf, i)
            elif wire == 1:
                value, i = buf[i:i + 8], i + 8
            elif wire == 2:
                size, i = varint(buf, i)
                value, i = buf[i:i + size], i + size
            elif wire == 5:
                value, i = buf[i:i + 4], i + 4
            else:
                raise ValueError("wire type %d" % wire)
            yield number, value

    def varint(buf, i):
        shift = result = 0
        while True:
            b = buf[i]
            i += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result, i

    pieces, charsmap = [], b""
    for number, value in fields(data):
        if number == 1:
            piece = {"type": 1, "score": 0.0}
            for n, v in fields(value):
                if n == 1:
                    piece["piece"] = v.decode("utf-8")
                elif n == 2:
                    piece["score"] = struct.unpack("<f", v)[0]
                elif n == 3:
                    piece["type"] = v
            pieces.append(piece)
        elif number == 3:
            for n, v in fields(value):
                if n == 2:
                    charsmap = bytes(v)
    return pieces, charsmap


def make_unigram_converted(out, tokenizers, corpus):
    """A real sentencepiece Unigram model (trained here on the corpus with nmt_nfkc) turned
    into tokenizer.json the way transformers converts XLM-RoBERTa's: the Precompiled
    character map, runs of spaces replaced by one, Metaspace, <mask> with lstrip."""
    import io
    import sentencepiece as spm
    from tokenizers import AddedToken, Regex, decoders, models, normalizers, pre_tokenizers
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus), model_writer=model, vocab_size=900, model_type="unigram",
        normalization_rule_name="nmt_nfkc", character_coverage=0.995, num_threads=1, byte_fallback=False,
        bos_id=1, eos_id=2, unk_id=0, pad_id=-1, minloglevel=2, shuffle_input_sentence=False)
    pieces, charsmap = read_spm_model(model.getvalue())
    vocab = [(p["piece"], p["score"]) for p in pieces]
    unk = next(i for i, p in enumerate(pieces) if p["type"] == 2)
    tok = tokenizers.Tokenizer(models.Unigram(vocab, unk_id=unk, byte_fallback=False))
    # charsmap: the 240 KB nmt_nfkc map sentencepiece compiled into the model (a darts trie
    # and its replacements), base64 in tokenizer.json as transformers writes it: real data,
    # checked on its own by tst_hfgolden precompiledMapMatchesTokenizers.
    precompiled = normalizers.Precompiled(charsmap)
    tok.normalizer = normalizers.Sequence([precompiled, normalizers.Replace(Regex(" {2,}"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    tok.add_special_tokens([p["piece"] for p in pieces if p["type"] in (2, 3)])
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, special=True)])
    folder = os.path.join(out, "tokenizers", "unigram_converted")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    write_golden(folder, tok, corpus, [[0, 1, 2], list(range(3, 40))],
                 extra=["<s>hello <mask> world</s>", "  two  <mask>  spaces  ", "\u00a0<mask>\u3000x", "ﾊﾟﾝ", "①②③ ﬁ ㍿"],
                 normalizer=precompiled)


def make_unigram_steps(out, tokenizers, corpus):
    """Unigram behind the other normalizers and the "first" prepend scheme: Strip,
    Lowercase, a String Replace, NFKC; added tokens matched in the raw text (normalized
    false) and in the normalized one (normalized true: "ACME" is lower-cased before it is
    looked for, so it never matches; "<tool_call>" is found after Strip)."""
    from tokenizers import AddedToken, Regex, decoders, models, normalizers, pre_tokenizers
    tok = tokenizers.Tokenizer(models.Unigram())
    tok.normalizer = normalizers.Sequence([normalizers.Strip(), normalizers.NFKC(), normalizers.Lowercase(),
                                           normalizers.Replace("\t", " "), normalizers.Replace(Regex(" +"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="first")
    tok.model = models.Unigram(unigram_vocab([line.lower() for line in corpus], split_white_space=False), unk_id=0,
                               byte_fallback=False)
    tok.add_special_tokens(["<unk>", "<s>", "</s>"])
    tok.add_special_tokens([AddedToken("<|im_start|>", special=True), AddedToken("<|im_end|>", special=True)])
    tok.add_tokens([AddedToken("<tool_call>", special=False, normalized=True),
                    AddedToken("</tool_call>", special=False, normalized=False, rstrip=True),
                    AddedToken("ACME", special=False, normalized=True, single_word=True)])
    folder = os.path.join(out, "tokenizers", "unigram_steps")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    write_golden(folder, tok, corpus, [[0, 1, 2], list(range(3, 40)), [5, 6, 7]],
                 extra=[" <s> first", "<tool_call> at the start", "  <tool_call>", "x\ty", " Two\tTabs ", "acme ACME"])


def wordpiece_vocab(tok, corpus):
    """A WordPiece vocabulary made deterministically (tokenizers' WordPieceTrainer orders
    ties differently from run to run): the special tokens, every character alone and as a
    continuation, the 600 most frequent words and the 600 most frequent continuations of 2
    to 5 characters of the normalized, pre-tokenized corpus (ties by the piece)."""
    from collections import Counter
    words, chars, tails = Counter(), set(), Counter()
    for line in corpus:
        for word, _ in tok.pre_tokenizer.pre_tokenize_str(tok.normalizer.normalize_str(line)):
            words[word] += 1
            chars.update(word)
            for i in range(1, len(word)):
                for j in range(i + 2, min(len(word), i + 5) + 1):
                    tails["##" + word[i:j]] += 1
    top = lambda counter, n: [k for k, _ in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]
    pieces = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(chars) + ["##" + c for c in sorted(chars)] + \
        top(words, 600) + top(tails, 600)
    vocab = {}
    for piece in pieces:
        vocab.setdefault(piece, len(vocab))
    return vocab


def make_wordpiece(out, tokenizers, corpus):
    """A BERT-style WordPiece: BertNormalizer (clean text, CJK split, lower case), the BERT
    pre-tokenizer, and the WordPiece decoder with its clean-up."""
    from tokenizers import decoders, models, normalizers, pre_tokenizers, trainers
    tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None,
                                                lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece(prefix="##", cleanup=True)
    tok.model = models.WordPiece(wordpiece_vocab(tok, corpus), unk_token="[UNK]", max_input_chars_per_word=100)
    folder = os.path.join(out, "tokenizers", "wordpiece")
    os.makedirs(folder, exist_ok=True)
    tok.save(os.path.join(folder, "tokenizer.json"))
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tail = next(i for t, i in sorted(tok.get_vocab().items()) if t.startswith("##") and len(t) > 3)
    word = next(i for t, i in sorted(tok.get_vocab().items()) if t.isalpha() and len(t) > 3)
    # specials inside a sequence (the decoder spaces them as tokens), a "##" piece first
    # (kept as it is there) and after a word, punctuation the clean-up glues
    punct = [tok.token_to_id(c) for c in (".", ",", "?", "!") if tok.token_to_id(c) is not None]
    write_golden(folder, tok, corpus, [[5, 6, 7], list(range(8, 60)), [cls, word, tail, sep], [tail, word],
                                       [word] + punct + [word, sep, cls]])


def write_golden(folder, tok, corpus, decodes, extra=(), normalizer=None):
    """`normalizer`, when given, is also run alone on the test strings ("normalize": what
    tst_hfgolden's normalizer check compares step by step)."""
    encode = []
    for text in test_strings(corpus) + list(extra):
        ids = tok.encode(text, add_special_tokens=False).ids
        encode.append({"text": text, "ids": ids, "decoded": tok.decode(ids, skip_special_tokens=False)})
    golden = {
        "made_by": "tests/reference/make_golden.py",
        "encode": encode,
        "decode": [{"ids": ids, "text": tok.decode(ids, skip_special_tokens=False)} for ids in decodes],
    }
    if normalizer is not None:
        golden["normalize"] = [{"text": text, "normalized": normalizer.normalize_str(text)}
                               for text in test_strings(corpus) + list(extra)]
    write_json(os.path.join(folder, "golden.json"), golden)


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
        import peft
        versions["peft"] = peft.__version__
        part("peft", lambda: make_peft(args.out, torch, transformers, peft))
    except Exception:
        failures += 1
        traceback.print_exc()
    try:
        import tokenizers
        versions["tokenizers"] = tokenizers.__version__
        corpus = corpus_lines()
        part("tokenizers/byte_level_bpe", lambda: make_byte_level(args.out, tokenizers, corpus))
        part("tokenizers/unigram", lambda: make_unigram(args.out, tokenizers, corpus))
        part("tokenizers/unigram_metaspace", lambda: make_unigram_metaspace(args.out, tokenizers, corpus))
        part("tokenizers/unigram_converted", lambda: make_unigram_converted(args.out, tokenizers, corpus))
        part("tokenizers/unigram_steps", lambda: make_unigram_steps(args.out, tokenizers, corpus))
        part("tokenizers/wordpiece", lambda: make_wordpiece(args.out, tokenizers, corpus))
    except Exception:
        failures += 1
        traceback.print_exc()
    versions["python"] = sys.version.split()[0]
    versions = dict(sorted(versions.items()))
    write_json(os.path.join(args.out, "versions.json"), versions)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
