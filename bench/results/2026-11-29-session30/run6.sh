#!/usr/bin/env bash
# session 30, call 6 (one H200), ecfe1e9: where the default's CG on the kNN Laplacian spends
# its extra time against `--format sell` (call 5: solver setup 1.06-1.81 ms against
# 0.53-0.64, iterations 0.042 ms against 0.038): GPU timelines with the host's CUDA calls
# of 30 us or more (bench/gpu-trace.c), the default, sell, and the default with
# SPIRA_SPMV_GRAPHS=0, two processes each.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/tr
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems knn >/tmp/o/gen.txt 2>&1
for r in 1 2; do
  for v in default sell nographs; do
    args=""; envs=""
    [ $v = sell ] && args="--format sell"
    [ $v = nographs ] && envs="SPIRA_SPMV_GRAPHS=0"
    env $envs CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr/$v-$r.csv GPU_TRACE_API=30 \
      $B/spira-solve /tmp/m/knn-400000.mtx $args --solver cg --tol 1e-8 --maxit 10000 >/tmp/o/s.txt 2>&1
    echo "== $v $r: $(grep -E 'format  |SpMV format setup|its plans|result' /tmp/o/s.txt | tr -s ' ' | tr '\n' ' ' | cut -c1-900)" >>"$L"
  done
done
tar czf $OUT/run6-traces.tgz -C /tmp/tr .
date -u >>"$L"; echo done >>"$L"
