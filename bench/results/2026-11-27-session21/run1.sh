#!/usr/bin/env bash
# session 21, call 1 (one H100): why a default kNN solve's setup is sometimes ~9 ms longer
# than sell's (session 20). Five rounds of spira-solve on the kNN Laplacian, default (auto
# -> sell) and --format sell, with and without the preload thread, alternating; then GPU
# timelines with the host's runtime calls over 50 us (bench/gpu-trace.c, GPU_TRACE_API).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m /tmp/tr
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >>"$L" 2>&1
K=/tmp/m/knn-400000.mtx
$B/spira-solve $K --maxit 10 >/dev/null 2>&1   # the GPU's first process
solve() { # $1 label, then spira-solve's extra options
  local label=$1; shift
  "$B/spira-solve" "$K" --solver cg --tol 1e-8 --maxit 10000 "$@" 2>&1 |
    grep -E "^  (format|time|result)|^              iter" | sed "s/^/$label: /" >>"$L"
}
for round in 1 2 3 4 5; do
  for pre in 1 0; do
    SPIRA_PRELOAD=$pre solve "round $round preload $pre auto"
    SPIRA_PRELOAD=$pre solve "round $round preload $pre sell" --format sell
  done
done
for i in 1 2 3 4; do
  GPU_TRACE=/tmp/tr/auto-pre1-$i.csv GPU_TRACE_API=50 CUDA_INJECTION64_PATH=$B/libgputrace.so \
    solve "trace auto-pre1-$i"
  GPU_TRACE=/tmp/tr/sell-pre1-$i.csv GPU_TRACE_API=50 CUDA_INJECTION64_PATH=$B/libgputrace.so \
    solve "trace sell-pre1-$i" --format sell
  SPIRA_PRELOAD=0 GPU_TRACE=/tmp/tr/auto-pre0-$i.csv GPU_TRACE_API=50 \
    CUDA_INJECTION64_PATH=$B/libgputrace.so solve "trace auto-pre0-$i"
done
tar czf "$OUT/traces.tgz" -C /tmp/tr .
date -u >>"$L"; echo done >>"$L"
