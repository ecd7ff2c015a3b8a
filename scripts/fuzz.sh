#!/usr/bin/env bash
# Builds the libFuzzer harnesses of fuzz/ with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (installing Debian's clang-14 and its runtime when missing)
# and runs each for SECONDS (default 300) on both cores' worth of jobs, from a seed corpus
# of the project's own files. A crash stops that harness and leaves crash-* in its corpus
# folder; turn each into a regression test. Not part of CI.
#   scripts/fuzz.sh [SECONDS] [HARNESS ...]
# Harnesses: json tokenizer_json sentencepiece_model safetensors task_records reward_config
# mcts_tree rollout_import judge_reply serve_request (all by default). RWB_FUZZ_JOBS=2 runs
# two fuzzing processes per harness (libFuzzer's -fork), RWB_FUZZ_RUNS=N stops a harness
# after N executions instead of after SECONDS.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
shift || true
harnesses=("$@")
[[ ${#harnesses[@]} -gt 0 ]] || harnesses=(json tokenizer_json sentencepiece_model safetensors task_records
  reward_config mcts_tree rollout_import judge_reply serve_request)
if ! command -v clang++-14 >/dev/null || [[ ! -e /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ]]; then
  sudo=""; [[ $(id -u) == 0 ]] || sudo=sudo
  $sudo apt-get install -y -q clang-14 libclang-rt-14-dev
fi
out=${RWB_FUZZ_DIR:-$root/build-fuzz}
cmake -S "$root/fuzz" -B "$out" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo -Wno-dev >/dev/null
ninja -C "$out" -j2
seed() { # harness → folder of seed inputs from the project's files (fuzz/seeds/ adds hand-written ones)
  local dir="$out/corpus/$1"
  mkdir -p "$dir"
  copy() { while read -r f; do cp "$f" "$dir/$(echo "$f" | md5sum | cut -c1-12).$1"; done; }
  case $1 in
    json) find "$root/tests/data" "$root/resources" -name '*.json' -size -64k | copy json ;;
    tokenizer_json) find "$root/tests/data" -name 'tokenizer.json' -size -160k | copy json ;;
    sentencepiece_model) find "$root/tests/data" -name 'tokenizer.model' | copy model ;;
    safetensors) find "$root/tests/data" -name '*.safetensors' -size -64k | copy safetensors ;;
    task_records) # single lines of every task's datasets
      find "$root/resources/samples" "$root/tests/data" -maxdepth 1 -name '*.jsonl' | while read -r f; do
        head -n 20 "$f" | split -l 1 - "$dir/$(basename "$f" .jsonl)-"; done ;;
    reward_config) find "$root/resources/presets" "$root/tests/data" -maxdepth 1 -name '*.json' | copy json ;;
    rollout_import) # the first byte picks the file's extension and the format asked for (fuzz_rollout_import.cpp)
      find "$root/tests/data/import" -type f | while read -r f; do
        local ext=0; case $f in *.json) ext=1 ;; *.csv) ext=2 ;; esac
        { printf "\\$(printf %03o "$ext")"; head -c 16384 "$f"; } >"$dir/$(echo "$f" | md5sum | cut -c1-12)"; done ;;
    serve_request) # the OpenAI SDK's requests and each trainer's reward call, as raw HTTP/1.1
      python3 - "$root" "$dir" <<'PY'
import json, pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def raw(method, path, headers, body):
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for k, v in headers.items():
        if k.lower() not in ("host", "content-length", "authorization"):
            head += f"{k}: {v}\r\n"
    if body is not None:
        head += f"Content-Length: {len(data)}\r\n"
    return head.encode() + b"\r\n" + data
reqs = []
for f in sorted((root / "tests/data/openai").glob("*.json")):
    r = json.loads(f.read_text())
    reqs.append(raw(r["method"], r["path"], r["headers"], r["body"]))
ct = {"Content-Type": "application/json"}
reqs += [raw("POST", "/reward", ct, {"query": ["P1株式会社みどり製作所<|im_end|>"], "prompts": ["P1"], "labels": ["c1"]}),
         raw("POST", "/reward/verl", ct, {"data_source": "mail", "solution_str": "（株）さくら運送", "ground_truth": "c2"}),
         raw("POST", "/reward/verl", ct, {"data_sources": ["mail", "mail"], "solution_strs": ["x", "y"],
                                          "ground_truths": ["c1", "c3"], "extra_infos": [{}, {"id": "c3"}]}),
         raw("POST", "/reward/trl", ct, {"prompts": ["Q"], "completions": ["株式会社あおぞら商会"], "id": ["c5"], "step": 3}),
         raw("POST", "/v1/embeddings", ct, {"model": "lexical", "input": ["Acme", "Globex"]}),
         raw("GET", "/v1/models", {}, None), raw("GET", "/health", {}, None)]
for i, r in enumerate(reqs):
    (out / f"request-{i:02d}").write_bytes(r)
# Two requests on one kept-alive connection.
(out / "pipelined").write_bytes(reqs[-1] + reqs[-2])
PY
      ;;
  esac
  [[ -d "$root/fuzz/seeds/$1" ]] && cp "$root/fuzz/seeds/$1"/* "$dir/"
  echo "$dir"
}
status=0
mkdir -p "$out/logs"
for h in "${harnesses[@]}"; do
  corpus=$(seed "$h")
  limit=(-max_total_time="$seconds")
  what="$seconds s"
  [[ -n "${RWB_FUZZ_RUNS:-}" ]] && { limit=(-runs="$RWB_FUZZ_RUNS"); what="$RWB_FUZZ_RUNS executions"; }
  jobs=()
  [[ "${RWB_FUZZ_JOBS:-1}" -gt 1 ]] && jobs=(-fork="$RWB_FUZZ_JOBS" -ignore_crashes=0)
  echo "fuzz: $h for $what (log: $out/logs/$h.log)"
  # The whole log is kept; shown are the final statistics and any finding.
  if ! (cd "$out/corpus" && ASAN_OPTIONS=detect_leaks=0 "$out/fuzz_$h" "${limit[@]}" "${jobs[@]}" -max_len=262144 \
          -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 -artifact_prefix="$corpus/" "$corpus" \
          >"$out/logs/$h.log" 2>&1); then
    status=1
  fi
  grep -E "^(stat::|#[0-9]+ +DONE|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$out/logs/$h.log" || true
done
exit $status
