#!/usr/bin/env bash
# session 20, call 6 (one H100): the GPU suite (check_gpu relinked: call 5's was the one
# built before sell's empty-slice fix); auto's choices with sell in its cost model; the
# time-to-solution of the kNN Laplacian at defaults (auto now takes sell) against the
# single formats and CuPy; racecheck's hazards named by kernel.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m /tmp/o
STAGES="suite" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run6.txt; T=$OUT/run6-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite6.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1
for src in /tmp/m/knn-400000.mtx $D/mat/wiki-Vote.mtx $D/mat/arrow.mtx $D/mat/adder_dcop_05.mtx $D/mat/bcsstk16.mtx; do
  $B/spira-spmv $src --formats auto,sell,csr-vector,merge,cusparse:alg=sell,cusparse:alg=coo --reps 200 >>"$T" 2>&1
done
compute-sanitizer --tool racecheck --report-api-errors no $B/spira-spmv $D/mat/email-Eu-core.mtx \
  --reps 3 --warmup 1 --formats merge,sell,cusparse:alg=coo,cusparse:alg=sell >/tmp/cs.log 2>&1
echo "racecheck email-Eu-core: $(grep -m1 'RACECHECK SUMMARY' /tmp/cs.log)" >>"$L"
grep -oE "access at [^ ]+" /tmp/cs.log | sed 's/+0x.*//' | sort | uniq -c | sort -rn | head -6 >>"$L"
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=150 PROBLEMS=knn \
   FORMATS=sell,merge,ell timeout 300 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run6-tts.md" 2>/dev/null
tail -12 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
