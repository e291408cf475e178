#!/usr/bin/env bash
# session 23, call 7 (one H100): the library whose device arrays are carved from one
# allocation a layout (spmv/device.c; SPIRA_SANITIZE=1 for the sanitizer runs gives each
# array its own), with cmrs's borrowed values, against 716181a's ("old"): the whole GPU
# suite; gpu-verify's sanitize stage (memcheck and racecheck over the SpMV formats and the
# solves); the setup bench (scale 0.5, every format built on the GPU, warm conversions in
# multiplies), new and old, two rounds alternating.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
STAGES="suite sanitize" timeout 420 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite7.txt" 2>/dev/null
grep -E "^=+ (Error|Invalid)|ERROR SUMMARY|RACECHECK SUMMARY" /tmp/vout/sanitize.txt | sort | uniq -c | head -20 >>"$L"
mkdir -p /tmp/sb/examples && ln -sf $B/spira-spmv /tmp/sb/examples/spira-spmv
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
for round in 1 2; do
  for lib in new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    (cd /tmp/sb && LD_LIBRARY_PATH=$lp PKT=0 EAGER=0 LAPLACIANS="2:1000 3:100" CONVERT_REPS=6 \
       FORMATS=cusparse,coo,ell,dia,hyb,sell,cmrs,suraa timeout 150 bash $R/bench/setup-bench.sh \
       /tmp/sb/$lib$round 0.5 >/tmp/sb/$lib$round.log 2>&1)
    echo "== $lib round $round: rc $?" >>"$L"
    grep -vE "^setup in|^matrix" /tmp/sb/$lib$round/summary.txt >>"$L"
  done
done
tar czf $OUT/setup7.tgz -C /tmp/sb new1 old1 new2 old2 2>/dev/null
date -u >>"$L"; echo done >>"$L"
