# The steps every scripts/reproduce/NNN.sh takes, written once. Sourced after the script
# has changed into its workspace (the current directory, with logs/ in it).

# reproduce_begin: the clock the stages count from, and machine.txt, the CPU every figure
# of this workspace came from (the kind of vector unit decides libtorch's speed, and the
# two variables force the slow kind on a fast CPU).
reproduce_begin() {
  start=$(date +%s)
  local cpu isa
  cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
  isa=$(grep -ow 'avx512_bf16\|amx_bf16\|avx512f\|avx2' /proc/cpuinfo | sort -u | paste -sd, || true)
  echo "CPU: $cpu, $(nproc) cores ($isa; ATEN_CPU_CAPABILITY=${ATEN_CPU_CAPABILITY:-unset}, ONEDNN_MAX_CPU_ISA=${ONEDNN_MAX_CPU_ISA:-unset})" > machine.txt
}

# stage TEXT: a heading on stderr with the seconds since reproduce_begin.
stage() { printf '\n== [%4ds] %s\n' $(( $(date +%s) - start )) "$*" >&2; }

# queue FUNCTION NAME ARGS…: one job for run_jobs. FUNCTION must be exported (export -f),
# and so must the variables it reads; NAME names its log, logs/job_NAME.log.
queue() { echo "$*" >> jobs.txt; }

# run_jobs: the queued jobs, two at a time (two 2-thread jobs on 2 cores wait on each
# other, so each job should use one libtorch thread). Each runs in a shell of its own
# with -e, so that a failing step ends it (inside "f || handler" -e would not apply to
# f's commands); the first failure shows its log's tail and ends the script.
run_jobs() {
  [[ -s jobs.txt ]] || return 0
  local n status=0
  n=$(wc -l < jobs.txt)
  xargs -P 2 -d '\n' -I{} bash -c 'name=$(cut -d" " -f2 <<< "{}"); t=$(date +%s); bash -euo pipefail -c "{}" > "logs/job_$name.log" 2>&1 || { echo "job failed: {} (logs/job_$name.log):" >&2; tail -5 "logs/job_$name.log" >&2; exit 1; }; echo "   done in $(( $(date +%s) - t )) s: {}" >&2' < jobs.txt || status=$?
  rm -f jobs.txt
  (( status == 0 )) || exit "$status"
  echo "   ($n jobs)" >&2
}
