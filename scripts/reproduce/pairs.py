#!/usr/bin/env python3
"""Preference pairs (DPO lines of rwb prm export / synth) scored by a PRM, for scripts/reproduce/003.sh.

  pairs.py trajectories PAIRS.jsonl          each pair as two trajectories (history + chosen,
                                             history + rejected) for rwb prm score
  pairs.py accuracy PAIRS.jsonl SCORES.jsonl KIND
                                             the share of pairs whose chosen step the PRM scores
                                             higher, per kind and in all, with a 95 % bootstrap
                                             interval over questions (2,000 resamples, seed 1),
                                             as JSON lines {"kind", "pairs", "questions",
                                             "accuracy", "low", "high"}; KIND: "reason" (the
                                             kind before ":" in the reason, rwb prm synth's) or
                                             "step" (answer step or hop step)
"""
import collections
import json
import random
import sys


def trajectories(pairs_path):
    for n, line in enumerate(open(pairs_path)):
        p = json.loads(line)
        history = "".join(p["history"])
        for side in ("chosen", "rejected"):
            print(json.dumps({"id": f"{n}-{side}", "question": p["question"], "completion": history + p[side]},
                             ensure_ascii=False))


def kind_of(pair, by):
    if by == "reason":
        return pair["reason"].split(":", 1)[0]
    return "answer step" if "<answer>" in pair["chosen"] or "<answer>" in pair["rejected"] else "hop step"


def accuracy(pairs_path, scores_path, by):
    pairs = [json.loads(l) for l in open(pairs_path)]
    last = {}
    for l in open(scores_path):
        j = json.loads(l)
        last[j["id"]] = j["last"]
    rows = [(p["question_id"], kind_of(p, by), 1.0 if last[f"{n}-chosen"] > last[f"{n}-rejected"] else 0.0)
            for n, p in enumerate(pairs)]
    kinds = sorted({k for _, k, _ in rows})
    for kind in kinds + [None]:
        byq = collections.defaultdict(list)
        for q, k, right in rows:
            if kind is None or k == kind:
                byq[q].append(right)
        qs = list(byq)
        total = lambda keys: sum(sum(byq[q]) for q in keys) / sum(len(byq[q]) for q in keys)
        rng = random.Random(1)
        draws = sorted(total([rng.choice(qs) for _ in qs]) for _ in range(2000))
        print(json.dumps({"kind": kind, "pairs": sum(len(v) for v in byq.values()), "questions": len(qs),
                          "accuracy": total(qs), "low": draws[49], "high": draws[1949]}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["trajectories"] and len(sys.argv) == 3:
        trajectories(sys.argv[2])
    elif sys.argv[1:2] == ["accuracy"] and len(sys.argv) == 5 and sys.argv[4] in ("reason", "step"):
        accuracy(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
