#!/usr/bin/env bash
# session 26, call 8 (one H200): bench/longrow-probe.cu with column tiles taken a warp a
# (row, range), R rows a block (tiles W/R), beside the warp chunks, at the circuit's dense
# rows and at hub shapes.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L=$OUT/run8.txt
{ nvidia-smi -L; date -u; } >"$L" 2>&1
for a in "" "1000000 40 20000" "1048576 400 9000"; do
  timeout 60 .device-run/bin/longrow-probe $a >>"$L" 2>&1
done
date -u >>"$L"; echo done >>"$L"
