#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (installing Debian's clang-14 and its runtime when missing)
# and runs each for SECONDS (default 300) on both cores' worth of jobs, from a seed corpus
# of the project's own files. A crash stops that harness and leaves crash-* in its corpus
# folder; turn each into a regression test. Not part of CI.
#   scripts/fuzz.sh [SECONDS] [HARNESS ...]     (harnesses: json tokenizer_json sentencepiece_model)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
shift || true
harnesses=("$@")
[[ ${#harnesses[@]} -gt 0 ]] || harnesses=(json tokenizer_json sentencepiece_model)
if ! command -v clang++-14 >/dev/null || [[ ! -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ]]; then
  sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
  $sudo apt-get install -y -q clang-14 libclang-rt-14-dev
fi
out=${RWB_FUZZ_DIR:-$root/build-fuzz}
cmake -S "$root/fuzz" -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$out" -j2
seed() { # harness → folder of seed inputs from the project's files
  local dir="$out/corpus/$1"
  mkdir -p "$dir"
  case $1 in
    json) find "$root/tests/data" "$root/resources" -name '*.json' -size -64k -exec cp -t "$dir" {} + 2>/dev/null || true ;;
    tokenizer_json) find "$root/tests/data" -name 'tokenizer.json' -size -512k | while read -r f; do
                      cp "$f" "$dir/$(echo "$f" | md5sum | cut -c1-12).json"; done ;;
    sentencepiece_model) find "$root/tests/data" -name 'tokenizer.model' | while read -r f; do
                           cp "$f" "$dir/$(echo "$f" | md5sum | cut -c1-12).model"; done ;;
  esac
  echo "$dir"
}
status=0
for h in "${harnesses[@]}"; do
  corpus=$(seed "$h")
  echo "fuzz: $h for $seconds s"
  if ! (cd "$out/corpus" && ASAN_OPTIONS=detect_leaks=0 "$out/fuzz_$h" -max_total_time="$seconds" -max_len=1048576 \
          -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 -artifact_prefix="$corpus/" "$corpus" 2>&1 |
        grep -E "^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" ); then
    status=1
  fi
done
exit $status
