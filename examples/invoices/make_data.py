#!/usr/bin/env python3
"""Generated invoices for the worked example of docs/your-task.md.

Writes JSONL in TRL's standard shape: a text "prompt", the reference answer "solution"
(a JSON object as text) and the columns "vendor" and "total", which the reward function
in rewards.py reads by name, as TRL hands dataset columns to reward functions.

    python3 make_data.py --out data --train 4000 --grpo 600 --test 100 --seed 1

Only the standard library; the same seed gives the same files.
"""
import argparse
import json
import os
import random

FIRST = ["North", "Blue", "Silver", "Green", "Red", "Iron", "Oak", "Pine", "Stone", "River", "Sun", "Moon",
         "Star", "Maple", "Cedar", "Lake", "Hill", "Bright", "Swift", "Gold"]
SECOND = ["wind", "field", "bridge", "gate", "brook", "ridge", "wood", "point", "haven", "crest"]
KIND = ["Supply", "Tools", "Foods", "Paper", "Logistics", "Systems", "Textiles", "Hardware", "Labs", "Works"]
SUFFIX = ["Ltd", "Inc", "GmbH", "LLC", "Co"]
ITEMS = ["paper A4", "toner", "cable", "desk lamp", "chair", "screws", "labels", "boxes", "gloves", "tape",
         "stapler", "monitor arm", "keyboard", "mouse", "notebooks", "pens"]
CUSTOMERS = ["Harbor Clinic", "Maple School", "City Bakery", "Delta Garage", "Hilltop Hotel", "Orbit Studio"]


def vendor_name(rng):
    return f"{rng.choice(FIRST)}{rng.choice(SECOND)} {rng.choice(KIND)} {rng.choice(SUFFIX)}"


def invoice(rng):
    vendor = vendor_name(rng)
    customer = rng.choice(CUSTOMERS)
    lines = []
    total_cents = 0
    for _ in range(rng.randint(1, 3)):
        qty = rng.randint(1, 9)
        unit = rng.randint(100, 9999)  # cents
        total_cents += qty * unit
        lines.append(f"{rng.choice(ITEMS)} x{qty} @ {unit // 100}.{unit % 100:02d}")
    total = f"{total_cents // 100}.{total_cents % 100:02d}"
    number = f"INV-{rng.randint(1000, 9999)}"
    date = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    header = [f"From: {vendor}", f"To: {customer}", f"Invoice {number}, {date}"]
    if rng.random() < 0.5:
        header[0], header[1] = header[1].replace("To:", "Bill to:"), header[0]
    text = "\n".join(header + lines + [f"TOTAL {total}"])
    prompt = ("Extract the vendor (the company that sent the invoice) and the total as JSON "
              "{\"vendor\": ..., \"total\": ...}.\n\n" + text)
    solution = json.dumps({"vendor": vendor, "total": total})
    return {"prompt": prompt, "solution": solution, "vendor": vendor, "total": total, "invoice": number}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="data")
    ap.add_argument("--train", type=int, default=4000)
    ap.add_argument("--grpo", type=int, default=600)
    ap.add_argument("--test", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    for split, n in (("train", a.train), ("grpo", a.grpo), ("test", a.test)):
        with open(os.path.join(a.out, f"{split}.jsonl"), "w", encoding="utf-8") as f:
            for i in range(n):
                record = invoice(rng)
                record["id"] = f"{split}-{i:05d}"
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(json.dumps({"out": a.out, "train": a.train, "grpo": a.grpo, "test": a.test}))


if __name__ == "__main__":
    main()
