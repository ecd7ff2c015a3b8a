"""transformers' own code, run in float64 throughout.

A float64 model in transformers still computes parts of its forward in float32: RoPE's
inverse frequencies (`torch.arange(..., dtype=torch.float)`), cos and sin (`.float()`),
RMSNorm's variance (`.to(torch.float32)`), eager attention's softmax (`dtype=torch.float32`).
Against those the engine's float64 path differs by about 2e-7 relative, float32's rounding,
which would hide any real difference below it. Inside `float64_everywhere()` every such
request for float32 gets float64, so that the golden logits are transformers' math in
float64 and a compare at 1e-10 sees the math alone. `recompute_rope()` makes the rotary
modules' inverse frequencies again that way (they were made in float32 at construction).
"""

import contextlib


@contextlib.contextmanager
def float64_everywhere(torch):
    to, flt, arange = torch.Tensor.to, torch.Tensor.float, torch.arange
    softmax = torch.nn.functional.softmax

    def swap(value):
        return torch.float64 if value is torch.float32 else value

    def to64(self, *args, **kwargs):
        args = tuple(swap(a) for a in args)
        if "dtype" in kwargs:
            kwargs["dtype"] = swap(kwargs["dtype"])
        return to(self, *args, **kwargs)

    def arange64(*args, **kwargs):
        if "dtype" in kwargs:
            kwargs["dtype"] = swap(kwargs["dtype"])
        return arange(*args, **kwargs)

    def softmax64(*args, **kwargs):
        if "dtype" in kwargs:
            kwargs["dtype"] = swap(kwargs["dtype"])
        return softmax(*args, **kwargs)

    torch.Tensor.to, torch.arange, torch.nn.functional.softmax = to64, arange64, softmax64
    torch.Tensor.float = lambda self, *a, **k: to(self, torch.float64)
    try:
        yield
    finally:
        torch.Tensor.to, torch.Tensor.float, torch.arange = to, flt, arange
        torch.nn.functional.softmax = softmax


def recompute_rope(model, torch):
    """The rotary modules' inv_freq made again by transformers' own init functions, in float64."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    for module in model.modules():
        if not (hasattr(module, "inv_freq") and hasattr(module, "rope_type")):
            continue
        init = (module.compute_default_rope_parameters if module.rope_type == "default"
                else ROPE_INIT_FUNCTIONS[module.rope_type])
        with float64_everywhere(torch):
            inv_freq, scaling = init(module.config, None)
        module.inv_freq = inv_freq.to(torch.float64)
        module.original_inv_freq = module.inv_freq.clone()
        module.attention_scaling = scaling
