#!/usr/bin/env bash
# session 22, call 3 (one H100): the library with spira__chunk_rows (a block's chunk of
# entries, rows found by searches among the chunk's: SURAA's permuted copy, CMRS's fill,
# the diagonal flags, COO's row expansion) against 7d4d029's ("old"): the whole GPU suite
# (the device-built layouts against the host's, byte for byte, a new sparse-rows shape
# among them) and gpu-verify's sanitizers; memcheck and racecheck on the four conversions;
# the conversions' times (first and median of four more) new and old on the generated
# matrices.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/m
STAGES="suite sanitize" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run3.txt; C=$OUT/run3-convert.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite3.txt" 2>/dev/null
# 20000 rows, a row in 50 with entries: chunks spanning more rows than a block stages
python3 - <<'PY'
import random
random.seed(5)
rows = [(i, j) for i in range(0, 20000, 50) for j in random.sample(range(20000), 1 + i % 9)]
with open("/tmp/m/sparse-rows.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n20000 20000 %d\n" % len(rows))
    for i, j in rows: f.write("%d %d %.3f\n" % (i + 1, j + 1, 1 + (i * 7 + j) % 13 / 10))
PY
for tool in memcheck racecheck; do
  for f in $R/data/orsirr_1.mtx $R/data/adder_dcop_05.mtx /tmp/m/sparse-rows.mtx; do
    compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $f --reps 2 --warmup 1 \
      --formats suraa,cmrs,coo,hyb,dia:max_fill=100000,auto >/tmp/cs.log 2>&1
    echo "$tool $(basename $f): rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::'); wrong: $(grep -c WRONG /tmp/cs.log)" >>"$L"
  done
done
python3 bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/dev/null 2>&1
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
for src in /tmp/m/circuit-1000000.mtx /tmp/m/knn-400000.mtx /tmp/m/rmat-20.mtx "--laplacian 3:150"; do
  for lib in new old new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    echo "== $lib $src" >>"$C"
    LD_LIBRARY_PATH=$lp $B/spira-spmv $src --formats suraa,cmrs,coo,hyb,dia,sell --reps 20 \
      --convert-reps 5 >>"$C" 2>&1
  done
done
grep -E "^== |^(suraa|cmrs|coo|hyb|dia|sell) |converted again" "$C" | awk '/^== /{h=$0; print; next} {print}' | cut -c1-110 >>"$L"
date -u >>"$L"; echo done >>"$L"
