#!/usr/bin/env bash
# session 25, call 2 (one H200): sell's long-row chunks with their bounds in one load and a
# whole chunk's loads issued at once, against the library of call 1 (b5d3fc8), alternating
# processes; the GPU suite's format cases; memcheck and racecheck on both long-row paths.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
python3 $R/bench/circuit-parts.py /tmp/s 200000 >/tmp/o/parts2.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn --jobs 2 >/tmp/o/gen.txt 2>&1 &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && sh $R/tests/gpu-cases.sh /tmp/v/cases 200 cuda "conversion on the GPU" \
   "layouts converted on the GPU") >>"$L" 2>&1
echo "suite cases: exit $?" >>"$L"
wait
cat /tmp/o/gen.txt >>"$L"


M="/tmp/m/circuit-1000000.mtx /tmp/m/circuit-rows-1000000.mtx /tmp/m/rmat-20.mtx /tmp/m/knn-400000.mtx"
for f in adder_dcop_05 wiki-Vote arrow; do
  for d in $R/data $D/m; do [ -f $d/$f.mtx ] && M="$M $d/$f.mtx" && break; done
done
echo "matrices: $M" >>"$L"
for round in 1 2 3; do
  for lib in old new; do
    for m in $M; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell --reps 200 \
        >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
    done
  done
done
for tool in memcheck racecheck; do
  for m in /tmp/s/circuit-200000.mtx $(echo $M | tr ' ' '\n' | grep -E 'arrow|adder'); do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $m \
      --formats sell,sell:sigma=32 --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
    echo "$tool $(basename $m): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt)" >>"$L"
    grep -E "^(sell)" /tmp/o/san.txt | cut -c1-140 >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
