#!/usr/bin/env bash
# README command 1: set everything up, build, and run the main job: the workbench
# opened on the bundled sample set. Without a display, the same job headless: the
# sample set scored by rwb with every bundled preset, and summary tables.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${RWB_BUILD_DIR:-$root/build}
samples="$root/resources/samples/company_samples.jsonl"
presets="$root/resources/presets"

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && "${1:-}" != "--headless" ]]; then
  exec "$build/app/workbench/reward-workbench" --samples "$samples"
fi

echo "No display: running the main job headless."
out=$(mktemp -d)
n=0; total=$(ls "$presets"/*.json | wc -l)
for p in "$presets"/*.json; do
  n=$((n + 1))
  printf '\r[%2d/%d] scoring with %s' "$n" "$total" "$(basename "$p" .json)" >&2
  "$build/app/rwb/rwb" reward score --config "$p" --input "$samples" --output "$out/$(basename "$p" .json).jsonl"
done
printf '\n\n' >&2
"$build/app/rwb/rwb" reward score --config "$presets/table2_star_partial20_marker80.json" \
  --input "$samples" --output "$out/star.jsonl" --summary
echo
"$build/app/rwb/rwb" reward compare --input "$samples" $(for p in "$presets"/*.json; do printf -- '--config %s ' "$p"; done)
echo
echo "Scores of every preset: $out"
