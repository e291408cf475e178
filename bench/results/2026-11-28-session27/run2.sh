#!/usr/bin/env bash
# session 27, call 2 (one H200): sell's sigma 512, 1024, 2048 and the default 65536 on the
# time-to-solution suite's irregular matrices, gen-irregular.py's 10^6-row power-law and
# uniform pair, and the shared matrices of more than 30,000 entries (call 1: sigma 1024 3%
# faster on R-MAT, 1% on the circuit matrix, even on kNN). Three rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
[ -f /tmp/m/rmat-20.mtx ] || python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit,poisson3d-100 --jobs 4 >/tmp/o/gen.txt 2>&1
python3 $R/bench/gen-irregular.py /tmp/m >/tmp/o/gen2.txt 2>&1
ls /tmp/m >>"$L"
S="/tmp/m/circuit-1000000.mtx /tmp/m/knn-400000.mtx /tmp/m/rmat-20.mtx $(ls /tmp/m/*power* /tmp/m/*uniform* 2>/dev/null) $D/m/*.mtx.gz $R/data/email-Eu-core.mtx $R/data/mbeacxc.mtx.gz"
for round in 1 2 3; do
  for m in $S; do
    $B/spira-spmv $m --formats sell:sigma=512,sell:sigma=1024,sell:sigma=2048,sell --reps 200 >/tmp/o/s.txt 2>&1
    echo "round $round $(basename $m): $(grep -E '^(cusparse|sell|sell:sigma=[0-9]+) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
    [ $round = 1 ] && grep -E 'sigma [0-9]+,' /tmp/o/s.txt | cut -c1-120 >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
