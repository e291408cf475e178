#!/usr/bin/env bash
# session 27, call 4 (one H200): (a) bench/launch-floor.cu (an empty kernel's launch alone,
# back to back and in a graph) beside auto on the small matrices, two rounds; (b) sell's
# long-row threshold SPIRA__SELL_LONG 128 and 256 (libraries built with it, "l128",
# "l256") against 64 (1b7009c, "new") on R-MAT, power-law, circuit and the shared matrices
# with long rows, alternating processes, three rounds; (c) the circuit problem's time to
# solution, nine processes a contender, with the raw logs (call 3: default 1.13x merge, the
# same plan).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
[ -f /tmp/m/rmat-20.mtx ] || python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/tmp/o/gen.txt 2>&1
[ -f /tmp/m/powerlaw-1000000.mtx ] || python3 $R/bench/gen-irregular.py /tmp/m >/tmp/o/gen2.txt 2>&1
for round in 1 2; do
  $B/launch-floor >>"$L" 2>&1
  for m in $R/data/*.mtx $R/data/*.mtx.gz $D/m/G51.mtx.gz $D/m/bcsstk13.mtx.gz; do
    $B/spira-spmv $m --formats auto --reps 300 >/tmp/o/s.txt 2>&1
    echo "round $round $(basename $m): $(grep -E '^(cusparse|auto) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'chose [a-z-]*' /tmp/o/s.txt | head -1)" >>"$L"
  done
done
for round in 1 2 3; do
  for lib in new l128 l256; do
    for m in /tmp/m/rmat-20.mtx /tmp/m/powerlaw-1000000.mtx /tmp/m/circuit-1000000.mtx $D/m/wiki-Vote.mtx.gz $D/m/p2p-Gnutella31.mtx.gz $D/m/arrow.mtx.gz $D/m/bayer10.mtx.gz $R/data/adder_dcop_05.mtx; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell --reps 200 >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o 'padding [0-9.]*\|[0-9]* long rows' /tmp/o/s.txt | tr '\n' ' ')" >>"$L"
    done
  done
done
mkdir -p /tmp/tts/examples
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
rm -rf /tmp/o/tts
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=9 BUDGET=150 CUPY=0 PROBLEMS=circuit \
   FORMATS=cusparse,merge,sell timeout 200 bash $R/bench/time-to-solution.sh /tmp/o/tts \
   > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run4-tts.md" 2>/dev/null
tar czf "$OUT/run4-tts-raw.tgz" -C /tmp/o/tts raw 2>/dev/null
tail -8 /tmp/o/tts-console.txt >>"$L"
date -u >>"$L"; echo done >>"$L"
