#!/usr/bin/env python3
"""Rating-request training lines whose target writes the points first.

scripts/reproduce.sh 001: `rwb judge data` gives a rating request the bare target
{"rating": r*}, so a judge must decide in one token. This rewrites the target of each
rating line of IN so that it first lists the values the rating rests on, as the coverage
judge's target lists its points before its verdict:
    likert_reference  {"reference_points": [...], "response_points": [...], "rating": r*}
    rubric_implicit   {"rubric_points": [...], "response_points": [...], "rating": r*}
    likert_simple     {"response_points": [...], "rating": r*}
reference_points / rubric_points are the values of the answer's Essential / Important
rubric items (the 「…」 in each item's text; the reference answer states the same
facts), response_points those of its items the reference grader found met (facts and
pitfalls). Simple-Likert sees neither the reference nor the rubric, so it lists only the
response's. The items come from the same answer's rubric_explicit lines in IN, so IN must
hold that kind too, for one body of law (answer ids restart with each). The rating reader
takes "rating" from the object and ignores the other keys, so the rewards read these
replies unchanged.

usage: points_first.py [--all] IN OUT   (prints the number of lines written)
  without --all  only the likert_reference lines, rewritten (part diagnosis)
  --all          every line: the rating kinds rewritten, rubric_explicit as it was (part points)
"""
import collections
import json
import re
import sys

RATING_KINDS = ("likert_reference", "rubric_implicit", "likert_simple")


def target(kind, items, rating):
    facts = [v for w, v, _ in items if w > 0 and v]
    said = [v for _, v, met in items if met and v]
    if kind == "likert_reference":
        t = {"reference_points": facts, "response_points": said}
    elif kind == "rubric_implicit":
        t = {"rubric_points": facts, "response_points": said}
    else:
        t = {"response_points": said}
    t["rating"] = rating
    return json.dumps(t, ensure_ascii=False, separators=(",", ":"))


def main(src, dst, every):
    lines = [json.loads(line) for line in open(src, encoding="utf-8")]
    items = collections.defaultdict(list)
    for n, d in enumerate(lines, 1):
        if d["judge_kind"] != "rubric_explicit":
            continue
        text = d["messages"][-1]["content"]
        if "<rubric_item>" not in text:
            sys.exit(f"{src}:{n}: a rubric_explicit request without <rubric_item>")
        value = re.search(r"「(.+?)」", text[text.index("<rubric_item>"):])
        items[d["answer_id"]].append((d["weight"], value.group(1) if value else None, d["met"]))
    kinds = RATING_KINDS if every else ("likert_reference",)
    written = 0
    with open(dst, "w", encoding="utf-8") as out:
        for n, d in enumerate(lines, 1):
            if d["judge_kind"] in kinds:
                if d["answer_id"] not in items:
                    sys.exit(f"{src}:{n}: answer {d['answer_id']} has no rubric_explicit lines to take its points from")
                d["completion"] = target(d["judge_kind"], items[d["answer_id"]], d["rating"])
            elif not every:
                continue
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
            written += 1
    print(written)


if __name__ == "__main__":
    args = sys.argv[1:]
    every = "--all" in args
    args = [a for a in args if a != "--all"]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[-3])
    main(args[0], args[1], every)
