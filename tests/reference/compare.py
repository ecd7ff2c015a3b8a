#!/usr/bin/env python3
"""Compares two trees of golden files: committed (first) and made again (second).

JSON files are compared value by value (floats within 1e-12 relative to the largest
magnitude of their array, everything else exactly), other files byte for byte. Prints
each difference and exits 1 if there is any; README.md is the committed tree's own, and
--ignore FOLDER leaves out a committed folder the script does not make (peft_rwb).
"""

import json
import os
import sys

REL = 1e-12


def files(root):
    out = set()
    for folder, _, names in os.walk(root):
        for name in names:
            out.add(os.path.relpath(os.path.join(folder, name), root))
    return out


def compare_json(a, b, path, diffs):
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            diffs.append(f"{path}: {a!r} vs {b!r}")
        elif abs(a - b) > REL * max(1.0, abs(a), abs(b)):
            diffs.append(f"{path}: {a!r} vs {b!r}")
    elif isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                diffs.append(f"{path}.{key}: only in {'made' if key not in a else 'committed'}")
            else:
                compare_json(a[key], b[key], f"{path}.{key}", diffs)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            diffs.append(f"{path}: {len(a)} items vs {len(b)}")
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                compare_json(x, y, f"{path}[{i}]", diffs)
    elif a != b:
        diffs.append(f"{path}: {a!r} vs {b!r}")


def main(committed, made, ignore=()):
    diffs = []
    ours = {f for f in files(committed) - {"README.md"} if not any(f.startswith(i + "/") for i in ignore)}
    theirs = files(made)
    for name in sorted(ours ^ theirs):
        diffs.append(f"{name}: only in {'committed' if name in ours else 'made'}")
    for name in sorted(ours & theirs):
        pa, pb = os.path.join(committed, name), os.path.join(made, name)
        if name.endswith(".json") and not name.endswith("versions.json"):
            with open(pa, encoding="utf-8") as fa, open(pb, encoding="utf-8") as fb:
                compare_json(json.load(fa), json.load(fb), name, diffs)
        else:
            with open(pa, "rb") as fa, open(pb, "rb") as fb:
                if fa.read() != fb.read():
                    diffs.append(f"{name}: the bytes differ")
    per_file = {}
    for d in diffs:
        per_file[d.split(":")[0].split(".json")[0]] = per_file.get(d.split(":")[0].split(".json")[0], 0) + 1
    for name, n in sorted(per_file.items()):
        print(f"reference: {name}: {n} differences")
    for d in diffs[:200]:
        print("differs:", d)
    if len(diffs) > 200:
        print(f"... and {len(diffs) - 200} more")
    print(f"reference: {len(ours & theirs)} files compared, {len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    ignored = [args[i + 1] for i, a in enumerate(args) if a == "--ignore"]
    positional = [a for i, a in enumerate(args) if a != "--ignore" and (i == 0 or args[i - 1] != "--ignore")]
    sys.exit(main(positional[0], positional[1], ignored))
