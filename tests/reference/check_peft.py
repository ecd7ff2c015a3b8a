#!/usr/bin/env python3
"""An adapter written by this engine, opened by PEFT: PeftModel.from_pretrained on the base
folder, and AutoPeftModelForCausalLM from the adapter folder alone (which opens the base
from the adapter's base_model_name_or_path). Both must give the engine's own logits
(rwb_logits.json, written beside the adapter by tst_hfgolden) within 1e-10 relative in
float64. Prints one line per check; exits 1 on any failure.

    check_peft.py tests/data/hf   (the golden root: peft_rwb/ and models/qwen3/)
"""

import json
import os
import shutil
import sys
import tempfile

TOLERANCE = 1e-10


def main(root):
    import torch
    # PEFT makes its LoRA layers in the default dtype and copies the (float64) file into
    # them; transformers computes RoPE and RMSNorm in float32 even in a float64 model
    # (float64.py): float64 throughout, so that the compare sees the math, not rounding.
    torch.set_default_dtype(torch.float64)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from float64 import float64_everywhere, recompute_rope
    import transformers
    from peft import AutoPeftModelForCausalLM, PeftModel

    adapter = os.path.join(root, "peft_rwb")
    with open(os.path.join(adapter, "rwb_logits.json"), encoding="utf-8") as f:
        ours = json.load(f)
    base = os.path.abspath(os.path.join(root, ours["base"]))
    ids = torch.tensor(ours["input_ids"])
    want = torch.tensor(ours["logits"], dtype=torch.float64)
    failures = 0

    def check(name, model):
        nonlocal failures
        model = model.to(torch.float64).eval()
        recompute_rope(model, torch)
        with torch.no_grad(), float64_everywhere(torch):
            got = model(input_ids=ids).logits
        rel = float((got - want).abs().max() / want.abs().max())
        ok = rel <= TOLERANCE
        failures += not ok
        print(f"peft: {name}: max |Δlogit| / max |logit| = {rel:.3g} ({'ok' if ok else 'FAILED'}, ≤ {TOLERANCE:g})")

    model = transformers.AutoModelForCausalLM.from_pretrained(base, dtype=torch.float64)
    check("PeftModel.from_pretrained", PeftModel.from_pretrained(model, adapter))
    # The committed copy names the folder of the machine that wrote it: point it at this
    # checkout's base, as the engine writes the absolute folder it loaded.
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("adapter_config.json", "adapter_model.safetensors"):
            shutil.copy(os.path.join(adapter, name), tmp)
        path = os.path.join(tmp, "adapter_config.json")
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
        config["base_model_name_or_path"] = base
        with open(path, "w", encoding="utf-8") as f:
            json.dump(config, f)
        check("AutoPeftModelForCausalLM.from_pretrained", AutoPeftModelForCausalLM.from_pretrained(tmp, dtype=torch.float64))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
