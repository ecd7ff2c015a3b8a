#!/usr/bin/env python3
"""The chat_template this engine writes into model folders, rendered by transformers'
apply_chat_template, against the engine's own rendering of the same conversations
(chat_templates.json, written by tst_hfgolden beside the engine's adapter). Exactly equal,
with and without the generation prompt, for each prompt format. Exits 1 on a difference.

    check_chat_template.py tests/data/hf
"""

import json
import os
import sys


def main(root):
    import transformers

    with open(os.path.join(root, "peft_rwb", "chat_templates.json"), encoding="utf-8") as f:
        formats = json.load(f)
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_file=os.path.join(root, "tokenizers", "byte_level_bpe", "tokenizer.json"))
    failures = checked = 0
    for name, spec in formats.items():
        tokenizer.chat_template = spec["chat_template"]
        for i, case in enumerate(spec["cases"]):
            for key, generation in (("with_generation_prompt", True), ("without_generation_prompt", False)):
                got = tokenizer.apply_chat_template(case["messages"], tokenize=False, add_generation_prompt=generation)
                checked += 1
                if got != case[key]:
                    failures += 1
                    print(f"chat template: {name} case {i} {key}: transformers {got!r} vs ours {case[key]!r}")
    print(f"chat template: {checked} renderings compared, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
