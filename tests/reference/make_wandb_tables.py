#!/usr/bin/env python3
"""Makes the W&B tables tests/data/import/wandb/ holds with the trainers' own loggers and
wandb itself (offline: nothing leaves the machine), so that `rwb import` is tested on the
files W&B really writes and exports (`media/table/<key>_<n>_<hash>.table.json`):

- verl's ValidationGenerationsLogger (verl/utils/tracking.py), as verl's trainer calls it
  after each validation: the table `val/generations`, one row per validation with
  `step, input_1, output_1, score_1, input_2, …`, each logged table holding the rows before.
- OpenRLHF's WandbLogger (openrlhf/utils/logging_utils.py), as its PPO trainer calls
  log_train: the table `train/generated_samples`, `global_step, text, reward`.

    pip install --target /tmp/wb wandb==0.31.0      # not a test dependency: run by hand
    PYTHONPATH=/tmp/wb .venv/bin/python tests/reference/make_wandb_tables.py

verl and OpenRLHF from tests/reference/requirements-trainers.txt (in .venv). The tables
are written again over tests/data/import/wandb/; the hash in a name is wandb's digest of
the table, so the same rows give the same file.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile
import types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "data", "import", "wandb")

# What a validation logs: (input, output, score) per sample, verl's generations_to_log of
# them, sorted by input (verl sorts before it samples).
VERL_VALIDATIONS = {
    0: [("Who sent this mail? 差出人: tanaka@midori-ss.co.jp", "みどり製作所", 0.5),
        ("Who sent this mail? 差出人: info@aozora.jp", "不明", 0.0),
        ("Who sent this mail? 差出人: sato@sakura-unso.jp", "さくら運送", 0.8)],
    10: [("Who sent this mail? 差出人: tanaka@midori-ss.co.jp", "株式会社みどり製作所", 1.0),
         ("Who sent this mail? 差出人: info@aozora.jp", "株式会社あおぞら商会", 1.0),
         ("Who sent this mail? 差出人: sato@sakura-unso.jp", "さくら運送", 0.8)],
}
# OpenRLHF's sample0 per step: the first sequence decoded (prompt and response), its reward.
OPENRLHF_SAMPLES = {
    1: ("user\nWho sent this mail? 差出人: info@aozora.jp\nassistant\n不明", 0.0),
    2: ("user\nWho sent this mail? 差出人: tanaka@midori-ss.co.jp\nassistant\nみどり製作所", 0.5),
    3: ("user\nWho sent this mail? 差出人: sato@sakura-unso.jp\nassistant\n有限会社さくら運送", 1.0),
}


def run_dir(tmp):
    return glob.glob(os.path.join(tmp, "wandb", "offline-run-*"))[0]


def make(which, tmp):
    """One trainer's tables, in a process of its own (wandb keeps its first run's settings)."""
    os.environ.update(WANDB_MODE="offline", WANDB_SILENT="true", WANDB_API_KEY="0" * 40, WANDB_DIR=tmp)
    os.chdir(tmp)
    import wandb
    if which == "verl":
        from verl.utils.tracking import ValidationGenerationsLogger
        wandb.init(project="rwb-fixtures", name="verl", dir=tmp, mode="offline")
        logger = ValidationGenerationsLogger()
        for step, samples in VERL_VALIDATIONS.items():
            logger.log(["wandb"], samples, step)
        wandb.finish()
    else:
        from openrlhf.utils.logging_utils import WandbLogger
        w = types.SimpleNamespace(org=None, project="rwb-fixtures", group=None, run_name="openrlhf", key="0" * 40)
        logger = WandbLogger(types.SimpleNamespace(logger=types.SimpleNamespace(wandb=w)))
        for step, (text, reward) in OPENRLHF_SAMPLES.items():
            logger.log_train(step, {"generated_samples": [text, reward], "policy_loss": 0.1 * step})
        logger.close()


def main():
    if len(sys.argv) == 3:
        return make(sys.argv[1], sys.argv[2])
    shutil.rmtree(OUT, ignore_errors=True)
    for which in ("verl", "openrlhf"):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, os.path.abspath(__file__), which, tmp], check=True)
            shutil.copytree(os.path.join(run_dir(tmp), "files", "media"), os.path.join(OUT, which, "media"))
    for f in sorted(glob.glob(os.path.join(OUT, "**", "*.json"), recursive=True)):
        print(os.path.relpath(f, ROOT))


if __name__ == "__main__":
    sys.exit(main())
