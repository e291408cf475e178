#!/usr/bin/env bash
# session 24, call 3 (one H200): the whole GPU suite and gpu-verify's sanitizer stage at
# the library carried; then the kNN solve at defaults, background on and off, and with
# OMP_WAIT_POLICY=passive, alternating, to see when the build's thread begins (its note).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
( python3 $R/bench/gen-irregular.py /tmp/m --problems knn >/tmp/o/gen.txt 2>&1 ) &
STAGES="suite sanitize" timeout 380 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite3.txt" 2>/dev/null
grep -hE ':[EF]:' /tmp/vout/cases/*.log 2>/dev/null | head -10 >>"$L"
wait
for round in 1 2 3 4; do
  for v in on off passive; do
    case $v in on) e="SPIRA_BACKGROUND=1" ;; off) e="SPIRA_BACKGROUND=0" ;; passive) e="OMP_WAIT_POLICY=passive" ;; esac
    env $e $B/spira-solve /tmp/m/knn-400000.mtx --solver cg --tol 1e-8 >/tmp/o/k.txt 2>&1
    echo "$v $round: $(grep -oE 'at iteration [0-9]+|built beside[^)]*\), waited [0-9.]+|format setup [0-9.]+|solver setup [0-9.]+|iterations [0-9.]+ ms' /tmp/o/k.txt | tr '\n' ' ')" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
