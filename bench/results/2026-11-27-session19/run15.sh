#!/usr/bin/env bash
# session 19, call 15 (one GPU): the GPU suite on the final GPU code (the evict-first loads).
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L=$OUT/run15.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite15.txt"
date -u >>"$L"; echo done >>"$L"
