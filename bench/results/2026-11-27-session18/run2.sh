#!/usr/bin/env bash
# session 18, call 2 (one GPU): PageRank's transition made on the GPU (spmv/transpose*.c*):
# compute-sanitizer on PageRank (the transpose's kernels and CUB's sort), the GPU suite
# (the device-made transpose against the host's in gpu_device_convert), gpu-verify's
# PageRank stage, the old library (35b834b, host transpose) against the new on R-MAT 2^20
# in alternating processes, then time to solution on R-MAT.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
for tool in memcheck racecheck; do
  for p in d s; do
    compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-pagerank \
      $R/data/email-Eu-core.mtx --top 3 --precision $p >/tmp/cs.log 2>&1
    echo "$tool pagerank email-Eu-core $p: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
    cat /tmp/cs.log >>"$OUT/sanitize.log"
  done
done
STAGES="suite pagerank" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite.txt"; cp /tmp/vout/pagerank.txt "$OUT/pagerank.txt"
cp -r /tmp/vout/cases /tmp/cases 2>/dev/null
pkill -f gen-irregular
M=/tmp/verify/m/rmat-20.mtx
echo "== R-MAT 2^20 at defaults, new (GPU transpose) and old (35b834b) libraries alternating" >>"$L"
for round in 1 2 3; do
  echo "-- new" >>"$L"; $B/spira-pagerank $M --top 0 --repeat 3 2>&1 | grep -E "format|time|repeated" >>"$L"
  echo "-- old" >>"$L"; LD_LIBRARY_PATH=$D/old/lib:$LD_LIBRARY_PATH $B/spira-pagerank $M --top 0 --repeat 3 2>&1 | grep -E "format|time|repeated" >>"$L"
done
mkdir -p /tmp/tts/examples /tmp/tts/bench /tmp/spira-tts
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
ln -sf $M /tmp/spira-tts/rmat-20.mtx
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) CUPY=0 RUNS=5 BUDGET=120 PROBLEMS=rmat FORMATS=cusparse,merge,hyb,coo \
   timeout 200 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
cp /tmp/o/tts/table.md "$OUT/tts.md" 2>/dev/null
tar czf "$OUT/raw.tgz" -C /tmp o/tts/raw cases 2>/dev/null
date -u >>"$L"; echo done >>"$L"
