#!/usr/bin/env bash
# session 19, call 12 (one GPU): the trisolve case with its ISAI-BiCGSTAB bound at half the
# CPU's count (CG's stays a third), 12 seeds, and the whole GPU suite once.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/t/tests
L=$OUT/run12.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + the relaxed test"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/t/tests/
for i in $(seq 1 12); do
  seed=$((5000 + 104729 * i))
  (cd /tmp/t && SPIRA_TEST_SEED=$seed CK_RUN_CASE=trisolve-sweeps timeout 60 ./tests/check_gpu 2>&1 | grep -E "Checks|:F:|:E:" | sed "s/^/seed $seed: /") >>"$L"
done
STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite12.txt"
date -u >>"$L"; echo done >>"$L"
