#!/bin/sh
# gpu-cases.sh - the GPU suite (tests/check_gpu) one case at a time, each under its own
# time limit, for the GPU machine: check_gpu runs its tests unforked (CUDA does not survive
# a fork), so Check's timeouts do not apply and only an outer `timeout` stops a hang.
# Run from a built tree:  sh SRC/tests/gpu-cases.sh LOG_DIR SECONDS_PER_CASE [CASE ...]
# (no CASE: all of them). WRAP="compute-sanitizer --tool memcheck ..." runs each case
# under a tool. Prints a line per case (exit status, seconds, Check's summary, the last
# test started) and keeps each case's log in LOG_DIR.
out=${1:-.}; limit=${2:-300}
[ $# -ge 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- "cuda" "diagonal shift" "block Wiedemann" "conversion on the GPU" \
                       "layouts converted on the GPU" "GF(2) conversion on the GPU" \
                       "trisolve-sweeps" "CG's graph on the GPU" \
                       "reorder"
mkdir -p "$out"
rc=0
for c in "$@"; do
  log="$out/gpu-case-$(printf '%s' "$c" | tr -c 'A-Za-z0-9' '-').log"
  t0=$(date +%s)
  CK_RUN_CASE="$c" CK_VERBOSITY=verbose timeout "$limit" ${WRAP:-} ./tests/check_gpu >"$log" 2>&1
  s=$?
  t=$(( $(date +%s) - t0 ))
  last=$(grep '^\[check_gpu' "$log" | tail -1)
  summary=$(grep -E '^[0-9]+%: Checks' "$log" | tail -1)
  echo "case '$c': exit $s in ${t} s; ${summary:-no summary}; last started: ${last:-none}"
  grep -E ':[EF]:|ERROR SUMMARY' "$log" | head -10
  [ $s -eq 0 ] || rc=1
done
exit $rc
