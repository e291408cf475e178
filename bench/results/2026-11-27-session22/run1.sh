#!/usr/bin/env bash
# session 22, call 1 (one H100): auto's staged choice and the ski-rental lone multiply
# (4771b02): the whole GPU suite and gpu-verify's sanitizers; spira-solve at defaults on
# the staged cases (reason, setup, iterations); the time-to-solution table at defaults
# against the single formats (no CuPy: its ratios were 5.1-156 in session 21).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
STAGES="suite sanitize" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite1.txt" 2>/dev/null
tar czf "$OUT/cases1.tgz" -C /tmp/vout . 2>/dev/null
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=3 BUDGET=200 CUPY=0 \
   FORMATS=dia,merge,coo,hyb,sell timeout 230 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run1-tts.md" 2>/dev/null
tail -30 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts1-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
for f in /tmp/spira-tts/circuit-1000000.mtx /tmp/spira-tts/knn-400000.mtx; do
  s=bicgstab; p=jacobi; case $f in *knn*) s=cg; p=none;; esac
  echo "== $f $s" >>"$L"; $B/spira-solve $f --solver $s --precond $p --backend cuda >>"$L" 2>&1
done
echo "== laplacian 3:150 cg" >>"$L"; $B/spira-solve --laplacian 3:150 --backend cuda >>"$L" 2>&1
date -u >>"$L"; echo done >>"$L"
