#!/usr/bin/env bash
# session 26, call 1 (one H200): bench/longrow-probe.cu (the circuit matrix's dense rows
# alone: sell's warp chunks of 256, larger chunks, block chunks, cuSPARSE's CSR) at the
# circuit's shape and at hub shapes; and the circuit matrix's baseline (sell, cusparse).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1 &
for a in "" "1000000 40 20000" "1048576 400 9000" "1048576 4000 1000"; do
  $B/longrow-probe $a >>"$L" 2>&1
done
wait
for m in circuit-1000000 circuit-rows-1000000 rmat-20; do
  $B/spira-spmv /tmp/m/$m.mtx --formats sell,merge,csr-vector --reps 200 >/tmp/o/s.txt 2>&1
  echo "$m:" >>"$L"; grep -E '^(cusparse|sell|merge|csr-vector|format) |back to back' /tmp/o/s.txt >>"$L"
done
date -u >>"$L"; echo done >>"$L"
