#!/usr/bin/env bash
# session 23, call 2 (one H100): SURAA's tie order. "new" = the working tree of b31dc9e with
# rows of one length in row order (no first-column key: a one-key sort, always); "mid" =
# b31dc9e (spans, ties by first column); "old" = 716181a (the copied layout). SpMV and
# setup of suraa on the setup bench's matrices (scale 0.5), three rounds, libraries
# alternating; then a GPU timeline with host calls >= 10 us of new's conversion on the
# 2-D Laplacian and the kNN matrix (where setup is farthest from 5 multiplies).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) (new: with the tie experiment)"; date -u; } >"$L" 2>&1
mkdir -p /tmp/sb/examples && ln -sf $B/spira-spmv /tmp/sb/examples/spira-spmv
for round in 1 2 3; do
  for lib in new mid old; do
    lp=$LD_LIBRARY_PATH; [ $lib != new ] && lp=$R/.device-run/$lib/lib:$LD_LIBRARY_PATH
    (cd /tmp/sb && LD_LIBRARY_PATH=$lp PKT=0 EAGER=0 LAPLACIANS="2:1000 3:100" CONVERT_REPS=6 REPS=50 \
       FORMATS=suraa timeout 150 bash $R/bench/setup-bench.sh /tmp/sb/$lib$round 0.5 \
       >/tmp/sb/$lib$round.log 2>&1)
    echo "== $lib round $round: rc $?" >>"$L"
    grep -E "suraa" /tmp/sb/$lib$round/summary.txt >>"$L"
  done
done
tar czf $OUT/setup2.tgz -C /tmp/sb new1 mid1 old1 new2 mid2 old2 new3 mid3 old3 2>/dev/null
for m in "--laplacian 2:1000" /tmp/spira-irregular/knn-200000.mtx; do
  t=/tmp/o/trace-$(echo "${m##*/}" | tr ' :' '__').csv
  CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=$t GPU_TRACE_API=10 \
    $B/spira-spmv $m --formats suraa --reps 3 --warmup 1 --convert-reps 4 >>"$L" 2>&1
done
tar czf "$OUT/traces2.tgz" -C /tmp/o . 2>/dev/null
date -u >>"$L"; echo done >>"$L"
