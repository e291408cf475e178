#!/usr/bin/env bash
# session 19, call 9 (one GPU): the final GPU code (d1827b8's preload + merge's entries read
# evict-first): GPU suite, compute-sanitizer on merge, PageRank and the sorting formats, then
# merge with the new loads against d1827b8's library (old/lib) on four matrices, alternating.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1 &
gen=$!
cs() { compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 99 "${@:2}" >/tmp/cs.log 2>&1
  echo "$1 rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) | ${*:2}" | sed "s|$B/||; s|$R/||" >>"$L"
  cat /tmp/cs.log >>"$OUT/sanitize.log"; }
for tool in memcheck racecheck; do
  for p in d s; do
    cs $tool $B/spira-spmv $R/data/email-Eu-core.mtx --reps 2 --warmup 1 --formats merge,merge:items=3,sell,suraa,cmrs --precision $p
    cs $tool $B/spira-pagerank $R/data/email-Eu-core.mtx --top 2 --precision $p
  done
done
STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite9.txt"
wait $gen
for round in 1 2; do
  for lib in new old; do
    [ $lib = old ] && LP=$D/old/lib:$LD_LIBRARY_PATH || LP=$LD_LIBRARY_PATH
    for src in "--rmat 20:16" "--laplacian 3:150" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx; do
      for p in d s; do
        echo "round $round $lib $p $src $(LD_LIBRARY_PATH=$LP $B/spira-spmv $src --precision $p --formats merge --reps 100 2>&1 | grep -E '^merge ')" >>"$L"
      done
    done
  done
done
date -u >>"$L"; echo done >>"$L"
