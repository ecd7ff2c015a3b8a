#!/usr/bin/env python3
"""Reference-Likert training lines whose target writes the points first.

scripts/reproduce.sh 001 --part diagnosis: `rwb judge data` gives a rating request the
bare target {"rating": r*}, so a judge must decide in one token. This rewrites the
target of each likert_reference line of IN as
    {"reference_points": [...], "response_points": [...], "rating": r*}
where reference_points are the values of the answer's Essential / Important rubric items
(the 「…」 in each item's text) and response_points those of its items the reference
grader found met (facts and pitfalls): the values the rating rests on, as the coverage
judge's target lists them before its verdict. The items come from the same answer's
rubric_explicit lines in IN, so IN must hold both kinds, for one body of law (answer ids
restart with each). The rating reader takes "rating" from the object and ignores the
other keys, so the reward reads these replies unchanged.

usage: points_first.py IN OUT   (prints the number of lines written)
"""
import collections
import json
import re
import sys


def main(src, dst):
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
    written = 0
    with open(dst, "w", encoding="utf-8") as out:
        for n, d in enumerate(lines, 1):
            if d["judge_kind"] != "likert_reference":
                continue
            if d["answer_id"] not in items:
                sys.exit(f"{src}:{n}: answer {d['answer_id']} has no rubric_explicit lines to take its points from")
            its = items[d["answer_id"]]
            d["completion"] = json.dumps(
                {"reference_points": [v for w, v, _ in its if w > 0 and v],
                 "response_points": [v for _, v, met in its if met and v],
                 "rating": d["rating"]},
                ensure_ascii=False, separators=(",", ":"))
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
            written += 1
    print(written)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(sys.argv[1], sys.argv[2])
