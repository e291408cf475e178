#!/usr/bin/env bash
# session 21, call 6 (one H100), the library to be committed (sell's long rows apart in one
# launch, 2-8 warps a slice for the widest slice, auto's trial and cost row with sell): the
# whole GPU suite and gpu-verify's sanitizers (hazards inside cuSPARSE counted apart);
# compute-sanitizer on sell with long rows; every ../shared matrix and the generated ones
# with every cuSPARSE algorithm beside Spira's formats (double); sell's sigma on the circuit
# matrix and R-MAT.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
STAGES="suite sanitize" timeout 420 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run6.txt; T=$OUT/run6-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite6.txt" 2>/dev/null
tar czf "$OUT/cases6.tgz" -C /tmp/vout . 2>/dev/null
for tool in memcheck racecheck; do
  for m in dense-row arrow wiki-Vote; do
    compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $D/mat/$m.mtx \
      --reps 3 --warmup 1 --formats sell,auto >/tmp/cs.log 2>&1
    echo "$tool $m: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::')" >>"$L"
  done
done
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
CU=cusparse:alg=1,cusparse:alg=2,cusparse:alg=coo,cusparse:alg=coo2,cusparse:alg=sell
F=$CU,auto,csr-vector,merge,sell,coo,hyb,ell,suraa,cmrs
for m in $D/mat/*.mtx; do
  [ "$(basename $m)" = dense-row.mtx ] && continue
  $B/spira-spmv $m --formats $F --reps 200 >>"$T" 2>&1
done
for src in "--rmat 20:16" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx "--laplacian 3:150"; do
  $B/spira-spmv $src --formats $F,dia --reps 100 >>"$T" 2>&1
done
for src in /tmp/m/circuit-1000000.mtx "--rmat 20:16"; do
  $B/spira-spmv $src --formats sell:sigma=32,sell:sigma=1024,sell:sigma=8192,sell,cusparse --reps 100 >>"$OUT/run6-sigma.txt" 2>&1
done
date -u >>"$L"; echo done >>"$L"
