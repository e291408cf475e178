#!/usr/bin/env bash
# session 20, call 1 (one GPU): the GPU suite with the `cusparse` row's new algorithms
# (alg=1, coo, coo2, sell); every matrix of ../shared/matrices and the generated irregular
# ones timed with every cuSPARSE algorithm beside Spira's formats and auto (double); GPU
# timelines of small multiplies made alone (what spira-spmv's "SpMV ms" times: events
# around one call) to split the launch from the kernel.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m /tmp/o
L=$OUT/run1.txt; S=$OUT/run1-spmv.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + the cusparse row's algorithms"; date -u; } >"$L" 2>&1
STAGES="suite" timeout 300 bash bench/gpu-verify.sh $D /tmp/vout >>"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite1.txt" 2>/dev/null
CU=cusparse:alg=1,cusparse:alg=2,cusparse:alg=coo,cusparse:alg=coo2,cusparse:alg=sell
F=$CU,auto,csr-vector,merge,sell,coo,hyb,ell,lightspmv,suraa,cmrs
for m in $D/mat/*.mtx; do
  $B/spira-spmv $m --formats $F --reps 200 >>"$S" 2>&1
done
python3 bench/gen-irregular.py /tmp/m --problems knn,circuit --jobs 2 >/dev/null 2>&1
for src in "--rmat 20:16" /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx "--laplacian 3:150"; do
  $B/spira-spmv $src --formats $F --reps 100 >>"$S" 2>&1
done
tl() { # $1 label, rest: spira-spmv args; the last 40 GPU events with their gaps
  local lab=$1; shift
  echo "== $lab: spira-spmv $*" >>"$L"
  CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/o/$lab.csv $B/spira-spmv "$@" --reps 12 --warmup 2 2>&1 | grep -E "^(cusparse|csr-vector|merge|auto|sell|coo) " >>"$L"
  python3 - /tmp/o/$lab.csv >>"$L" 2>&1 <<'PY'
import sys, csv
rows = []
for r in csv.reader(open(sys.argv[1])):
    try: rows.append((int(r[0]), int(r[1]), r[4]))
    except (ValueError, IndexError): pass
rows.sort()
rows = rows[-40:]
t0 = rows[0][0]; prev = t0
for s, d, n in rows:
    print(f"{(s - t0) / 1e3:9.1f} us  dur {d / 1e3:7.2f} us  gap {(s - prev) / 1e3:7.2f} us  {n[:80]}")
    prev = max(prev, s + d)
PY
}
for m in adder_dcop_05 gr_30_30; do
  for f in csr-vector cusparse:alg=sell cusparse:alg=coo merge; do
    tl $m-${f//[:=]/-} $D/mat/$m.mtx --formats $f
  done
done
date -u >>"$L"; echo done >>"$L"
