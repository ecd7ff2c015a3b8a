#!/usr/bin/env bash
# README command 1: set everything up, build, and run the main job: the workbench
# opened on the bundled sample set with the paper's best preset. Without a display,
# the same job headless: the sample sets scored by rwb with every bundled preset,
# with a progress line and summary tables.
#   scripts/demo.sh [--headless]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build=${RWB_BUILD_DIR:-$root/build}
rwb="$build/app/rwb/rwb"
samples="$root/resources/samples/company_samples.jsonl"
thinking_samples="$root/resources/samples/company_samples_thinking.jsonl"
presets="$root/resources/presets"

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && "${1:-}" != "--headless" ]]; then
  exec "$build/app/workbench/reward-workbench" --samples "$samples" \
    --config "$presets/table2_star_partial20_marker80.json"
fi

echo "No display (or --headless): running the main job headless."
out=${RWB_DEMO_OUT:-$root/build/demo}
mkdir -p "$out"
plain=(); think=()
for p in "$presets"/*.json; do
  if grep -q '"thinking": true' "$p"; then think+=("$p"); else plain+=("$p"); fi
done
total=$(( ${#plain[@]} + ${#think[@]} )); n=0
for p in "${plain[@]}" "${think[@]}"; do
  n=$((n + 1))
  input=$samples; [[ " ${think[*]} " == *" $p "* ]] && input=$thinking_samples
  printf '\r[%2d/%d] scoring %-48s' "$n" "$total" "$(basename "$p" .json)" >&2
  "$rwb" reward score --config "$p" --input "$input" --output "$out/$(basename "$p" .json).jsonl"
done
printf '\n' >&2

echo
echo "== The paper's best preset (table 2 *) on the bundled samples =="
"$rwb" reward score --config "$presets/table2_star_partial20_marker80.json" --input "$samples" \
  --output "$out/table2_star_partial20_marker80.jsonl" --summary
echo
echo "== Every preset without thinking: mean total by completion kind =="
"$rwb" reward compare --input "$samples" $(printf -- '--config %s ' "${plain[@]}")
echo
echo "== The thinking presets on the thinking samples =="
"$rwb" reward compare --input "$thinking_samples" $(printf -- '--config %s ' "${think[@]}")
echo
echo "Per-completion scores of every preset: $out"
