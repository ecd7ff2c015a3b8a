#!/usr/bin/env python3
"""Refuses an include that runs up the layers (docs/development.md, "Layers").

    scripts/checklayers.py [--list]

The layers are in core/LAYERS: one line per layer, lowest first; the folders of core/ on
one line may include each other, and any folder of a lower line. Above core come
widgets/ (which may include core) and app/ (which may include both); core includes
neither. An include that breaks this is an error unless core/LAYERS names it as an
exception ("allow <file> -> <folder>"), and each exception must also be named, with its
reason, in docs/development.md. The build runs this on every build (the `layers` target);
--list prints every include between folders with its direction.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_layers():
    ranks, allowed = {}, set()
    path = ROOT / "core" / "LAYERS"
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("allow "):
            m = re.fullmatch(r"allow\s+(\S+)\s*->\s*(\S+)", line)
            if not m:
                sys.exit(f"{path}:{number}: expected 'allow <file> -> <folder>', got {line!r}")
            allowed.add((m.group(1), m.group(2)))
            continue
        rank = len(set(ranks.values()))
        for folder in line.split():
            if folder in ranks:
                sys.exit(f"{path}:{number}: folder {folder!r} is on two lines")
            if not (ROOT / "core" / folder).is_dir():
                sys.exit(f"{path}:{number}: core/{folder} does not exist")
            ranks[folder] = rank
    return ranks, allowed


def sources():
    for top in ("core", "widgets", "app"):
        for p in sorted((ROOT / top).rglob("*")):
            if p.suffix in (".h", ".cpp") and p.is_file():
                yield p


def main():
    ranks, allowed = read_layers()
    listing = "--list" in sys.argv[1:]
    errors, used = [], set()
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        top = rel.split("/", 1)[0]
        if top == "core":
            here = rel.split("/")[1]
            if here not in ranks and path.parent != ROOT / "core":
                errors.append(f"{rel}: core/{here} is on no line of core/LAYERS")
                continue
        for m in INCLUDE.finditer(path.read_text(encoding="utf-8", errors="replace")):
            target = m.group(1)
            first = target.split("/", 1)[0]
            if "/" not in target:
                continue  # a file beside it, a generated header, a Qt one
            line = path.read_text(encoding="utf-8", errors="replace").count("\n", 0, m.start()) + 1
            if first in ranks:
                kind = "core"
            elif (ROOT / "widgets" / target).is_file() or first == "widgets":
                kind = "widgets"
            else:
                continue
            if top == "core" and kind == "widgets":
                errors.append(f"{rel}:{line}: core includes a widget ({target})")
                continue
            if top != "core" or kind != "core":
                continue
            there = first
            if there == here:
                continue
            upward = ranks[there] > ranks[here]
            if listing:
                print(f"{'UP  ' if upward else '    '}{rel} -> {there}")
            if upward:
                key = (rel, there)
                if key in allowed:
                    used.add(key)
                else:
                    errors.append(f"{rel}:{line}: includes {target}, but core/{there} is above core/{here} "
                                  f"in core/LAYERS (move the code, or name the exception there and in "
                                  f"docs/development.md)")
    doc = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    for file, folder in sorted(allowed):
        if (file, folder) not in used:
            errors.append(f"core/LAYERS: 'allow {file} -> {folder}' is no longer needed: remove it (and from "
                          f"docs/development.md)")
        elif f"`{file}` → `{folder}`" not in doc:
            errors.append(f"core/LAYERS: 'allow {file} -> {folder}' is not named in docs/development.md "
                          f"(as `{file}` → `{folder}`, with its reason)")
    for e in errors:
        print(f"checklayers: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
