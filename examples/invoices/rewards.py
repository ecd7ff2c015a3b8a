"""The worked example's reward, written for TRL: a plain function of the completions and
the dataset's columns (here "vendor" and "total"), returning one float per completion.

Reward Workbench runs it unchanged in a Python worker (docs/python-rewards.md); TRL's
GRPOTrainer takes it as reward_funcs=[invoice_reward] (check_with_trl.py does).
"""
import difflib
import json
import re


def _reply_object(text):
    """The reply's JSON object (from its first "{" to its last "}"), or None."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        value = json.loads(text[start:end + 1])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _number(value):
    try:
        return round(float(re.sub(r"[^0-9.\-]", "", str(value))), 2)
    except ValueError:
        return None


def invoice_reward(completions, vendor, total, log_metric=None, **kwargs):
    """0.2 for a JSON object, + 0.4 × how close the vendor is (1 when right), + 0.4 for the
    right total. The vendor's partial credit (difflib's ratio) rewards a reply that copies
    most of the name, so that GRPO has something to climb before the first exact copy."""
    rewards = []
    vendors_right = 0
    for completion, want_vendor, want_total in zip(completions, vendor, total):
        text = completion if isinstance(completion, str) else completion[-1]["content"]
        reply = _reply_object(text)
        if reply is None:
            rewards.append(0.0)
            continue
        score = 0.2
        got_vendor = str(reply.get("vendor", "")).strip().lower()
        if got_vendor == want_vendor.lower():
            vendors_right += 1
        score += 0.4 * difflib.SequenceMatcher(None, got_vendor, want_vendor.lower()).ratio()
        if _number(reply.get("total")) == _number(want_total):
            score += 0.4
        rewards.append(score)
    if log_metric is not None:
        log_metric("vendor_right", vendors_right / max(1, len(rewards)))
    return rewards
