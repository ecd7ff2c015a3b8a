#!/usr/bin/env python3
"""Which reward still tracks the truth out of domain, for scripts/reproduce/002.sh --part ood.

  ood.py OUT

reads OUT/data/ood_answers.jsonl (rwb judge data's coverage lines: the reference grader's
coverage and contradiction of each answer, its kind in the id's last part), and
OUT/data/ood_semantic.jsonl, OUT/data/ood_judge.jsonl (rwb reward score of the same
answers), and prints the markdown tables: pairwise accuracy of each reward against the
truth (coverage + consistency) / 2 over pairs of answers to one question whose truth
differs (a tie in the reward counts half), in domain (pairs of the five kinds the judge
trained on) and on the divergent pairs (terse against wrong and against wrong_vague: the
right values in few words against the reference's words with a value changed), each
with a 95 % bootstrap interval over questions (2,000 resamples, seed 1) and the paired
difference judge − semantic; then each kind's mean truth and scores.
"""
import collections
import json
import random
import sys

IN_DOMAIN = {"right", "vague", "wrong", "wrong_vague", "other"}
DIVERGENT = ({"terse", "wrong"}, {"terse", "wrong_vague"})


def pairs_of(answers, which):
    kinds = list(answers)
    for i, ka in enumerate(kinds):
        for kb in kinds[i + 1:]:
            (ia, ta), (ib, tb) = answers[ka], answers[kb]
            if ta == tb:
                continue
            if which == "in domain" and ka in IN_DOMAIN and kb in IN_DOMAIN:
                yield ia, ta, ib, tb
            if which == "divergent" and {ka, kb} in DIVERGENT:
                yield ia, ta, ib, tb


def right(scores, pair):
    ia, ta, ib, tb = pair
    sa, sb = scores.get(ia), scores.get(ib)
    if sa is None or sb is None:
        return None
    if sa == sb:
        return 0.5
    return 1.0 if (sa > sb) == (ta > tb) else 0.0


def main(out):
    answers = [json.loads(l) for l in open(f"{out}/data/ood_answers.jsonl")]
    score = {r: {j["id"]: j["total"] for j in map(json.loads, open(f"{out}/data/ood_{r}.jsonl"))}
             for r in ("semantic", "judge")}
    byq = collections.defaultdict(dict)
    for a in answers:
        qid, kind = a["id"].rsplit("-", 1)
        byq[qid][kind] = (a["id"], (a["coverage"] + (0.0 if a["contradiction"] else 1.0)) / 2)

    def table(which):
        # Per question, each pair's verdict by each reward (None: that reward failed on an
        # answer of the pair); each reward is measured on the pairs it scored, the
        # difference on the pairs both scored.
        per_q = {}
        for qid, a in byq.items():
            rows = [(right(score["semantic"], p), right(score["judge"], p)) for p in pairs_of(a, which)]
            if rows:
                per_q[qid] = rows
        qs = sorted(per_q)

        def values(sample, k):
            if k < 2:
                return [r[k] for q in sample for r in per_q[q] if r[k] is not None]
            return [r[1] - r[0] for q in sample for r in per_q[q] if None not in r]

        def stat(sample, k):
            v = values(sample, k)
            return sum(v) / len(v) if v else None

        rng = random.Random(1)
        boots = [[], [], []]
        for _ in range(2000):
            sample = [qs[rng.randrange(len(qs))] for _ in qs]
            for k in range(3):
                x = stat(sample, k)
                if x is not None:
                    boots[k].append(x)
        res = []
        for k in range(3):
            b = sorted(boots[k])
            e = stat(qs, k)
            res.append(None if e is None or len(b) < 2000 else (e, b[49], b[1949], len(values(qs, k))))
        return len(qs), sum(len(per_q[q]) for q in qs), res

    print("## Out of domain: which reward still tracks the truth "
          "(scripts/reproduce.sh 002 --part ood; the paper's appendix F)\n")
    print(open(f"{out}/machine.txt").read().strip() + "\n")
    print("Pairs of answers to one question whose truth ((coverage + consistency) / 2, the reference grader's) "
          "differs; a reward is right on a pair when it orders the two as the truth does (a tie counts half). "
          "In domain: the five kinds of answer the judge was trained on. Divergent: terse (the facts' values "
          "alone, right) against the reference's words with a value changed (wrong, and wrong with another fact "
          "vague). 95 % intervals: 2,000 resamples of the questions; each reward on the pairs it scored, the "
          "difference on the pairs both scored.\n")
    print("| pairs | questions | pairs | semantic (lexical) | judge coverage + consistency | judge − semantic |")
    print("| --- | ---: | ---: | --- | --- | --- |")
    for which in ("in domain", "divergent"):
        nq, npairs, res = table(which)
        cells = []
        for k, r in enumerate(res):
            if r is None:
                cells.append("— (none scored)")
            elif k < 2:
                cells.append(f"{r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}]" + ("" if r[3] == npairs else f" on {r[3]}"))
            else:
                cells.append(f"{r[0]:+.3f} [{r[1]:+.3f}, {r[2]:+.3f}]" + ("" if r[3] == npairs else f" on {r[3]}"))
        print(f"| {which} | {nq} | {npairs} | " + " | ".join(cells) + " |")
    failed = sum(1 for v in score["judge"].values() if v is None)
    if failed:
        print(f"\nThe judge's reply could not be read for {failed} of {len(score['judge'])} answers "
              "(their pairs are left out of its column).")

    def mean(xs):
        return sum(xs) / len(xs) if xs else float("nan")

    print("\nMean score by kind of answer:\n")
    print("| answer | answers | truth | semantic | judge |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for kind in ("right", "terse", "vague", "wrong", "wrong_vague", "other"):
        ids = [a[kind] for a in byq.values() if kind in a]
        if not ids:
            continue
        sem = [score["semantic"][i] for i, _ in ids if score["semantic"].get(i) is not None]
        jud = [score["judge"][i] for i, _ in ids if score["judge"].get(i) is not None]
        print(f"| {kind} | {len(ids)} | {mean([t for _, t in ids]):.3f} | {mean(sem):.3f} | {mean(jud):.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
