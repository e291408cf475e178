#!/usr/bin/env bash
# session 27, call 1 (one H200): (a) sell's sigma on the circuit, kNN, R-MAT and 3-D Poisson
# matrices (the default 65536 sorts rows across 64K-row windows, scattering the band's
# x gathers; padding on the circuit: 1.001 at 65536, 1.009 at 4096, 1.032 at 1024);
# (b) R-MAT 2^20 renumbered by decreasing out-, in- and total degree (bench/rmat-orders.py)
# against cuSPARSE's CSR on the graph as given. Three rounds each.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit,poisson3d-100 --jobs 4 >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/rmat-orders.py /tmp/m >/tmp/o/orders.txt 2>&1
wait
ls -la /tmp/m >>"$L"
row() { # $1 label: the rows' median ms alone and back to back
  echo "$1: $(grep -E '^(cusparse|sell|sell:sigma=[0-9]+|merge|coo|hyb) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
}
for round in 1 2 3; do
  for m in circuit-1000000 knn-400000 rmat-20 poisson3d-100; do
    $B/spira-spmv /tmp/m/$m.mtx --formats sell:sigma=256,sell:sigma=1024,sell:sigma=4096,sell:sigma=16384,sell --reps 200 >/tmp/o/s.txt 2>&1
    row "round $round sigma $m"
    [ $round = 1 ] && grep -E 'sigma [0-9]+,' /tmp/o/s.txt >>"$L"
  done
  for m in rmat-20 rmat-20-out rmat-20-in rmat-20-total; do
    $B/spira-spmv /tmp/m/$m.mtx --formats sell,merge,coo,hyb --reps 200 >/tmp/o/s.txt 2>&1
    row "round $round order $m"
  done
done
date -u >>"$L"; echo done >>"$L"
