#!/usr/bin/env python3
"""Paired difference of pairwise accuracy between two judges' `rwb judge eval --out` lines.

scripts/reproduce.sh 001: for one judge kind, each answer's value under judge A and judge
B (a rating r → r; rubric_explicit → clamp(Σ w·c / Σ w⁺, 0, 1) over its items, the reward's
value; an answer with a failed or unread request has none), then over the pairs of one
question's answers whose true score s* differs and that both judges valued, the share
each orders as s* does (a tie counts half), pooled. Prints B − A with a 95 % bootstrap
interval over questions (2,000 resamples, seed 1), as one JSON object:
{"kind", "difference", "interval": [lo, hi], "questions", "pairs"} (difference null when no
pair is left).

usage: judge_compare.py KIND A.jsonl B.jsonl
"""
import collections
import json
import random
import sys


def values(path, kind):
    """answer_id → (question_id, s*, value) for KIND's answers that have a value."""
    rated, items = {}, collections.defaultdict(list)
    for line in open(path, encoding="utf-8"):
        x = json.loads(line)
        if x["judge_kind"] != kind:
            continue
        if kind == "rubric_explicit":
            items[x["answer_id"]].append(x)
        elif x.get("judged_rating") is not None:
            rated[x["answer_id"]] = (x["question_id"], x["score"], x["judged_rating"])
    for answer, xs in items.items():
        if any(x.get("judged_met") is None for x in xs):
            continue
        positive = sum(x["weight"] for x in xs if x["weight"] > 0)
        if positive <= 0:
            continue
        value = sum(x["weight"] for x in xs if x["judged_met"]) / positive
        rated[answer] = (xs[0]["question_id"], xs[0]["score"], min(max(value, 0.0), 1.0))
    return rated


def main(kind, path_a, path_b):
    a, b = values(path_a, kind), values(path_b, kind)
    per_question = collections.defaultdict(list)
    for answer, (question, truth, va) in a.items():
        if answer in b:
            per_question[question].append((truth, va, b[answer][2]))
    counts = {}
    for question, xs in per_question.items():
        right_a = right_b = pairs = 0
        for i in range(len(xs)):
            for k in range(i + 1, len(xs)):
                (t1, a1, b1), (t2, a2, b2) = xs[i], xs[k]
                if t1 == t2:
                    continue
                sign = 1 if t1 > t2 else -1
                right = lambda v1, v2: 0.5 if v1 == v2 else float((v1 - v2) * sign > 0)
                right_a += right(a1, a2)
                right_b += right(b1, b2)
                pairs += 1
        if pairs:
            counts[question] = (right_a, right_b, pairs)
    questions = sorted(counts)
    result = {"kind": kind, "difference": None, "interval": [None, None], "questions": len(questions),
              "pairs": sum(c[2] for c in counts.values())}
    if questions:
        rate = lambda sample: (sum(c[1] for c in sample) - sum(c[0] for c in sample)) / sum(c[2] for c in sample)
        rng = random.Random(1)
        boots = sorted(rate([counts[rng.choice(questions)] for _ in questions]) for _ in range(2000))
        result["difference"] = rate([counts[q] for q in questions])
        result["interval"] = [boots[49], boots[1949]]
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(*sys.argv[1:])
