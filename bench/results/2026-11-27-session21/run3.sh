#!/usr/bin/env bash
# session 21, calls 3-5 (one H100): sell keeps long rows (call 3: over 16x the mean
# length, a kernel of their own; call 4: over 64 entries, in the slices' launch; call 5: the
# chunks' blocks first, 2-8 warps a slice also for the widest slice's sake) out of its
# slices, row after row, chunked by a warp with per-row tickets. GPU suite cases 'cuda',
# 'conversion on the GPU' and 'layouts converted on the GPU' (host vs device layouts, every
# shape); new against cce66d4's library (old) in alternating processes on the matrices
# whose rows are uneven; memcheck and racecheck on sell with long rows, double and single.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m /tmp/t/tests
. .device-run/env.sh
N=${N:-3}; L=$OUT/run$N.txt; S=$OUT/run$N-ab.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + sell's long rows"; date -u; } >"$L" 2>&1
cp $B/check_gpu /tmp/t/tests/
(cd /tmp/t && sh $R/tests/gpu-cases.sh /tmp/t/cases 200 "cuda" "conversion on the GPU" \
   "layouts converted on the GPU") >>"$L" 2>&1
tar czf "$OUT/cases$N.tgz" -C /tmp/t cases
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
for round in 1 2; do
  for lib in new old; do
    [ $lib = old ] && LP=$D/old/lib:$LD_LIBRARY_PATH || LP=$LD_LIBRARY_PATH
    for src in /tmp/m/circuit-1000000.mtx "--rmat 20:16" /tmp/m/knn-400000.mtx $D/mat/arrow.mtx $D/mat/adder_dcop_05.mtx $D/mat/wiki-Vote.mtx $D/mat/bcsstk16.mtx $D/mat/bcsstk13.mtx $D/mat/dense-row.mtx; do
      echo "== round $round $lib $src" >>"$S"
      LD_LIBRARY_PATH=$LP $B/spira-spmv $src --reps 200 --formats sell,cusparse,cusparse:alg=1,cusparse:alg=coo,merge,auto >>"$S" 2>&1
    done
  done
done
for tool in memcheck racecheck; do
  for p in d s; do
    for m in arrow adder_dcop_05; do
      compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 99 $B/spira-spmv $D/mat/$m.mtx \
        --precision $p --reps 3 --warmup 1 --formats sell >/tmp/cs.log 2>&1
      echo "$tool $m $p rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) $(grep -m1 'long rows' /tmp/cs.log)" >>"$L"
      cp /tmp/cs.log /tmp/t/cases/$tool-$m-$p.log
    done
  done
done
tar czf "$OUT/sanitize$N.tgz" -C /tmp/t/cases .
date -u >>"$L"; echo done >>"$L"
