#!/usr/bin/env python3
"""Writes tests/data/tokenizer/bpe_pairs/tokenizer.json and bpe_strings/tokenizer.json:
the hand-made byte-level BPE that tst_tokenizer works its cases out on.

Vocabulary: the 256 byte-level characters with id = byte value (so 'a' is 97 and the
space character 'Ġ' is 32), then one token per merge below (ids 256, 257, …), nothing at
270-279, and the added tokens at 280-284. The two files differ only in how the merges are
spelled: "a b" strings (older files) or ["a", "b"] pairs (newer files).
"""
import json, os

def byte_char(b):
    printable = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    if b in printable:
        return chr(b)
    others = [x for x in range(256) if x not in printable]
    return chr(0x100 + others.index(b))

# rank: (left, right) — the merged token gets id 256 + rank
MERGES = [
    ("Ġ", "t"),      # 0  → Ġt      256
    ("h", "e"),      # 1  → he      257
    ("Ġt", "he"),    # 2  → Ġthe    258
    ("l", "o"),      # 3  → lo      259
    ("lo", "w"),     # 4  → low     260
    ("e", "r"),      # 5  → er      261
    ("low", "er"),   # 6  → lower   262
    ("Ġ", "low"),    # 7  → Ġlow    263
    ("ã", "ģ"),      # 8  → ãģ      264   (bytes E3 81: most hiragana start so)
    ("ãģ", "ĵ"),     # 9  → ãģĵ     265   (こ = E3 81 93)
    ("ã", "Ĥ"),      # 10 → ãĤ      266   (E3 82)
    ("ãĤ", "ĵ"),     # 11 → ãĤĵ     267   (ん = E3 82 93)
    ("ãģ", "«"),     # 12 → ãģ«     268   (に = E3 81 AB)
    ("ãģĵ", "ãĤĵ"),  # 13 → ãģĵãĤĵ  269   (こん)
]
ADDED = [
    (280, "<|endoftext|>", True),
    (281, "<|im_start|>", True),
    (282, "<|im_end|>", True),
    (283, "<think>", False),
    (284, "<think></think>", False),
]
QWEN_REGEX = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"

def document(pairs):
    vocab = {byte_char(b): b for b in range(256)}
    for rank, (l, r) in enumerate(MERGES):
        vocab[l + r] = 256 + rank
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [{"id": i, "content": c, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": s} for i, c, s in ADDED],
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": QWEN_REGEX}, "behavior": "Isolated", "invert": False},
            byte_level]},
        "post_processor": byte_level,
        "decoder": byte_level,
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab,
                  "merges": [[l, r] for l, r in MERGES] if pairs else [l + " " + r for l, r in MERGES]},
    }

here = os.path.dirname(os.path.abspath(__file__))
for name, pairs in (("bpe_pairs", True), ("bpe_strings", False)):
    folder = os.path.join(here, "..", name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(document(pairs), f, ensure_ascii=False, indent=1)
        f.write("\n")
